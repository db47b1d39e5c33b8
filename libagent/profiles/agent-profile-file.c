/* agent-profile-file.c — profiles.ini, read and written
 *
 * One group per profile, "[Profile NAME]", in the list's order, with the
 * keys provider (required), base-url, model, temperature, top-p, top-k,
 * seed, context-window, search-provider and search-url; a group "[Profiles]" whose key default names the
 * default profile. Keys this version does not know are kept when the file
 * is written again, and so are comments (but those of groups when the
 * order changed). docs/profiles.md describes it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "profiles/agent-profile-private.h"

#define TOP_GROUP     "Profiles"
#define GROUP_PREFIX  "Profile "

static gboolean
bad_value (GError     **error,
           const char  *path,
           const char  *profile,
           const char  *key,
           const char  *value,
           const char  *wanted)
{
  /* Translators: the first is the file, the second the profile's name,
   * the third a key, the fourth its value, the last what it should be, such
   * as "a number from 0 to 1" */
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("%s: profile “%s”: %s is “%s”, not %s"), path, profile, key, value, wanted);
  return FALSE;
}

static gboolean
read_double (GKeyFile    *key_file,
             const char  *group,
             const char  *path,
             const char  *profile,
             const char  *key,
             double       max,
             const char  *wanted,
             gboolean    *found,
             double      *out,
             GError     **error)
{
  g_autofree char *value = g_key_file_get_value (key_file, group, key, NULL);
  char *end = NULL;

  *found = value != NULL;
  if (value == NULL)
    return TRUE;
  g_strstrip (value);
  errno = 0;
  *out = g_ascii_strtod (value, &end);
  if (*value == '\0' || *end != '\0' || errno != 0 || !isfinite (*out) || *out < 0 || *out > max)
    return bad_value (error, path, profile, key, value, wanted);
  return TRUE;
}

static gboolean
read_integer (GKeyFile    *key_file,
              const char  *group,
              const char  *path,
              const char  *profile,
              const char  *key,
              gint64       min,
              gint64       max,
              const char  *wanted,
              gboolean    *found,
              gint64      *out,
              GError     **error)
{
  g_autofree char *value = g_key_file_get_value (key_file, group, key, NULL);

  *found = value != NULL;
  if (value == NULL)
    return TRUE;
  g_strstrip (value);
  if (!g_ascii_string_to_signed (value, 10, min, max, out, NULL))
    return bad_value (error, path, profile, key, value, wanted);
  return TRUE;
}

/* An http or https URL, or NULL; its value is never shown (it may hold a
 * password) */
static gboolean
read_url (GKeyFile    *key_file,
          const char  *group,
          const char  *path,
          const char  *profile,
          const char  *key,
          char       **out,
          GError     **error)
{
  g_autofree char *value = g_key_file_get_string (key_file, group, key, NULL);
  g_autoptr(GUri) uri = NULL;

  *out = NULL;
  if (value == NULL || *g_strstrip (value) == '\0')
    return TRUE;
  uri = g_uri_parse (value, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL || (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
                      g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
    {
      /* Translators: the first is the file, the second the profile's name,
       * the last a key such as base-url */
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s: profile “%s”: %s is not an http or https URL"), path, profile, key);
      return FALSE;
    }
  *out = g_steal_pointer (&value);
  return TRUE;
}

/* search-provider, one of the search services libagent knows, and
 * search-url */
static gboolean
read_search (GKeyFile      *key_file,
             const char    *group,
             const char    *path,
             AgentProfile  *profile,
             GError       **error)
{
  const char *name = agent_profile_get_name (profile);
  const char * const *names = agent_search_backend_list_names ();
  g_autofree char *search_provider = NULL;
  g_autofree char *search_url = NULL;

  search_provider = g_key_file_get_string (key_file, group, "search-provider", NULL);
  if (search_provider != NULL && *g_strstrip (search_provider) != '\0' &&
      !g_strv_contains (names, search_provider))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) names);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s: profile “%s”: search-provider is “%s”, not one of %s"),
                   path, name, search_provider, known);
      return FALSE;
    }
  if (!read_url (key_file, group, path, name, "search-url", &search_url, error))
    return FALSE;

  agent_profile_set_search_provider (profile, search_provider);
  agent_profile_set_search_url (profile, search_url);
  return TRUE;
}

