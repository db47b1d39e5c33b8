/* agent-desktop-conversation.c — one conversation of an application
 *
 * An AgentSession on the bus. Only its owner (the unique name that
 * started it) may call it, and its signals go to the owner alone. The
 * owner's tools are AgentTools whose handler has the user approve the call
 * (agent-desktop-tool-consent.c), then sends ToolCall and waits for
 * ToolResult; a denied call is the model's tool error. The session's
 * limits (tool timeout, cancellation) apply to them as to any tool, the
 * user's question included. Each turn that ends counts its tokens for the
 * app and goes in the log.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-desktop-consent.h"
#include "agent-desktop-conversation.h"
#include "agent-desktop-error.h"
#include "agent-desktop-step.h"

#define INTERFACE_NAME "io.github.libagent.AssistantConversation1"
/* How long the caller's tool may take to answer */
#define TOOL_TIMEOUT_SECONDS 300.0

struct _AgentDesktopConversation
{
  GObject                    parent_instance;

  GDBusConnection           *connection;
  GDBusInterfaceInfo        *info;
  char                      *path;
  char                      *owner;
  char                      *app_id;
  char                      *app_name;
  AgentProfile              *profile;
  AgentSession              *session;
  AgentDesktopApps          *apps;
  AgentDesktopConsentBroker *consent;      /* approves each call of the owner's tools */
  GCancellable              *cancellable;  /* the turn's, while one runs */
  GHashTable                *invocations;  /* call id → AgentToolInvocation, for ToolResult */
  guint                      registration_id;
  guint                      next_call;
  gboolean                   closed;
};

