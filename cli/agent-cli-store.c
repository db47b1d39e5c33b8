/* agent-cli-store.c — agent-cli's stored conversations and keyring options
 *
 * Every conversation is kept in the store (the app's database by default)
 * unless --no-store: --continue adds to the newest one, --conversation ID
 * to another, and they go on with the provider, model, base URL and system
 * prompt they were held with unless options say otherwise. In a kept
 * conversation, --regenerate answers the last question again (a sibling
 * of the old answer, which stays), --branches lists where it branches and
 * --branch ID goes on from another branch; --export writes it out
 * (agent-cli-export.c) and --import reads one back. An API key
 * comes from the provider's variable, or, when that is not set at all, from
 * the keyring (--set-api-key saves one there).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <termios.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "agent-cli-export.h"
#include "agent-cli-store.h"

struct _CliStore
{
#if AGENT_HAS_STORE
  AgentStore        *store;
  AgentConversation *conversation;
#endif
  gboolean           told;   /* a failure of the store was printed */
};

static char *opt_store G_GNUC_UNUSED;
static gboolean opt_no_store G_GNUC_UNUSED;
static gboolean opt_continue G_GNUC_UNUSED;
static gint64 opt_conversation G_GNUC_UNUSED;
static gboolean opt_list_conversations G_GNUC_UNUSED;
static gboolean opt_regenerate G_GNUC_UNUSED;
static gboolean opt_branches G_GNUC_UNUSED;
static gint64 opt_branch G_GNUC_UNUSED = -1;
static char *opt_export G_GNUC_UNUSED;
static char *opt_import G_GNUC_UNUSED;
static gboolean opt_set_api_key G_GNUC_UNUSED;
static gboolean opt_forget_api_key G_GNUC_UNUSED;

const GOptionEntry cli_store_entries[] = {
  /* Accepted by every build, so that scripts that pass it work with one
   * built without the store too, where nothing is kept anyway */
  { "no-store", 0, 0, G_OPTION_ARG_NONE, &opt_no_store,
    N_("Do not keep this conversation"), NULL },
#if AGENT_HAS_STORE
  { "store", 0, 0, G_OPTION_ARG_FILENAME, &opt_store,
    N_("Keep conversations in FILE (default: the app's, under XDG_DATA_HOME)"), N_("FILE") },
  { "continue", 'c', 0, G_OPTION_ARG_NONE, &opt_continue,
    N_("Add to the most recent conversation"), NULL },
  { "conversation", 0, 0, G_OPTION_ARG_INT64, &opt_conversation,
    N_("Add to the conversation ID (see --list-conversations)"), N_("ID") },
  { "regenerate", 0, 0, G_OPTION_ARG_NONE, &opt_regenerate,
    N_("Answer the last message of the conversation again; the old answer stays, as a branch"),
    NULL },
  { "branches", 0, 0, G_OPTION_ARG_NONE, &opt_branches,
    N_("List where the conversation branches (regenerated answers, edited messages), and exit"),
    NULL },
  { "branch", 0, 0, G_OPTION_ARG_INT64, &opt_branch,
    N_("Go on from the branch of message ID of the conversation (see --branches)"), N_("ID") },
  { "list-conversations", 0, 0, G_OPTION_ARG_NONE, &opt_list_conversations,
    N_("List the kept conversations, newest first, and exit"), NULL },
  { "export", 0, 0, G_OPTION_ARG_STRING, &opt_export,
    N_("Write the conversation to standard output as markdown (the active branch) or json "
       "(every branch), and exit"), N_("FORMAT") },
  { "import", 0, 0, G_OPTION_ARG_FILENAME, &opt_import,
    N_("Add the conversation FILE (a JSON export, every branch) to the kept ones, and exit"),
    N_("FILE") },
#endif
#if AGENT_HAS_KEYRING
  { "set-api-key", 0, 0, G_OPTION_ARG_NONE, &opt_set_api_key,
    N_("Save the API key read from standard input in the keyring, for this provider and "
       "base URL, and exit"), NULL },
  { "forget-api-key", 0, 0, G_OPTION_ARG_NONE, &opt_forget_api_key,
    N_("Remove the API key of this provider and base URL from the keyring, and exit"), NULL },
#endif
  { NULL }
};

