/* agent-model-info.c — what a server says of one of its models
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-enums.h"
#include "models/agent-models-private.h"

/**
 * AgentModelInfo:
 *
 * One model of a server with a model manager, as
 * [method@Agent.ModelManager.list_finish], [method@Agent.ModelManager.show_finish]
 * and [method@Agent.ModelManager.list_running_finish] give it: its name, size
 * and digest (from Ollama's `/api/tags`), its family, parameter count,
 * quantization, context length and capabilities (from `/api/show`), and for a
 * running model the memory it holds on the GPU and when it unloads (from
 * `/api/ps`).
 *
 * What the server did not say is 0, %NULL or
 * %AGENT_MODEL_CAPABILITY_NONE; [property@Agent.ModelInfo:details-known]
 * says whether `/api/show` answered for it.
 *
 * Since: 0.1
 */

struct _AgentModelInfo
{
  GObject                 parent_instance;
  char                   *name;
  char                   *digest;
  char                   *family;
  char                   *parameter_size;
  char                   *quantization;
  GDateTime              *modified_at;
  GDateTime              *expires_at;
  guint64                 size;
  guint64                 size_vram;
  guint64                 context_length;
  AgentModelCapabilities  capabilities;
  gboolean                details_known;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_SIZE,
  PROP_DIGEST,
  PROP_FAMILY,
  PROP_PARAMETER_SIZE,
  PROP_QUANTIZATION,
  PROP_CONTEXT_LENGTH,
  PROP_CAPABILITIES,
  PROP_DETAILS_KNOWN,
  PROP_MODIFIED_AT,
  PROP_SIZE_VRAM,
  PROP_EXPIRES_AT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentModelInfo, agent_model_info, G_TYPE_OBJECT)

static void
agent_model_info_finalize (GObject *object)
{
  AgentModelInfo *self = (AgentModelInfo *) object;

  g_free (self->name);
  g_free (self->digest);
  g_free (self->family);
  g_free (self->parameter_size);
  g_free (self->quantization);
  g_clear_pointer (&self->modified_at, g_date_time_unref);
  g_clear_pointer (&self->expires_at, g_date_time_unref);

  G_OBJECT_CLASS (agent_model_info_parent_class)->finalize (object);
}

