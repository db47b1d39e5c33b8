/* agent-desktop-consent.c — asking the user whether an application may use
 * the assistant
 *
 * An application the user has not answered for waits while the user is
 * asked, once for all its requests of that moment: by the consent agent
 * registered last (io.github.libagent.AssistantConsent1.Ask, agent-chat's
 * dialog), else by a notification with Allow and Deny buttons (the
 * service's actions app.allow-app and app.deny-app, the app id their
 * target). An answer is remembered; a question nobody answers in time, or
 * a consent agent that fails, refuses the requests without remembering.
 *
 * An allowed application's own tools are approved call by call the same
 * way (ApproveToolCall, else a notification with Deny, Allow Once and
 * Always Allow: app.deny-tool, app.allow-tool and app.always-allow-tool,
 * the question's number their target), unless the user allowed the tool
 * for good or turned "ask before running this app's tools" off. A call
 * nobody approves in time, or whose consent agent fails, is denied.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-desktop-consent-private.h"
#include "agent-desktop-error.h"

/* How long the user has to answer */
#define ASK_TIMEOUT_SECONDS 300

typedef struct
{
  AgentDesktopConsentBroker *self;   /* unowned: the broker outlives its questions */
  char                      *app_id;
  char                      *app_name;
  GPtrArray                 *waiting;  /* of GTask */
  guint                      timeout_id;
  gboolean                   notified;
} Question;

G_DEFINE_FINAL_TYPE (AgentDesktopConsentBroker, agent_desktop_consent_broker, G_TYPE_OBJECT)

static void
consent_agent_free (ConsentAgent *agent)
{
  g_free (agent->name);
  g_free (agent->path);
  g_free (agent);
}

static char *
dup_notification_id (const char *app_id)
{
  return g_strconcat ("consent-", app_id, NULL);
}

static void
question_free (Question *question)
{
  if (question->timeout_id != 0)
    g_source_remove (question->timeout_id);
  if (question->notified)
    {
      g_autofree char *id = dup_notification_id (question->app_id);

      g_application_withdraw_notification (question->self->application, id);
    }
  g_ptr_array_unref (question->waiting);
  g_free (question->app_id);
  g_free (question->app_name);
  g_free (question);
}

