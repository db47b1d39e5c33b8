/* agent-request-settings.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-enums.h"
#include "transport/agent-request-settings-private.h"

/**
 * AgentRequestSettings:
 *
 * What a request asks of the model besides the conversation: how it
 * samples (temperature, top-p, top-k, a seed, stop sequences, penalties),
 * whether and which tools it must call, and the provider's own options and
 * HTTP headers.
 *
 * Every setting is unset at first: the request then says nothing of it,
 * and the server's default applies. Setting a value sets it
 * ([property@Agent.RequestSettings:temperature-set] and the like say so);
 * [method@Agent.RequestSettings.unset] takes it back.
 *
 * Settings come in three layers, each an `AgentRequestSettings`:
 *
 * - the provider's ([method@Agent.Provider.get_settings]): the defaults of
 *   every request it sends;
 * - the session's ([method@Agent.Session.get_settings]): what one
 *   conversation asks, over the provider's;
 * - a step's ([method@Agent.StepRequest.get_settings], in
 *   [signal@Agent.Session::prepare-step]): what one request asks. It
 *   holds the two others merged when the hook runs, and what it holds then
 *   is what is sent.
 *
 * A setting of an upper layer replaces the lower one's. Provider options
 * merge key by key (see [method@Agent.RequestSettings.set_provider_options]),
 * headers name by name.
 *
 * Each provider writes the settings as its API names them (`temperature`,
 * `generationConfig.topK`, Ollama's `options.seed`, …). A setting its API
 * does not define, or a value outside the range it takes, fails the turn
 * before anything is sent, with %AGENT_ERROR_INVALID_ARGUMENT naming the
 * provider and the setting: it is never dropped silently. docs/settings.md
 * has the table.
 *
 * ```c
 * AgentRequestSettings *settings = agent_session_get_settings (session);
 *
 * agent_request_settings_set_temperature (settings, 0.2);
 * agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_TOOL, "get_weather");
 * ```
 *
 * Since: 0.1
 */

