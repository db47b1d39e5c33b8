/* agent-step-remote.c — a step run by the desktop service
 *
 * The `desktop` provider's steps (providers/agent-desktop.c): the request
 * is written at once as RunStep's arguments (its messages through
 * agent_message_to_variant()); the session bus is got, the service's Step*
 * signals for this step's id are subscribed to before the call (so none is
 * missed), and RunStep is called without a D-Bus timeout. The signals feed
 * the step's accumulator as a decoder would; the reply completes the
 * message (provider data, usage, finish reason) and the step ends through
 * agent-step.c's ending functions, as an HTTP step does. Cancelling the
 * step (the turn, the provider's dispose, the step-timeout) sends
 * CancelStep and fails the step at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "messages/agent-message-private.h"
#include "messages/agent-tool-call-private.h"
#include "tools/agent-tool.h"
#include "transport/agent-step-remote-private.h"

struct _AgentStepRemote
{
  char            *profile;
  char            *step_id;
  GVariant        *arguments;     /* RunStep's, floating no more */
  GDBusConnection *connection;
  guint            subscription;
  gulong           cancelled_id;
};

void
_agent_step_remote_free (AgentStepRemote *remote)
{
  if (remote == NULL)
    return;
  g_assert (remote->subscription == 0 && remote->cancelled_id == 0);
  g_clear_pointer (&remote->arguments, g_variant_unref);
  g_clear_object (&remote->connection);
  g_free (remote->profile);
  g_free (remote->step_id);
  g_free (remote);
}

/* The arguments */

static void
add_double (GVariantBuilder *builder,
            const char      *key,
            double           value)
{
  g_variant_builder_add (builder, "{sv}", key, g_variant_new_double (value));
}

static const char * const tool_choices[] = { "default", "auto", "none", "required", "tool" };

const char * const _agent_reasoning_effort_names[] = {
  "default", "none", "low", "medium", "high", NULL
};

/* What the request asks besides its messages, as a{sv}. The headers stay
 * with the caller: they may carry its secrets, and the service's provider
 * sends its own. */
GVariant *
_agent_request_settings_to_variant (AgentRequestSettings *settings)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  if (_agent_request_settings_has (settings, AGENT_SETTING_TEMPERATURE))
    add_double (&builder, "temperature", settings->temperature);
  if (_agent_request_settings_has (settings, AGENT_SETTING_TOP_P))
    add_double (&builder, "top-p", settings->top_p);
  if (_agent_request_settings_has (settings, AGENT_SETTING_TOP_K))
    g_variant_builder_add (&builder, "{sv}", "top-k", g_variant_new_uint32 (settings->top_k));
  if (_agent_request_settings_has (settings, AGENT_SETTING_SEED))
    g_variant_builder_add (&builder, "{sv}", "seed", g_variant_new_int64 (settings->seed));
  if (_agent_request_settings_has (settings, AGENT_SETTING_STOP) && settings->stop != NULL)
    g_variant_builder_add (&builder, "{sv}", "stop",
                           g_variant_new_strv ((const char * const *) settings->stop, -1));
  if (_agent_request_settings_has (settings, AGENT_SETTING_PRESENCE_PENALTY))
    add_double (&builder, "presence-penalty", settings->presence_penalty);
  if (_agent_request_settings_has (settings, AGENT_SETTING_FREQUENCY_PENALTY))
    add_double (&builder, "frequency-penalty", settings->frequency_penalty);
  if (_agent_request_settings_has (settings, AGENT_SETTING_TOOL_CHOICE))
    {
      g_variant_builder_add (&builder, "{sv}", "tool-choice",
                             g_variant_new_string (tool_choices[settings->tool_choice]));
      if (settings->tool_choice_name != NULL)
        g_variant_builder_add (&builder, "{sv}", "tool-choice-name",
                               g_variant_new_string (settings->tool_choice_name));
    }
  if (_agent_request_settings_has (settings, AGENT_SETTING_PARALLEL_TOOL_CALLS))
    g_variant_builder_add (&builder, "{sv}", "parallel-tool-calls",
                           g_variant_new_boolean (settings->parallel_tool_calls));
  if (_agent_request_settings_has (settings, AGENT_SETTING_PROVIDER_OPTIONS) &&
      settings->provider_options != NULL)
    {
      g_autofree char *text = agent_json_node_to_string (settings->provider_options, FALSE);

      g_variant_builder_add (&builder, "{sv}", "provider-options", g_variant_new_string (text));
    }
  return g_variant_builder_end (&builder);
}

