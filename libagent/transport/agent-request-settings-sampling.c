/* agent-request-settings-sampling.c — how the model samples
 *
 * The sampling settings of AgentRequestSettings (agent-request-settings.c
 * has the class, its properties and the tool choice): temperature, top-p,
 * top-k, seed, stop sequences, presence and frequency penalties.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include "transport/agent-request-settings-private.h"

/* Sets a number and its flag, telling of each change */
static void
set_double (AgentRequestSettings *self,
            double               *field,
            double                value,
            AgentSettingFlags     flag)
{
  gboolean was_set = _agent_request_settings_has (self, flag);

  if (was_set && *field == value)
    return;

  *field = value;
  self->set |= flag;
  _agent_request_settings_notify_set (self, flag, was_set);
}

/**
 * agent_request_settings_get_temperature:
 * @self: a [class@Agent.RequestSettings]
 *
 * Gets [property@Agent.RequestSettings:temperature].
 *
 * Returns: the temperature (1 when it is not set)
 *
 * Since: 0.1
 */
double
agent_request_settings_get_temperature (AgentRequestSettings *self)
{
  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), 1);
  return self->temperature;
}

/**
 * agent_request_settings_set_temperature:
 * @self: a [class@Agent.RequestSettings]
 * @temperature: 0 or more
 *
 * Sets [property@Agent.RequestSettings:temperature].
 *
 * Since: 0.1
 */
void
agent_request_settings_set_temperature (AgentRequestSettings *self,
                                        double                temperature)
{
  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));
  g_return_if_fail (isfinite (temperature) && temperature >= 0);

  set_double (self, &self->temperature, temperature, AGENT_SETTING_TEMPERATURE);
}

/**
 * agent_request_settings_get_top_p:
 * @self: a [class@Agent.RequestSettings]
 *
 * Gets [property@Agent.RequestSettings:top-p].
 *
 * Returns: the top-p (1 when it is not set)
 *
 * Since: 0.1
 */
double
agent_request_settings_get_top_p (AgentRequestSettings *self)
{
  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), 1);
  return self->top_p;
}

/**
 * agent_request_settings_set_top_p:
 * @self: a [class@Agent.RequestSettings]
 * @top_p: from 0 to 1
 *
 * Sets [property@Agent.RequestSettings:top-p].
 *
 * Since: 0.1
 */
void
agent_request_settings_set_top_p (AgentRequestSettings *self,
                                  double                top_p)
{
  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));
  g_return_if_fail (top_p >= 0 && top_p <= 1);

  set_double (self, &self->top_p, top_p, AGENT_SETTING_TOP_P);
}

/**
 * agent_request_settings_get_top_k:
 * @self: a [class@Agent.RequestSettings]
 *
 * Gets [property@Agent.RequestSettings:top-k].
 *
 * Returns: the top-k (40 when it is not set)
 *
 * Since: 0.1
 */
guint
agent_request_settings_get_top_k (AgentRequestSettings *self)
{
  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), 40);
  return self->top_k;
}

/**
 * agent_request_settings_set_top_k:
 * @self: a [class@Agent.RequestSettings]
 * @top_k: 1 or more
 *
 * Sets [property@Agent.RequestSettings:top-k].
 *
 * Since: 0.1
 */
void
agent_request_settings_set_top_k (AgentRequestSettings *self,
                                  guint                 top_k)
{
  gboolean was_set;

  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));
  g_return_if_fail (top_k >= 1 && top_k <= G_MAXINT);

  was_set = _agent_request_settings_has (self, AGENT_SETTING_TOP_K);
  if (was_set && self->top_k == top_k)
    return;
  self->top_k = top_k;
  self->set |= AGENT_SETTING_TOP_K;
  _agent_request_settings_notify_set (self, AGENT_SETTING_TOP_K, was_set);
}

/**
 * agent_request_settings_get_seed:
 * @self: a [class@Agent.RequestSettings]
 *
 * Gets [property@Agent.RequestSettings:seed].
 *
 * Returns: the seed (0 when it is not set)
 *
 * Since: 0.1
 */
gint64
agent_request_settings_get_seed (AgentRequestSettings *self)
{
  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), 0);
  return self->seed;
}

/**
 * agent_request_settings_set_seed:
 * @self: a [class@Agent.RequestSettings]
 * @seed: the seed
 *
 * Sets [property@Agent.RequestSettings:seed].
 *
 * Since: 0.1
 */
