/* agent-cli-profiles.c — --profile, --profiles, --save-profile
 *
 * The profiles are agent-chat's and agent-cli's: the key file of
 * agent_profile_list_get_default_path() ($AGENT_PROFILES, else
 * profiles.ini in libagent/ of the user's configuration folder). The
 * profile in effect is --profile NAME, else the one a continued
 * conversation remembers, else, for a new conversation given neither
 * --provider nor --base-url, $AGENT_PROFILE or the file's default. It
 * gives the provider, base URL, model, request settings and context
 * window that options do not (none when --provider names another API),
 * and the search service of --tool web_search when no --search-* option
 * is given; its API key comes from the keyring (found by provider and base
 * URL) or the provider's variable, as without a profile. --profiles lists
 * them, --save-profile NAME keeps --provider, --base-url, --model,
 * --search-provider and --search-url as a new one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-cli-profiles.h"
#include "agent-cli-web.h"

static char *opt_profile;
static gboolean opt_profiles;
static char *opt_save_profile;

static AgentProfileList *list;
static AgentProfile *chosen;

const GOptionEntry cli_profiles_entries[] = {
  { "profile", 0, 0, G_OPTION_ARG_STRING, &opt_profile,
    N_("Talk to the server of profile NAME (its provider, base URL, model and settings, unless "
       "given; default: $AGENT_PROFILE)"), N_("NAME") },
  { "profiles", 0, 0, G_OPTION_ARG_NONE, &opt_profiles,
    N_("List the profiles, and exit"), NULL },
  { "save-profile", 0, 0, G_OPTION_ARG_STRING, &opt_save_profile,
    N_("Keep --provider, --base-url, --model, --search-provider and --search-url as the profile "
       "NAME, and exit"), N_("NAME") },
  { NULL }
};

static gboolean
load (GError **error)
{
  if (list != NULL)
    return TRUE;
  list = agent_profile_list_new (NULL);
  if (agent_profile_list_load (list, error))
    return TRUE;
  g_clear_object (&list);
  return FALSE;
}

static void
add_member (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

/* Ends @builder's object and prints it, a line */
static void
print_line (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *line = NULL;

  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  line = json_to_string (root, FALSE);
  g_print ("%s\n", line);
}

/* --profiles: "* NAME  PROVIDER  BASE-URL  MODEL" lines ("*": the
 * default), where the file is on standard error; or JSON lines, the first
 * {"type":"profiles","path":…,"default":…}, then one
 * {"type":"profile","name":…,…} per profile */
static int
list_profiles (gboolean json)
{
  const char *default_name = agent_profile_list_get_default_name (list);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  if (json)
    {
      json_builder_begin_object (builder);
      add_member (builder, "type", "profiles");
      add_member (builder, "path", agent_profile_list_get_path (list));
      add_member (builder, "default", default_name);
      print_line (builder);
    }
  else if (n == 0)
    g_printerr (_("There are no profiles in %s\n"), agent_profile_list_get_path (list));
  else
    g_printerr (_("The profiles of %s (*: the default):\n"), agent_profile_list_get_path (list));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentProfile) profile = g_list_model_get_item (G_LIST_MODEL (list), i);
      const char *name = agent_profile_get_name (profile);
      const char *base_url = agent_profile_get_base_url (profile);
      const char *model = agent_profile_get_model (profile);
      gboolean is_default = g_strcmp0 (name, default_name) == 0;

      if (!json)
        {
          g_print ("%s%s\t%s\t%s\t%s\n", is_default ? "* " : "  ", name,
                   agent_profile_get_provider (profile), base_url ? base_url : "-",
                   model ? model : "-");
          continue;
        }

      json_builder_reset (builder);
      json_builder_begin_object (builder);
      add_member (builder, "type", "profile");
      add_member (builder, "name", name);
      add_member (builder, "provider", agent_profile_get_provider (profile));
      add_member (builder, "base-url", base_url);
      add_member (builder, "model", model);
      add_member (builder, "search-provider", agent_profile_get_search_provider (profile));
      add_member (builder, "search-url", agent_profile_get_search_url (profile));
      json_builder_set_member_name (builder, "default");
      json_builder_add_boolean_value (builder, is_default);
      print_line (builder);
    }
  return EXIT_SUCCESS;
}

/* --save-profile NAME: the provider (openai when not given), base URL,
 * model and search service (--search-provider, --search-url) of the
 * options, as a new profile at the end */
static int
save_profile (CliOutput               *output,
              const CliProfileOptions *options)
{
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentProfile) profile = NULL;
  g_autofree char *saved = NULL;
  const char *base_url = *options->base_url;
  const char *search_provider, *search_url;
  GError *error = NULL;

  /* What the file would refuse to read back is not written */
  if (base_url != NULL)
    {
      g_autoptr(GUri) uri = g_uri_parse (base_url, G_URI_FLAGS_NONE, NULL);

      if (uri == NULL || (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
                          g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
        return cli_output_fail (output,
                                g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                             _("--base-url: “%s” is not an http or https URL"),
                                             base_url));
    }

  if (!cli_web_get_search_options (&search_provider, &search_url, &error))
    return cli_output_fail (output, error);

  provider = agent_provider_new (*options->provider ? *options->provider : "openai", &error);
  if (provider == NULL)
    return cli_output_fail (output, error);
  profile = agent_profile_new (opt_save_profile, agent_provider_get_name (provider));
  agent_profile_set_base_url (profile, base_url);
  agent_profile_set_model (profile, *options->model);
  agent_profile_set_search_provider (profile, search_provider);
  agent_profile_set_search_url (profile, search_url);
  if (!agent_profile_list_add (list, profile, &error) || !agent_profile_list_save (list, &error))
    return cli_output_fail (output, error);

  saved = g_strdup_printf (_("The profile “%s” is kept in %s"), opt_save_profile,
                           agent_profile_list_get_path (list));
  cli_output_notice (output, saved);
  return EXIT_SUCCESS;
}

