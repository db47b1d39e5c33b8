/* agent-desktop-step.c — RunStep and CancelStep: one model request of a
 * caller's own loop
 *
 * An application built on libagent (its `desktop` provider) runs its own
 * session: its tools, its approvals, its memory. The service runs one model
 * request for it at a time, with the profile's provider and its key, and
 * streams the answer back as signals to the caller alone. The step is
 * libagent's own (the private agent_step_* API, hence the service's link
 * to libagent's internal library): the same request building, retries,
 * limits and accumulator as a session's step, with a listener that turns
 * the accumulator's deltas into StepText, StepReasoning and StepToolCall.
 * Each step that ends counts its tokens for the app and is a line of the
 * log, as a conversation's turn is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-desktop-error.h"
#include "agent-desktop-profile.h"
#include "agent-desktop-step.h"
#include "transport/agent-step-remote-private.h"

/* The steps an app may run at once */
#define MAX_STEPS_PER_APP 32
/* A name that every provider's API takes for a structured answer */
#define DEFAULT_OUTPUT_NAME "response"

struct _AgentDesktopSteps
{
  GObject           parent_instance;

  GApplication     *application;   /* unowned: it owns the assistant, which owns us */
  AgentDesktopApps *apps;
  AgentProfileList *profiles;
  GHashTable       *running;       /* "owner\nstep id" → Running, unowned */
};

G_DEFINE_FINAL_TYPE (AgentDesktopSteps, agent_desktop_steps, G_TYPE_OBJECT)

typedef struct
{
  AgentDesktopSteps     *steps;
  GDBusMethodInvocation *invocation;
  char                  *key;
  char                  *step_id;
  char                  *app_id;
  AgentProfile          *profile;
  GListStore            *messages;
  GListStore            *tools;
  AgentRequestSettings  *settings;      /* the caller's */
  char                  *system_prompt;
  JsonNode              *output_schema;
  char                  *output_name;
  guint32                max_tokens;        /* 0: the profile's */
  gboolean               output_as_text;    /* the structured answer is a forced tool
                                             * call of the profile's API (Anthropic) */
  int                    reasoning_effort;  /* -1: the profile's */
  GCancellable          *cancellable;
  AgentProvider         *provider;
  AgentStep             *step;
} Running;

static void
running_free (Running *running)
{
  if (running->key != NULL &&
      g_hash_table_lookup (running->steps->running, running->key) == running)
    {
      g_hash_table_remove (running->steps->running, running->key);
      g_application_release (running->steps->application);
    }
  g_clear_pointer (&running->step, agent_step_unref);
  g_clear_object (&running->provider);
  g_clear_object (&running->cancellable);
  g_clear_pointer (&running->output_schema, json_node_unref);
  g_clear_object (&running->settings);
  g_clear_object (&running->tools);
  g_clear_object (&running->messages);
  g_clear_object (&running->profile);
  g_clear_object (&running->invocation);
  g_clear_object (&running->steps);
  g_free (running->output_name);
  g_free (running->system_prompt);
  g_free (running->app_id);
  g_free (running->step_id);
  g_free (running->key);
  g_free (running);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Running, running_free)

/* Signals, to the caller alone */

static void
emit (Running    *running,
      const char *name,
      GVariant   *parameters)
{
  GDBusConnection *connection = g_dbus_method_invocation_get_connection (running->invocation);
  g_autoptr(GError) error = NULL;

  if (!g_dbus_connection_emit_signal (connection,
                                      g_dbus_method_invocation_get_sender (running->invocation),
                                      AGENT_DESKTOP_OBJECT_PATH, AGENT_DESKTOP_INTERFACE, name,
                                      parameters, &error))
    g_debug ("Could not send %s: %s", name, error->message);
}

/* @text as a D-Bus string, which must be UTF-8 */
static GVariant *
new_string (const char *text,
            gsize       len)
{
  if (g_utf8_validate_len (text, len, NULL))
    return g_variant_new_take_string (g_strndup (text, len));
  return g_variant_new_take_string (g_utf8_make_valid (text, len));
}

static void
on_text (gpointer    user_data,
         const char *text,
         gsize       len)
{
  Running *running = user_data;

  emit (running, "StepText", g_variant_new ("(s@s)", running->step_id, new_string (text, len)));
}

static void
on_reasoning (gpointer    user_data,
              const char *text,
              gsize       len)
{
  Running *running = user_data;

  emit (running, "StepReasoning",
        g_variant_new ("(s@s)", running->step_id, new_string (text, len)));
}

