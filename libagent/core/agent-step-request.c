/* agent-step-request.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "messages/agent-message.h"
#include "core/agent-step-request-private.h"
#include "tools/agent-tool.h"

/**
 * AgentStepRequest:
 *
 * The request a step is about to send, given to
 * [signal@Agent.Session::prepare-step] to inspect or change: the messages
 * (a copy of the memory, or of the view of it that the session's
 * [class@Agent.ContextPolicy] made: changing it changes this request
 * only), the tools offered (all of them, or the
 * [property@Agent.StepRequest:active-tools]), the system prompt, the model
 * and the [property@Agent.StepRequest:settings].
 *
 * Since: 0.1
 */

struct _AgentStepRequest
{
  GObject     parent_instance;
  GListStore *messages;
  GListStore *tools;
  char       *system_prompt;
  char       *model;
  char      **active_tools;
  AgentRequestSettings *settings;
  guint       step;
};

enum {
  PROP_0,
  PROP_STEP,
  PROP_MESSAGES,
  PROP_TOOLS,
  PROP_SYSTEM_PROMPT,
  PROP_MODEL,
  PROP_SETTINGS,
  PROP_ACTIVE_TOOLS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentStepRequest, agent_step_request, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
agent_step_request_finalize (GObject *object)
{
  AgentStepRequest *self = (AgentStepRequest *)object;

  g_clear_object (&self->messages);
  g_clear_object (&self->tools);
  g_clear_pointer (&self->system_prompt, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->active_tools, g_strfreev);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (agent_step_request_parent_class)->finalize (object);
}

static void
agent_step_request_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AgentStepRequest *self = AGENT_STEP_REQUEST (object);