enum {
  PROP_0,
  PROP_TEMPERATURE,
  PROP_TEMPERATURE_SET,
  PROP_TOP_P,
  PROP_TOP_P_SET,
  PROP_TOP_K,
  PROP_TOP_K_SET,
  PROP_SEED,
  PROP_SEED_SET,
  PROP_STOP,
  PROP_PRESENCE_PENALTY,
  PROP_PRESENCE_PENALTY_SET,
  PROP_FREQUENCY_PENALTY,
  PROP_FREQUENCY_PENALTY_SET,
  PROP_TOOL_CHOICE,
  PROP_TOOL_CHOICE_NAME,
  PROP_PARALLEL_TOOL_CALLS,
  PROP_PARALLEL_TOOL_CALLS_SET,
  PROP_PROVIDER_OPTIONS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentRequestSettings, agent_request_settings, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

/* The settings by name, for is_set() and unset(), with the properties
 * that tell of a change: the value's and its "-set" one */
static const struct {
  const char        *name;
  AgentSettingFlags  flag;
  guint              value_prop;
  guint              set_prop;
} names[] = {
  { "temperature", AGENT_SETTING_TEMPERATURE, PROP_TEMPERATURE, PROP_TEMPERATURE_SET },
  { "top-p", AGENT_SETTING_TOP_P, PROP_TOP_P, PROP_TOP_P_SET },
  { "top-k", AGENT_SETTING_TOP_K, PROP_TOP_K, PROP_TOP_K_SET },
  { "seed", AGENT_SETTING_SEED, PROP_SEED, PROP_SEED_SET },
  { "stop", AGENT_SETTING_STOP, PROP_STOP, 0 },
  { "presence-penalty", AGENT_SETTING_PRESENCE_PENALTY, PROP_PRESENCE_PENALTY,
    PROP_PRESENCE_PENALTY_SET },
  { "frequency-penalty", AGENT_SETTING_FREQUENCY_PENALTY, PROP_FREQUENCY_PENALTY,
    PROP_FREQUENCY_PENALTY_SET },
  { "tool-choice", AGENT_SETTING_TOOL_CHOICE, PROP_TOOL_CHOICE, PROP_TOOL_CHOICE_NAME },
  { "parallel-tool-calls", AGENT_SETTING_PARALLEL_TOOL_CALLS, PROP_PARALLEL_TOOL_CALLS,
    PROP_PARALLEL_TOOL_CALLS_SET },
  { "provider-options", AGENT_SETTING_PROVIDER_OPTIONS, PROP_PROVIDER_OPTIONS, 0 },
  { "headers", AGENT_SETTING_HEADERS, 0, 0 },
};

static void
header_free (gpointer data)
{
  AgentHeader *header = data;

  g_free (header->name);
  g_free (header->value);
  g_free (header);
}

static void
agent_request_settings_finalize (GObject *object)
{
  AgentRequestSettings *self = (AgentRequestSettings *)object;

  g_clear_pointer (&self->tool_choice_name, g_free);
  g_clear_pointer (&self->stop, g_strfreev);
  g_clear_pointer (&self->provider_options, json_node_unref);
  g_clear_pointer (&self->headers, g_ptr_array_unref);

  G_OBJECT_CLASS (agent_request_settings_parent_class)->finalize (object);
}

static void
agent_request_settings_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  AgentRequestSettings *self = AGENT_REQUEST_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_TEMPERATURE:
      g_value_set_double (value, self->temperature);
      break;
    case PROP_TEMPERATURE_SET:
      g_value_set_boolean (value, _agent_request_settings_has (self, AGENT_SETTING_TEMPERATURE));
      break;
    case PROP_TOP_P:
      g_value_set_double (value, self->top_p);
      break;
    case PROP_TOP_P_SET:
      g_value_set_boolean (value, _agent_request_settings_has (self, AGENT_SETTING_TOP_P));
      break;
    case PROP_TOP_K:
      g_value_set_uint (value, self->top_k);
      break;
    case PROP_TOP_K_SET:
      g_value_set_boolean (value, _agent_request_settings_has (self, AGENT_SETTING_TOP_K));
      break;
    case PROP_SEED:
      g_value_set_int64 (value, self->seed);
      break;
    case PROP_SEED_SET:
      g_value_set_boolean (value, _agent_request_settings_has (self, AGENT_SETTING_SEED));
      break;
    case PROP_STOP:
      g_value_set_boxed (value, self->stop);
      break;
    case PROP_PRESENCE_PENALTY:
      g_value_set_double (value, self->presence_penalty);
      break;
    case PROP_PRESENCE_PENALTY_SET:
      g_value_set_boolean (value, _agent_request_settings_has (self,
                                                               AGENT_SETTING_PRESENCE_PENALTY));
      break;
    case PROP_FREQUENCY_PENALTY:
      g_value_set_double (value, self->frequency_penalty);
      break;
    case PROP_FREQUENCY_PENALTY_SET:
      g_value_set_boolean (value, _agent_request_settings_has (self,
                                                               AGENT_SETTING_FREQUENCY_PENALTY));
      break;
    case PROP_TOOL_CHOICE:
      g_value_set_enum (value, self->tool_choice);
      break;
    case PROP_TOOL_CHOICE_NAME:
      g_value_set_string (value, self->tool_choice_name);
      break;
    case PROP_PARALLEL_TOOL_CALLS:
      g_value_set_boolean (value, self->parallel_tool_calls);
      break;
    case PROP_PARALLEL_TOOL_CALLS_SET:
      g_value_set_boolean (value, _agent_request_settings_has (self,
                                                               AGENT_SETTING_PARALLEL_TOOL_CALLS));
      break;
    case PROP_PROVIDER_OPTIONS:
      g_value_set_boxed (value, self->provider_options);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* A "-set" property set to FALSE unsets; set to TRUE, it keeps the value
 * the setting has (its default, if it never had one) */
static void
set_flag (AgentRequestSettings *self,
          AgentSettingFlags     flag,
          gboolean              value)
{
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (names[i].flag == flag)
      {
        if (!value)
          agent_request_settings_unset (self, names[i].name);
        else if (!_agent_request_settings_has (self, flag))
          {
            self->set |= flag;
            g_object_notify_by_pspec (G_OBJECT (self), properties[names[i].set_prop]);
          }
        return;
      }
}

static void
agent_request_settings_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  AgentRequestSettings *self = AGENT_REQUEST_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_TEMPERATURE:
      agent_request_settings_set_temperature (self, g_value_get_double (value));
      break;
    case PROP_TEMPERATURE_SET:
      set_flag (self, AGENT_SETTING_TEMPERATURE, g_value_get_boolean (value));
      break;
    case PROP_TOP_P:
      agent_request_settings_set_top_p (self, g_value_get_double (value));
      break;
    case PROP_TOP_P_SET:
      set_flag (self, AGENT_SETTING_TOP_P, g_value_get_boolean (value));
      break;
    case PROP_TOP_K:
      agent_request_settings_set_top_k (self, g_value_get_uint (value));
      break;
    case PROP_TOP_K_SET:
      set_flag (self, AGENT_SETTING_TOP_K, g_value_get_boolean (value));
      break;
    case PROP_SEED:
      agent_request_settings_set_seed (self, g_value_get_int64 (value));
      break;
    case PROP_SEED_SET:
      set_flag (self, AGENT_SETTING_SEED, g_value_get_boolean (value));
      break;
    case PROP_STOP:
      agent_request_settings_set_stop (self, g_value_get_boxed (value));
      break;
    case PROP_PRESENCE_PENALTY:
      agent_request_settings_set_presence_penalty (self, g_value_get_double (value));
      break;
    case PROP_PRESENCE_PENALTY_SET:
      set_flag (self, AGENT_SETTING_PRESENCE_PENALTY, g_value_get_boolean (value));
      break;
    case PROP_FREQUENCY_PENALTY:
      agent_request_settings_set_frequency_penalty (self, g_value_get_double (value));
      break;
    case PROP_FREQUENCY_PENALTY_SET:
      set_flag (self, AGENT_SETTING_FREQUENCY_PENALTY, g_value_get_boolean (value));
      break;
    case PROP_TOOL_CHOICE:
      agent_request_settings_set_tool_choice (self, g_value_get_enum (value),
                                              self->tool_choice_name);
      break;
    case PROP_TOOL_CHOICE_NAME:
      agent_request_settings_set_tool_choice (self, self->tool_choice, g_value_get_string (value));
      break;
    case PROP_PARALLEL_TOOL_CALLS:
      agent_request_settings_set_parallel_tool_calls (self, g_value_get_boolean (value));
      break;
    case PROP_PARALLEL_TOOL_CALLS_SET:
      set_flag (self, AGENT_SETTING_PARALLEL_TOOL_CALLS, g_value_get_boolean (value));
      break;
    case PROP_PROVIDER_OPTIONS:
      agent_request_settings_set_provider_options (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_request_settings_class_init (AgentRequestSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = agent_request_settings_finalize;
  object_class->get_property = agent_request_settings_get_property;
  object_class->set_property = agent_request_settings_set_property;

  /**
   * AgentRequestSettings:temperature:
   *
   * How random the sampling is: 0 picks the likeliest token. APIs take
   * from 0 to 2 (Anthropic to 1). Setting it sets
   * [property@Agent.RequestSettings:temperature-set].
   */
  properties[PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, NULL, 0, G_MAXDOUBLE, 1, flags);

  /**
   * AgentRequestSettings:temperature-set:
   *
   * Whether [property@Agent.RequestSettings:temperature] is sent; %FALSE
   * leaves the server's default.
   */
  properties[PROP_TEMPERATURE_SET] =
    g_param_spec_boolean ("temperature-set", NULL, NULL, FALSE, flags);

  /**
   * AgentRequestSettings:top-p:
   *
   * Nucleus sampling: only the likeliest tokens whose probabilities add
   * up to this, from 0 to 1, are candidates.
   */
  properties[PROP_TOP_P] =
    g_param_spec_double ("top-p", NULL, NULL, 0, 1, 1, flags);

  /**
   * AgentRequestSettings:top-p-set:
   *
   * Whether [property@Agent.RequestSettings:top-p] is sent.
   */
  properties[PROP_TOP_P_SET] =
    g_param_spec_boolean ("top-p-set", NULL, NULL, FALSE, flags);

  /**
   * AgentRequestSettings:top-k:
   *
   * Only this many of the likeliest tokens are candidates.
   */
  properties[PROP_TOP_K] =
    g_param_spec_uint ("top-k", NULL, NULL, 1, G_MAXINT, 40, flags);

  /**
   * AgentRequestSettings:top-k-set:
   *
   * Whether [property@Agent.RequestSettings:top-k] is sent.
   */
  properties[PROP_TOP_K_SET] =
    g_param_spec_boolean ("top-k-set", NULL, NULL, FALSE, flags);

  /**
   * AgentRequestSettings:seed:
   *
   * The seed of the sampling: the same seed, prompt and settings give the
   * same answer, as far as the server can (Gemini takes 32-bit seeds).
   */
  properties[PROP_SEED] =
    g_param_spec_int64 ("seed", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);

  /**
   * AgentRequestSettings:seed-set:
   *
   * Whether [property@Agent.RequestSettings:seed] is sent.
   */
  properties[PROP_SEED_SET] =
    g_param_spec_boolean ("seed-set", NULL, NULL, FALSE, flags);

  /**
   * AgentRequestSettings:stop:
   *
   * Texts that end the answer where the model writes them (not included
   * in it), or %NULL (or an empty list) for none.
   */
  properties[PROP_STOP] =
    g_param_spec_boxed ("stop", NULL, NULL, G_TYPE_STRV, flags);

  /**
   * AgentRequestSettings:presence-penalty:
   *
   * How much less likely a token becomes once it appeared at all, from -2
   * to 2 where the API bounds it.
   */
  properties[PROP_PRESENCE_PENALTY] =
    g_param_spec_double ("presence-penalty", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);

  /**
   * AgentRequestSettings:presence-penalty-set:
   *
   * Whether [property@Agent.RequestSettings:presence-penalty] is sent.
   */
  properties[PROP_PRESENCE_PENALTY_SET] =
    g_param_spec_boolean ("presence-penalty-set", NULL, NULL, FALSE, flags);

  /**
   * AgentRequestSettings:frequency-penalty:
   *
   * How much less likely a token becomes each time it appeared, from -2 to
   * 2 where the API bounds it.
   */
  properties[PROP_FREQUENCY_PENALTY] =
    g_param_spec_double ("frequency-penalty", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, flags);

  /**
   * AgentRequestSettings:frequency-penalty-set:
   *
   * Whether [property@Agent.RequestSettings:frequency-penalty] is sent.
   */
  properties[PROP_FREQUENCY_PENALTY_SET] =
    g_param_spec_boolean ("frequency-penalty-set", NULL, NULL, FALSE, flags);

  /**
   * AgentRequestSettings:tool-choice:
   *
   * Whether, and which, tools the model must call;
   * %AGENT_TOOL_CHOICE_DEFAULT asks nothing. A choice that names a tool
   * ([property@Agent.RequestSettings:tool-choice-name]) must name one the
   * request offers, and a choice that requires a tool needs tools to
   * offer: else the turn fails before sending.
   */
  properties[PROP_TOOL_CHOICE] =
    g_param_spec_enum ("tool-choice", NULL, NULL, AGENT_TYPE_TOOL_CHOICE,
                       AGENT_TOOL_CHOICE_DEFAULT, flags);

  /**
   * AgentRequestSettings:tool-choice-name:
   *
   * The tool the model must call, for %AGENT_TOOL_CHOICE_TOOL.
   */
  properties[PROP_TOOL_CHOICE_NAME] =
    g_param_spec_string ("tool-choice-name", NULL, NULL, NULL, flags);

  /**
   * AgentRequestSettings:parallel-tool-calls:
   *
   * Whether the model may call several tools in one answer. Only %FALSE
   * changes what models do; an API without the switch refuses it.
   */
  properties[PROP_PARALLEL_TOOL_CALLS] =
    g_param_spec_boolean ("parallel-tool-calls", NULL, NULL, TRUE, flags);

  /**
   * AgentRequestSettings:parallel-tool-calls-set:
   *
   * Whether [property@Agent.RequestSettings:parallel-tool-calls] is sent.
   */
  properties[PROP_PARALLEL_TOOL_CALLS_SET] =
    g_param_spec_boolean ("parallel-tool-calls-set", NULL, NULL, FALSE, flags);

  /**
   * AgentRequestSettings:provider-options:
   *
   * A JSON object merged into the request body, for what the API has and
   * libagent does not model; see
   * [method@Agent.RequestSettings.set_provider_options].
   */
  properties[PROP_PROVIDER_OPTIONS] =
    g_param_spec_boxed ("provider-options", NULL, NULL, JSON_TYPE_NODE, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_request_settings_init (AgentRequestSettings *self)
{
  self->temperature = 1;
  self->top_p = 1;
  self->top_k = 40;
  self->parallel_tool_calls = TRUE;
  self->headers = g_ptr_array_new_with_free_func (header_free);
}

/**
 * agent_request_settings_new:
 *
 * Creates settings with nothing set.
 *
 * Returns: (transfer full): a new [class@Agent.RequestSettings]
 *
 * Since: 0.1
 */
AgentRequestSettings *
agent_request_settings_new (void)
{
  return g_object_new (AGENT_TYPE_REQUEST_SETTINGS, NULL);
}

/**
 * agent_request_settings_copy:
 * @self: a [class@Agent.RequestSettings]
 *
 * Copies @self: what is set in it, and the values.
 *
 * Returns: (transfer full): a new [class@Agent.RequestSettings]
 *
 * Since: 0.1
 */
AgentRequestSettings *
agent_request_settings_copy (AgentRequestSettings *self)
{
  AgentRequestSettings *copy;

  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), NULL);

  copy = agent_request_settings_new ();
  copy->temperature = self->temperature;
  copy->top_p = self->top_p;
  copy->top_k = self->top_k;
  copy->seed = self->seed;
  copy->presence_penalty = self->presence_penalty;
  copy->frequency_penalty = self->frequency_penalty;
  copy->tool_choice = self->tool_choice;
  copy->tool_choice_name = g_strdup (self->tool_choice_name);
  copy->parallel_tool_calls = self->parallel_tool_calls;
  copy->stop = g_strdupv (self->stop);
  copy->provider_options = self->provider_options ? json_node_copy (self->provider_options) : NULL;
  for (guint i = 0; i < self->headers->len; i++)
    {
      AgentHeader *header = g_ptr_array_index (self->headers, i);

      agent_request_settings_set_header (copy, header->name, header->value);
    }
  copy->set = self->set;
  return copy;
}

static int
lookup_name (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (name, names[i].name) == 0)
      return i;
  return -1;
}

/**
 * agent_request_settings_is_set:
 * @self: a [class@Agent.RequestSettings]
 * @name: a setting: `temperature`, `top-p`, `top-k`, `seed`, `stop`,
 *   `presence-penalty`, `frequency-penalty`, `tool-choice`,
 *   `parallel-tool-calls`, `provider-options` or `headers`
 *
 * Checks whether the setting @name is set: a request of these settings
 * sends it.
 *
 * Returns: whether @name is set
 *
 * Since: 0.1
 */
gboolean
agent_request_settings_is_set (AgentRequestSettings *self,
                               const char           *name)
{
  int i;

  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), FALSE);
  i = lookup_name (name);
  g_return_val_if_fail (i >= 0, FALSE);

  return _agent_request_settings_has (self, names[i].flag);
}

