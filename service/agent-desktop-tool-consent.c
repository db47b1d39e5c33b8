/* agent-desktop-tool-consent.c — asking the user whether an application's
 * tool call may run
 *
 * A conversation's model calls one of the application's own tools: before
 * the service sends ToolCall, the user approves the call, through the
 * consent agent registered last (io.github.libagent.AssistantConsent1.
 * ApproveToolCall, agent-chat's dialog), else a notification with Deny,
 * Allow Once and Always Allow (the service's actions app.deny-tool,
 * app.allow-tool and app.always-allow-tool, the question's number their
 * target). Each call is its own question. Always Allow remembers the tool
 * for the app (apps.ini's allowed-tools, forgotten by Revoke); an app whose
 * "ask before running its tools" the user turned off is not asked. A
 * question nobody answers in time, a consent agent that fails or leaves,
 * is a denial; the app cannot decide any of it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "agent-desktop-consent-private.h"
#include "agent-desktop-error.h"

/* What is shown of the arguments and of the app's description: the rest
 * is cut */
#define MAX_ARGUMENTS_BYTES (64 * 1024)
#define MAX_NOTIFIED_ARGUMENTS_CHARS 200
#define MAX_DESCRIPTION_CHARS 1000

typedef struct
{
  AgentDesktopConsentBroker *self;    /* unowned: the broker outlives its questions */
  guint                      number;
  char                      *app_id;
  char                      *app_name;
  char                      *tool_name;
  GTask                     *task;
  GCancellable              *cancellable;
  gulong                     cancelled_id;
  guint                      timeout_id;
  gboolean                   notified;
} ToolQuestion;

static char *
dup_notification_id (guint number)
{
  return g_strdup_printf ("tool-%u", number);
}

static void
tool_question_free (ToolQuestion *question)
{
  if (question->timeout_id != 0)
    g_source_remove (question->timeout_id);
  if (question->cancelled_id != 0)
    g_cancellable_disconnect (question->cancellable, question->cancelled_id);
  if (question->notified)
    {
      g_autofree char *id = dup_notification_id (question->number);

      g_application_withdraw_notification (question->self->application, id);
    }
  g_clear_object (&question->cancellable);
  g_clear_object (&question->task);
  g_free (question->app_id);
  g_free (question->app_name);
  g_free (question->tool_name);
  g_free (question);
}

/* Question @number gets its answer: allowed, else @error */
static void
resolve (AgentDesktopConsentBroker *self,
         guint                      number,
         gboolean                   remember,
         const GError              *error)
{
  ToolQuestion *question = NULL;
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) save_error = NULL;

  if (!g_hash_table_steal_extended (self->tool_questions, GUINT_TO_POINTER (number), NULL,
                                    (gpointer *) &question))
    return;
  task = g_steal_pointer (&question->task);
  if (error == NULL && remember
      && !agent_desktop_apps_allow_tool (self->apps, question->app_id, question->tool_name,
                                         &save_error))
    g_warning ("Could not remember the tool %s of %s: %s", question->tool_name,
               question->app_id, save_error->message);
  tool_question_free (question);

  if (error != NULL)
    g_task_return_error (task, g_error_copy (error));
  else
    g_task_return_boolean (task, TRUE);
}

static GError *
new_denied_error (void)
{
  return g_error_new_literal (AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                              _("The user denied this call"));
}

void
agent_desktop_consent_broker_answer_tool (AgentDesktopConsentBroker *self,
                                          guint                      number,
                                          gboolean                   allowed,
                                          gboolean                   remember)
{
  g_autoptr(GError) error = allowed ? NULL : new_denied_error ();

  resolve (self, number, remember, error);
}

static gboolean
timed_out (gpointer user_data)
{
  ToolQuestion *question = user_data;
  g_autoptr(GError) error = NULL;

  question->timeout_id = 0;
  error = g_error_new (AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                       _("Nobody answered in time whether “%s” may run, so the call was denied"),
                       question->tool_name);
  resolve (question->self, question->number, FALSE, error);
  return G_SOURCE_REMOVE;
}

typedef struct
{
  AgentDesktopConsentBroker *self;
  guint                      number;
} Pending;

static void
pending_free (Pending *pending)
{
  g_object_unref (pending->self);
  g_free (pending);
}

static Pending *
pending_new (AgentDesktopConsentBroker *self,
             guint                      number)
{
  Pending *pending = g_new0 (Pending, 1);

  pending->self = g_object_ref (self);
  pending->number = number;
  return pending;
}