/* For the end of --help */
const char *
cli_store_description (void)
{
  static char *text;

  if (text == NULL)
    {
      GString *description = g_string_new (NULL);
#if AGENT_HAS_STORE
      g_autofree char *path = agent_store_dup_default_path ();

      g_string_append_printf (description,
                              _("\nEach conversation is kept in %s (or in --store FILE) unless "
                                "--no-store; --continue and --conversation go on with the "
                                "provider, model, base URL and system prompt it was held with, "
                                "unless given."),
                              path);
#endif
#if AGENT_HAS_KEYRING
      g_string_append (description,
                       _("\nWhen the provider's key variable is not set at all, the key is "
                         "looked up in the keyring (save one with: agent-cli --provider NAME "
                         "[--base-url URL] --set-api-key)."));
#endif
      text = g_string_free (description, FALSE);
    }
  return text;
}

#if AGENT_HAS_KEYRING || AGENT_HAS_STORE

static void
async_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Runs the default main context until *@result is set */
static void
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
}

#endif

#if AGENT_HAS_STORE

/* Ends a listing's array and event, and prints it with --json */
static void
end_list (JsonBuilder *builder,
          gboolean     json)
{
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  if (json)
    {
      g_autoptr(JsonNode) root = json_builder_get_root (builder);
      g_autofree char *line = json_to_string (root, FALSE);

      g_print ("%s\n", line);
    }
}

/* --list-conversations: "ID  DATE  PROVIDER/MODEL  TITLE" lines, or one
 * JSON line {"type":"conversations","conversations":[…]} */
static int
list_conversations (AgentStore *store,
                    gboolean    json)
{
  g_autoptr(GListModel) list = agent_store_list_conversations (store);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint n = g_list_model_get_n_items (list);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "conversations");
  json_builder_set_member_name (builder, "conversations");
  json_builder_begin_array (builder);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentConversation) conversation = g_list_model_get_item (list, i);
      GDateTime *updated = agent_conversation_get_updated (conversation);
      g_autoptr(GDateTime) local = g_date_time_to_local (updated);
      g_autofree char *date = g_date_time_format (local, "%Y-%m-%d %H:%M");
      g_autofree char *iso = g_date_time_format_iso8601 (updated);
      const char *title = agent_conversation_get_title (conversation);
      const char *provider = agent_conversation_get_provider (conversation);
      const char *model = agent_conversation_get_model (conversation);

      if (!json)
        {
          g_print ("%" G_GINT64_FORMAT "\t%s\t%s%s%s\t%s\n",
                   agent_conversation_get_id (conversation), date,
                   provider ? provider : "", model ? "/" : "", model ? model : "",
                   title ? title : _("(untitled)"));
          continue;
        }

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_int_value (builder, agent_conversation_get_id (conversation));
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, title);
      json_builder_set_member_name (builder, "updated");
      json_builder_add_string_value (builder, iso);
      json_builder_set_member_name (builder, "provider");
      json_builder_add_string_value (builder, provider);
      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, model);
      json_builder_end_object (builder);
    }

  end_list (builder, json);
  return EXIT_SUCCESS;
}

/* The role's nick: "user", "assistant"… */
static const char *
role_name (AgentMessageRole role)
{
  g_autoptr(GEnumClass) roles = g_type_class_ref (AGENT_TYPE_MESSAGE_ROLE);
  GEnumValue *value = g_enum_get_value (roles, role);

  return value ? value->value_nick : NULL;
}

/* The first words of @message, on one line */
static char *
first_words (AgentMessage *message)
{
  const char *content = agent_message_get_content (message);
  g_autofree char *line = NULL;

  if (content == NULL || *content == '\0')
    {
      if (agent_message_get_n_tool_calls (message) > 0)
        return g_strdup_printf (_("(calls %s)"), agent_tool_call_get_name (
                                  agent_message_get_tool_call (message, 0)));
      return g_strdup ("");
    }
  line = g_strdup (content);
  g_strdelimit (line, "\r\n\t", ' ');
  g_strstrip (line);
  if (g_utf8_strlen (line, -1) > 48)
    {
      g_autofree char *cut = g_utf8_substring (line, 0, 47);

      return g_strconcat (g_strchomp (cut), "…", NULL);
    }
  return g_steal_pointer (&line);
}