/**
 * agent_request_settings_unset:
 * @self: a [class@Agent.RequestSettings]
 * @name: a setting, as [method@Agent.RequestSettings.is_set] names them
 *
 * Takes the setting @name back: the layer below decides it again (the
 * provider's under the session's, the server's default at the bottom).
 *
 * Since: 0.1
 */
void
agent_request_settings_unset (AgentRequestSettings *self,
                              const char           *name)
{
  int i;

  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));
  i = lookup_name (name);
  g_return_if_fail (i >= 0);

  if (!_agent_request_settings_has (self, names[i].flag))
    return;

  self->set &= ~names[i].flag;
  switch (names[i].flag)
    {
    case AGENT_SETTING_STOP:
      g_clear_pointer (&self->stop, g_strfreev);
      break;
    case AGENT_SETTING_TOOL_CHOICE:
      self->tool_choice = AGENT_TOOL_CHOICE_DEFAULT;
      g_clear_pointer (&self->tool_choice_name, g_free);
      break;
    case AGENT_SETTING_PROVIDER_OPTIONS:
      g_clear_pointer (&self->provider_options, json_node_unref);
      break;
    case AGENT_SETTING_HEADERS:
      g_ptr_array_set_size (self->headers, 0);
      break;
    case AGENT_SETTING_TEMPERATURE:
    case AGENT_SETTING_TOP_P:
    case AGENT_SETTING_TOP_K:
    case AGENT_SETTING_SEED:
    case AGENT_SETTING_PRESENCE_PENALTY:
    case AGENT_SETTING_FREQUENCY_PENALTY:
    case AGENT_SETTING_PARALLEL_TOOL_CALLS:
    default:
      break;
    }

  if (names[i].value_prop != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[names[i].value_prop]);
  if (names[i].set_prop != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[names[i].set_prop]);
}