/* (Not in the cancellable's handler: it could not disconnect itself) */
static gboolean
cancelled_idle (gpointer user_data)
{
  Pending *pending = user_data;
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                 _("The call was cancelled"));

  resolve (pending->self, pending->number, FALSE, error);
  return G_SOURCE_REMOVE;
}

static void
cancelled (GCancellable *cancellable,
           gpointer      user_data)
{
  ToolQuestion *question = user_data;

  g_idle_add_full (G_PRIORITY_DEFAULT, cancelled_idle,
                   pending_new (question->self, question->number),
                   (GDestroyNotify) pending_free);
}

static void
agent_answered (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Pending *pending = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  gboolean allowed = FALSE;
  gboolean remember = FALSE;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    {
      g_autoptr(GError) refused = NULL;

      g_debug ("The consent agent failed: %s", error->message);
      refused = g_error_new (AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                             _("The user could not be asked, so the call was denied: %s"),
                             error->message);
      resolve (pending->self, pending->number, FALSE, refused);
    }
  else
    {
      g_variant_get (reply, "(bb)", &allowed, &remember);
      agent_desktop_consent_broker_answer_tool (pending->self, pending->number, allowed,
                                                allowed && remember);
    }
  pending_free (pending);
}

/* @text, cut after @max_chars characters */
static char *
dup_cut (const char *text,
         gsize       max_chars)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *cut = NULL;

  if (g_utf8_strlen (valid, -1) <= (glong) max_chars)
    return g_steal_pointer (&valid);
  cut = g_utf8_substring (valid, 0, max_chars);
  return g_strconcat (cut, "…", NULL);
}

static void
notify_user (AgentDesktopConsentBroker *self,
             ToolQuestion              *question,
             const char                *description,
             const char                *arguments)
{
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *id = dup_notification_id (question->number);
  g_autofree char *title = NULL;
  g_autofree char *shown = dup_cut (arguments, MAX_NOTIFIED_ARGUMENTS_CHARS);
  g_autofree char *body = NULL;

  /* Translators: the first %s is an application's name, the second its tool's */
  title = g_strdup_printf (_("Allow “%s” to run its tool “%s”?"), question->app_name,
                           question->tool_name);
  notification = g_notification_new (title);
  if (description[0] != '\0')
    body = g_strdup_printf ("%s\n%s", description, shown);
  else
    body = g_strdup (shown);
  g_notification_set_body (notification, body);
  g_notification_set_priority (notification, G_NOTIFICATION_PRIORITY_HIGH);
  g_notification_add_button_with_target (notification, _("Deny"), "app.deny-tool", "u",
                                         question->number);
  g_notification_add_button_with_target (notification, _("Allow Once"), "app.allow-tool", "u",
                                         question->number);
  g_notification_add_button_with_target (notification, _("Always Allow"),
                                         "app.always-allow-tool", "u", question->number);
  g_application_send_notification (self->application, id, notification);
  question->notified = TRUE;
}

void
agent_desktop_consent_broker_approve_tool_async (AgentDesktopConsentBroker *self,
                                                 const char                *app_id,
                                                 const char                *app_name,
                                                 const char                *tool_name,
                                                 const char                *description,
                                                 const char                *arguments,
                                                 GCancellable              *cancellable,
                                                 GAsyncReadyCallback        callback,
                                                 gpointer                   user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autofree char *sent = NULL;
  g_autofree char *described = NULL;
  ToolQuestion *question;

  g_task_set_source_tag (task, agent_desktop_consent_broker_approve_tool_async);

  if (!agent_desktop_apps_get_ask_before_tools (self->apps, app_id)
      || agent_desktop_apps_is_tool_allowed (self->apps, app_id, tool_name))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  question = g_new0 (ToolQuestion, 1);
  question->self = self;
  question->number = ++self->next_tool_question;
  question->app_id = g_strdup (app_id);
  question->app_name = g_strdup (app_name);
  question->tool_name = g_strdup (tool_name);
  question->task = g_steal_pointer (&task);
  g_hash_table_insert (self->tool_questions, GUINT_TO_POINTER (question->number), question);
  question->timeout_id = g_timeout_add_seconds (self->ask_seconds, timed_out, question);
  if (cancellable != NULL)
    {
      question->cancellable = g_object_ref (cancellable);
      question->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled),
                                                      question, NULL);
    }

  sent = strlen (arguments) > MAX_ARGUMENTS_BYTES ? dup_cut (arguments, MAX_ARGUMENTS_BYTES / 4)
                                                  : g_strdup (arguments);
  described = dup_cut (description ? description : "", MAX_DESCRIPTION_CHARS);
  if (self->agents->len > 0 && self->connection != NULL)
    {
      ConsentAgent *agent = g_ptr_array_index (self->agents, self->agents->len - 1);

      g_dbus_connection_call (self->connection, agent->name, agent->path,
                              "io.github.libagent.AssistantConsent1", "ApproveToolCall",
                              g_variant_new ("(sssss)", app_id, app_name, tool_name, described,
                                             sent),
                              G_VARIANT_TYPE ("(bb)"), G_DBUS_CALL_FLAGS_NO_AUTO_START,
                              (int) MIN (self->ask_seconds, G_MAXINT / 1000) * 1000, NULL,
                              agent_answered, pending_new (self, question->number));
    }
  else
    notify_user (self, question, described, sent);
}