static void
agent_model_info_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AgentModelInfo *self = AGENT_MODEL_INFO (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_SIZE:
      g_value_set_uint64 (value, self->size);
      break;

    case PROP_DIGEST:
      g_value_set_string (value, self->digest);
      break;

    case PROP_FAMILY:
      g_value_set_string (value, self->family);
      break;

    case PROP_PARAMETER_SIZE:
      g_value_set_string (value, self->parameter_size);
      break;

    case PROP_QUANTIZATION:
      g_value_set_string (value, self->quantization);
      break;

    case PROP_CONTEXT_LENGTH:
      g_value_set_uint64 (value, self->context_length);
      break;

    case PROP_CAPABILITIES:
      g_value_set_flags (value, self->capabilities);
      break;

    case PROP_DETAILS_KNOWN:
      g_value_set_boolean (value, self->details_known);
      break;

    case PROP_MODIFIED_AT:
      g_value_set_boxed (value, self->modified_at);
      break;

    case PROP_SIZE_VRAM:
      g_value_set_uint64 (value, self->size_vram);
      break;

    case PROP_EXPIRES_AT:
      g_value_set_boxed (value, self->expires_at);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_model_info_class_init (AgentModelInfoClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = agent_model_info_finalize;
  object_class->get_property = agent_model_info_get_property;

  /**
   * AgentModelInfo:name:
   *
   * The model's name with its tag, as the server lists it (`llama3.2:latest`).
   *
   * Since: 0.1
   */
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);

  /**
   * AgentModelInfo:size:
   *
   * The size of its files on disk in bytes (for a running model: the
   * memory it holds), 0 if unknown.
   *
   * Since: 0.1
   */
  properties[PROP_SIZE] = g_param_spec_uint64 ("size", NULL, NULL, 0, G_MAXUINT64, 0, flags);

  /**
   * AgentModelInfo:digest:
   *
   * The digest of its manifest (hexadecimal SHA-256), or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_DIGEST] = g_param_spec_string ("digest", NULL, NULL, NULL, flags);

  /**
   * AgentModelInfo:family:
   *
   * Its architecture's family (`llama`, `qwen2`, …), or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_FAMILY] = g_param_spec_string ("family", NULL, NULL, NULL, flags);

  /**
   * AgentModelInfo:parameter-size:
   *
   * Its parameter count as the server writes it (`8.0B`), or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_PARAMETER_SIZE] = g_param_spec_string ("parameter-size", NULL, NULL, NULL, flags);

  /**
   * AgentModelInfo:quantization:
   *
   * Its quantization level (`Q4_K_M`), or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_QUANTIZATION] = g_param_spec_string ("quantization", NULL, NULL, NULL, flags);

  /**
   * AgentModelInfo:context-length:
   *
   * The context window it was trained with, in tokens, 0 if unknown. (The
   * window a request runs with is the provider's
   * [property@Agent.Provider:max-context-window] at most.)
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_LENGTH] = g_param_spec_uint64 ("context-length", NULL, NULL,
                                                         0, G_MAXUINT64, 0, flags);

  /**
   * AgentModelInfo:capabilities:
   *
   * What it can do, %AGENT_MODEL_CAPABILITY_NONE if the server did not say.
   *
   * Since: 0.1
   */
  properties[PROP_CAPABILITIES] = g_param_spec_flags ("capabilities", NULL, NULL,
                                                      AGENT_TYPE_MODEL_CAPABILITIES,
                                                      AGENT_MODEL_CAPABILITY_NONE, flags);

  /**
   * AgentModelInfo:details-known:
   *
   * Whether the server described the model (`/api/show`): without it, the
   * family, parameter size, quantization, context length and capabilities
   * are those of the listing, or unknown.
   *
   * Since: 0.1
   */
  properties[PROP_DETAILS_KNOWN] = g_param_spec_boolean ("details-known", NULL, NULL, FALSE, flags);

  /**
   * AgentModelInfo:modified-at:
   *
   * When it was pulled or last changed, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_MODIFIED_AT] = g_param_spec_boxed ("modified-at", NULL, NULL,
                                                     G_TYPE_DATE_TIME, flags);

  /**
   * AgentModelInfo:size-vram:
   *
   * For a running model, the bytes of it in the GPU's memory (the rest is
   * in the CPU's); 0 otherwise.
   *
   * Since: 0.1
   */
  properties[PROP_SIZE_VRAM] = g_param_spec_uint64 ("size-vram", NULL, NULL,
                                                    0, G_MAXUINT64, 0, flags);

  /**
   * AgentModelInfo:expires-at:
   *
   * For a running model, when the server unloads it unless it is used
   * again; %NULL otherwise.
   *
   * Since: 0.1
   */
  properties[PROP_EXPIRES_AT] = g_param_spec_boxed ("expires-at", NULL, NULL,
                                                    G_TYPE_DATE_TIME, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_model_info_init (AgentModelInfo *self)
{
}

/**
 * agent_model_info_get_name:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:name].
 *
 * Returns: the model's name
 *
 * Since: 0.1
 */
const char *
agent_model_info_get_name (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), NULL);

  return self->name;
}

/**
 * agent_model_info_get_size:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:size].
 *
 * Returns: its size in bytes, 0 if unknown
 *
 * Since: 0.1
 */
guint64
agent_model_info_get_size (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), 0);

  return self->size;
}

/**
 * agent_model_info_get_digest:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:digest].
 *
 * Returns: (nullable): its digest
 *
 * Since: 0.1
 */
const char *
agent_model_info_get_digest (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), NULL);

  return self->digest;
}

/**
 * agent_model_info_get_family:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:family].
 *
 * Returns: (nullable): its family
 *
 * Since: 0.1
 */
const char *
agent_model_info_get_family (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), NULL);

  return self->family;
}