/**
 * agent_request_settings_unset_all:
 * @self: a [class@Agent.RequestSettings]
 *
 * Takes every setting back (see [method@Agent.RequestSettings.unset]).
 *
 * Since: 0.1
 */
void
agent_request_settings_unset_all (AgentRequestSettings *self)
{
  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));

  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    agent_request_settings_unset (self, names[i].name);
  g_object_thaw_notify (G_OBJECT (self));
}

/* Tells of a change of the setting @flag: its value's property, and its
 * "-set" one when it was not set before */
void
_agent_request_settings_notify_set (AgentRequestSettings *self,
                                    AgentSettingFlags     flag,
                                    gboolean              was_set)
{
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (names[i].flag == flag)
      {
        if (names[i].value_prop != 0)
          g_object_notify_by_pspec (G_OBJECT (self), properties[names[i].value_prop]);
        if (!was_set && names[i].set_prop != 0 && flag != AGENT_SETTING_TOOL_CHOICE)
          g_object_notify_by_pspec (G_OBJECT (self), properties[names[i].set_prop]);
        return;
      }
}

/**
 * agent_request_settings_get_tool_choice:
 * @self: a [class@Agent.RequestSettings]
 *
 * Gets [property@Agent.RequestSettings:tool-choice].
 *
 * Returns: the tool choice
 *
 * Since: 0.1
 */