static void
list_fork (AgentConversation *conversation,
           gint64             after,
           const gint64      *ids,
           gsize              n_ids,
           GHashTable        *active,
           JsonBuilder       *forks,
           gboolean           json)
{
  if (!json)
    {
      AgentMessage *before = after < 0 ? NULL : agent_conversation_lookup_message (conversation,
                                                                                    after);
      g_autofree char *words = before ? first_words (before) : NULL;

      if (before == NULL)
        g_print (_("At the start:\n"));
      else
        g_print (_("After message %lld (%s):\n"), (long long) after, words);
    }
  else
    {
      json_builder_begin_object (forks);
      json_builder_set_member_name (forks, "after");
      if (after < 0)
        json_builder_add_null_value (forks);
      else
        json_builder_add_int_value (forks, after);
      json_builder_set_member_name (forks, "siblings");
      json_builder_begin_array (forks);
    }

  for (gsize i = 0; i < n_ids; i++)
    {
      AgentMessage *message = agent_conversation_lookup_message (conversation, ids[i]);
      GDateTime *created = agent_message_get_created (message);
      g_autoptr(GDateTime) local = created ? g_date_time_to_local (created) : NULL;
      g_autofree char *date = local ? g_date_time_format (local, "%Y-%m-%d %H:%M") : NULL;
      g_autofree char *iso = created ? g_date_time_format_iso8601 (created) : NULL;
      g_autofree char *words = first_words (message);
      gboolean on_path = g_hash_table_contains (active, &ids[i]);

      if (!json)
        {
          g_print ("%s %" G_GINT64_FORMAT "\t%" G_GSIZE_FORMAT " / %" G_GSIZE_FORMAT "\t%s\t%s\n",
                   on_path ? "*" : " ", ids[i], i + 1, n_ids, date ? date : "", words);
          continue;
        }
      json_builder_begin_object (forks);
      json_builder_set_member_name (forks, "id");
      json_builder_add_int_value (forks, ids[i]);
      json_builder_set_member_name (forks, "index");
      json_builder_add_int_value (forks, (gint64) i + 1);
      json_builder_set_member_name (forks, "of");
      json_builder_add_int_value (forks, (gint64) n_ids);
      json_builder_set_member_name (forks, "role");
      json_builder_add_string_value (forks, role_name (agent_message_get_role (message)));
      json_builder_set_member_name (forks, "created");
      json_builder_add_string_value (forks, iso);
      json_builder_set_member_name (forks, "text");
      json_builder_add_string_value (forks, words);
      json_builder_set_member_name (forks, "active");
      json_builder_add_boolean_value (forks, on_path);
      json_builder_end_object (forks);
    }

  if (json)
    {
      json_builder_end_array (forks);
      json_builder_end_object (forks);
    }
}

/* --branches: for each message followed by several (and the start, when
 * it has several first messages), its followers: "* ID  2 / 3  DATE  TEXT"
 * lines ("*": on the active branch), or one JSON line
 * {"type":"branches","conversation":ID,"forks":[{"after":ID,"siblings":[…]}]} */
static int
list_branches (AgentConversation *conversation,
               gboolean           json)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GHashTable) active = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (conversation));
  gint64 start = -1;
  guint n_forks = 0;

  for (guint i = 0; i < n; i++)
    g_hash_table_add (active, g_memdup2 (&(gint64) { agent_conversation_get_message_id (
                                           conversation, i) }, sizeof (gint64)));

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "branches");
  json_builder_set_member_name (builder, "conversation");
  json_builder_add_int_value (builder, agent_conversation_get_id (conversation));
  json_builder_set_member_name (builder, "forks");
  json_builder_begin_array (builder);

  /* Depth first, in the order messages came */
  g_array_append_val (stack, start);
  while (stack->len > 0)
    {
      gint64 id = g_array_index (stack, gint64, stack->len - 1);
      g_autofree gint64 *following = NULL;
      gsize n_following;

      g_array_set_size (stack, stack->len - 1);
      following = agent_conversation_dup_following (conversation, id, &n_following);
      if (n_following > 1)
        {
          list_fork (conversation, id, following, n_following, active, builder, json);
          n_forks++;
        }
      for (gsize i = n_following; i > 0; i--)
        g_array_append_val (stack, following[i - 1]);
    }

  end_list (builder, json);
  if (!json && n_forks == 0)
    g_print (_("Conversation %lld has one branch.\n"),
             (long long) agent_conversation_get_id (conversation));
  return EXIT_SUCCESS;
}

