/* agent-chat-preferences-apps.c
 *
 * The Apps page of the preferences, "Apps Using Your Models": the
 * applications that asked agent-desktop-service for the user's models
 * (docs/desktop-service.md), from its ListApps. Each is an expander row
 * with its name, its id, whether it is allowed or denied and its tokens of
 * the day against its daily limit; a Revoke button (the service forgets the
 * answer, the app's next request asks again); a Daily Limit spin button
 * (SetDailyLimit, 0 for none); and its last requests from ListLog.
 *
 * The service has no signal for its changes: the page lists again each time
 * it is shown, when its window comes back to the front and after each change
 * made here. When the service is not on
 * the session bus (nor can be started), the page says so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-app-tools.h"
#include "agent-chat-preferences-apps.h"

#define SERVICE_NAME  "io.github.libagent.Assistant"
#define SERVICE_PATH  "/io/github/libagent/Assistant"
#define SERVICE_IFACE "io.github.libagent.Assistant1"
#define LOG_ROWS      20      /* the last requests shown of each app */
#define MAX_LIMIT     1000000000.0

struct _AgentChatPreferencesApps
{
  AdwPreferencesPage   parent_instance;

  AdwPreferencesGroup *group;
  GPtrArray           *rows;        /* the apps' rows in the group */
  GCancellable        *cancellable; /* the listing under way */
  GtkWindow           *window;      /* the page's, while it is mapped */
};

G_DEFINE_FINAL_TYPE (AgentChatPreferencesApps, agent_chat_preferences_apps,
                     ADW_TYPE_PREFERENCES_PAGE)

static void
show_toast (AgentChatPreferencesApps *self,
            const char               *text)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (ADW_IS_PREFERENCES_WINDOW (root))
    adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (root), adw_toast_new (text));
  else
    g_message ("%s", text);
}

static void
clear_rows (AgentChatPreferencesApps *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    adw_preferences_group_remove (self->group, g_ptr_array_index (self->rows, i));
  g_ptr_array_set_size (self->rows, 0);
}

/* A change asked of the service (Revoke, SetDailyLimit), then the list again */

typedef struct
{
  AgentChatPreferencesApps *self;
  char                     *app_name;
} Change;

static void
change_free (Change *change)
{
  g_clear_object (&change->self);
  g_free (change->app_name);
  g_free (change);
}

static void
changed (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Change *change = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    {
      g_autofree char *text = NULL;

      g_dbus_error_strip_remote_error (error);
      /* Translators: %s is an application's name, then the service's error */
      text = g_strdup_printf (_("“%s” could not be changed: %s"), change->app_name,
                              error->message);
      show_toast (change->self, text);
    }
  agent_chat_preferences_apps_refresh (change->self);
  change_free (change);
}

static void
ask_service (AgentChatPreferencesApps *self,
             const char               *app_name,
             const char               *method,
             GVariant                 *parameters)
{
  g_autoptr(GDBusConnection) connection = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  Change *change;

  if (connection == NULL)
    {
      g_variant_unref (g_variant_ref_sink (parameters));
      return;
    }
  change = g_new0 (Change, 1);
  change->self = g_object_ref (self);
  change->app_name = g_strdup (app_name);
  g_dbus_connection_call (connection, SERVICE_NAME, SERVICE_PATH, SERVICE_IFACE, method,
                          parameters, NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, changed, change);
}

static void
on_revoke_clicked (GtkButton                *button,
                   AgentChatPreferencesApps *self)
{
  const char *app_id = g_object_get_data (G_OBJECT (button), "app-id");
  const char *app_name = g_object_get_data (G_OBJECT (button), "app-name");

  ask_service (self, app_name, "Revoke", g_variant_new ("(s)", app_id));
}

static void
on_limit_changed (GtkSpinButton            *spin,
                  AgentChatPreferencesApps *self)
{
  const char *app_id = g_object_get_data (G_OBJECT (spin), "app-id");
  const char *app_name = g_object_get_data (G_OBJECT (spin), "app-name");
  guint64 tokens = (guint64) gtk_spin_button_get_value (spin);

  ask_service (self, app_name, "SetDailyLimit", g_variant_new ("(st)", app_id, tokens));
}

