/* agent-desktop-apps.c — what the user decided for each application, and
 * what each asked
 *
 * apps.ini, a key file: a group "App ESCAPED-ID" per application (its id
 * escaped as in a URI: an executable's path may hold anything) with the
 * keys id, name, allowed (absent while the user was not asked), daily-limit,
 * day and tokens-today (the tokens used on that local day). Written at
 * once, atomically, mode 0600. A file that cannot be read is renamed to
 * apps.ini.broken, and the service starts without it.
 *
 * log.jsonl: one JSON object a line, appended, {"time", "app", "profile",
 * "tokens"}; a line that cannot be read is skipped. It keeps the last
 * LOG_DAYS days: the older lines (and those that cannot be read) are pruned
 * when the service starts and at each local midnight after.
 *
 * ::changed says that what agent_desktop_apps_list() or
 * agent_desktop_apps_list_log() return may have changed: an answer, a
 * limit, a request counted, the log pruned, a new day (whose counts start
 * at 0).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "agent-desktop-apps.h"
#include "agent-desktop-error.h"

/* The days of requests log.jsonl keeps */
#define LOG_DAYS 90

struct _AgentDesktopApps
{
  GObject   parent_instance;

  char     *dir;
  char     *path;
  char     *log_path;
  GKeyFile *keyfile;
  guint     new_day_id;   /* the timeout of the next local midnight */
};

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (AgentDesktopApps, agent_desktop_apps, G_TYPE_OBJECT)

static void
agent_desktop_apps_dispose (GObject *object)
{
  AgentDesktopApps *self = AGENT_DESKTOP_APPS (object);

  g_clear_handle_id (&self->new_day_id, g_source_remove);

  G_OBJECT_CLASS (agent_desktop_apps_parent_class)->dispose (object);
}

static void
agent_desktop_apps_finalize (GObject *object)
{
  AgentDesktopApps *self = AGENT_DESKTOP_APPS (object);

  g_free (self->dir);
  g_free (self->path);
  g_free (self->log_path);
  g_key_file_unref (self->keyfile);

  G_OBJECT_CLASS (agent_desktop_apps_parent_class)->finalize (object);
}

