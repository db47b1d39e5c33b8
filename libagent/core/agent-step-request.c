/* agent-step-request.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "messages/agent-message.h"
#include "core/agent-step-request-private.h"
#include "tools/agent-tool.h"

/**
 * AgentStepRequest:
 *
 * The request a step is about to send, given to
 * [signal@Agent.Session::prepare-step] to inspect or change: the messages
 * (a copy of the memory: changing it changes this request only), the
 * tools offered, the system prompt and the model.
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
  guint       step;
};

enum {
  PROP_0,
  PROP_STEP,
  PROP_MESSAGES,
  PROP_TOOLS,
  PROP_SYSTEM_PROMPT,
  PROP_MODEL,
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

AgentStepRequest *
_agent_step_request_new (guint       step,
                         GListModel *messages,
                         GListModel *tools,
                         const char *system_prompt,
                         const char *model)
{
  AgentStepRequest *self = g_object_new (AGENT_TYPE_STEP_REQUEST, NULL);

  self->step = step;
  copy_items (self->messages, messages);
  copy_items (self->tools, tools);
  self->system_prompt = g_strdup (system_prompt);
  self->model = g_strdup (model);

  return self;
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