static AgentProfile *
read_profile (GKeyFile    *key_file,
              const char  *group,
              const char  *path,
              GError     **error)
{
  const char *name = group + strlen (GROUP_PREFIX);
  const char * const *names = agent_provider_list_names ();
  g_autoptr(AgentProfile) profile = NULL;
  g_autofree char *provider = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *model = NULL;
  AgentRequestSettings *settings;
  gboolean found;
  double number;
  gint64 integer;

  if (!_agent_profile_check_name (name, NULL))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s: “%s” is no profile name: it is empty or begins or ends with a space"),
                   path, name);
      return NULL;
    }

  provider = g_key_file_get_string (key_file, group, "provider", NULL);
  if (provider == NULL || *g_strstrip (provider) == '\0')
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s: profile “%s”: provider is missing"), path, name);
      return NULL;
    }
  if (!g_strv_contains (names, provider))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) names);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s: profile “%s”: provider is “%s”, not one of %s"),
                   path, name, provider, known);
      return NULL;
    }
  profile = agent_profile_new (name, provider);
  settings = agent_profile_get_settings (profile);

  if (!read_url (key_file, group, path, name, "base-url", &base_url, error))
    return NULL;
  agent_profile_set_base_url (profile, base_url);

  if (!read_search (key_file, group, path, profile, error))
    return NULL;

  model = g_key_file_get_string (key_file, group, "model", NULL);
  if (model != NULL)
    agent_profile_set_model (profile, g_strstrip (model));

  if (!read_double (key_file, group, path, name, "temperature", G_MAXDOUBLE,
                    _("a number from 0 up"), &found, &number, error))
    return NULL;
  if (found)
    agent_request_settings_set_temperature (settings, number);
  if (!read_double (key_file, group, path, name, "top-p", 1, _("a number from 0 to 1"),
                    &found, &number, error))
    return NULL;
  if (found)
    agent_request_settings_set_top_p (settings, number);
  if (!read_integer (key_file, group, path, name, "top-k", 1, G_MAXINT,
                     _("a whole number from 1 up"), &found, &integer, error))
    return NULL;
  if (found)
    agent_request_settings_set_top_k (settings, integer);
  if (!read_integer (key_file, group, path, name, "seed", G_MININT64, G_MAXINT64,
                     _("a whole number"), &found, &integer, error))
    return NULL;
  if (found)
    agent_request_settings_set_seed (settings, integer);
  if (!read_integer (key_file, group, path, name, "context-window", 0, G_MAXINT64,
                     _("a whole number of tokens"), &found, &integer, error))
    return NULL;
  if (found)
    agent_profile_set_context_window (profile, integer);

  return g_steal_pointer (&profile);
}

/* The profiles of @key_file in its order, and the default's name */
GPtrArray *
_agent_profile_file_read (GKeyFile    *key_file,
                          const char  *path,
                          char       **default_name,
                          GError     **error)
{
  g_autoptr(GPtrArray) profiles = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) groups = g_key_file_get_groups (key_file, NULL);
  g_autofree char *fallback = NULL;

  for (guint i = 0; groups[i] != NULL; i++)
    {
      AgentProfile *profile;

      if (!g_str_has_prefix (groups[i], GROUP_PREFIX))
        continue;
      profile = read_profile (key_file, groups[i], path, error);
      if (profile == NULL)
        return NULL;
      /* GKeyFile merges groups of the same name: no name comes twice */
      g_hash_table_add (seen, (gpointer) agent_profile_get_name (profile));
      g_ptr_array_add (profiles, profile);
    }

  fallback = g_key_file_get_string (key_file, TOP_GROUP, "default", NULL);
  if (fallback != NULL && *g_strstrip (fallback) != '\0' &&
      !g_hash_table_contains (seen, fallback))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s: [%s] default is “%s”, which is no profile of the file"),
                   path, TOP_GROUP, fallback);
      return NULL;
    }
  if (fallback != NULL && *fallback == '\0')
    g_clear_pointer (&fallback, g_free);

  *default_name = g_steal_pointer (&fallback);
  return g_steal_pointer (&profiles);
}

static void
set_or_remove (GKeyFile   *key_file,
               const char *group,
               const char *key,
               const char *value)
{
  if (value != NULL)
    g_key_file_set_string (key_file, group, key, value);
  else
    g_key_file_remove_key (key_file, group, key, NULL);
}

static void
write_double (GKeyFile             *key_file,
              const char           *group,
              AgentRequestSettings *settings,
              const char           *key,
              double                value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  set_or_remove (key_file, group, key,
                 agent_request_settings_is_set (settings, key)
                 ? g_ascii_dtostr (buffer, sizeof buffer, value) : NULL);
}

static void
write_integer (GKeyFile   *key_file,
               const char *group,
               const char *key,
               gboolean    set,
               gint64      value)
{
  g_autofree char *text = set ? g_strdup_printf ("%" G_GINT64_FORMAT, value) : NULL;

  set_or_remove (key_file, group, key, text);
}