static const char *
setting (AgentConversation *conversation,
         const char        *name)
{
  JsonNode *settings = agent_conversation_get_settings (conversation);

  if (settings == NULL)
    return NULL;
  return json_object_get_string_member_with_default (json_node_get_object (settings), name, NULL);
}

static void
fill (char       **option,
      const char  *value)
{
  if (*option == NULL && value != NULL)
    *option = g_strdup (value);
}

#endif

/* Before the session: opens the store and picks the conversation; options
 * not given take the conversation's. Returns -1 to go on, or the exit
 * status (after --list-conversations, or an error). */
int
cli_store_prepare (CliStore  **out,
                   CliOutput  *output,
                   gboolean    json,
                   char      **provider,
                   char      **model,
                   char      **base_url,
                   char      **system)
{
#if AGENT_HAS_STORE
  g_autoptr(CliStore) self = g_new0 (CliStore, 1);
  g_autoptr(GError) error = NULL;
  gboolean wanted = opt_store || opt_continue || opt_conversation || opt_list_conversations ||
                    opt_import;

  *out = NULL;
  if (opt_set_api_key || opt_forget_api_key)
    return -1;

  if (opt_no_store)
    {
      if (!wanted)
        return -1;
      return cli_output_fail (output,
                              g_error_new_literal (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                                   _("--no-store cannot go with --store, "
                                                     "--continue, --conversation or "
                                                     "--list-conversations")));
    }

  if (opt_continue && opt_conversation)
    return cli_output_fail (output,
                            g_error_new_literal (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                                 _("--continue and --conversation cannot go "
                                                   "together")));

  if ((opt_regenerate || opt_branches || opt_branch >= 0) && !opt_continue && !opt_conversation)
    return cli_output_fail (output,
                            g_error_new_literal (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                                 _("--regenerate, --branches and --branch need a "
                                                   "kept conversation: --continue or "
                                                   "--conversation ID")));
  if (opt_export && !opt_continue && !opt_conversation)
    return cli_output_fail (output,
                            g_error_new_literal (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                                 _("--export needs a kept conversation: --continue "
                                                   "or --conversation ID")));

  if (!(self->store = agent_store_new (opt_store, &error)))
    {
      /* Without a word about the store, a chat still works without it */
      if (wanted)
        return cli_output_fail (output, g_steal_pointer (&error));
      cli_output_notice (output, error->message);
      cli_output_notice (output, _("This conversation is not kept."));
      return -1;
    }

  if (opt_list_conversations)
    return list_conversations (self->store, json);
  if (opt_import)
    return cli_import_conversation (self->store, opt_import, json, output);

  if (opt_conversation)
    {
      self->conversation = agent_store_lookup_conversation (self->store, opt_conversation);
      if (self->conversation == NULL)
        return cli_output_fail (output,
                                g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                             _("There is no conversation %lld in %s"),
                                             (long long) opt_conversation,
                                             agent_store_get_path (self->store)));
    }
  else if (opt_continue)
    {
      g_autoptr(GListModel) list = agent_store_list_conversations (self->store);

      self->conversation = g_list_model_get_item (list, 0);
    }

  if (self->conversation == NULL && (opt_regenerate || opt_branches || opt_branch >= 0 ||
                                     opt_export))
    return cli_output_fail (output,
                            g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                         _("There is no conversation in %s"),
                                         agent_store_get_path (self->store)));

  if (self->conversation == NULL)
    self->conversation = agent_store_create_conversation (self->store);
  else if (!agent_conversation_load (self->conversation, &error))
    return cli_output_fail (output, g_steal_pointer (&error));
  else
    {
      fill (provider, agent_conversation_get_provider (self->conversation));
      fill (model, agent_conversation_get_model (self->conversation));
      fill (base_url, setting (self->conversation, "base-url"));
      fill (system, setting (self->conversation, "system-prompt"));
    }

  if (opt_branches)
    return list_branches (self->conversation, json);
  if (opt_export)
    return cli_export_conversation (self->conversation, opt_export, output);
  if (opt_branch >= 0 && !agent_conversation_select_message (self->conversation, opt_branch,
                                                             &error))
    return cli_output_fail (output, g_steal_pointer (&error));

  *out = g_steal_pointer (&self);