static void
on_tool_call (gpointer       user_data,
              AgentToolCall *call,
              const char    *fragment,
              gsize          len)
{
  Running *running = user_data;
  const char *id = agent_tool_call_get_id (call);
  const char *name = agent_tool_call_get_name (call);

  /* The caller's turn reads a structured answer in the text, whatever the
   * profile's API */
  if (running->output_as_text && g_strcmp0 (name, running->output_name) == 0)
    {
      if (len > 0)
        on_text (running, fragment, len);
      return;
    }
  emit (running, "StepToolCall",
        g_variant_new ("(suss@s)", running->step_id, agent_tool_call_get_index (call),
                       id ? id : "", name ? name : "", new_string (fragment, len)));
}

static const AgentAccumulatorListener listener = {
  .text_delta = on_text,
  .reasoning_delta = on_reasoning,
  .tool_call_delta = on_tool_call,
};

/* Ending */

static void
return_error (Running      *running,
              const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_dbus_method_invocation_return_error (running->invocation, AGENT_DESKTOP_ERROR,
                                           AGENT_DESKTOP_ERROR_CANCELLED,
                                           _("The step was cancelled"));
  else if (error->domain == AGENT_DESKTOP_ERROR)
    g_dbus_method_invocation_return_gerror (running->invocation, error);
  else
    g_dbus_method_invocation_return_error_literal (running->invocation, AGENT_DESKTOP_ERROR,
                                                   AGENT_DESKTOP_ERROR_FAILED, error->message);
}

/* The forced call of the structured answer, when the profile's API
 * answers so (output_by_tool), or NULL */
static AgentToolCall *
output_call (Running      *running,
             AgentMessage *message)
{
  AgentToolCall *call;

  if (!running->output_as_text || agent_message_get_n_tool_calls (message) != 1)
    return NULL;
  call = agent_message_get_tool_call (message, 0);
  return g_strcmp0 (agent_tool_call_get_name (call), running->output_name) == 0 ? call : NULL;
}

/* @message as the codec writes it; its forced output call as its text */
static GVariant *
message_to_variant (Running      *running,
                    AgentMessage *message)
{
  GVariant *variant = agent_message_to_variant (message);
  AgentToolCall *call = output_call (running, message);
  GVariantBuilder parts;
  GVariantDict dict;
  g_autofree char *text = NULL;

  if (call == NULL)
    return variant;

  text = g_strconcat (agent_message_get_content (message) ? agent_message_get_content (message)
                                                          : "",
                      agent_tool_call_get_arguments (call), NULL);
  g_variant_dict_init (&dict, variant);
  g_variant_unref (g_variant_ref_sink (variant));
  g_variant_dict_remove (&dict, "tool-calls");
  g_variant_dict_remove (&dict, "tool-call-details");
  g_variant_builder_init (&parts, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_open (&parts, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&parts, "{sv}", "kind", g_variant_new_string ("text"));
  g_variant_builder_add (&parts, "{sv}", "text", g_variant_new_string (text));
  g_variant_builder_close (&parts);
  g_variant_dict_insert_value (&dict, "parts", g_variant_builder_end (&parts));
  g_variant_dict_insert (&dict, "finish-reason", "s", "stop");
  return g_variant_dict_end (&dict);
}

static GVariant *
result_to_variant (Running      *running,
                   AgentMessage *message)
{
  AgentUsage *usage = agent_message_get_usage (message);
  const char *finish_reason = agent_message_get_finish_reason (message);
  const char *model = agent_message_get_model (message);
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  if (output_call (running, message) != NULL)
    finish_reason = "stop";
  g_variant_builder_add (&builder, "{sv}", "finish-reason",
                         g_variant_new_string (finish_reason ? finish_reason : ""));
  g_variant_builder_add (&builder, "{sv}", "model", g_variant_new_string (model ? model : ""));
  if (usage != NULL)
    {
      if (agent_usage_get_prompt_tokens (usage) >= 0)
        g_variant_builder_add (&builder, "{sv}", "prompt-tokens",
                               g_variant_new_int64 (agent_usage_get_prompt_tokens (usage)));
      if (agent_usage_get_completion_tokens (usage) >= 0)
        g_variant_builder_add (&builder, "{sv}", "completion-tokens",
                               g_variant_new_int64 (agent_usage_get_completion_tokens (usage)));
      if (agent_usage_get_total_tokens (usage) >= 0)
        g_variant_builder_add (&builder, "{sv}", "total-tokens",
                               g_variant_new_int64 (agent_usage_get_total_tokens (usage)));
    }
  g_variant_builder_add (&builder, "{sv}", "message", message_to_variant (running, message));
  return g_variant_builder_end (&builder);
}

static void
step_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Running) running = user_data;
  AgentMessage *message = agent_step_get_message (running->step);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) log_error = NULL;
  AgentUsage *usage = agent_message_get_usage (message);
  gint64 tokens = usage ? MAX (0, agent_usage_get_total_tokens (usage)) : 0;

  if (!agent_desktop_apps_add_request (running->steps->apps, running->app_id,
                                       agent_profile_get_name (running->profile),
                                       (guint64) tokens, &log_error))
    g_warning ("Could not record the request of %s: %s", running->app_id, log_error->message);

  if (!agent_step_run_finish (running->step, result, &error))
    return_error (running, error);
  else
    g_dbus_method_invocation_return_value (running->invocation,
                                           g_variant_new ("(@a{sv})",
                                                          result_to_variant (running,
                                                                             message)));
}