static void
write_profile (GKeyFile     *key_file,
               AgentProfile *profile)
{
  g_autofree char *group = g_strconcat (GROUP_PREFIX, agent_profile_get_name (profile), NULL);
  AgentRequestSettings *settings = agent_profile_get_settings (profile);
  guint64 window = agent_profile_get_context_window (profile);

  g_key_file_set_string (key_file, group, "provider", agent_profile_get_provider (profile));
  set_or_remove (key_file, group, "base-url", agent_profile_get_base_url (profile));
  set_or_remove (key_file, group, "model", agent_profile_get_model (profile));
  set_or_remove (key_file, group, "search-provider", agent_profile_get_search_provider (profile));
  set_or_remove (key_file, group, "search-url", agent_profile_get_search_url (profile));
  write_double (key_file, group, settings, "temperature",
                agent_request_settings_get_temperature (settings));
  write_double (key_file, group, settings, "top-p", agent_request_settings_get_top_p (settings));
  write_integer (key_file, group, "top-k", agent_request_settings_is_set (settings, "top-k"),
                 agent_request_settings_get_top_k (settings));
  write_integer (key_file, group, "seed", agent_request_settings_is_set (settings, "seed"),
                 agent_request_settings_get_seed (settings));
  write_integer (key_file, group, "context-window", window > 0, (gint64) window);
}

static char *
group_of (GListModel *profiles,
          guint       position)
{
  g_autoptr(AgentProfile) profile = g_list_model_get_item (profiles, position);

  return g_strconcat (GROUP_PREFIX, agent_profile_get_name (profile), NULL);
}

/* Whether the profiles the file has come in the list's order, before
 * those it has not: then new groups go at the end, the rest in place */
static gboolean
same_order (GKeyFile   *key_file,
            GListModel *profiles)
{
  g_auto(GStrv) groups = g_key_file_get_groups (key_file, NULL);
  guint n = g_list_model_get_n_items (profiles);
  guint next = 0;
  gboolean new_seen = FALSE;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *group = group_of (profiles, i);

      if (!g_key_file_has_group (key_file, group))
        {
          new_seen = TRUE;
          continue;
        }
      if (new_seen)
        return FALSE;
      /* The next group of the file that is still a profile of the list */
      for (; groups[next] != NULL; next++)
        {
          gboolean listed = FALSE;

          if (!g_str_has_prefix (groups[next], GROUP_PREFIX))
            continue;
          for (guint j = 0; j < n && !listed; j++)
            {
              g_autofree char *other = group_of (profiles, j);

              listed = g_str_equal (other, groups[next]);
            }
          if (listed)
            break;
        }
      if (groups[next] == NULL || !g_str_equal (groups[next], group))
        return FALSE;
      next++;
    }
  return TRUE;
}

static void
copy_group (GKeyFile   *to,
            GKeyFile   *from,
            const char *group)
{
  g_auto(GStrv) keys = g_key_file_get_keys (from, group, NULL, NULL);

  for (guint k = 0; keys != NULL && keys[k] != NULL; k++)
    {
      g_autofree char *value = g_key_file_get_value (from, group, keys[k], NULL);

      g_key_file_set_value (to, group, keys[k], value);
    }
}

/* The key file to write: @key_file (what was read, whose comments and
 * unknown keys stay) with the profiles' keys in it. When the list's order
 * is no longer the file's (a profile renamed or moved), the file is made
 * again in the list's order, keeping the keys it does not know but not
 * the comments of its groups. */
GKeyFile *
_agent_profile_file_write (GKeyFile   *key_file,
                           GListModel *profiles,
                           const char *default_name)
{
  g_autoptr(GKeyFile) out = NULL;
  g_auto(GStrv) groups = g_key_file_get_groups (key_file, NULL);
  guint n = g_list_model_get_n_items (profiles);

  if (same_order (key_file, profiles))
    {
      out = g_key_file_ref (key_file);
      for (guint i = 0; groups[i] != NULL; i++)
        if (g_str_has_prefix (groups[i], GROUP_PREFIX))
          {
            gboolean listed = FALSE;

            for (guint j = 0; j < n && !listed; j++)
              {
                g_autofree char *group = group_of (profiles, j);

                listed = g_str_equal (group, groups[i]);
              }
            if (!listed)
              g_key_file_remove_group (out, groups[i], NULL);
          }
    }
  else
    {
      g_autofree char *top_comment = g_key_file_get_comment (key_file, NULL, NULL, NULL);

      out = g_key_file_new ();
      for (guint i = 0; groups[i] != NULL; i++)
        if (!g_str_has_prefix (groups[i], GROUP_PREFIX))
          copy_group (out, key_file, groups[i]);
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *group = group_of (profiles, i);

          copy_group (out, key_file, group);
        }
      if (top_comment != NULL && *top_comment != '\0' && groups[0] != NULL)
        g_key_file_set_comment (out, NULL, NULL, top_comment, NULL);
    }

  if (default_name != NULL || g_key_file_has_group (out, TOP_GROUP))
    set_or_remove (out, TOP_GROUP, "default", default_name);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentProfile) profile = g_list_model_get_item (profiles, i);

      write_profile (out, profile);
    }
  return g_steal_pointer (&out);
}