AgentToolChoice
agent_request_settings_get_tool_choice (AgentRequestSettings *self)
{
  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), AGENT_TOOL_CHOICE_DEFAULT);
  return self->tool_choice;
}

/**
 * agent_request_settings_get_tool_choice_name:
 * @self: a [class@Agent.RequestSettings]
 *
 * Gets [property@Agent.RequestSettings:tool-choice-name].
 *
 * Returns: (nullable): the tool the model must call, with
 *   %AGENT_TOOL_CHOICE_TOOL
 *
 * Since: 0.1
 */
const char *
agent_request_settings_get_tool_choice_name (AgentRequestSettings *self)
{
  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), NULL);
  return self->tool_choice_name;
}

/**
 * agent_request_settings_set_tool_choice:
 * @self: a [class@Agent.RequestSettings]
 * @choice: whether and which tools the model must call
 * @tool_name: (nullable): the tool, for %AGENT_TOOL_CHOICE_TOOL
 *
 * Sets [property@Agent.RequestSettings:tool-choice] and
 * [property@Agent.RequestSettings:tool-choice-name].
 * %AGENT_TOOL_CHOICE_DEFAULT unsets it.
 *
 * Since: 0.1
 */
void
agent_request_settings_set_tool_choice (AgentRequestSettings *self,
                                        AgentToolChoice       choice,
                                        const char           *tool_name)
{
  g_autofree char *name = NULL;

  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));
  g_return_if_fail (choice <= AGENT_TOOL_CHOICE_TOOL);

  if (choice == AGENT_TOOL_CHOICE_DEFAULT)
    {
      agent_request_settings_unset (self, "tool-choice");
      return;
    }

  name = g_strdup (choice == AGENT_TOOL_CHOICE_TOOL ? tool_name : NULL);
  if (self->tool_choice == choice && g_strcmp0 (self->tool_choice_name, name) == 0)
    return;

  self->set |= AGENT_SETTING_TOOL_CHOICE;
  if (self->tool_choice != choice)
    {
      self->tool_choice = choice;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL_CHOICE]);
    }
  if (g_strcmp0 (self->tool_choice_name, name) != 0)
    {
      g_free (self->tool_choice_name);
      self->tool_choice_name = g_steal_pointer (&name);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL_CHOICE_NAME]);
    }
}