static void
provider_ready (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Running) running = user_data;
  g_autoptr(AgentRequestSettings) settings = NULL;
  g_autoptr(GError) error = NULL;
  AgentRequest request = { 0 };
  GCancellable *cancellable;
  AgentStep *step;

  running->provider = agent_profile_create_provider_finish (AGENT_PROFILE (object), result, &error);
  if (running->provider == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&error, _("Profile “%s”: "), agent_profile_get_name (running->profile));
      return_error (running, error);
      return;
    }

  if (running->max_tokens > 0)
    agent_provider_set_max_tokens (running->provider, running->max_tokens);
  if (running->reasoning_effort >= 0)
    agent_provider_set_reasoning_effort (running->provider, running->reasoning_effort);

  /* The profile's settings, the caller's over them */
  settings = agent_request_settings_copy (agent_provider_get_settings (running->provider));
  _agent_request_settings_merge (settings, running->settings);

  running->output_as_text = running->output_schema != NULL &&
                            _agent_provider_get_backend (running->provider)->output_by_tool;
  request.provider = running->provider;
  request.model = agent_provider_get_model (running->provider);
  request.system_prompt = running->system_prompt;
  request.messages = G_LIST_MODEL (running->messages);
  request.tools = G_LIST_MODEL (running->tools);
  request.output_schema = running->output_schema;
  request.output_name = running->output_name;
  request.settings = settings;
  request.context_window = agent_profile_get_context_window (running->profile);
  request.scale_images = _agent_provider_get_backend (running->provider)->images;

  step = running->step = agent_step_new (running->provider, settings, &listener, running);
  cancellable = running->cancellable;
  agent_step_run_async (step, &request, cancellable, step_done, g_steal_pointer (&running));
}

/* Reading the call */

static gboolean
refuse_call (AgentTool           *tool,
             AgentToolInvocation *invocation,
             gpointer             user_data,
             GError             **error)
{
  /* Never reached: the step ends with the model's calls, which the caller runs */
  g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_FAILED,
               _("The tool “%s” is the caller's"), agent_tool_get_name (tool));
  return FALSE;
}

static gboolean
read_messages (Running   *running,
               GVariant  *messages,
               GError   **error)
{
  gsize n = g_variant_n_children (messages);

  if (n == 0)
    {
      g_set_error_literal (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                           _("The step has no messages"));
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (messages, i);
      g_autoptr(GError) local_error = NULL;
      g_autoptr(AgentMessage) message = agent_message_new_from_variant (child, &local_error);

      if (message == NULL)
        {
          g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                       _("Message %u: %s"), (guint) MIN (i + 1, G_MAXUINT),
                       local_error->message);
          return FALSE;
        }
      g_list_store_append (running->messages, message);
    }
  return TRUE;
}

/* Tools as Send and RunStep take them: aa{sv} of name, description and
 * parameters (a JSON schema), each an AgentTool running @handler */