/* The value of @key in @dict, of @type; FALSE with an error naming the key
 * if it has another type. *@out is NULL when it is absent. */
static gboolean
lookup_setting (GVariant            *dict,
                const char          *key,
                const GVariantType  *type,
                GVariant           **out,
                GError             **error)
{
  *out = g_variant_lookup_value (dict, key, NULL);
  if (*out != NULL && !g_variant_is_of_type (*out, type))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The setting “%s” is of type “%s”, not “%s”"),
                   key, g_variant_get_type_string (*out), g_variant_type_peek_string (type));
      g_clear_pointer (out, g_variant_unref);
      return FALSE;
    }
  return TRUE;
}

AgentRequestSettings *
_agent_request_settings_new_from_variant (GVariant  *variant,
                                          GError   **error)
{
  g_autoptr(AgentRequestSettings) settings = agent_request_settings_new ();
  g_autoptr(GVariant) value = NULL;
  static const char * const doubles[] = {
    "temperature", "top-p", "presence-penalty", "frequency-penalty"
  };

  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++)
    {
      if (!lookup_setting (variant, doubles[i], G_VARIANT_TYPE_DOUBLE, &value, error))
        return NULL;
      if (value != NULL)
        g_object_set (settings, doubles[i], g_variant_get_double (value), NULL);
      g_clear_pointer (&value, g_variant_unref);
    }

  if (!lookup_setting (variant, "top-k", G_VARIANT_TYPE_UINT32, &value, error))
    return NULL;
  if (value != NULL)
    agent_request_settings_set_top_k (settings, g_variant_get_uint32 (value));
  g_clear_pointer (&value, g_variant_unref);

  if (!lookup_setting (variant, "seed", G_VARIANT_TYPE_INT64, &value, error))
    return NULL;
  if (value != NULL)
    agent_request_settings_set_seed (settings, g_variant_get_int64 (value));
  g_clear_pointer (&value, g_variant_unref);

  if (!lookup_setting (variant, "stop", G_VARIANT_TYPE_STRING_ARRAY, &value, error))
    return NULL;
  if (value != NULL)
    {
      g_autofree const char **stop = g_variant_get_strv (value, NULL);

      agent_request_settings_set_stop (settings, stop);
    }
  g_clear_pointer (&value, g_variant_unref);

  if (!lookup_setting (variant, "tool-choice", G_VARIANT_TYPE_STRING, &value, error))
    return NULL;
  if (value != NULL)
    {
      const char *choice = g_variant_get_string (value, NULL);
      const char *name = NULL;
      guint i;

      for (i = 0; i < G_N_ELEMENTS (tool_choices); i++)
        if (g_str_equal (choice, tool_choices[i]))
          break;
      g_variant_lookup (variant, "tool-choice-name", "&s", &name);
      if (i == G_N_ELEMENTS (tool_choices) || (i == AGENT_TOOL_CHOICE_TOOL && name == NULL))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("The setting “tool-choice” is “%s”, not default, auto, none, required "
                         "or tool (with a “tool-choice-name”)"),
                       choice);
          return NULL;
        }
      agent_request_settings_set_tool_choice (settings, i, i == AGENT_TOOL_CHOICE_TOOL ? name
                                                                                     : NULL);
    }
  g_clear_pointer (&value, g_variant_unref);

  if (!lookup_setting (variant, "parallel-tool-calls", G_VARIANT_TYPE_BOOLEAN, &value, error))
    return NULL;
  if (value != NULL)
    agent_request_settings_set_parallel_tool_calls (settings, g_variant_get_boolean (value));
  g_clear_pointer (&value, g_variant_unref);

  if (!lookup_setting (variant, "provider-options", G_VARIANT_TYPE_STRING, &value, error))
    return NULL;
  if (value != NULL)
    {
      g_autoptr(GError) parse_error = NULL;
      g_autoptr(JsonNode) options = agent_json_parse (g_variant_get_string (value, NULL), -1,
                                                      &parse_error);

      if (options == NULL || !JSON_NODE_HOLDS_OBJECT (options))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("The setting “provider-options” is not a JSON object%s%s"),
                       parse_error ? ": " : "", parse_error ? parse_error->message : "");
          return NULL;
        }
      agent_request_settings_set_provider_options (settings, options);
    }

  return g_steal_pointer (&settings);
}