/* TRUE if the call may run; else FALSE with an error whose message is the
 * model's tool result */
gboolean
agent_desktop_consent_broker_approve_tool_finish (AgentDesktopConsentBroker  *self,
                                                  GAsyncResult               *result,
                                                  GError                    **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result))
                        == agent_desktop_consent_broker_approve_tool_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The notification's buttons */

static void
answer_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  AgentDesktopConsentBroker *self = user_data;
  const char *name = g_action_get_name (G_ACTION (action));

  agent_desktop_consent_broker_answer_tool (self, g_variant_get_uint32 (parameter),
                                            !g_str_equal (name, "deny-tool"),
                                            g_str_equal (name, "always-allow-tool"));
}

static const GActionEntry tool_actions[] = {
  { "deny-tool", answer_action, "u", NULL, NULL, { 0 } },
  { "allow-tool", answer_action, "u", NULL, NULL, { 0 } },
  { "always-allow-tool", answer_action, "u", NULL, NULL, { 0 } },
};

void
agent_desktop_consent_broker_init_tools (AgentDesktopConsentBroker *self)
{
  self->tool_questions = g_hash_table_new_full (NULL, NULL, NULL,
                                                (GDestroyNotify) tool_question_free);
  if (self->application != NULL)
    g_action_map_add_action_entries (G_ACTION_MAP (self->application), tool_actions,
                                     G_N_ELEMENTS (tool_actions), self);
}

/* The broker goes: every question is answered with @error */
void
agent_desktop_consent_broker_stop_tool_questions (AgentDesktopConsentBroker *self,
                                                  const GError              *error)
{
  GHashTableIter iter;
  gpointer key;

  if (self->application != NULL)
    for (guint i = 0; i < G_N_ELEMENTS (tool_actions); i++)
      g_action_map_remove_action (G_ACTION_MAP (self->application), tool_actions[i].name);
  while (self->tool_questions != NULL && g_hash_table_size (self->tool_questions) > 0)
    {
      g_hash_table_iter_init (&iter, self->tool_questions);
      g_hash_table_iter_next (&iter, &key, NULL);
      resolve (self, GPOINTER_TO_UINT (key), FALSE, error);
    }
}

/* Preferences' methods for the tools: TRUE if @invocation was one (it is
 * answered then) */
gboolean
agent_desktop_consent_broker_administer_tools (AgentDesktopConsentBroker *self,
                                               GDBusMethodInvocation     *invocation)
{
  const char *method = g_dbus_method_invocation_get_method_name (invocation);
  GVariant *parameters = g_dbus_method_invocation_get_parameters (invocation);
  g_autoptr(GError) error = NULL;
  const char *app_id;
  const char *tool_name;
  gboolean ask;

  if (g_str_equal (method, "ListToolApprovals"))
    {
      g_auto(GStrv) tools = NULL;

      g_variant_get (parameters, "(&s)", &app_id);
      tools = agent_desktop_apps_dup_allowed_tools (self->apps, app_id);
      ask = agent_desktop_apps_get_ask_before_tools (self->apps, app_id);
      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(b^as)", ask, tools));
      return TRUE;
    }
  if (g_str_equal (method, "SetAskBeforeTools"))
    {
      g_variant_get (parameters, "(&sb)", &app_id, &ask);
      if (app_id[0] == '\0')
        g_set_error_literal (&error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                             _("The application id is empty"));
      else
        agent_desktop_apps_set_ask_before_tools (self->apps, app_id, ask, &error);
    }
  else if (g_str_equal (method, "ForgetTool"))
    {
      g_variant_get (parameters, "(&s&s)", &app_id, &tool_name);
      agent_desktop_apps_forget_tool (self->apps, app_id, tool_name[0] ? tool_name : NULL,
                                      &error);
    }
  else
    return FALSE;

  if (error != NULL)
    g_dbus_method_invocation_return_gerror (invocation, error);
  else
    g_dbus_method_invocation_return_value (invocation, NULL);
  return TRUE;
}