GPtrArray *
agent_desktop_tools_parse (GVariant       *tools,
                           AgentToolFunc   handler,
                           gpointer        user_data,
                           GError        **error)
{
  g_autoptr(GPtrArray) parsed = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  GVariantIter iter;
  GVariant *dict;

  g_variant_iter_init (&iter, tools);
  while ((dict = g_variant_iter_next_value (&iter)))
    {
      g_autoptr(GVariant) owned = dict;
      g_autoptr(JsonNode) parameters = NULL;
      g_autoptr(GError) local_error = NULL;
      const char *name = NULL;
      const char *description = "";
      const char *schema = "{\"type\":\"object\",\"properties\":{}}";

      if (!g_variant_lookup (dict, "name", "&s", &name) || name[0] == '\0')
        {
          g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                       _("Tool %u has no name"), parsed->len + 1);
          return NULL;
        }
      if (!g_hash_table_add (names, (gpointer) name))
        {
          g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                       _("Two tools are named “%s”"), name);
          return NULL;
        }
      g_variant_lookup (dict, "description", "&s", &description);
      g_variant_lookup (dict, "parameters", "&s", &schema);
      if ((parameters = agent_tool_parse_parameters (schema, &local_error)) == NULL)
        {
          g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                       _("Tool “%s”: %s"), name, local_error->message);
          return NULL;
        }
      g_ptr_array_add (parsed, agent_tool_new (name, description, parameters, handler,
                                               user_data, NULL));
    }
  return g_steal_pointer (&parsed);
}

static gboolean
read_tools (Running   *running,
            GVariant  *tools,
            GError   **error)
{
  g_autoptr(GPtrArray) parsed = agent_desktop_tools_parse (tools, refuse_call, NULL, error);

  if (parsed == NULL)
    return FALSE;
  g_list_store_splice (running->tools, 0, 0, parsed->pdata, parsed->len);
  return TRUE;
}

static gboolean
read_options (Running   *running,
              GVariant  *options,
              GError   **error)
{
  g_autoptr(GVariant) settings = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *schema = NULL;
  const char *effort = NULL;

  g_variant_lookup (options, "system-prompt", "s", &running->system_prompt);
  g_variant_lookup (options, "output-name", "s", &running->output_name);
  g_variant_lookup (options, "max-tokens", "u", &running->max_tokens);
  running->reasoning_effort = -1;
  if (g_variant_lookup (options, "reasoning-effort", "&s", &effort) &&
      !g_strv_contains (_agent_reasoning_effort_names, effort))
    {
      g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                   _("The option “reasoning-effort” is “%s”, not none, low, medium or high"),
                   effort);
      return FALSE;
    }
  for (guint i = 0; effort != NULL && _agent_reasoning_effort_names[i] != NULL; i++)
    if (g_str_equal (effort, _agent_reasoning_effort_names[i]))
      running->reasoning_effort = i;

  settings = g_variant_lookup_value (options, "settings", G_VARIANT_TYPE_VARDICT);
  if (settings != NULL)
    running->settings = _agent_request_settings_new_from_variant (settings, &local_error);
  else
    running->settings = agent_request_settings_new ();
  if (running->settings == NULL)
    {
      g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                   _("The option “settings”: %s"), local_error->message);
      return FALSE;
    }

  if (g_variant_lookup (options, "output-schema", "&s", &schema))
    {
      running->output_schema = agent_json_parse (schema, -1, &local_error);
      if (running->output_schema == NULL || !JSON_NODE_HOLDS_OBJECT (running->output_schema))
        {
          g_set_error (error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                       _("The option “output-schema” is not a JSON object%s%s"),
                       local_error ? ": " : "", local_error ? local_error->message : "");
          return FALSE;
        }
      if (running->output_name == NULL)
        running->output_name = g_strdup (DEFAULT_OUTPUT_NAME);
    }
  return TRUE;
}

static guint
count_steps (AgentDesktopSteps *self,
             const char        *app_id)
{
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  g_hash_table_iter_init (&iter, self->running);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (g_str_equal (((Running *) value)->app_id, app_id))
      n++;
  return n;
}

static char *
make_key (const char *owner,
          const char *step_id)
{
  return g_strconcat (owner, "\n", step_id, NULL);
}