#else
  *out = NULL;
#endif
  return -1;
}

#if AGENT_HAS_KEYRING

/* One line from standard input, without echo on a terminal */
static char *
read_secret (const char *prompt)
{
  struct termios saved, quiet;
  gboolean terminal = isatty (STDIN_FILENO) && tcgetattr (STDIN_FILENO, &saved) == 0;
  char line[4096];
  char *read;

  if (terminal)
    {
      fputs (prompt, stderr);
      fflush (stderr);
      quiet = saved;
      quiet.c_lflag &= ~ECHO;
      tcsetattr (STDIN_FILENO, TCSAFLUSH, &quiet);
    }
  read = fgets (line, sizeof line, stdin);
  if (terminal)
    {
      tcsetattr (STDIN_FILENO, TCSAFLUSH, &saved);
      fputc ('\n', stderr);
    }
  if (read == NULL)
    return NULL;
  return g_strstrip (g_strdup (line));
}

/* --set-api-key and --forget-api-key */
static int
keyring_action (AgentProvider *provider,
                CliOutput     *output)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *name = agent_provider_get_name (provider);
  const char *base_url = agent_provider_get_base_url (provider);

  if (opt_set_api_key)
    {
      /* Without a password the base URL may hold */
      g_autoptr(GUri) uri = g_uri_parse (base_url, G_URI_FLAGS_ENCODED, NULL);
      g_autofree char *shown = uri != NULL ? g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO)
                                           : g_strdup (base_url);
      g_autofree char *prompt = g_strdup_printf (_("API key for %s at %s: "), name, shown);
      g_autofree char *key = read_secret (prompt);

      if (key == NULL || *key == '\0')
        {
          g_set_error_literal (&error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("No API key was given on standard input"));
          cli_output_error (output, error);
          return EXIT_FAILURE;
        }
      agent_secret_store_api_key_async (name, base_url, key, NULL, async_done_cb, &result);
      wait_for (&result);
      if (!agent_secret_store_api_key_finish (result, &error))
        {
          cli_output_error (output, error);
          return EXIT_FAILURE;
        }
      cli_output_notice (output, _("The API key is saved in the keyring."));
      return EXIT_SUCCESS;
    }

  agent_secret_clear_api_key_async (name, base_url, NULL, async_done_cb, &result);
  wait_for (&result);
  if (!agent_secret_clear_api_key_finish (result, &error) && error != NULL)
    {
      cli_output_error (output, error);
      return EXIT_FAILURE;
    }
  cli_output_notice (output, _("The keyring holds no API key for this provider and base URL."));
  return EXIT_SUCCESS;
}

/* The key from the keyring, when the provider's variable is not set */
static void
lookup_api_key (AgentProvider *provider)
{
  const char *variable = agent_provider_get_api_key_variable (provider);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;

  if (variable == NULL || g_getenv (variable) != NULL)
    return;

  agent_secret_lookup_api_key_async (agent_provider_get_name (provider),
                                     agent_provider_get_base_url (provider),
                                     NULL, async_done_cb, &result);
  wait_for (&result);
  key = agent_secret_lookup_api_key_finish (result, &error);
  if (error != NULL)
    g_debug ("No key from the keyring: %s", error->message);
  if (key != NULL)
    agent_provider_set_api_key (provider, key);
}

#endif

/* With the session: the keyring options, the key from the keyring, and
 * the conversation as the session's memory. Returns -1 to go on, or the
 * exit status. */
int
cli_store_attach (CliStore     *self,
                  AgentSession *session,
                  CliOutput    *output)
{
#if AGENT_HAS_KEYRING
  if (opt_set_api_key || opt_forget_api_key)
    return keyring_action (agent_session_get_provider (session), output);
  lookup_api_key (agent_session_get_provider (session));
#endif

#if AGENT_HAS_STORE
  if (self != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!agent_conversation_record_session (self->conversation, session, &error))
        return cli_output_fail (output, g_steal_pointer (&error));
      agent_session_set_memory (session, AGENT_MEMORY (self->conversation));
    }
#endif
  return -1;
}

/* Before a turn: the conversation is ours, with what other programs wrote
 * before. FALSE with *@busy set while another program adds to it (try
 * again), FALSE with @error when the store failed. */