enum {
  CLOSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (AgentDesktopConversation, agent_desktop_conversation, G_TYPE_OBJECT)

static void
emit (AgentDesktopConversation *self,
      const char               *name,
      GVariant                 *parameters)
{
  g_autoptr(GError) error = NULL;

  if (self->closed)
    {
      g_variant_unref (g_variant_ref_sink (parameters));
      return;
    }
  if (!g_dbus_connection_emit_signal (self->connection, self->owner, self->path,
                                      INTERFACE_NAME, name, parameters, &error))
    g_debug ("Could not send %s to %s: %s", name, self->owner, error->message);
}

static void
on_text_delta (AgentDesktopConversation *self,
               AgentMessage             *message,
               const char               *delta)
{
  emit (self, "TextDelta", g_variant_new ("(s)", delta));
}

static void
send_tool_call (AgentDesktopConversation *self,
                AgentToolInvocation      *invocation)
{
  AgentToolCall *call = agent_tool_invocation_get_tool_call (invocation);
  const char *id = call ? agent_tool_call_get_id (call) : NULL;
  g_autofree char *call_id = NULL;
  g_autofree char *arguments = NULL;
  JsonNode *node = agent_tool_invocation_get_arguments (invocation);

  /* Some servers give no id: the call still needs one on the bus */
  if (id == NULL || id[0] == '\0' || g_hash_table_contains (self->invocations, id))
    call_id = g_strdup_printf ("call-%u", ++self->next_call);
  else
    call_id = g_strdup (id);
  arguments = node ? json_to_string (node, FALSE) : g_strdup ("{}");

  g_hash_table_insert (self->invocations, g_strdup (call_id), g_object_ref (invocation));
  emit (self, "ToolCall",
        g_variant_new ("(sss)", call_id,
                       agent_tool_get_name (agent_tool_invocation_get_tool (invocation)),
                       arguments));
}

typedef struct
{
  AgentDesktopConversation *self;
  AgentToolInvocation      *invocation;
} Approval;

static void
approved (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Approval *approval = user_data;
  g_autoptr(AgentDesktopConversation) self = approval->self;
  g_autoptr(AgentToolInvocation) invocation = approval->invocation;
  g_autoptr(GError) error = NULL;

  g_free (approval);
  if (!agent_desktop_consent_broker_approve_tool_finish (AGENT_DESKTOP_CONSENT_BROKER (object),
                                                         result, &error))
    {
      /* The model reads why, and the turn goes on (a cancelled turn does not) */
      g_debug ("%s: %s", self->app_id, error->message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        agent_tool_invocation_return_error_literal (invocation, error->message);
      else
        agent_tool_invocation_return_error_literal (invocation, _("The user denied this call"));
      return;
    }
  if (self->closed
      || g_cancellable_is_cancelled (agent_tool_invocation_get_cancellable (invocation)))
    {
      agent_tool_invocation_return_error_literal (invocation, _("The call was cancelled"));
      return;
    }
  send_tool_call (self, invocation);
}

static gboolean
call_owner_tool (AgentTool           *tool,
                 AgentToolInvocation *invocation,
                 gpointer             user_data,
                 GError             **error)
{
  AgentDesktopConversation *self = user_data;
  JsonNode *node = agent_tool_invocation_get_arguments (invocation);
  g_autofree char *arguments = NULL;
  Approval *approval;

  if (self->consent == NULL)
    {
      g_set_error_literal (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                           _("The user denied this call"));
      return FALSE;
    }
  arguments = node ? json_to_string (node, FALSE) : g_strdup ("{}");
  approval = g_new0 (Approval, 1);
  approval->self = g_object_ref (self);
  approval->invocation = g_object_ref (invocation);
  agent_desktop_consent_broker_approve_tool_async (self->consent, self->app_id, self->app_name,
                                                   agent_tool_get_name (tool),
                                                   agent_tool_get_description (tool), arguments,
                                                   agent_tool_invocation_get_cancellable (
                                                     invocation),
                                                   approved, approval);
  return TRUE;
}

static void
set_tools (AgentDesktopConversation *self,
           GPtrArray                *tools)
{
  GListModel *current = agent_session_get_tools (self->session);

  while (g_list_model_get_n_items (current) > 0)
    {
      g_autoptr(AgentTool) tool = g_list_model_get_item (current, 0);

      agent_session_remove_tool (self->session, tool);
    }
  for (guint i = 0; tools != NULL && i < tools->len; i++)
    agent_session_add_tool (self->session, g_ptr_array_index (tools, i));
}

static GVariant *
usage_to_variant (AgentUsage *usage,
                  const char *text)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  if (usage != NULL)
    {
      g_variant_builder_add (&builder, "{sv}", "prompt-tokens",
                             g_variant_new_int64 (agent_usage_get_prompt_tokens (usage)));
      g_variant_builder_add (&builder, "{sv}", "completion-tokens",
                             g_variant_new_int64 (agent_usage_get_completion_tokens (usage)));
      g_variant_builder_add (&builder, "{sv}", "total-tokens",
                             g_variant_new_int64 (agent_usage_get_total_tokens (usage)));
    }
  g_variant_builder_add (&builder, "{sv}", "text", g_variant_new_string (text ? text : ""));
  return g_variant_builder_end (&builder);
}

static void
sent (GObject      *object,
      GAsyncResult *result,
      gpointer      user_data)
{
  g_autoptr(AgentDesktopConversation) self = user_data;
  g_autoptr(AgentMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) log_error = NULL;
  AgentMetrics *metrics;
  AgentUsage *usage;
  gint64 tokens = 0;

  message = agent_session_send_finish (AGENT_SESSION (object), result, &error);
  g_clear_object (&self->cancellable);
  g_hash_table_remove_all (self->invocations);

  /* The tokens of the turn's steps, completed or not, as the server reported them */
  metrics = agent_session_get_turn_metrics (self->session);
  usage = metrics ? agent_metrics_get_usage (metrics) : NULL;
  if (usage != NULL)
    tokens = MAX (0, agent_usage_get_total_tokens (usage));
  if (!agent_desktop_apps_add_request (self->apps, self->app_id,
                                       agent_profile_get_name (self->profile),
                                       (guint64) tokens, &log_error))
    g_warning ("Could not record the request of %s: %s", self->app_id, log_error->message);

  if (message == NULL)
    emit (self, "Failed", g_variant_new ("(ss)", agent_desktop_error_to_name (error),
                                         error->message));
  else
    emit (self, "Finished", g_variant_new ("(@a{sv})",
                                           usage_to_variant (usage,
                                                             agent_message_get_content (message))));
}

static void
send (AgentDesktopConversation *self,
      GDBusMethodInvocation    *invocation,
      GVariant                 *parameters)
{
  g_autoptr(GVariant) tools_variant = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  const char *text;

  g_variant_get (parameters, "(&s@aa{sv})", &text, &tools_variant);
  if (self->cancellable != NULL)
    {
      g_dbus_method_invocation_return_error (invocation, AGENT_DESKTOP_ERROR,
                                             AGENT_DESKTOP_ERROR_BUSY,
                                             _("The conversation is answering already"));
      return;
    }
  if (text[0] == '\0')
    {
      g_dbus_method_invocation_return_error (invocation, AGENT_DESKTOP_ERROR,
                                             AGENT_DESKTOP_ERROR_INVALID_ARGS,
                                             _("The message is empty"));
      return;
    }
  if (!agent_desktop_apps_check_limit (self->apps, self->app_id, &error)
      || (tools = agent_desktop_tools_parse (tools_variant, call_owner_tool, self,
                                             &error)) == NULL)
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return;
    }