/* RunStep, of a caller the user allowed */
void
agent_desktop_steps_run (AgentDesktopSteps     *self,
                         GDBusMethodInvocation *invocation,
                         const char            *app_id)
{
  GVariant *parameters = g_dbus_method_invocation_get_parameters (invocation);
  const char *owner = g_dbus_method_invocation_get_sender (invocation);
  g_autoptr(Running) running = g_new0 (Running, 1);
  g_autoptr(GVariant) messages = NULL;
  g_autoptr(GVariant) tools = NULL;
  g_autoptr(GVariant) options = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  AgentProfile *profile = NULL;
  GCancellable *cancellable;
  const char *name;
  const char *step_id;

  running->steps = g_object_ref (self);
  running->invocation = g_object_ref (invocation);
  running->app_id = g_strdup (app_id);
  running->messages = g_list_store_new (AGENT_TYPE_MESSAGE);
  running->tools = g_list_store_new (AGENT_TYPE_TOOL);

  g_variant_get (parameters, "(&s&s@aa{sv}@aa{sv}@a{sv})", &name, &step_id, &messages, &tools,
                 &options);
  key = make_key (owner, step_id);
  if (step_id[0] == '\0')
    g_set_error_literal (&error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                         _("The step id is empty"));
  else if (g_hash_table_contains (self->running, key))
    g_set_error (&error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                 _("A step “%s” of the caller is running already"), step_id);
  else if (count_steps (self, app_id) >= MAX_STEPS_PER_APP)
    g_set_error (&error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_LIMIT_REACHED,
                 _("“%s” runs %u steps at once already"), app_id, MAX_STEPS_PER_APP);
  if (error != NULL ||
      !read_messages (running, messages, &error) ||
      !read_tools (running, tools, &error) ||
      !read_options (running, options, &error) ||
      !agent_desktop_apps_check_limit (self->apps, app_id, &error))
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return;
    }

  profile = agent_desktop_profile_lookup (self->profiles, name, &error);
  if (profile == NULL)
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return;
    }

  running->profile = g_object_ref (profile);
  running->step_id = g_strdup (step_id);
  running->cancellable = g_cancellable_new ();
  running->key = g_steal_pointer (&key);
  g_hash_table_insert (self->running, running->key, running);
  /* The service stays while a step runs */
  g_application_hold (self->application);
  cancellable = running->cancellable;
  agent_profile_create_provider_async (profile, cancellable, provider_ready,
                                       g_steal_pointer (&running));
}

/* CancelStep */
void
agent_desktop_steps_cancel (AgentDesktopSteps     *self,
                            GDBusMethodInvocation *invocation)
{
  GVariant *parameters = g_dbus_method_invocation_get_parameters (invocation);
  g_autofree char *key = NULL;
  const char *step_id;
  Running *running;

  g_variant_get (parameters, "(&s)", &step_id);
  key = make_key (g_dbus_method_invocation_get_sender (invocation), step_id);
  if ((running = g_hash_table_lookup (self->running, key)) == NULL)
    {
      g_dbus_method_invocation_return_error (invocation, AGENT_DESKTOP_ERROR,
                                             AGENT_DESKTOP_ERROR_INVALID_ARGS,
                                             _("No step “%s” of the caller is running"), step_id);
      return;
    }
  g_cancellable_cancel (running->cancellable);
  g_dbus_method_invocation_return_value (invocation, NULL);
}

/* Cancels the steps of @owner (it left the bus) or of @app_id (its
 * consent was revoked); NULL for any */
void
agent_desktop_steps_cancel_all (AgentDesktopSteps *self,
                                const char        *owner,
                                const char        *app_id)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->running);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Running *running = value;

      if ((owner == NULL ||
           g_str_equal (g_dbus_method_invocation_get_sender (running->invocation), owner)) &&
          (app_id == NULL || g_str_equal (running->app_id, app_id)))
        g_cancellable_cancel (running->cancellable);
    }
}

static void
agent_desktop_steps_dispose (GObject *object)
{
  AgentDesktopSteps *self = AGENT_DESKTOP_STEPS (object);

  agent_desktop_steps_cancel_all (self, NULL, NULL);
  g_clear_object (&self->apps);
  g_clear_object (&self->profiles);

  G_OBJECT_CLASS (agent_desktop_steps_parent_class)->dispose (object);
}

static void
agent_desktop_steps_finalize (GObject *object)
{
  AgentDesktopSteps *self = AGENT_DESKTOP_STEPS (object);

  g_clear_pointer (&self->running, g_hash_table_unref);

  G_OBJECT_CLASS (agent_desktop_steps_parent_class)->finalize (object);
}

static void
agent_desktop_steps_class_init (AgentDesktopStepsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_desktop_steps_dispose;
  object_class->finalize = agent_desktop_steps_finalize;
}

static void
agent_desktop_steps_init (AgentDesktopSteps *self)
{
  self->running = g_hash_table_new (g_str_hash, g_str_equal);
}

AgentDesktopSteps *
agent_desktop_steps_new (GApplication     *application,
                         AgentDesktopApps *apps,
                         AgentProfileList *profiles)
{
  AgentDesktopSteps *self = g_object_new (AGENT_DESKTOP_TYPE_STEPS, NULL);

  self->application = application;
  self->apps = g_object_ref (apps);
  self->profiles = g_object_ref (profiles);
  return self;
}