static void
agent_desktop_apps_class_init (AgentDesktopAppsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_desktop_apps_dispose;
  object_class->finalize = agent_desktop_apps_finalize;

  /* Changed: what the lists of apps and of the log return may differ now */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
agent_desktop_apps_init (AgentDesktopApps *self)
{
  self->keyfile = g_key_file_new ();
}

AgentDesktopApps *
agent_desktop_apps_new (const char *dir)
{
  AgentDesktopApps *self = g_object_new (AGENT_DESKTOP_TYPE_APPS, NULL);

  self->dir = g_strdup (dir);
  self->path = g_build_filename (dir, "apps.ini", NULL);
  self->log_path = g_build_filename (dir, "log.jsonl", NULL);
  return self;
}

static void
changed (AgentDesktopApps *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

/* The seconds until just after the next local midnight */
static guint
seconds_to_tomorrow (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autoptr(GDateTime) midnight = g_date_time_new_local (g_date_time_get_year (now),
                                                         g_date_time_get_month (now),
                                                         g_date_time_get_day_of_month (now),
                                                         0, 0, 0);
  g_autoptr(GDateTime) tomorrow = g_date_time_add_days (midnight, 1);
  GTimeSpan span = g_date_time_difference (tomorrow, now);

  /* (A timeout in seconds may come a second early) */
  return (guint) CLAMP (span / G_USEC_PER_SEC + 2, 1, 25 * 60 * 60);
}

static void schedule_new_day (AgentDesktopApps *self);

/* A new day: the counts of the day start again, and the log loses a day */
static gboolean
on_new_day (gpointer user_data)
{
  AgentDesktopApps *self = user_data;
  g_autoptr(GError) error = NULL;

  self->new_day_id = 0;
  if (!agent_desktop_apps_prune_log (self, &error))
    g_warning ("%s", error->message);
  changed (self);
  schedule_new_day (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_new_day (AgentDesktopApps *self)
{
  self->new_day_id = g_timeout_add_seconds (seconds_to_tomorrow (), on_new_day, self);
}

/* Reads apps.ini and prunes the log, then again each day */
gboolean
agent_desktop_apps_load (AgentDesktopApps  *self,
                         GError           **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GError) prune_error = NULL;
  g_autofree char *aside = NULL;

  if (!agent_desktop_apps_prune_log (self, &prune_error))
    g_warning ("%s", prune_error->message);   /* the lines stay until it can be written */
  if (self->new_day_id == 0)
    schedule_new_day (self);

  if (g_key_file_load_from_file (self->keyfile, self->path, G_KEY_FILE_KEEP_COMMENTS,
                                 &local_error)
      || g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return TRUE;

  /* A file that cannot be read is kept aside, not overwritten: the apps
   * are asked again meanwhile */
  aside = g_strconcat (self->path, ".broken", NULL);
  if (g_rename (self->path, aside) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_FAILED,
                   "%s: %s; %s", self->path, local_error->message, g_strerror (saved_errno));
      return FALSE;
    }
  g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_FAILED,
               "%s: %s (kept as %s)", self->path, local_error->message, aside);
  return FALSE;
}

static char *
group_of (const char *app_id)
{
  g_autofree char *escaped = g_uri_escape_string (app_id, "/.-_+", FALSE);

  return g_strconcat ("App ", escaped, NULL);
}

static gboolean
save (AgentDesktopApps  *self,
      GError           **error)
{
  g_autofree char *data = NULL;
  gsize length;

  if (g_mkdir_with_parents (self->dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_FAILED,
                   "%s: %s", self->dir, g_strerror (saved_errno));
      return FALSE;
    }
  data = g_key_file_to_data (self->keyfile, &length, NULL);
  return g_file_set_contents_full (self->path, data, length,
                                   G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}

AgentDesktopConsent
agent_desktop_apps_get_consent (AgentDesktopApps *self,
                                const char       *app_id)
{
  g_autofree char *group = group_of (app_id);
  g_autoptr(GError) error = NULL;
  gboolean allowed;

  allowed = g_key_file_get_boolean (self->keyfile, group, "allowed", &error);
  if (error != NULL)
    return AGENT_DESKTOP_CONSENT_UNKNOWN;
  return allowed ? AGENT_DESKTOP_CONSENT_ALLOWED : AGENT_DESKTOP_CONSENT_DENIED;
}

static void
set_identity (AgentDesktopApps *self,
              const char       *group,
              const char       *app_id,
              const char       *app_name)
{
  g_key_file_set_string (self->keyfile, group, "id", app_id);
  if (app_name != NULL)
    g_key_file_set_string (self->keyfile, group, "name", app_name);
}

gboolean
agent_desktop_apps_set_consent (AgentDesktopApps  *self,
                                const char        *app_id,
                                const char        *app_name,
                                gboolean           allowed,
                                GError           **error)
{
  g_autofree char *group = group_of (app_id);

  set_identity (self, group, app_id, app_name);
  g_key_file_set_boolean (self->keyfile, group, "allowed", allowed);
  changed (self);
  return save (self, error);
}

/* The answer goes; the limit and the day's count stay (a revoked app that
 * is allowed again has not earned new tokens). */
gboolean
agent_desktop_apps_revoke (AgentDesktopApps  *self,
                           const char        *app_id,
                           GError           **error)
{
  g_autofree char *group = group_of (app_id);

  if (!g_key_file_has_group (self->keyfile, group))
    {
      g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                   _("No application “%s” has asked to use the assistant"), app_id);
      return FALSE;
    }
  g_key_file_remove_key (self->keyfile, group, "allowed", NULL);
  changed (self);
  return save (self, error);
}

gboolean
agent_desktop_apps_set_daily_limit (AgentDesktopApps  *self,
                                    const char        *app_id,
                                    guint64            tokens,
                                    GError           **error)
{
  g_autofree char *group = group_of (app_id);

  set_identity (self, group, app_id, NULL);
  g_key_file_set_uint64 (self->keyfile, group, "daily-limit", tokens);
  changed (self);
  return save (self, error);
}

static char *
dup_today (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  return g_date_time_format (now, "%Y-%m-%d");
}

static guint64
get_tokens_today (AgentDesktopApps *self,
                  const char       *group)
{
  g_autofree char *today = dup_today ();
  g_autofree char *day = g_key_file_get_string (self->keyfile, group, "day", NULL);

  if (g_strcmp0 (day, today) != 0)
    return 0;
  return g_key_file_get_uint64 (self->keyfile, group, "tokens-today", NULL);
}

gboolean
agent_desktop_apps_check_limit (AgentDesktopApps  *self,
                                const char        *app_id,
                                GError           **error)
{
  g_autofree char *group = group_of (app_id);
  guint64 limit = g_key_file_get_uint64 (self->keyfile, group, "daily-limit", NULL);
  guint64 used = get_tokens_today (self, group);

  if (limit > 0 && used >= limit)
    {
      g_autofree char *tokens = g_strdup_printf ("%" G_GUINT64_FORMAT, limit);

      g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_LIMIT_REACHED,
                   _("“%s” has used the %s tokens it may use a day"), app_id, tokens);
      return FALSE;
    }
  return TRUE;
}

static gboolean
append_log (AgentDesktopApps  *self,
            const char        *app_id,
            const char        *profile,
            guint64            tokens,
            GError           **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *line = NULL;
  g_autofree char *text = NULL;
  gsize length;
  int fd;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "time");
  json_builder_add_int_value (builder, g_get_real_time () / G_USEC_PER_SEC);
  json_builder_set_member_name (builder, "app");
  json_builder_add_string_value (builder, app_id);
  json_builder_set_member_name (builder, "profile");
  json_builder_add_string_value (builder, profile);
  json_builder_set_member_name (builder, "tokens");
  json_builder_add_int_value (builder, (gint64) MIN (tokens, (guint64) G_MAXINT64));
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  line = g_strconcat (text, "\n", NULL);
  length = strlen (line);

  fd = g_open (self->log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0 || write (fd, line, length) != (gssize) length)
    {
      int saved_errno = errno;

      if (fd >= 0)
        close (fd);
      g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_FAILED,
                   "%s: %s", self->log_path, g_strerror (saved_errno));
      return FALSE;
    }
  return g_close (fd, error);
}