/* The rows */

static char *
describe_app (const char *app_id,
              GVariant   *details)
{
  gboolean allowed = FALSE;
  gboolean answered = g_variant_lookup (details, "allowed", "b", &allowed);
  guint64 limit = 0;
  guint64 today = 0;
  const char *state;
  g_autofree char *usage = NULL;
  g_autofree char *used = NULL;
  g_autofree char *most = NULL;

  g_variant_lookup (details, "daily-limit", "t", &limit);
  g_variant_lookup (details, "tokens-today", "t", &today);
  state = !answered ? _("Not answered yet") : allowed ? _("Allowed") : _("Denied");
  used = g_strdup_printf ("%" G_GUINT64_FORMAT, today);
  most = g_strdup_printf ("%" G_GUINT64_FORMAT, limit);
  if (limit > 0)
    /* Translators: tokens used today, of the app's daily limit (numbers) */
    usage = g_strdup_printf (_("%s of %s tokens today"), used, most);
  else
    /* Translators: %s is the number of tokens used today */
    usage = g_strdup_printf (_("%s tokens today, no daily limit"), used);
  /* Translators: an app's id, whether it may use the models, and its tokens */
  return g_strdup_printf (_("%s · %s · %s"), app_id, state, usage);
}

static void
add_log_rows (AdwExpanderRow *expander,
              const char     *app_id,
              GVariant       *log)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);
  GVariantIter iter;
  gint64 time;
  const char *app;
  const char *profile;
  guint64 tokens;

  g_variant_iter_init (&iter, log);
  while (g_variant_iter_next (&iter, "(x&s&st)", &time, &app, &profile, &tokens))
    if (g_strcmp0 (app, app_id) == 0)
      {
        g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (time);
        g_autofree char *date = when != NULL ? g_date_time_format (when, "%x %X") : NULL;
        g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, tokens);

        /* Translators: a request in an app's log: when, the profile used, its tokens */
        g_ptr_array_add (entries, g_strdup_printf (_("%s · %s · %s tokens"),
                                                   date != NULL ? date : "?",
                                                   *profile != '\0' ? profile : _("default"),
                                                   count));
      }
  if (entries->len == 0)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No requests yet"));
      adw_expander_row_add_row (expander, row);
      return;
    }
  /* The newest first */
  for (guint i = entries->len; i > 0 && entries->len - i < LOG_ROWS; i--)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), g_ptr_array_index (entries, i - 1));
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_expander_row_add_row (expander, row);
    }
}

static GtkWidget *
app_row_new (AgentChatPreferencesApps *self,
             const char               *app_id,
             GVariant                 *details,
             GVariant                 *log)
{
  g_autofree char *subtitle = describe_app (app_id, details);
  g_autofree char *revoke_label = NULL;
  const char *name = app_id;
  guint64 limit = 0;
  GtkWidget *expander = adw_expander_row_new ();
  GtkWidget *revoke = gtk_button_new_with_mnemonic (_("_Revoke"));
  GtkWidget *limit_row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (0, MAX_LIMIT, 1000);

  g_variant_lookup (details, "name", "&s", &name);
  g_variant_lookup (details, "daily-limit", "t", &limit);
  g_object_set_data_full (G_OBJECT (expander), "app-id", g_strdup (app_id), g_free);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander), name);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (expander), FALSE);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander), subtitle);

  gtk_widget_set_valign (revoke, GTK_ALIGN_CENTER);
  /* Translators: %s is an application's name */
  revoke_label = g_strdup_printf (_("Revoke “%s”"), name);
  gtk_widget_set_tooltip_text (revoke, revoke_label);
  g_object_set_data_full (G_OBJECT (revoke), "app-id", g_strdup (app_id), g_free);
  g_object_set_data_full (G_OBJECT (revoke), "app-name", g_strdup (name), g_free);
  g_signal_connect_object (revoke, "clicked", G_CALLBACK (on_revoke_clicked), self, 0);
  adw_expander_row_add_action (ADW_EXPANDER_ROW (expander), revoke);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (limit_row), _("Daily Limit"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (limit_row), _("Tokens a day, 0 for no limit"));
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 0);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), (double) MIN (limit, MAX_LIMIT));
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Daily Limit"), -1);
  g_object_set_data_full (G_OBJECT (spin), "app-id", g_strdup (app_id), g_free);
  g_object_set_data_full (G_OBJECT (spin), "app-name", g_strdup (name), g_free);
  g_signal_connect_object (spin, "value-changed", G_CALLBACK (on_limit_changed), self, 0);
  adw_action_row_add_suffix (ADW_ACTION_ROW (limit_row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (limit_row), spin);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), limit_row);
  agent_chat_app_tools_add_rows (ADW_EXPANDER_ROW (expander), app_id);

  add_log_rows (ADW_EXPANDER_ROW (expander), app_id, log);
  return expander;
}