/**
 * agent_model_info_get_parameter_size:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:parameter-size].
 *
 * Returns: (nullable): its parameter count, as the server writes it
 *
 * Since: 0.1
 */
const char *
agent_model_info_get_parameter_size (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), NULL);

  return self->parameter_size;
}

/**
 * agent_model_info_get_quantization:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:quantization].
 *
 * Returns: (nullable): its quantization level
 *
 * Since: 0.1
 */
const char *
agent_model_info_get_quantization (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), NULL);

  return self->quantization;
}

/**
 * agent_model_info_get_context_length:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:context-length].
 *
 * Returns: its trained context window in tokens, 0 if unknown
 *
 * Since: 0.1
 */
guint64
agent_model_info_get_context_length (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), 0);

  return self->context_length;
}

/**
 * agent_model_info_get_capabilities:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:capabilities].
 *
 * Returns: what the model can do
 *
 * Since: 0.1
 */
AgentModelCapabilities
agent_model_info_get_capabilities (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), AGENT_MODEL_CAPABILITY_NONE);

  return self->capabilities;
}

/**
 * agent_model_info_has_capabilities:
 * @self: a [class@Agent.ModelInfo]
 * @capabilities: the capabilities to look for
 *
 * Whether the model has all of @capabilities.
 *
 * Returns: %TRUE if it has every one of them
 *
 * Since: 0.1
 */
gboolean
agent_model_info_has_capabilities (AgentModelInfo         *self,
                                   AgentModelCapabilities  capabilities)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), FALSE);

  return (self->capabilities & capabilities) == capabilities;
}

/**
 * agent_model_info_get_details_known:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:details-known].
 *
 * Returns: whether the server described the model
 *
 * Since: 0.1
 */
gboolean
agent_model_info_get_details_known (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), FALSE);

  return self->details_known;
}

/**
 * agent_model_info_get_modified_at:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:modified-at].
 *
 * Returns: (nullable) (transfer none): when it last changed
 *
 * Since: 0.1
 */
GDateTime *
agent_model_info_get_modified_at (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), NULL);

  return self->modified_at;
}

/**
 * agent_model_info_get_size_vram:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:size-vram].
 *
 * Returns: the bytes of a running model in the GPU's memory
 *
 * Since: 0.1
 */
guint64
agent_model_info_get_size_vram (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), 0);

  return self->size_vram;
}

/**
 * agent_model_info_get_expires_at:
 * @self: a [class@Agent.ModelInfo]
 *
 * Gets [property@Agent.ModelInfo:expires-at].
 *
 * Returns: (nullable) (transfer none): when a running model unloads
 *
 * Since: 0.1
 */
GDateTime *
agent_model_info_get_expires_at (AgentModelInfo *self)
{
  g_return_val_if_fail (AGENT_IS_MODEL_INFO (self), NULL);

  return self->expires_at;
}

/* Ollama's names, in the order of the flags */
static const char * const capability_names[] = {
  "completion", "tools", "vision", "thinking", "embedding", "insert",
};

/**
 * agent_model_capabilities_to_string:
 * @capabilities: capabilities of a model
 *
 * Writes @capabilities as Ollama names them, separated by commas
 * (`completion,tools,vision`), for logs and scripts; the empty string for
 * none.
 *
 * Returns: (transfer full): the names
 *
 * Since: 0.1
 */
char *
agent_model_capabilities_to_string (AgentModelCapabilities capabilities)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (capability_names); i++)
    if (capabilities & (1u << i))
      {
        if (names->len > 0)
          g_string_append_c (names, ',');
        g_string_append (names, capability_names[i]);
      }

  return g_string_free (names, FALSE);
}

/* Private */

AgentModelInfo *
_agent_model_info_new (const char *name)
{
  AgentModelInfo *self = g_object_new (AGENT_TYPE_MODEL_INFO, NULL);

  self->name = g_strdup (name);
  return self;
}