/**
 * agent_request_settings_get_parallel_tool_calls:
 * @self: a [class@Agent.RequestSettings]
 *
 * Gets [property@Agent.RequestSettings:parallel-tool-calls].
 *
 * Returns: whether the model may call several tools at once (%TRUE when
 *   it is not set)
 *
 * Since: 0.1
 */
gboolean
agent_request_settings_get_parallel_tool_calls (AgentRequestSettings *self)
{
  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), TRUE);
  return self->parallel_tool_calls;
}

/**
 * agent_request_settings_set_parallel_tool_calls:
 * @self: a [class@Agent.RequestSettings]
 * @parallel: whether the model may call several tools at once
 *
 * Sets [property@Agent.RequestSettings:parallel-tool-calls].
 *
 * Since: 0.1
 */
void
agent_request_settings_set_parallel_tool_calls (AgentRequestSettings *self,
                                                gboolean              parallel)
{
  gboolean was_set;

  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));

  parallel = !!parallel;
  was_set = _agent_request_settings_has (self, AGENT_SETTING_PARALLEL_TOOL_CALLS);
  if (was_set && self->parallel_tool_calls == (guint) parallel)
    return;
  self->set |= AGENT_SETTING_PARALLEL_TOOL_CALLS;
  if (self->parallel_tool_calls != (guint) parallel)
    {
      self->parallel_tool_calls = parallel;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PARALLEL_TOOL_CALLS]);
    }
  if (!was_set)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PARALLEL_TOOL_CALLS_SET]);
}