/* Every request waiting for @app_id's answer gets it */
static void
resolve (AgentDesktopConsentBroker *self,
         const char                *app_id,
         const GError              *error)
{
  Question *question = g_hash_table_lookup (self->questions, app_id);
  g_autoptr(GPtrArray) waiting = NULL;

  if (question == NULL)
    return;
  waiting = g_ptr_array_ref (question->waiting);
  g_hash_table_remove (self->questions, app_id);
  for (guint i = 0; i < waiting->len; i++)
    {
      GTask *task = g_ptr_array_index (waiting, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

static GError *
new_denied_error (const char *app_name)
{
  return g_error_new (AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                      _("The user did not allow “%s” to use the assistant"), app_name);
}

void
agent_desktop_consent_broker_answer (AgentDesktopConsentBroker *self,
                                     const char                *app_id,
                                     gboolean                   allowed)
{
  Question *question = g_hash_table_lookup (self->questions, app_id);
  g_autoptr(GError) error = NULL;

  if (question == NULL)
    return;
  if (!agent_desktop_apps_set_consent (self->apps, app_id, question->app_name, allowed, &error))
    g_warning ("Could not remember the answer for %s: %s", app_id, error->message);
  g_clear_error (&error);
  if (!allowed)
    error = new_denied_error (question->app_name);
  resolve (self, app_id, error);
}

static gboolean
question_timed_out (gpointer user_data)
{
  Question *question = user_data;
  g_autoptr(GError) error = NULL;

  question->timeout_id = 0;
  error = g_error_new (AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                       _("Nobody answered whether “%s” may use the assistant"),
                       question->app_name);
  resolve (question->self, question->app_id, error);
  return G_SOURCE_REMOVE;
}

typedef struct
{
  AgentDesktopConsentBroker *self;
  char                      *app_id;
} AskData;

static void
agent_answered (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  AskData *data = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  gboolean allowed;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    {
      g_autoptr(GError) refused = NULL;

      g_debug ("The consent agent failed: %s", error->message);
      refused = g_error_new (AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                             _("The user could not be asked: %s"), error->message);
      resolve (data->self, data->app_id, refused);
    }
  else
    {
      g_variant_get (reply, "(b)", &allowed);
      agent_desktop_consent_broker_answer (data->self, data->app_id, allowed);
    }
  g_object_unref (data->self);
  g_free (data->app_id);
  g_free (data);
}

static void
notify_user (AgentDesktopConsentBroker *self,
             Question                  *question)
{
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *title = NULL;
  g_autofree char *id = dup_notification_id (question->app_id);

  title = g_strdup_printf (_("Allow “%s” to use your language models?"), question->app_name);
  notification = g_notification_new (title);
  g_notification_set_body (notification,
                           _("It will send messages to the models you set up, "
                             "and you can revoke this in Preferences."));
  g_notification_set_priority (notification, G_NOTIFICATION_PRIORITY_HIGH);
  g_notification_add_button_with_target (notification, _("Deny"), "app.deny-app", "s",
                                         question->app_id);
  g_notification_add_button_with_target (notification, _("Allow"), "app.allow-app", "s",
                                         question->app_id);
  g_application_send_notification (self->application, id, notification);
  question->notified = TRUE;
}

static void
ask (AgentDesktopConsentBroker *self,
     Question                  *question)
{
  question->timeout_id = g_timeout_add_seconds (self->ask_seconds, question_timed_out,
                                                question);
  if (self->agents->len > 0 && self->connection != NULL)
    {
      ConsentAgent *agent = g_ptr_array_index (self->agents, self->agents->len - 1);
      AskData *data = g_new0 (AskData, 1);

      data->self = g_object_ref (self);
      data->app_id = g_strdup (question->app_id);
      g_dbus_connection_call (self->connection, agent->name, agent->path,
                              "io.github.libagent.AssistantConsent1", "Ask",
                              g_variant_new ("(sss)", question->app_id, question->app_name,
                                             _("use your language models")),
                              G_VARIANT_TYPE ("(b)"), G_DBUS_CALL_FLAGS_NO_AUTO_START,
                              (int) MIN (self->ask_seconds, G_MAXINT / 1000) * 1000, NULL,
                              agent_answered, data);
    }
  else
    notify_user (self, question);
}

void
agent_desktop_consent_broker_check_async (AgentDesktopConsentBroker *self,
                                          const AgentDesktopPeer    *peer,
                                          GCancellable              *cancellable,
                                          GAsyncReadyCallback        callback,
                                          gpointer                   user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  Question *question;

  g_task_set_source_tag (task, agent_desktop_consent_broker_check_async);

  switch (agent_desktop_apps_get_consent (self->apps, peer->app_id))
    {
    case AGENT_DESKTOP_CONSENT_ALLOWED:
      g_task_return_boolean (task, TRUE);
      return;
    case AGENT_DESKTOP_CONSENT_DENIED:
      g_task_return_error (task, new_denied_error (peer->app_name));
      return;
    case AGENT_DESKTOP_CONSENT_UNKNOWN:
    default:
      break;
    }

  question = g_hash_table_lookup (self->questions, peer->app_id);
  if (question != NULL)
    {
      g_ptr_array_add (question->waiting, g_steal_pointer (&task));
      return;
    }
  question = g_new0 (Question, 1);
  question->self = self;
  question->app_id = g_strdup (peer->app_id);
  question->app_name = g_strdup (peer->app_name);
  question->waiting = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (question->waiting, g_steal_pointer (&task));
  g_hash_table_insert (self->questions, question->app_id, question);
  ask (self, question);
}

gboolean
agent_desktop_consent_broker_check_finish (AgentDesktopConsentBroker  *self,
                                           GAsyncResult               *result,
                                           GError                    **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result))
                        == agent_desktop_consent_broker_check_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
agent_desktop_consent_broker_add_agent (AgentDesktopConsentBroker *self,
                                        const char                *name,
                                        const char                *path)
{
  ConsentAgent *agent = g_new0 (ConsentAgent, 1);

  agent_desktop_consent_broker_remove_agent (self, name, path);
  agent->name = g_strdup (name);
  agent->path = g_strdup (path);
  g_ptr_array_add (self->agents, agent);
}

/* @path NULL: every agent of @name (it left the bus) */
gboolean
agent_desktop_consent_broker_remove_agent (AgentDesktopConsentBroker *self,
                                           const char                *name,
                                           const char                *path)
{
  gboolean removed = FALSE;

  for (guint i = self->agents->len; i > 0; i--)
    {
      ConsentAgent *agent = g_ptr_array_index (self->agents, i - 1);

      if (g_str_equal (agent->name, name) && (path == NULL || g_str_equal (agent->path, path)))
        {
          g_ptr_array_remove_index (self->agents, i - 1);
          removed = TRUE;
        }
    }
  return removed;
}

void
agent_desktop_consent_broker_set_connection (AgentDesktopConsentBroker *self,
                                             GDBusConnection           *connection)
{
  g_set_object (&self->connection, connection);
}

static void
agent_desktop_consent_broker_dispose (GObject *object)
{
  AgentDesktopConsentBroker *self = AGENT_DESKTOP_CONSENT_BROKER (object);
  g_autoptr(GError) error = g_error_new_literal (AGENT_DESKTOP_ERROR,
                                                 AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                                                 _("The assistant is stopping"));
  GHashTableIter iter;
  gpointer key;

  /* Nobody is left waiting */
  while (g_hash_table_size (self->questions) > 0)
    {
      g_hash_table_iter_init (&iter, self->questions);
      g_hash_table_iter_next (&iter, &key, NULL);
      resolve (self, key, error);
    }
  agent_desktop_consent_broker_stop_tool_questions (self, error);
  g_clear_object (&self->connection);
  g_clear_object (&self->apps);

  G_OBJECT_CLASS (agent_desktop_consent_broker_parent_class)->dispose (object);
}

static void
agent_desktop_consent_broker_finalize (GObject *object)
{
  AgentDesktopConsentBroker *self = AGENT_DESKTOP_CONSENT_BROKER (object);

  g_hash_table_unref (self->questions);
  g_clear_pointer (&self->tool_questions, g_hash_table_unref);
  g_ptr_array_unref (self->agents);

  G_OBJECT_CLASS (agent_desktop_consent_broker_parent_class)->finalize (object);
}

static void
agent_desktop_consent_broker_class_init (AgentDesktopConsentBrokerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_desktop_consent_broker_dispose;
  object_class->finalize = agent_desktop_consent_broker_finalize;
}

static void
agent_desktop_consent_broker_init (AgentDesktopConsentBroker *self)
{
  self->agents = g_ptr_array_new_with_free_func ((GDestroyNotify) consent_agent_free);
  self->questions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                           (GDestroyNotify) question_free);
}

/* $AGENT_DESKTOP_SERVICE_ASK_SECONDS, for the tests: how long a question
 * waits, a whole number of seconds from 1 up */
static guint
get_ask_seconds (void)
{
  const char *text = g_getenv ("AGENT_DESKTOP_SERVICE_ASK_SECONDS");
  guint64 seconds;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 1, 24 * 3600, &seconds, NULL))
    return ASK_TIMEOUT_SECONDS;
  return (guint) seconds;
}

AgentDesktopConsentBroker *
agent_desktop_consent_broker_new (GApplication     *application,
                                  AgentDesktopApps *apps)
{
  AgentDesktopConsentBroker *self = g_object_new (AGENT_DESKTOP_TYPE_CONSENT_BROKER, NULL);

  self->application = application;
  self->apps = g_object_ref (apps);
  self->ask_seconds = get_ask_seconds ();
  agent_desktop_consent_broker_init_tools (self);
  return self;
}
