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
 * The page lists again each time it is shown, after each change made here
 * and, while it is shown, on the service's AppsChanged and when the service
 * gets a new owner (it watches the name without starting the service).
 * Listed again, the rows are updated in place: rows stay open, and a daily
 * limit being typed keeps its text and the focus. When the service is not
 * on the session bus (nor can be started), the page says so.
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
  GPtrArray           *rows;        /* AppRow: the apps' rows in the group, in order */
  GCancellable        *cancellable; /* the listing under way */
  GDBusConnection     *connection;  /* while it is mapped: */
  guint                changed_id;  /*   its subscription to AppsChanged */
  guint                watch_id;    /*   its watch of the service's name */
};

/* An app's row, updated in place when the apps are listed again */
typedef struct
{
  char           *app_id;
  char           *name;
  AdwExpanderRow *expander;
  GtkWidget      *revoke;
  GtkSpinButton  *spin;
  GPtrArray      *log_rows;    /* the rows of its log, in the expander */
  char          **log_titles;  /* their titles */
} AppRow;

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
app_row_free (AppRow *row)
{
  g_free (row->app_id);
  g_free (row->name);
  g_ptr_array_unref (row->log_rows);
  g_strfreev (row->log_titles);
  g_free (row);
}

static void
clear_rows (AgentChatPreferencesApps *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    adw_preferences_group_remove (self->group,
                                  GTK_WIDGET (((AppRow *) g_ptr_array_index (self->rows,
                                                                             i))->expander));
  g_ptr_array_set_size (self->rows, 0);
}

/* The row of @app_id, or of its button or spin button @widget */
static AppRow *
find_row (AgentChatPreferencesApps *self,
          const char               *app_id,
          GtkWidget                *widget)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      AppRow *row = g_ptr_array_index (self->rows, i);

      if (g_strcmp0 (row->app_id, app_id) == 0 || row->revoke == widget
          || GTK_WIDGET (row->spin) == widget)
        return row;
    }
  return NULL;
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
  AppRow *row = find_row (self, NULL, GTK_WIDGET (button));

  if (row != NULL)
    ask_service (self, row->name, "Revoke", g_variant_new ("(s)", row->app_id));
}

static void
on_limit_changed (GtkSpinButton            *spin,
                  AgentChatPreferencesApps *self)
{
  AppRow *row = find_row (self, NULL, GTK_WIDGET (spin));
  guint64 tokens = (guint64) gtk_spin_button_get_value (spin);

  if (row != NULL)
    ask_service (self, row->name, "SetDailyLimit",
                 g_variant_new ("(st)", row->app_id, tokens));
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

/* The titles of the rows of @app_id's log: its last requests, the newest
 * first */
static char **
dup_log_titles (const char *app_id,
                GVariant   *log)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GStrvBuilder) titles = g_strv_builder_new ();
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
    g_strv_builder_add (titles, _("No requests yet"));
  for (guint i = entries->len; i > 0 && entries->len - i < LOG_ROWS; i--)
    g_strv_builder_add (titles, g_ptr_array_index (entries, i - 1));
  return g_strv_builder_end (titles);
}

/* The rows of the log, made again only when they changed */
static void
update_log_rows (AppRow   *row,
                 GVariant *log)
{
  g_auto(GStrv) titles = dup_log_titles (row->app_id, log);

  if (row->log_titles != NULL && g_strv_equal ((const char * const *) row->log_titles,
                                               (const char * const *) titles))
    return;
  for (guint i = 0; i < row->log_rows->len; i++)
    adw_expander_row_remove (row->expander, g_ptr_array_index (row->log_rows, i));
  g_ptr_array_set_size (row->log_rows, 0);
  for (guint i = 0; titles[i] != NULL; i++)
    {
      GtkWidget *log_row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (log_row), titles[i]);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (log_row), FALSE);
      adw_expander_row_add_row (row->expander, log_row);
      g_ptr_array_add (row->log_rows, log_row);
    }
  g_strfreev (row->log_titles);
  row->log_titles = g_steal_pointer (&titles);
}

/* What changes of an app: its name, its state and tokens, its limit (unless
 * the user is typing one), its log */
static void
update_app_row (AgentChatPreferencesApps *self,
                AppRow                   *row,
                GVariant                 *details,
                GVariant                 *log)
{
  g_autofree char *subtitle = describe_app (row->app_id, details);
  g_autofree char *revoke_label = NULL;
  const char *name = row->app_id;
  guint64 limit = 0;
  double value;

  g_variant_lookup (details, "name", "&s", &name);
  g_variant_lookup (details, "daily-limit", "t", &limit);
  g_free (row->name);
  row->name = g_strdup (name);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row->expander), name);
  adw_expander_row_set_subtitle (row->expander, subtitle);
  /* Translators: %s is an application's name */
  revoke_label = g_strdup_printf (_("Revoke “%s”"), name);
  gtk_widget_set_tooltip_text (row->revoke, revoke_label);

  value = (double) MIN (limit, MAX_LIMIT);
  if (!(gtk_widget_get_state_flags (GTK_WIDGET (row->spin)) & GTK_STATE_FLAG_FOCUS_WITHIN)
      && gtk_spin_button_get_value (row->spin) != value)
    {
      g_signal_handlers_block_by_func (row->spin, on_limit_changed, self);
      gtk_spin_button_set_value (row->spin, value);
      g_signal_handlers_unblock_by_func (row->spin, on_limit_changed, self);
    }

  update_log_rows (row, log);
}