/**
 * agent_request_settings_get_provider_options:
 * @self: a [class@Agent.RequestSettings]
 *
 * Gets [property@Agent.RequestSettings:provider-options].
 *
 * Returns: (nullable) (transfer none): a JSON object, or %NULL
 *
 * Since: 0.1
 */
JsonNode *
agent_request_settings_get_provider_options (AgentRequestSettings *self)
{
  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), NULL);
  return self->provider_options;
}

/**
 * agent_request_settings_set_provider_options:
 * @self: a [class@Agent.RequestSettings]
 * @options: (nullable): a JSON object, or %NULL to unset them
 *
 * Sets the options merged into each request's body, for what the API has
 * and libagent does not model (Ollama's `options.mirostat`, OpenRouter's
 * `provider`, Anthropic's `metadata`, …). The merge is JSON Merge Patch's
 * without deletion: a member whose value is an object merges into the
 * body's object of that name (made if the body has none), member by member,
 * at any depth; any other value (a string, number, array, %TRUE, null)
 * replaces the body's. So options win over the settings libagent wrote
 * (`{"options": {"num_ctx": 8192}}` over Ollama's window), and layers merge
 * the same way: the session's options over the provider's, a step's over
 * the session's.
 *
 * The members that carry the conversation and its tools are libagent's:
 * options that set the messages (`messages`; `input` for Responses,
 * `contents` for Gemini), `tools` or `stream` fail the turn before
 * sending, with %AGENT_ERROR_INVALID_ARGUMENT.
 *
 * Since: 0.1
 */
void
agent_request_settings_set_provider_options (AgentRequestSettings *self,
                                             JsonNode             *options)
{
  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));
  g_return_if_fail (options == NULL || JSON_NODE_HOLDS_OBJECT (options));

  if (options == NULL)
    {
      agent_request_settings_unset (self, "provider-options");
      return;
    }
  if (self->provider_options != NULL && json_node_equal (self->provider_options, options))
    return;

  g_clear_pointer (&self->provider_options, json_node_unref);
  self->provider_options = json_node_copy (options);
  self->set |= AGENT_SETTING_PROVIDER_OPTIONS;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROVIDER_OPTIONS]);
}