/* Each tool as Assistant1's Send takes it: name, description, parameters */
GVariant *
_agent_tools_to_variant (GListModel *tools)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; tools != NULL && i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(AgentTool) tool = g_list_model_get_item (tools, i);
      JsonNode *parameters = agent_tool_get_parameters (tool);
      GVariantBuilder dict;

      g_variant_builder_init (&dict, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_add (&dict, "{sv}", "name",
                             g_variant_new_string (agent_tool_get_name (tool)));
      g_variant_builder_add (&dict, "{sv}", "description",
                             g_variant_new_string (agent_tool_get_description (tool)
                                                   ? agent_tool_get_description (tool) : ""));
      if (parameters != NULL)
        {
          g_autofree char *schema = agent_json_node_to_string (parameters, FALSE);

          g_variant_builder_add (&dict, "{sv}", "parameters", g_variant_new_string (schema));
        }
      g_variant_builder_add_value (&builder, g_variant_builder_end (&dict));
    }
  return g_variant_builder_end (&builder);
}

gboolean
_agent_step_remote_build (AgentStep           *self,
                          const AgentRequest  *request,
                          GError             **error)
{
  static guint next_step;
  AgentStepRemote *remote = g_new0 (AgentStepRemote, 1);
  GVariantBuilder messages;
  GVariantBuilder options;

  self->remote = remote;
  remote->profile = g_strdup (request->model ? request->model : "");
  remote->step_id = g_strdup_printf ("step-%u", g_atomic_int_add (&next_step, 1) + 1);

  g_variant_builder_init (&messages, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < g_list_model_get_n_items (request->messages); i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (request->messages, i);

      g_variant_builder_add_value (&messages, agent_message_to_variant (message));
    }

  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  if (request->system_prompt != NULL)
    g_variant_builder_add (&options, "{sv}", "system-prompt",
                           g_variant_new_string (request->system_prompt));
  g_variant_builder_add (&options, "{sv}", "settings",
                         _agent_request_settings_to_variant (request->settings));
  /* The provider's own settings of an answer */
  if (agent_provider_get_max_tokens (request->provider) > 0)
    g_variant_builder_add (&options, "{sv}", "max-tokens",
                           g_variant_new_uint32 (agent_provider_get_max_tokens (request->provider)));
  if (agent_provider_get_reasoning_effort (request->provider) != AGENT_REASONING_EFFORT_DEFAULT)
    g_variant_builder_add (&options, "{sv}", "reasoning-effort",
                           g_variant_new_string (_agent_reasoning_effort_names[
                             agent_provider_get_reasoning_effort (request->provider)]));
  if (request->output_schema != NULL)
    {
      g_autofree char *schema = agent_json_node_to_string (request->output_schema, FALSE);

      g_variant_builder_add (&options, "{sv}", "output-schema", g_variant_new_string (schema));
      if (request->output_name != NULL)
        g_variant_builder_add (&options, "{sv}", "output-name",
                               g_variant_new_string (request->output_name));
    }

  remote->arguments = g_variant_ref_sink (g_variant_new ("(ss@aa{sv}@aa{sv}@a{sv})",
                                                         remote->profile, remote->step_id,
                                                         g_variant_builder_end (&messages),
                                                         _agent_tools_to_variant (request->tools),
                                                         g_variant_builder_end (&options)));
  /* What max-request-size weighs */
  self->body = g_variant_get_data_as_bytes (remote->arguments);
  return TRUE;
}