static AppRow *
app_row_new (AgentChatPreferencesApps *self,
             const char               *app_id)
{
  AppRow *row = g_new0 (AppRow, 1);
  GtkWidget *limit_row = adw_action_row_new ();

  row->app_id = g_strdup (app_id);
  row->log_rows = g_ptr_array_new ();
  row->expander = ADW_EXPANDER_ROW (adw_expander_row_new ());
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row->expander), FALSE);

  row->revoke = gtk_button_new_with_mnemonic (_("_Revoke"));
  gtk_widget_set_valign (row->revoke, GTK_ALIGN_CENTER);
  g_signal_connect_object (row->revoke, "clicked", G_CALLBACK (on_revoke_clicked), self, 0);
  adw_expander_row_add_action (row->expander, row->revoke);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (limit_row), _("Daily Limit"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (limit_row), _("Tokens a day, 0 for no limit"));
  row->spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, MAX_LIMIT, 1000));
  gtk_widget_set_valign (GTK_WIDGET (row->spin), GTK_ALIGN_CENTER);
  gtk_spin_button_set_digits (row->spin, 0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row->spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Daily Limit"), -1);
  g_signal_connect_object (row->spin, "value-changed", G_CALLBACK (on_limit_changed), self, 0);
  adw_action_row_add_suffix (ADW_ACTION_ROW (limit_row), GTK_WIDGET (row->spin));
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (limit_row), GTK_WIDGET (row->spin));
  adw_expander_row_add_row (row->expander, limit_row);
  agent_chat_app_tools_add_rows (row->expander, app_id);
  return row;
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

/* The rows of the apps listed are updated, made or removed */
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
  adw_preferences_group_set_description (
    self->group,
    g_variant_n_children (listing->apps) == 0
      ? _("No app has asked to use your models yet.")
      : _("Apps that asked to use the models you set up, through the desktop assistant "
          "service."));

  for (guint i = self->rows->len; i > 0; i--)
    {
      AppRow *row = g_ptr_array_index (self->rows, i - 1);

      if (!g_variant_lookup (listing->apps, row->app_id, "@a{sv}", NULL))
        {
          adw_preferences_group_remove (self->group, GTK_WIDGET (row->expander));
          g_ptr_array_remove_index (self->rows, i - 1);
        }
    }
  g_variant_iter_init (&iter, listing->apps);
  while (g_variant_iter_next (&iter, "{&s@a{sv}}", &app_id, &details))
    {
      AppRow *row = find_row (self, app_id, NULL);

      if (row == NULL)
        {
          row = app_row_new (self, app_id);
          adw_preferences_group_add (self->group, GTK_WIDGET (row->expander));
          g_ptr_array_add (self->rows, row);
        }      else
        agent_chat_app_tools_refresh (row->expander);
      update_app_row (self, row, details, log);
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
on_apps_changed (GDBusConnection *connection,
                 const char      *sender_name,
                 const char      *object_path,
                 const char      *interface_name,
                 const char      *signal_name,
                 GVariant        *parameters,
                 gpointer         user_data)
{
  agent_chat_preferences_apps_refresh (user_data);
}

/* The service started again (it leaves when idle): it tells only those that
 * listed of its changes */
static void
on_service_appeared (GDBusConnection *connection,
                     const char      *name,
                     const char      *name_owner,
                     gpointer         user_data)
{
  agent_chat_preferences_apps_refresh (user_data);
}

static void
stop_listening (AgentChatPreferencesApps *self)
{
  if (self->changed_id != 0)
    g_dbus_connection_signal_unsubscribe (self->connection, self->changed_id);
  self->changed_id = 0;
  g_clear_handle_id (&self->watch_id, g_bus_unwatch_name);
  g_clear_object (&self->connection);
}

/* Shown, the page lists the apps, and again whenever the service says they
 * changed */
static void
agent_chat_preferences_apps_map (GtkWidget *widget)
{
  AgentChatPreferencesApps *self = AGENT_CHAT_PREFERENCES_APPS (widget);

  GTK_WIDGET_CLASS (agent_chat_preferences_apps_parent_class)->map (widget);
  stop_listening (self);
  self->connection = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  if (self->connection != NULL)
    {
      self->changed_id =
        g_dbus_connection_signal_subscribe (self->connection, SERVICE_NAME, SERVICE_IFACE,
                                            "AppsChanged", SERVICE_PATH, NULL,
                                            G_DBUS_SIGNAL_FLAGS_NONE, on_apps_changed,
                                            g_object_ref (self), g_object_unref);
      self->watch_id =
        g_bus_watch_name_on_connection (self->connection, SERVICE_NAME,
                                        G_BUS_NAME_WATCHER_FLAGS_NONE, on_service_appeared,
                                        NULL, g_object_ref (self), g_object_unref);
    }
  agent_chat_preferences_apps_refresh (self);
}

static void
agent_chat_preferences_apps_unmap (GtkWidget *widget)
{
  stop_listening (AGENT_CHAT_PREFERENCES_APPS (widget));
  GTK_WIDGET_CLASS (agent_chat_preferences_apps_parent_class)->unmap (widget);
}

static void
agent_chat_preferences_apps_dispose (GObject *object)
{
  AgentChatPreferencesApps *self = AGENT_CHAT_PREFERENCES_APPS (object);

  g_cancellable_cancel (self->cancellable);
  stop_listening (self);
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
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) app_row_free);
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