void
agent_request_settings_set_seed (AgentRequestSettings *self,
                                 gint64                seed)
{
  gboolean was_set;

  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));

  was_set = _agent_request_settings_has (self, AGENT_SETTING_SEED);
  if (was_set && self->seed == seed)
    return;
  self->seed = seed;
  self->set |= AGENT_SETTING_SEED;
  _agent_request_settings_notify_set (self, AGENT_SETTING_SEED, was_set);
}

/**
 * agent_request_settings_get_stop:
 * @self: a [class@Agent.RequestSettings]
 *
 * Gets [property@Agent.RequestSettings:stop].
 *
 * Returns: (nullable) (transfer none) (array zero-terminated=1): the stop
 *   sequences, or %NULL when none are set
 *
 * Since: 0.1
 */
const char * const *
agent_request_settings_get_stop (AgentRequestSettings *self)
{
  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), NULL);
  return (const char * const *) self->stop;
}

/**
 * agent_request_settings_set_stop:
 * @self: a [class@Agent.RequestSettings]
 * @stop: (nullable) (array zero-terminated=1): the stop sequences, or
 *   %NULL (or an empty list) to unset them
 *
 * Sets [property@Agent.RequestSettings:stop]. Each must be a text of at
 * least one character.
 *
 * Since: 0.1
 */
void
agent_request_settings_set_stop (AgentRequestSettings *self,
                                 const char * const   *stop)
{
  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));

  for (guint i = 0; stop != NULL && stop[i] != NULL; i++)
    g_return_if_fail (stop[i][0] != '\0' && g_utf8_validate (stop[i], -1, NULL));

  if (stop == NULL || stop[0] == NULL)
    {
      agent_request_settings_unset (self, "stop");
      return;
    }
  if (self->stop != NULL && g_strv_equal ((const char * const *) self->stop, stop))
    return;

  g_strfreev (self->stop);
  self->stop = g_strdupv ((char **) stop);
  self->set |= AGENT_SETTING_STOP;
  _agent_request_settings_notify_set (self, AGENT_SETTING_STOP, TRUE);
}

/**
 * agent_request_settings_get_presence_penalty:
 * @self: a [class@Agent.RequestSettings]
 *
 * Gets [property@Agent.RequestSettings:presence-penalty].
 *
 * Returns: the penalty (0 when it is not set)
 *
 * Since: 0.1
 */
double
agent_request_settings_get_presence_penalty (AgentRequestSettings *self)
{
  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), 0);
  return self->presence_penalty;
}

/**
 * agent_request_settings_set_presence_penalty:
 * @self: a [class@Agent.RequestSettings]
 * @penalty: a finite number
 *
 * Sets [property@Agent.RequestSettings:presence-penalty].
 *
 * Since: 0.1
 */
void
agent_request_settings_set_presence_penalty (AgentRequestSettings *self,
                                             double                penalty)
{
  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));
  g_return_if_fail (isfinite (penalty));

  set_double (self, &self->presence_penalty, penalty, AGENT_SETTING_PRESENCE_PENALTY);
}

/**
 * agent_request_settings_get_frequency_penalty:
 * @self: a [class@Agent.RequestSettings]
 *
 * Gets [property@Agent.RequestSettings:frequency-penalty].
 *
 * Returns: the penalty (0 when it is not set)
 *
 * Since: 0.1
 */
double
agent_request_settings_get_frequency_penalty (AgentRequestSettings *self)
{
  g_return_val_if_fail (AGENT_IS_REQUEST_SETTINGS (self), 0);
  return self->frequency_penalty;
}

/**
 * agent_request_settings_set_frequency_penalty:
 * @self: a [class@Agent.RequestSettings]
 * @penalty: a finite number
 *
 * Sets [property@Agent.RequestSettings:frequency-penalty].
 *
 * Since: 0.1
 */
void
agent_request_settings_set_frequency_penalty (AgentRequestSettings *self,
                                              double                penalty)
{
  g_return_if_fail (AGENT_IS_REQUEST_SETTINGS (self));
  g_return_if_fail (isfinite (penalty));

  set_double (self, &self->frequency_penalty, penalty, AGENT_SETTING_FREQUENCY_PENALTY);
}