AgentModelCapabilities
_agent_model_capabilities_from_json (const AgentJson *array)
{
  AgentModelCapabilities capabilities = AGENT_MODEL_CAPABILITY_NONE;
  AgentJsonIter iter;
  AgentJson item;

  if (!agent_json_is (array, AGENT_JSON_ARRAY))
    return capabilities;

  agent_json_iter_init (&iter, array);
  while (agent_json_iter_next (&iter, NULL, NULL, &item))
    {
      const char *name = agent_json_string (&item, NULL);

      for (guint i = 0; name != NULL && i < G_N_ELEMENTS (capability_names); i++)
        if (strcmp (name, capability_names[i]) == 0)
          capabilities |= 1u << i;
    }

  return capabilities;
}

static void
set_string (char           **field,
            const AgentJson *object,
            const char      *member)
{
  const char *value = agent_json_member_string (object, member, NULL);

  if (value != NULL && *value != '\0')
    {
      g_free (*field);
      *field = g_strdup (value);
    }
}

static GDateTime *
dup_time (const AgentJson *object,
          const char      *member)
{
  const char *text = agent_json_member_string (object, member, NULL);

  return text != NULL ? g_date_time_new_from_iso8601 (text, NULL) : NULL;
}

static guint64
member_size (const AgentJson *object,
             const char      *member)
{
  AgentJson value = agent_json_member (object, member);
  gint64 size;

  return agent_json_int (&value, &size) && size > 0 ? (guint64) size : 0;
}

static void
apply_details (AgentModelInfo  *self,
               const AgentJson *object)
{
  AgentJson details = agent_json_member (object, "details");

  if (!agent_json_is (&details, AGENT_JSON_OBJECT))
    return;
  set_string (&self->family, &details, "family");
  set_string (&self->parameter_size, &details, "parameter_size");
  set_string (&self->quantization, &details, "quantization_level");
}

AgentModelInfo *
_agent_model_info_new_from_entry (const AgentJson *entry)
{
  const char *name = agent_json_member_string (entry, "name", NULL);
  AgentModelInfo *self;

  if (name == NULL || *name == '\0')
    name = agent_json_member_string (entry, "model", NULL);
  if (name == NULL || *name == '\0')
    return NULL;

  self = _agent_model_info_new (name);
  self->size = member_size (entry, "size");
  self->size_vram = member_size (entry, "size_vram");
  set_string (&self->digest, entry, "digest");
  self->modified_at = dup_time (entry, "modified_at");
  self->expires_at = dup_time (entry, "expires_at");
  apply_details (self, entry);
  return self;
}

/* Documented in agent-models-private.h */
guint64
_agent_model_context_length_from_show (const AgentJson *root)
{
  AgentJson info = agent_json_member (root, "model_info");
  AgentJsonIter iter;
  const char *name;
  AgentJson value;
  gint64 tokens;

  if (!agent_json_is (&info, AGENT_JSON_OBJECT))
    return 0;

  agent_json_iter_init (&iter, &info);
  while (agent_json_iter_next (&iter, &name, NULL, &value))
    if (g_str_has_suffix (name, ".context_length") && agent_json_int (&value, &tokens) &&
        tokens > 0)
      return (guint64) tokens;

  return 0;
}

void
_agent_model_info_apply_show (AgentModelInfo  *self,
                              const AgentJson *root)
{
  AgentJson capabilities = agent_json_member (root, "capabilities");
  GDateTime *modified_at;

  g_return_if_fail (AGENT_IS_MODEL_INFO (self));

  g_object_freeze_notify (G_OBJECT (self));
  apply_details (self, root);
  self->context_length = _agent_model_context_length_from_show (root);
  self->capabilities = _agent_model_capabilities_from_json (&capabilities);
  if ((modified_at = dup_time (root, "modified_at")) != NULL)
    {
      g_clear_pointer (&self->modified_at, g_date_time_unref);
      self->modified_at = modified_at;
    }
  self->details_known = TRUE;
  for (guint i = PROP_FAMILY; i <= PROP_MODIFIED_AT; i++)
    g_object_notify_by_pspec (G_OBJECT (self), properties[i]);
  g_object_thaw_notify (G_OBJECT (self));
}