  set_tools (self, tools);
  self->cancellable = g_cancellable_new ();
  agent_session_send_async (self->session, text, self->cancellable, sent, g_object_ref (self));
  g_dbus_method_invocation_return_value (invocation, NULL);
}

static void
tool_result (AgentDesktopConversation *self,
             GDBusMethodInvocation    *invocation,
             GVariant                 *parameters)
{
  AgentToolInvocation *tool_invocation;
  const char *call_id;
  const char *result;
  gboolean is_error;

  g_variant_get (parameters, "(&s&sb)", &call_id, &result, &is_error);
  tool_invocation = g_hash_table_lookup (self->invocations, call_id);
  if (tool_invocation == NULL)
    {
      g_dbus_method_invocation_return_error (invocation, AGENT_DESKTOP_ERROR,
                                             AGENT_DESKTOP_ERROR_INVALID_ARGS,
                                             _("No tool call “%s” is waiting for its result"),
                                             call_id);
      return;
    }
  if (is_error)
    agent_tool_invocation_return_error_literal (tool_invocation, result);
  else
    agent_tool_invocation_return_result (tool_invocation, result);
  g_hash_table_remove (self->invocations, call_id);
  g_dbus_method_invocation_return_value (invocation, NULL);
}

static void
method_call (GDBusConnection       *connection,
             const char            *sender,
             const char            *object_path,
             const char            *interface_name,
             const char            *method_name,
             GVariant              *parameters,
             GDBusMethodInvocation *invocation,
             gpointer               user_data)
{
  /* Close may drop the last reference of the conversation's list */
  g_autoptr(AgentDesktopConversation) self = g_object_ref (user_data);

  if (g_strcmp0 (sender, self->owner) != 0)
    {
      g_dbus_method_invocation_return_error (invocation, AGENT_DESKTOP_ERROR,
                                             AGENT_DESKTOP_ERROR_ACCESS_DENIED,
                                             _("This conversation belongs to another caller"));
      return;
    }

  if (g_str_equal (method_name, "Send"))
    send (self, invocation, parameters);
  else if (g_str_equal (method_name, "ToolResult"))
    tool_result (self, invocation, parameters);
  else if (g_str_equal (method_name, "Cancel"))
    {
      if (self->cancellable != NULL)
        g_cancellable_cancel (self->cancellable);
      g_dbus_method_invocation_return_value (invocation, NULL);
    }
  else if (g_str_equal (method_name, "Close"))
    {
      g_dbus_method_invocation_return_value (invocation, NULL);
      agent_desktop_conversation_close (self);
    }
  else
    g_assert_not_reached ();
}

static const GDBusInterfaceVTable vtable = { method_call, NULL, NULL, { 0 } };