/* Errors */

GError *
_agent_desktop_error_from_dbus (GError *error)
{
  g_autofree char *name = g_dbus_error_get_remote_error (error);
  g_autoptr(GError) owned = error;
  const char *reason;
  int code = AGENT_ERROR_FAILED;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_steal_pointer (&owned);
  g_dbus_error_strip_remote_error (error);

  if (name == NULL || !g_str_has_prefix (name, AGENT_DESKTOP_ERROR_PREFIX))
    {
      /* Not the service's answer: no bus, no service, or it left */
      if (g_strcmp0 (name, "org.freedesktop.DBus.Error.NoReply") == 0)
        return g_error_new (AGENT_ERROR, AGENT_ERROR_NETWORK,
                            _("The desktop assistant service (%s) stopped before it answered: %s"),
                            AGENT_DESKTOP_BUS_NAME, error->message);
      return g_error_new (AGENT_ERROR, AGENT_ERROR_NETWORK,
                          _("The desktop assistant service (%s) is not available: %s"),
                          AGENT_DESKTOP_BUS_NAME, error->message);
    }

  reason = name + strlen (AGENT_DESKTOP_ERROR_PREFIX);
  if (g_str_equal (reason, "Cancelled"))
    return g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                        _("The desktop assistant cancelled the request: %s"), error->message);
  if (g_str_equal (reason, "AccessDenied"))
    return g_error_new (AGENT_ERROR, AGENT_ERROR_AUTHENTICATION,
                        _("The desktop assistant refused: %s"), error->message);
  if (g_str_equal (reason, "LimitReached"))
    return g_error_new (AGENT_ERROR, AGENT_ERROR_LIMIT,
                        _("The desktop assistant refused: %s"), error->message);
  if (g_str_equal (reason, "NoSuchProfile"))
    return g_error_new (AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND,
                        _("The desktop assistant has no such profile: %s"), error->message);

  if (g_str_equal (reason, "InvalidArgs"))
    code = AGENT_ERROR_INVALID_ARGUMENT;
  else if (g_str_equal (reason, "Busy"))
    code = AGENT_ERROR_BUSY;
  else if (g_str_equal (reason, "NotSupported"))
    code = AGENT_ERROR_UNSUPPORTED;
  else if (g_str_equal (reason, "Failed"))
    code = AGENT_ERROR_PROVIDER;
  return g_error_new (AGENT_ERROR, code, _("The desktop assistant: %s"), error->message);
}

/* Running */

void
_agent_step_remote_stop (AgentStep *self)
{
  AgentStepRemote *remote = self->remote;

  if (remote == NULL)
    return;
  if (remote->subscription != 0)
    g_dbus_connection_signal_unsubscribe (remote->connection, remote->subscription);
  remote->subscription = 0;
  if (remote->cancelled_id != 0)
    g_cancellable_disconnect (self->cancellable, remote->cancelled_id);
  remote->cancelled_id = 0;
}

static void
fail (AgentStep *self,
      GError    *error)
{
  if (self->task != NULL)
    _agent_step_return_error (self, error);
  else
    g_error_free (error);
}