  switch (prop_id)
    {
    case PROP_STEP:
      g_value_set_uint (value, self->step);
      break;

    case PROP_MESSAGES:
      g_value_set_object (value, self->messages);
      break;

    case PROP_TOOLS:
      g_value_set_object (value, self->tools);
      break;

    case PROP_SYSTEM_PROMPT:
      g_value_set_string (value, self->system_prompt);
      break;

    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;

    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    case PROP_ACTIVE_TOOLS:
      g_value_set_boxed (value, self->active_tools);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_step_request_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  AgentStepRequest *self = AGENT_STEP_REQUEST (object);

  switch (prop_id)
    {
    case PROP_SYSTEM_PROMPT:
      agent_step_request_set_system_prompt (self, g_value_get_string (value));
      break;

    case PROP_MODEL:
      agent_step_request_set_model (self, g_value_get_string (value));
      break;

    case PROP_ACTIVE_TOOLS:
      agent_step_request_set_active_tools (self, g_value_get_boxed (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_step_request_class_init (AgentStepRequestClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agent_step_request_finalize;
  object_class->get_property = agent_step_request_get_property;
  object_class->set_property = agent_step_request_set_property;

  /**
   * AgentStepRequest:step:
   *
   * The step's number in its turn, from 1.
   */
  properties[PROP_STEP] =
    g_param_spec_uint ("step", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentStepRequest:messages:
   *
   * The messages sent, a [class@Gio.ListStore] of [class@Agent.Message].
   */
  properties[PROP_MESSAGES] =
    g_param_spec_object ("messages", NULL, NULL,
                         G_TYPE_LIST_STORE,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentStepRequest:tools:
   *
   * The tools offered, a [class@Gio.ListStore] of [class@Agent.Tool].
   */
  properties[PROP_TOOLS] =
    g_param_spec_object ("tools", NULL, NULL,
                         G_TYPE_LIST_STORE,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentStepRequest:system-prompt:
   *
   * The instructions sent before the messages.
   */
  properties[PROP_SYSTEM_PROMPT] =
    g_param_spec_string ("system-prompt", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentStepRequest:model:
   *
   * The model asked.
   */
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentStepRequest:settings:
   *
   * What this request asks besides its messages: the provider's
   * [property@Agent.Provider:settings] with the session's
   * [property@Agent.Session:settings] over them, as one
   * [class@Agent.RequestSettings] to change (or
   * [method@Agent.RequestSettings.unset]) for this request only.
   *
   * Since: 0.1
   */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL,
                         AGENT_TYPE_REQUEST_SETTINGS,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentStepRequest:active-tools:
   *
   * The names of the tools this request offers, of those in
   * [property@Agent.StepRequest:tools] (the session's), or %NULL for all
   * of them. A name that is not among them fails the turn before sending,
   * with %AGENT_ERROR_INVALID_ARGUMENT. The model may still call only
   * tools the session has.
   *
   * Since: 0.1
   */
  properties[PROP_ACTIVE_TOOLS] =
    g_param_spec_boxed ("active-tools", NULL, NULL,
                        G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_step_request_init (AgentStepRequest *self)
{
  self->messages = g_list_store_new (AGENT_TYPE_MESSAGE);
  self->tools = g_list_store_new (AGENT_TYPE_TOOL);
}

static void
copy_items (GListStore *store,
            GListModel *model)
{
  guint n = g_list_model_get_n_items (model);
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, g_list_model_get_item (model, i));

  g_list_store_splice (store, 0, 0, items->pdata, items->len);
}

/* @settings: the merged settings, which the request changes */
AgentStepRequest *
_agent_step_request_new (guint                 step,
                         GListModel           *messages,
                         GListModel           *tools,
                         const char           *system_prompt,
                         const char           *model,
                         AgentRequestSettings *settings)
{
  AgentStepRequest *self = g_object_new (AGENT_TYPE_STEP_REQUEST, NULL);

  self->step = step;
  copy_items (self->messages, messages);
  copy_items (self->tools, tools);
  self->system_prompt = g_strdup (system_prompt);
  self->model = g_strdup (model);
  self->settings = g_object_ref (settings);

  return self;
}

/* The tools sent: those of the list named in active-tools, in the list's
 * order (a new list), or NULL with @error naming one that is not there */
GListModel *
_agent_step_request_active_tools (AgentStepRequest  *self,
                                  GError           **error)
{
  GListStore *active;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tools));

  if (self->active_tools == NULL)
    return g_object_ref (G_LIST_MODEL (self->tools));

  for (guint i = 0; self->active_tools[i] != NULL; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < n && !found; j++)
        {
          g_autoptr(AgentTool) tool = g_list_model_get_item (G_LIST_MODEL (self->tools), j);

          found = g_strcmp0 (agent_tool_get_name (tool), self->active_tools[i]) == 0;
        }
      if (!found)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("active-tools names “%s”, which is not one of the tools of the "
                         "request"),
                       self->active_tools[i]);
          return NULL;
        }
    }

  active = g_list_store_new (AGENT_TYPE_TOOL);
  for (guint j = 0; j < n; j++)
    {
      g_autoptr(AgentTool) tool = g_list_model_get_item (G_LIST_MODEL (self->tools), j);

      if (g_strv_contains ((const char * const *) self->active_tools, agent_tool_get_name (tool)))
        g_list_store_append (active, tool);
    }
  return G_LIST_MODEL (active);
}

/**
 * agent_step_request_get_step:
 * @self: a [class@Agent.StepRequest]
 *
 * Gets the step's number in its turn, from 1.
 *
 * Returns: the step's number in its turn, from 1
 *
 * Since: 0.1
 */
guint
agent_step_request_get_step (AgentStepRequest *self)
{
  g_return_val_if_fail (AGENT_IS_STEP_REQUEST (self), 0);
  return self->step;
}

/**
 * agent_step_request_get_messages:
 * @self: a [class@Agent.StepRequest]
 *
 * Gets the messages the request sends: a copy of the conversation that
 * may be changed (messages added, removed or replaced) for this request
 * only.
 *
 * Returns: (transfer none): a [class@Gio.ListStore] of [class@Agent.Message]
 *
 * Since: 0.1
 */
GListStore *
agent_step_request_get_messages (AgentStepRequest *self)
{
  g_return_val_if_fail (AGENT_IS_STEP_REQUEST (self), NULL);
  return self->messages;
}

/**
 * agent_step_request_get_tools:
 * @self: a [class@Agent.StepRequest]
 *
 * Gets the tools the request offers, which may be changed for this
 * request only (for example, to offer none in the last step).
 *
 * Returns: (transfer none): a [class@Gio.ListStore] of [class@Agent.Tool]
 *
 * Since: 0.1
 */
GListStore *
agent_step_request_get_tools (AgentStepRequest *self)
{
  g_return_val_if_fail (AGENT_IS_STEP_REQUEST (self), NULL);
  return self->tools;
}

/**
 * agent_step_request_get_system_prompt:
 * @self: a [class@Agent.StepRequest]
 *
 * Gets the system prompt.
 *
 * Returns: (nullable): the system prompt
 *
 * Since: 0.1
 */
const char *
agent_step_request_get_system_prompt (AgentStepRequest *self)
{
  g_return_val_if_fail (AGENT_IS_STEP_REQUEST (self), NULL);
  return self->system_prompt;
}

/**
 * agent_step_request_set_system_prompt:
 * @self: a [class@Agent.StepRequest]
 * @system_prompt: (nullable): the system prompt for this request
 *
 * Sets the system prompt of this request only.
 *
 * Since: 0.1
 */
void
agent_step_request_set_system_prompt (AgentStepRequest *self,
                                      const char       *system_prompt)
{
  g_return_if_fail (AGENT_IS_STEP_REQUEST (self));

  if (g_strcmp0 (self->system_prompt, system_prompt) != 0)
    {
      g_free (self->system_prompt);
      self->system_prompt = g_strdup (system_prompt);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SYSTEM_PROMPT]);
    }
}

/**
 * agent_step_request_get_model:
 * @self: a [class@Agent.StepRequest]
 *
 * Gets the model asked.
 *
 * Returns: (nullable): the model asked
 *
 * Since: 0.1
 */
const char *
agent_step_request_get_model (AgentStepRequest *self)
{
  g_return_val_if_fail (AGENT_IS_STEP_REQUEST (self), NULL);
  return self->model;
}

/**
 * agent_step_request_set_model:
 * @self: a [class@Agent.StepRequest]
 * @model: (nullable): the model to ask in this request
 *
 * Sets the model of this request only.
 *
 * Since: 0.1
 */
void
agent_step_request_set_model (AgentStepRequest *self,
                              const char       *model)
{
  g_return_if_fail (AGENT_IS_STEP_REQUEST (self));

  if (g_strcmp0 (self->model, model) != 0)
    {
      g_free (self->model);
      self->model = g_strdup (model);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
    }
}

/**
 * agent_step_request_get_settings:
 * @self: a [class@Agent.StepRequest]
 *
 * Gets the settings of this request, to read or change:
 * [property@Agent.StepRequest:settings].
 *
 * Returns: (transfer none): the request's settings
 *
 * Since: 0.1
 */
AgentRequestSettings *
agent_step_request_get_settings (AgentStepRequest *self)
{
  g_return_val_if_fail (AGENT_IS_STEP_REQUEST (self), NULL);
  return self->settings;
}

/**
 * agent_step_request_get_active_tools:
 * @self: a [class@Agent.StepRequest]
 *
 * Gets [property@Agent.StepRequest:active-tools].
 *
 * Returns: (nullable) (transfer none) (array zero-terminated=1): the names
 *   of the tools offered, or %NULL for all of them
 *
 * Since: 0.1
 */
const char * const *
agent_step_request_get_active_tools (AgentStepRequest *self)
{
  g_return_val_if_fail (AGENT_IS_STEP_REQUEST (self), NULL);
  return (const char * const *) self->active_tools;
}

/**
 * agent_step_request_set_active_tools:
 * @self: a [class@Agent.StepRequest]
 * @names: (nullable) (array zero-terminated=1): the names of the tools to
 *   offer, or %NULL for all of them
 *
 * Offers only the tools named in this request (an empty list offers
 * none): [property@Agent.StepRequest:active-tools].
 *
 * Since: 0.1
 */
void
agent_step_request_set_active_tools (AgentStepRequest   *self,
                                     const char * const *names)
{
  g_return_if_fail (AGENT_IS_STEP_REQUEST (self));

  if (names == NULL && self->active_tools == NULL)
    return;
  if (names != NULL && self->active_tools != NULL &&
      g_strv_equal (names, (const char * const *) self->active_tools))
    return;

  g_strfreev (self->active_tools);
  self->active_tools = g_strdupv ((char **) names);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE_TOOLS]);
}