gboolean
cli_store_claim (CliStore  *self,
                 gboolean  *busy,
                 GError   **error)
{
  *busy = FALSE;
#if AGENT_HAS_STORE
  if (self != NULL)
    {
      g_autoptr(GError) claim_error = NULL;

      if (agent_conversation_claim (self->conversation, &claim_error))
        return TRUE;
      *busy = g_error_matches (claim_error, AGENT_ERROR, AGENT_ERROR_BUSY);
      g_propagate_error (error, g_steal_pointer (&claim_error));
      return FALSE;
    }
#endif
  return TRUE;
}

/* --regenerate, with no prompt */
gboolean
cli_store_regenerate_wanted (void)
{
  return opt_regenerate;
}

/* For --regenerate, once the conversation is ours: a branch where the
 * answer to its last message of the user's began (after it, when it has
 * none), for the session to continue from */
gboolean
cli_store_branch_for_regenerate (CliStore  *self,
                                 GError   **error)
{
#if AGENT_HAS_STORE
  GListModel *messages = G_LIST_MODEL (self->conversation);

  for (guint i = g_list_model_get_n_items (messages); i > 0; i--)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (messages, i - 1);

      if (agent_message_get_role (message) == AGENT_MESSAGE_ROLE_USER)
        return agent_memory_branch (AGENT_MEMORY (self->conversation), i, error);
    }
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("Conversation %lld has no message of yours to answer again"),
               (long long) agent_conversation_get_id (self->conversation));
#endif
  return FALSE;
}

#if AGENT_HAS_STORE
static void
conversation_flushed_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (agent_conversation_flush_finish (AGENT_CONVERSATION (object), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}
#endif

/* After a turn that answered: until the conversation's messages are on the
 * disk (the store's writer thread commits them after the turn ended), on
 * the main loop, so that signals are still heard. Without a store, at
 * once. */
void
cli_store_sync_async (CliStore            *self,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, NULL, callback, user_data);

  g_task_set_source_tag (task, cli_store_sync_async);
#if AGENT_HAS_STORE
  if (self != NULL)
    {
      agent_conversation_flush_async (self->conversation, NULL, conversation_flushed_cb,
                                      g_steal_pointer (&task));
      return;
    }
#endif
  g_task_return_boolean (task, TRUE);
}

/* FALSE with the failure (a full disk…) when the answer is not kept */
gboolean
cli_store_sync_finish (CliStore      *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == cli_store_sync_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* @error was printed: a failure of the store among them is not printed
 * again when leaving */
void
cli_store_told (CliStore     *self,
                const GError *error)
{
  if (self != NULL && g_error_matches (error, AGENT_ERROR, AGENT_ERROR_STORAGE))
    self->told = TRUE;
}

/* Before leaving: waits until the conversation's messages are on the
 * disk (they are committed on the store's writer thread). Returns
 * @status, or EXIT_FAILURE when a write failed (printed unless it was
 * already). */
int
cli_store_flush (CliStore  *self,
                 CliOutput *output,
                 int        status)
{
#if AGENT_HAS_STORE
  if (self != NULL)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;

      agent_store_flush_async (self->store, NULL, async_done_cb, &result);
      wait_for (&result);
      if (!agent_store_flush_finish (self->store, result, &error))
        {
          /* The same failure, which the turn reported: once is enough */
          if (!self->told)
            cli_output_error (output, error);
          self->told = TRUE;
          if (status == EXIT_SUCCESS)
            return EXIT_FAILURE;
        }
    }
#endif
  return status;
}

/* After a turn, however it ended */
void
cli_store_release (CliStore *self)
{
#if AGENT_HAS_STORE
  if (self != NULL)
    agent_conversation_release (self->conversation);
#endif
}

void
cli_store_free (CliStore *self)
{
  if (self == NULL)
    return;
#if AGENT_HAS_STORE
  /* On every way out: what was queued (the session recorded, …) goes in */
  if (self->store != NULL)
    {
      g_autoptr(GAsyncResult) result = NULL;

      agent_store_flush_async (self->store, NULL, async_done_cb, &result);
      wait_for (&result);
    }
  g_clear_object (&self->conversation);
  g_clear_object (&self->store);
#endif
  g_free (self);
}