/* Listing */

typedef struct
{
  AgentChatPreferencesApps *self;
  GDBusConnection          *connection;
  GVariant                 *apps;
} Listing;

static void
listing_free (Listing *listing)
{
  g_clear_object (&listing->self);
  g_clear_object (&listing->connection);
  g_clear_pointer (&listing->apps, g_variant_unref);
  g_free (listing);
}

static void
say_unavailable (AgentChatPreferencesApps *self,
                 GError                   *error)
{
  clear_rows (self);
  if (error != NULL && g_dbus_error_is_remote_error (error))
    {
      g_autofree char *remote = g_dbus_error_get_remote_error (error);

      if (g_strcmp0 (remote, "org.freedesktop.DBus.Error.ServiceUnknown") != 0 &&
          g_strcmp0 (remote, "org.freedesktop.DBus.Error.NameHasNoOwner") != 0)
        {
          g_autofree char *text = NULL;

          g_dbus_error_strip_remote_error (error);
          /* Translators: %s is the desktop service's error */
          text = g_strdup_printf (_("The apps could not be listed: %s"), error->message);
          adw_preferences_group_set_description (self->group, text);
          return;
        }
    }
  adw_preferences_group_set_description (
    self->group,
    _("The desktop assistant service is not installed or not running, so no other apps can "
      "use your models."));
}

static void
got_log (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Listing *listing = user_data;
  AgentChatPreferencesApps *self = listing->self;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) log = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) expanded = NULL;
  GVariantIter iter;
  const char *app_id;
  GVariant *details;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      listing_free (listing);
      return;
    }
  log = reply != NULL ? g_variant_get_child_value (reply, 0)
                      : g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE ("(xsst)"), NULL,
                                                                 0));
  /* The rows made again stay as open as they were */
  expanded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < self->rows->len; i++)
    if (adw_expander_row_get_expanded (g_ptr_array_index (self->rows, i)))
      g_hash_table_add (expanded, g_strdup (g_object_get_data (g_ptr_array_index (self->rows, i),
                                                               "app-id")));
  clear_rows (self);
  adw_preferences_group_set_description (
    self->group,
    g_variant_n_children (listing->apps) == 0
      ? _("No app has asked to use your models yet.")
      : _("Apps that asked to use the models you set up, through the desktop assistant "
          "service."));
  g_variant_iter_init (&iter, listing->apps);
  while (g_variant_iter_next (&iter, "{&s@a{sv}}", &app_id, &details))
    {
      GtkWidget *row = app_row_new (self, app_id, details, log);

      adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row),
                                     g_hash_table_contains (expanded, app_id));
      adw_preferences_group_add (self->group, row);
      g_ptr_array_add (self->rows, row);
      g_variant_unref (details);
    }
  listing_free (listing);
}

static void
got_apps (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Listing *listing = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        say_unavailable (listing->self, error);
      listing_free (listing);
      return;
    }
  listing->apps = g_variant_get_child_value (reply, 0);
  g_dbus_connection_call (listing->connection, SERVICE_NAME, SERVICE_PATH, SERVICE_IFACE,
                          "ListLog", g_variant_new ("(s)", ""), G_VARIANT_TYPE ("(a(xsst))"),
                          G_DBUS_CALL_FLAGS_NONE, -1, listing->self->cancellable, got_log,
                          listing);
}