static void
step_signal_cb (GDBusConnection *connection,
                const char      *sender_name,
                const char      *object_path,
                const char      *interface_name,
                const char      *signal_name,
                GVariant        *parameters,
                gpointer         user_data)
{
  AgentStep *self = user_data;
  AgentStepRemote *remote = self->remote;
  GError *error;
  const char *step_id;
  const char *text;

  if (self->task == NULL ||
      !g_variant_is_of_type (parameters, G_VARIANT_TYPE_TUPLE) ||
      g_variant_n_children (parameters) < 2)
    return;
  g_variant_get_child (parameters, 0, "&s", &step_id);
  if (!g_str_equal (step_id, remote->step_id))
    return;

  self->last_byte = g_get_monotonic_time ();
  if (g_str_equal (signal_name, "StepText") &&
      g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(ss)")))
    {
      g_variant_get_child (parameters, 1, "&s", &text);
      agent_accumulator_append_text (self->accumulator, text, strlen (text));
    }
  else if (g_str_equal (signal_name, "StepReasoning") &&
           g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(ss)")))
    {
      g_variant_get_child (parameters, 1, "&s", &text);
      agent_accumulator_append_reasoning (self->accumulator, text, strlen (text));
    }
  else if (g_str_equal (signal_name, "StepToolCall") &&
           g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(susss)")))
    {
      const char *id, *name;
      guint32 index;

      g_variant_get (parameters, "(&su&s&s&s)", NULL, &index, &id, &name, &text);
      agent_accumulator_tool_call_delta (self->accumulator, index, id[0] ? id : NULL,
                                         name[0] ? name : NULL, NULL, text, strlen (text));
    }

  /* An answer beyond the accumulator's bounds is not taken further */
  if ((error = agent_accumulator_take_error (self->accumulator)) != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      fail (self, error);
    }
}

/* What the reply's message has that the signals did not carry: provider
 * data, tool call types, a refusal, and what the signals missed */
static void
complete_message (AgentStep    *self,
                  AgentMessage *answer)
{
  AgentMessage *message = agent_accumulator_get_message (self->accumulator);
  const char *have = agent_message_get_content (message);
  const char *want = agent_message_get_content (answer);
  gsize n_have = have ? strlen (have) : 0;

  if (want != NULL && strlen (want) > n_have && strncmp (want, have ? have : "", n_have) == 0)
    agent_accumulator_append_text (self->accumulator, want + n_have, strlen (want + n_have));
  if (agent_message_get_reasoning (message) == NULL && agent_message_get_reasoning (answer) != NULL)
    agent_accumulator_append_reasoning (self->accumulator, agent_message_get_reasoning (answer),
                                        strlen (agent_message_get_reasoning (answer)));
  if (agent_message_get_refusal (message) == NULL && agent_message_get_refusal (answer) != NULL)
    agent_accumulator_append_refusal (self->accumulator, agent_message_get_refusal (answer),
                                      strlen (agent_message_get_refusal (answer)));

  for (guint i = 0; i < agent_message_get_n_tool_calls (answer); i++)
    {
      AgentToolCall *wanted = agent_message_get_tool_call (answer, i);
      AgentToolCall *call = agent_accumulator_lookup_tool_call (self->accumulator, i);

      if (call == NULL)
        call = agent_accumulator_tool_call_delta (self->accumulator, i, wanted->id, wanted->name,
                                                  wanted->type, wanted->arguments->str,
                                                  wanted->arguments->len);
      if (call == NULL)
        break;
      if (wanted->type != NULL)
        _agent_tool_call_set_type (call, wanted->type);
      if (wanted->provider_data != NULL)
        agent_tool_call_set_provider_data (call, wanted->provider_data);
    }

  if (agent_message_get_provider_data (answer) != NULL)
    agent_message_set_provider_data (message, agent_message_get_provider_data (answer));
  if (agent_message_get_response_id (answer) != NULL)
    agent_accumulator_set_response_id (self->accumulator, agent_message_get_response_id (answer));
}

static void
run_step_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(AgentStep) self = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) answer_variant = NULL;
  g_autoptr(AgentMessage) answer = NULL;
  g_autoptr(GError) error = NULL;
  GError *bound;
  GVariant *dict;
  const char *text;
  gint64 prompt = -1, completion = -1, total = -1;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (self->task == NULL)
    return;   /* failed already (a bound of the accumulator) */
  if (reply == NULL)
    {
      fail (self, _agent_desktop_error_from_dbus (g_steal_pointer (&error)));
      return;
    }

  dict = g_variant_get_child_value (reply, 0);
  answer_variant = g_variant_lookup_value (dict, "message", G_VARIANT_TYPE_VARDICT);
  if (answer_variant != NULL && !(answer = agent_message_new_from_variant (answer_variant, &error)))
    {
      g_variant_unref (dict);
      fail (self, g_error_new (AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The desktop assistant's answer could not be read: %s"),
                               error->message));
      return;
    }
  if (answer != NULL)
    complete_message (self, answer);

  if (g_variant_lookup (dict, "finish-reason", "&s", &text) && text[0] != '\0')
    agent_accumulator_set_finish_reason (self->accumulator, text);
  if (g_variant_lookup (dict, "model", "&s", &text) && text[0] != '\0')
    agent_accumulator_set_model (self->accumulator, text);
  g_variant_lookup (dict, "prompt-tokens", "x", &prompt);
  g_variant_lookup (dict, "completion-tokens", "x", &completion);
  g_variant_lookup (dict, "total-tokens", "x", &total);
  g_variant_unref (dict);
  if (prompt >= 0 || completion >= 0 || total >= 0)
    {
      g_autoptr(AgentUsage) usage = agent_usage_new (prompt, completion, total);

      agent_accumulator_set_usage (self->accumulator, usage);
    }

  agent_accumulator_finish (self->accumulator);
  if ((bound = agent_accumulator_take_error (self->accumulator)) != NULL)
    {
      fail (self, bound);
      return;
    }
  _agent_step_return_success (self);
}

static void
cancel_step_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  /* The step may have ended meanwhile: nothing to say */
  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    g_debug ("CancelStep: %s", error->message);
}