/* One request done: its tokens count for today, and it goes in the log */
gboolean
agent_desktop_apps_add_request (AgentDesktopApps  *self,
                                const char        *app_id,
                                const char        *profile,
                                guint64            tokens,
                                GError           **error)
{
  g_autofree char *group = group_of (app_id);
  g_autofree char *today = dup_today ();
  guint64 used = get_tokens_today (self, group);

  set_identity (self, group, app_id, NULL);
  g_key_file_set_string (self->keyfile, group, "day", today);
  g_key_file_set_uint64 (self->keyfile, group, "tokens-today",
                         used > G_MAXUINT64 - tokens ? G_MAXUINT64 : used + tokens);
  changed (self);
  if (!save (self, error) || !append_log (self, app_id, profile, tokens, error))
    return FALSE;
  changed (self);   /* the log too */
  return TRUE;
}

GVariant *
agent_desktop_apps_list (AgentDesktopApps *self)
{
  g_auto(GStrv) groups = g_key_file_get_groups (self->keyfile, NULL);
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sa{sv}}"));
  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autofree char *id = g_key_file_get_string (self->keyfile, groups[i], "id", NULL);
      g_autofree char *name = g_key_file_get_string (self->keyfile, groups[i], "name", NULL);
      GVariantBuilder details;

      if (!g_str_has_prefix (groups[i], "App ") || id == NULL)
        continue;
      g_variant_builder_init (&details, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_add (&details, "{sv}", "name", g_variant_new_string (name ? name : id));
      if (g_key_file_has_key (self->keyfile, groups[i], "allowed", NULL))
        g_variant_builder_add (&details, "{sv}", "allowed",
                               g_variant_new_boolean (g_key_file_get_boolean (self->keyfile,
                                                                              groups[i],
                                                                              "allowed", NULL)));
      g_variant_builder_add (&details, "{sv}", "daily-limit",
                             g_variant_new_uint64 (g_key_file_get_uint64 (self->keyfile,
                                                                          groups[i],
                                                                          "daily-limit", NULL)));
      g_variant_builder_add (&details, "{sv}", "tokens-today",
                             g_variant_new_uint64 (get_tokens_today (self, groups[i])));
      g_variant_builder_add (&builder, "{sa{sv}}", id, &details);
    }
  return g_variant_builder_end (&builder);
}

/* A line of the log as its object, or NULL when it cannot be read */
static JsonObject *
read_line (const char *line)
{
  g_autoptr(JsonNode) node = NULL;

  if (line[0] == '\0' || (node = json_from_string (line, NULL)) == NULL
      || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_node_dup_object (node);
}

static gboolean
read_log (AgentDesktopApps  *self,
          char             **contents,
          GError           **error)
{
  g_autoptr(GError) local_error = NULL;

  *contents = NULL;
  if (g_file_get_contents (self->log_path, contents, NULL, &local_error)
      || g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return TRUE;
  g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_FAILED,
               "%s: %s", self->log_path, local_error->message);
  return FALSE;
}

GVariant *
agent_desktop_apps_list_log (AgentDesktopApps  *self,
                             const char        *app_id,
                             GError           **error)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GVariantBuilder builder;

  if (!read_log (self, &contents, error))
    return NULL;
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(xsst)"));
  lines = g_strsplit (contents ? contents : "", "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonObject) object = read_line (lines[i]);
      const char *app;
      const char *profile;

      if (object == NULL)
        continue;
      app = json_object_get_string_member_with_default (object, "app", NULL);
      profile = json_object_get_string_member_with_default (object, "profile", "");
      if (app == NULL || !g_utf8_validate (app, -1, NULL) || !g_utf8_validate (profile, -1, NULL)
          || (app_id[0] != '\0' && g_strcmp0 (app, app_id) != 0))
        continue;
      g_variant_builder_add (&builder, "(xsst)",
                             json_object_get_int_member_with_default (object, "time", 0),
                             app, profile,
                             (guint64) MAX (0, json_object_get_int_member_with_default (object,
                                                                                         "tokens",
                                                                                         0)));
    }
  return g_variant_builder_end (&builder);
}