static void
agent_desktop_conversation_dispose (GObject *object)
{
  AgentDesktopConversation *self = AGENT_DESKTOP_CONVERSATION (object);

  agent_desktop_conversation_close (self);
  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      set_tools (self, NULL);
    }
  g_clear_object (&self->session);
  g_clear_object (&self->apps);
  g_clear_object (&self->consent);
  g_clear_object (&self->profile);
  g_clear_object (&self->connection);

  G_OBJECT_CLASS (agent_desktop_conversation_parent_class)->dispose (object);
}

static void
agent_desktop_conversation_finalize (GObject *object)
{
  AgentDesktopConversation *self = AGENT_DESKTOP_CONVERSATION (object);

  g_clear_pointer (&self->info, g_dbus_interface_info_unref);
  g_clear_pointer (&self->invocations, g_hash_table_unref);
  g_free (self->path);
  g_free (self->owner);
  g_free (self->app_id);
  g_free (self->app_name);

  G_OBJECT_CLASS (agent_desktop_conversation_parent_class)->finalize (object);
}

static void
agent_desktop_conversation_class_init (AgentDesktopConversationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_desktop_conversation_dispose;
  object_class->finalize = agent_desktop_conversation_finalize;

  /* Closed: by its owner, or because the owner left or lost consent */
  signals[CLOSED] = g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
agent_desktop_conversation_init (AgentDesktopConversation *self)
{
  self->invocations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

AgentDesktopConversation *
agent_desktop_conversation_new (GDBusConnection    *connection,
                                GDBusInterfaceInfo *info,
                                const char         *path,
                                const char         *owner,
                                const char         *app_id,
                                AgentProfile       *profile,
                                AgentProvider      *provider,
                                AgentDesktopApps   *apps)
{
  AgentDesktopConversation *self = g_object_new (AGENT_DESKTOP_TYPE_CONVERSATION, NULL);

  self->connection = g_object_ref (connection);
  self->info = g_dbus_interface_info_ref (info);
  self->path = g_strdup (path);
  self->owner = g_strdup (owner);
  self->app_id = g_strdup (app_id);
  self->profile = g_object_ref (profile);
  self->apps = g_object_ref (apps);
  self->session = agent_session_new (provider);
  agent_session_set_tool_timeout (self->session, TOOL_TIMEOUT_SECONDS);
  if (agent_profile_get_context_window (profile) > 0)
    agent_session_set_context_window (self->session, agent_profile_get_context_window (profile));
  g_signal_connect_swapped (self->session, "text-delta", G_CALLBACK (on_text_delta), self);
  return self;
}

gboolean
agent_desktop_conversation_export (AgentDesktopConversation  *self,
                                   GError                   **error)
{
  self->registration_id = g_dbus_connection_register_object (self->connection, self->path,
                                                             self->info, &vtable, self, NULL,
                                                             error);
  return self->registration_id != 0;
}

/* Cancels the turn, leaves the bus and says so (once) */
void
agent_desktop_conversation_close (AgentDesktopConversation *self)
{
  if (self->closed)
    return;
  self->closed = TRUE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->registration_id != 0)
    g_dbus_connection_unregister_object (self->connection, self->registration_id);
  self->registration_id = 0;
  g_signal_emit (self, signals[CLOSED], 0);
}

const char *
agent_desktop_conversation_get_path (AgentDesktopConversation *self)
{
  return self->path;
}

const char *
agent_desktop_conversation_get_owner (AgentDesktopConversation *self)
{
  return self->owner;
}

const char *
agent_desktop_conversation_get_app_id (AgentDesktopConversation *self)
{
  return self->app_id;
}

AgentSession *
agent_desktop_conversation_get_session (AgentDesktopConversation *self)
{
  return self->session;
}

/* Who approves the calls of the owner's tools, and the owner's name to
 * show; without it no tool call is sent */
void
agent_desktop_conversation_set_consent (AgentDesktopConversation  *self,
                                        AgentDesktopConsentBroker *consent,
                                        const char                *app_name)
{
  g_set_object (&self->consent, consent);
  g_free (self->app_name);
  self->app_name = g_strdup (app_name);
}