/**
 * agent_chat_preferences_apps_refresh:
 * @self: a #AgentChatPreferencesApps
 *
 * Lists the apps of the desktop service again.
 */
void
agent_chat_preferences_apps_refresh (AgentChatPreferencesApps *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) connection = NULL;
  Listing *listing;

  g_return_if_fail (AGENT_CHAT_IS_PREFERENCES_APPS (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  if (!(connection = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error)))
    {
      say_unavailable (self, NULL);
      return;
    }
  listing = g_new0 (Listing, 1);
  listing->self = g_object_ref (self);
  listing->connection = g_steal_pointer (&connection);
  g_dbus_connection_call (listing->connection, SERVICE_NAME, SERVICE_PATH, SERVICE_IFACE,
                          "ListApps", NULL, G_VARIANT_TYPE ("(a{sa{sv}})"),
                          G_DBUS_CALL_FLAGS_NONE, -1, self->cancellable, got_apps, listing);
}

static void
on_window_active (GtkWindow                *window,
                  GParamSpec               *pspec,
                  AgentChatPreferencesApps *self)
{
  if (gtk_window_is_active (window))
    agent_chat_preferences_apps_refresh (self);
}

/* Shown, and each time its window comes back to the front (after a
 * question of the consent agent, say), the page lists the apps again */
static void
agent_chat_preferences_apps_map (GtkWidget *widget)
{
  AgentChatPreferencesApps *self = AGENT_CHAT_PREFERENCES_APPS (widget);
  GtkRoot *root = gtk_widget_get_root (widget);

  GTK_WIDGET_CLASS (agent_chat_preferences_apps_parent_class)->map (widget);
  if (GTK_IS_WINDOW (root) && self->window == NULL)
    {
      g_set_weak_pointer (&self->window, GTK_WINDOW (root));
      g_signal_connect_object (root, "notify::is-active", G_CALLBACK (on_window_active), self,
                               0);
    }
  agent_chat_preferences_apps_refresh (self);
}

static void
agent_chat_preferences_apps_unmap (GtkWidget *widget)
{
  AgentChatPreferencesApps *self = AGENT_CHAT_PREFERENCES_APPS (widget);

  if (self->window != NULL)
    g_signal_handlers_disconnect_by_func (self->window, on_window_active, self);
  g_clear_weak_pointer (&self->window);
  GTK_WIDGET_CLASS (agent_chat_preferences_apps_parent_class)->unmap (widget);
}

static void
agent_chat_preferences_apps_dispose (GObject *object)
{
  AgentChatPreferencesApps *self = AGENT_CHAT_PREFERENCES_APPS (object);

  g_cancellable_cancel (self->cancellable);
  G_OBJECT_CLASS (agent_chat_preferences_apps_parent_class)->dispose (object);
}

static void
agent_chat_preferences_apps_finalize (GObject *object)
{
  AgentChatPreferencesApps *self = AGENT_CHAT_PREFERENCES_APPS (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  G_OBJECT_CLASS (agent_chat_preferences_apps_parent_class)->finalize (object);
}

static void
agent_chat_preferences_apps_class_init (AgentChatPreferencesAppsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_preferences_apps_dispose;
  object_class->finalize = agent_chat_preferences_apps_finalize;
  widget_class->map = agent_chat_preferences_apps_map;
  widget_class->unmap = agent_chat_preferences_apps_unmap;
}

static void
agent_chat_preferences_apps_init (AgentChatPreferencesApps *self)
{
  self->rows = g_ptr_array_new ();
  self->cancellable = g_cancellable_new ();
  self->group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->group, _("Apps Using Your Models"));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (self), self->group);
  adw_preferences_page_set_title (ADW_PREFERENCES_PAGE (self), _("Apps"));
  adw_preferences_page_set_icon_name (ADW_PREFERENCES_PAGE (self),
                                      "application-x-executable-symbolic");
}

GtkWidget *
agent_chat_preferences_apps_new (void)
{
  return g_object_new (AGENT_CHAT_TYPE_PREFERENCES_APPS, NULL);
}