/* The tools of each application the user allowed for good (keys
 * allowed-tools, a list, and ask-before-tools, TRUE when absent) */

gboolean
agent_desktop_apps_get_ask_before_tools (AgentDesktopApps *self,
                                         const char       *app_id)
{
  g_autofree char *group = group_of (app_id);
  g_autoptr(GError) error = NULL;
  gboolean ask;

  ask = g_key_file_get_boolean (self->keyfile, group, "ask-before-tools", &error);
  return error != NULL ? TRUE : ask;
}

gboolean
agent_desktop_apps_set_ask_before_tools (AgentDesktopApps  *self,
                                         const char        *app_id,
                                         gboolean           ask,
                                         GError           **error)
{
  g_autofree char *group = group_of (app_id);

  set_identity (self, group, app_id, NULL);
  g_key_file_set_boolean (self->keyfile, group, "ask-before-tools", ask);
  changed (self);
  return save (self, error);
}

/* (transfer full): the tools of @app_id allowed for good, never NULL */
char **
agent_desktop_apps_dup_allowed_tools (AgentDesktopApps *self,
                                      const char       *app_id)
{
  g_autofree char *group = group_of (app_id);
  char **tools = g_key_file_get_string_list (self->keyfile, group, "allowed-tools", NULL, NULL);

  return tools != NULL ? tools : g_new0 (char *, 1);
}

gboolean
agent_desktop_apps_is_tool_allowed (AgentDesktopApps *self,
                                    const char       *app_id,
                                    const char       *tool_name)
{
  g_auto(GStrv) tools = agent_desktop_apps_dup_allowed_tools (self, app_id);

  return g_strv_contains ((const char * const *) tools, tool_name);
}

static gboolean
set_allowed_tools (AgentDesktopApps    *self,
                   const char          *app_id,
                   const char * const  *tools,
                   GError             **error)
{
  g_autofree char *group = group_of (app_id);

  set_identity (self, group, app_id, NULL);
  if (tools[0] == NULL)
    g_key_file_remove_key (self->keyfile, group, "allowed-tools", NULL);
  else
    g_key_file_set_string_list (self->keyfile, group, "allowed-tools", tools,
                                g_strv_length ((char **) tools));
  changed (self);
  return save (self, error);
}

gboolean
agent_desktop_apps_allow_tool (AgentDesktopApps  *self,
                               const char        *app_id,
                               const char        *tool_name,
                               GError           **error)
{
  g_auto(GStrv) tools = agent_desktop_apps_dup_allowed_tools (self, app_id);
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) added = NULL;

  if (g_strv_contains ((const char * const *) tools, tool_name))
    return TRUE;
  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **) tools);
  g_strv_builder_add (builder, tool_name);
  added = g_strv_builder_end (builder);
  return set_allowed_tools (self, app_id, (const char * const *) added, error);
}

/* @tool_name NULL: every tool of @app_id is asked for again */
gboolean
agent_desktop_apps_forget_tool (AgentDesktopApps  *self,
                                const char        *app_id,
                                const char        *tool_name,
                                GError           **error)
{
  g_auto(GStrv) tools = agent_desktop_apps_dup_allowed_tools (self, app_id);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) kept = NULL;
  g_autofree char *group = group_of (app_id);

  if (!g_key_file_has_key (self->keyfile, group, "allowed-tools", NULL))
    return TRUE;
  for (guint i = 0; tool_name != NULL && tools[i] != NULL; i++)
    if (!g_str_equal (tools[i], tool_name))
      g_strv_builder_add (builder, tools[i]);
  kept = g_strv_builder_end (builder);
  return set_allowed_tools (self, app_id, (const char * const *) kept, error);
}

/* Drops the lines older than LOG_DAYS days, and those that cannot be read */
gboolean
agent_desktop_apps_prune_log (AgentDesktopApps  *self,
                              GError           **error)
{
  gint64 oldest = g_get_real_time () / G_USEC_PER_SEC - (gint64) LOG_DAYS * 24 * 60 * 60;
  g_autoptr(GString) kept = g_string_new (NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean pruned = FALSE;

  if (!read_log (self, &contents, error))
    return FALSE;
  if (contents == NULL)
    return TRUE;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonObject) object = read_line (lines[i]);

      if (object != NULL && json_object_get_int_member_with_default (object, "time", 0) >= oldest)
        g_string_append_printf (kept, "%s\n", lines[i]);
      else if (lines[i][0] != '\0' || lines[i + 1] != NULL)
        pruned = TRUE;
    }
  if (!pruned)
    return TRUE;
  if (!g_file_set_contents_full (self->log_path, kept->str, kept->len,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0600, error))
    return FALSE;
  changed (self);
  return TRUE;
}