static void
fill (char       **option,
      const char  *value)
{
  if (*option == NULL && value != NULL)
    *option = g_strdup (value);
}

static void
take (AgentProfile            *profile,
      const CliProfileOptions *options)
{
  guint64 window = agent_profile_get_context_window (profile);

  /* A --provider of another API (by its name or an alias of it, such as
   * claude): the profile's server is not that one */
  if (*options->provider != NULL)
    {
      g_autoptr(AgentProvider) asked = agent_provider_new (*options->provider, NULL);

      if (asked == NULL ||
          !g_str_equal (agent_provider_get_name (asked), agent_profile_get_provider (profile)))
        return;
    }
  chosen = g_object_ref (profile);
  fill (options->provider, agent_profile_get_provider (profile));
  fill (options->base_url, agent_profile_get_base_url (profile));
  fill (options->model, agent_profile_get_model (profile));
  if (window > 0 && *options->context_window == NULL)
    *options->context_window = g_strdup_printf ("%" G_GUINT64_FORMAT, window);
}

/* Takes the profile @name. One asked for by name (@asked) that is not
 * there is an error naming the known ones; one a conversation remembers,
 * a notice. */
static gboolean
take_named (const char               *name,
            gboolean                  asked,
            const CliProfileOptions  *options,
            CliOutput                *output,
            GError                  **error)
{
  AgentProfile *profile = agent_profile_list_lookup (list, name);
  g_autoptr(GString) known = NULL;
  guint n;

  if (profile != NULL)
    {
      take (profile, options);
      return TRUE;
    }

  if (!asked)
    {
      g_autofree char *text = g_strdup_printf (_("The profile “%s” of this conversation is no "
                                                 "longer in %s"),
                                               name, agent_profile_list_get_path (list));

      cli_output_notice (output, text);
      return TRUE;
    }

  known = g_string_new (NULL);
  n = g_list_model_get_n_items (G_LIST_MODEL (list));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentProfile) other = g_list_model_get_item (G_LIST_MODEL (list), i);

      g_string_append_printf (known, "%s“%s”", i > 0 ? ", " : "", agent_profile_get_name (other));
    }
  if (n == 0)
    g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                 _("There is no profile “%s”: %s has none"),
                 name, agent_profile_list_get_path (list));
  else
    g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                 _("There is no profile “%s” (the profiles of %s: %s)"),
                 name, agent_profile_list_get_path (list), known->str);
  return FALSE;
}

/* Before anything: --profiles and --save-profile, which exit, and the
 * profile --profile names. Returns -1 to go on, or the exit status. */
int
cli_profiles_run (CliOutput               *output,
                  gboolean                 json,
                  const CliProfileOptions *options)
{
  GError *error = NULL;

  if (!opt_profiles && opt_save_profile == NULL && opt_profile == NULL)
    return -1;
  if (!load (&error))
    return cli_output_fail (output, error);
  if (opt_profiles)
    return list_profiles (json);
  if (opt_save_profile != NULL)
    return save_profile (output, options);
  if (!take_named (opt_profile, TRUE, options, output, &error))
    return cli_output_fail (output, error);
  return -1;
}

/**
 * cli_profiles_choose:
 * @remembered: (nullable): the name of the profile a continued
 *   conversation remembers
 * @new_conversation: whether the conversation is new (or not kept)
 * @options: what the profile fills in
 * @output: where a notice goes
 * @error: an unknown $AGENT_PROFILE, or a malformed file with it
 *
 * Takes the profile in effect when --profile did not: the one @remembered,
 * else, for a new conversation given neither --provider nor --base-url,
 * $AGENT_PROFILE or the file's default. Without $AGENT_PROFILE, a file
 * that cannot be read is a notice, and no profile is taken.
 */
gboolean
cli_profiles_choose (const char               *remembered,
                     gboolean                  new_conversation,
                     const CliProfileOptions  *options,
                     CliOutput                *output,
                     GError                  **error)
{
  const char *variable = g_getenv ("AGENT_PROFILE");
  gboolean asked = remembered == NULL && variable != NULL && *variable != '\0';
  g_autoptr(GError) local_error = NULL;

  if (chosen != NULL)
    return TRUE;
  if (remembered == NULL &&
      (!new_conversation || *options->provider != NULL || *options->base_url != NULL))
    return TRUE;
  /* A file that cannot be read stops only what asked for a profile */
  if (!load (&local_error))
    {
      if (asked)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      cli_output_notice (output, local_error->message);
      return TRUE;
    }

  if (remembered != NULL)
    return take_named (remembered, FALSE, options, output, error);
  if (asked)
    return take_named (variable, TRUE, options, output, error);
  if (agent_profile_list_get_default_name (list) != NULL)
    return take_named (agent_profile_list_get_default_name (list), TRUE, options, output, error);
  return TRUE;
}

/* The profile in effect, or NULL */
AgentProfile *
cli_profiles_get_chosen (void)
{
  return chosen;
}

void
cli_profiles_free (void)
{
  g_clear_object (&chosen);
  g_clear_object (&list);
}