/* The step's own cancellable was cancelled (the turn, the provider's
 * dispose, the step-timeout): the service stops the request too. RunStep's
 * call, on the same cancellable, fails at once. */
static void
cancelled_cb (GCancellable *cancellable,
              gpointer      user_data)
{
  AgentStep *self = user_data;
  AgentStepRemote *remote = self->remote;

  g_dbus_connection_call (remote->connection, AGENT_DESKTOP_BUS_NAME, AGENT_DESKTOP_OBJECT_PATH,
                          AGENT_DESKTOP_INTERFACE, "CancelStep",
                          g_variant_new ("(s)", remote->step_id), NULL,
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, NULL, cancel_step_cb, NULL);
}

static void
bus_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(AgentStep) self = user_data;
  g_autoptr(GError) error = NULL;
  AgentStepRemote *remote = self->remote;

  remote->connection = g_bus_get_finish (result, &error);
  if (self->task == NULL)
    return;
  if (remote->connection == NULL)
    {
      fail (self, _agent_desktop_error_from_dbus (g_steal_pointer (&error)));
      return;
    }

  /* Before the call: none of the step's signals can come before it */
  remote->subscription = g_dbus_connection_signal_subscribe (remote->connection,
                                                             AGENT_DESKTOP_BUS_NAME,
                                                             AGENT_DESKTOP_INTERFACE, NULL,
                                                             AGENT_DESKTOP_OBJECT_PATH,
                                                             remote->step_id,
                                                             G_DBUS_SIGNAL_FLAGS_NONE,
                                                             step_signal_cb,
                                                             agent_step_ref (self),
                                                             (GDestroyNotify) agent_step_unref);
  remote->cancelled_id = g_cancellable_connect (self->cancellable, G_CALLBACK (cancelled_cb),
                                                self, NULL);
  if (g_cancellable_is_cancelled (self->cancellable))
    {
      fail (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                       _("The request was cancelled")));
      return;
    }
  g_dbus_connection_call (remote->connection, AGENT_DESKTOP_BUS_NAME, AGENT_DESKTOP_OBJECT_PATH,
                          AGENT_DESKTOP_INTERFACE, "RunStep", remote->arguments,
                          G_VARIANT_TYPE ("(a{sv})"), G_DBUS_CALL_FLAGS_NONE, G_MAXINT,
                          self->cancellable, run_step_cb, agent_step_ref (self));
}

void
_agent_step_remote_send (AgentStep *self)
{
  self->last_byte = g_get_monotonic_time ();
  g_bus_get (G_BUS_TYPE_SESSION, self->cancellable, bus_cb, agent_step_ref (self));
}
