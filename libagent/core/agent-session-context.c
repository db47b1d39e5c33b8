/* agent-session-context.c — how much of the model's context window the
 * conversation takes, and what the session sends when it no longer fits
 *
 * Properties and signals of AgentSession, kept apart from the others in
 * agent-session.c: agent-turn-context.c does the work.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-enums.h"
#include "core/agent-session-private.h"

#define DEFAULT_PRESSURE_THRESHOLD 0.8

enum {
  PROP_CONTEXT_POLICY,
  PROP_CONTEXT_WINDOW,
  PROP_CONTEXT_USED,
  PROP_CONTEXT_PRESSURE_THRESHOLD,
  PROP_CONTEXT_ESTIMATED,
  N_CONTEXT_PROPS
};

G_STATIC_ASSERT (N_CONTEXT_PROPS == AGENT_SESSION_N_CONTEXT_PROPS);

static GParamSpec *properties[N_CONTEXT_PROPS];
static guint first_prop_id;

void
_agent_session_init_context (AgentSession *self)
{
  self->context_used = -1;
  self->context_estimated = TRUE;
  self->context_pressure_threshold = DEFAULT_PRESSURE_THRESHOLD;
}

void
_agent_session_dispose_context (AgentSession *self)
{
  g_clear_object (&self->context_policy);
}

void
_agent_session_class_add_context (GObjectClass *object_class,
                                  guint         first_id,
                                  guint        *signal_ids)
{
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GType type = G_TYPE_FROM_CLASS (object_class);

  first_prop_id = first_id;

  /**
   * AgentSession:context-policy:
   *
   * What the session sends of a conversation that outgrew the model's
   * context window, or %NULL (the default) to send it all, and fail with
   * %AGENT_ERROR_CONTEXT_LENGTH when the server refuses it.
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_POLICY] =
    g_param_spec_object ("context-policy", NULL, NULL,
                         AGENT_TYPE_CONTEXT_POLICY, flags);

  /**
   * AgentSession:context-window:
   *
   * The model's context window in tokens, or 0 if it is not known. An
   * application sets it from a setting, or from the provider's model list
   * ([method@Agent.Provider.fetch_context_window_async]); a server that
   * refuses a request as too long and names its limit sets it too.
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_WINDOW] =
    g_param_spec_uint64 ("context-window", NULL, NULL,
                         0, G_MAXUINT64, 0, flags);

  /**
   * AgentSession:context-used:
   *
   * An estimate of the tokens of the next request, or -1 before the
   * first: the tokens the server reported for the last answer (its prompt
   * and completion), plus the messages added since: their text at 4 bytes
   * a token (a rough rule for English text and code), their images and
   * documents as the provider's API bills them (by the size of an image
   * as it is sent, the pages of a PDF; docs/design.md, "Attachments").
   * Without any usage, the whole conversation is counted that way; and
   * [property@Agent.Session:context-estimated] says whether any of it is
   * an estimate.
   *
   * It is updated before each request, while an answer streams (the
   * request's estimate and the answer's bytes, four times a second at
   * most), when a turn ends, and by
   * [method@Agent.Session.estimate_context_used].
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_USED] =
    g_param_spec_int64 ("context-used", NULL, NULL,
                        -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentSession:context-pressure-threshold:
   *
   * The fraction of [property@Agent.Session:context-window] at which
   * [signal@Agent.Session::context-pressure] is emitted, and at which a
   * [class@Agent.ContextPolicy] that compacts on its own compacts.
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_PRESSURE_THRESHOLD] =
    g_param_spec_double ("context-pressure-threshold", NULL, NULL,
                         0.0, 1.0, DEFAULT_PRESSURE_THRESHOLD, flags);

  /**
   * AgentSession:context-estimated:
   *
   * Whether [property@Agent.Session:context-used] is an estimate, in part
   * or whole, rather than the server's own count of the last request and
   * its answer: %FALSE only when nothing was added since an answer whose
   * usage the server reported. A view says "about" when it is %TRUE.
   *
   * Since: 0.1
   */
  properties[PROP_CONTEXT_ESTIMATED] =
    g_param_spec_boolean ("context-estimated", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  for (guint i = 0; i < N_CONTEXT_PROPS; i++)
    g_object_class_install_property (object_class, first_prop_id + i, properties[i]);

  /**
   * AgentSession::context-pressure:
   * @self: the session
   * @used: the estimate of the next request, in tokens
   * @window: the model's context window, in tokens
   *
   * Emitted when [property@Agent.Session:context-used] crosses
   * [property@Agent.Session:context-pressure-threshold] of a known
   * [property@Agent.Session:context-window] upwards (again only after it
   * went below), before the request: the time to tell the user, or to
   * compact.
   *
   * Since: 0.1
   */
  signal_ids[AGENT_SESSION_CONTEXT_PRESSURE] =
    g_signal_new ("context-pressure",
                  type,
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_UINT64);

  /**
   * AgentSession::compacted:
   * @self: the session
   * @strategy: what was done
   * @start: the memory position of the first message replaced
   * @end: the memory position after the last message replaced
   * @tokens_before: the estimate of the request before, in tokens
   * @tokens_after: the estimate after, in tokens
   * @summary: (nullable): the summary written, now in memory
   *
   * Emitted when the [class@Agent.ContextPolicy] compacted the
   * conversation: from now on, the messages from @start to @end (not
   * included) are sent shortened (tool results), left out, or replaced by
   * @summary. The memory keeps all of them.
   *
   * A summary streams before: the model writes it as any answer, with
   * [signal@Agent.Session::text-delta] for a message that
   * [method@Agent.Message.is_summary], which is the session's
   * [property@Agent.Session:current-message] meanwhile.
   *
   * Since: 0.1
   */
  signal_ids[AGENT_SESSION_COMPACTED] =
    g_signal_new ("compacted",
                  type,
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 6,
                  AGENT_TYPE_CONTEXT_STRATEGY, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_INT64,
                  G_TYPE_INT64, AGENT_TYPE_MESSAGE);
}

gboolean
_agent_session_get_context_property (AgentSession *self,
                                     guint         prop_id,
                                     GValue       *value)
{
  switch (prop_id - first_prop_id)
    {
    case PROP_CONTEXT_POLICY:
      g_value_set_object (value, self->context_policy);
      return TRUE;

    case PROP_CONTEXT_WINDOW:
      g_value_set_uint64 (value, self->context_window);
      return TRUE;

    case PROP_CONTEXT_USED:
      g_value_set_int64 (value, self->context_used);
      return TRUE;

    case PROP_CONTEXT_PRESSURE_THRESHOLD:
      g_value_set_double (value, self->context_pressure_threshold);
      return TRUE;

    case PROP_CONTEXT_ESTIMATED:
      g_value_set_boolean (value, self->context_estimated);
      return TRUE;

    default:
      return FALSE;
    }
}

gboolean
_agent_session_set_context_property (AgentSession *self,
                                     guint         prop_id,
                                     const GValue *value)
{
  switch (prop_id - first_prop_id)
    {
    case PROP_CONTEXT_POLICY:
      agent_session_set_context_policy (self, g_value_get_object (value));
      return TRUE;

    case PROP_CONTEXT_WINDOW:
      agent_session_set_context_window (self, g_value_get_uint64 (value));
      return TRUE;

    case PROP_CONTEXT_PRESSURE_THRESHOLD:
      agent_session_set_context_pressure_threshold (self, g_value_get_double (value));
      return TRUE;

    default:
      return FALSE;
    }
}

/* Sets context-used and context-estimated, notified together */
static void
set_used (AgentSession *self,
          gint64        tokens,
          gboolean      estimated)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (self->context_estimated != !!estimated)
    {
      self->context_estimated = !!estimated;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_ESTIMATED]);
    }
  if (self->context_used != tokens)
    {
      self->context_used = tokens;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_USED]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

void
_agent_session_show_context_used (AgentSession *self,
                                  gint64        tokens)
{
  set_used (self, tokens, TRUE);
}

void
_agent_session_set_context_used (AgentSession *self,
                                 gint64        tokens,
                                 gboolean      estimated)
{
  gboolean pressure;

  set_used (self, tokens, estimated);

  pressure = self->context_window > 0 && tokens >= 0 &&
             (double) tokens >= self->context_pressure_threshold * (double) self->context_window;
  if (pressure && !self->context_pressure)
    {
      self->context_pressure = TRUE;
      _agent_session_emit (self, AGENT_SESSION_CONTEXT_PRESSURE, tokens, self->context_window);
    }
  else if (!pressure)
    self->context_pressure = FALSE;
}

/**
 * agent_session_get_context_policy:
 * @self: a [class@Agent.Session]
 *
 * Gets what the session sends of a conversation that outgrew the
 * model's context window.
 *
 * Returns: (transfer none) (nullable): the policy, or %NULL
 *
 * Since: 0.1
 */
AgentContextPolicy *
agent_session_get_context_policy (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), NULL);
  return self->context_policy;
}

/**
 * agent_session_set_context_policy:
 * @self: a [class@Agent.Session]
 * @policy: (nullable): a policy, or %NULL to send everything
 *
 * Sets [property@Agent.Session:context-policy]. It takes effect with the
 * next request.
 *
 * Since: 0.1
 */
void
agent_session_set_context_policy (AgentSession       *self,
                                  AgentContextPolicy *policy)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (!policy || AGENT_IS_CONTEXT_POLICY (policy));

  if (g_set_object (&self->context_policy, policy))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_POLICY]);
}

/**
 * agent_session_get_context_window:
 * @self: a [class@Agent.Session]
 *
 * Gets the model's context window.
 *
 * Returns: the context window in tokens, or 0 if it is not known
 *
 * Since: 0.1
 */
guint64
agent_session_get_context_window (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->context_window;
}

/**
 * agent_session_set_context_window:
 * @self: a [class@Agent.Session]
 * @tokens: the context window in tokens, or 0 if it is not known
 *
 * Sets [property@Agent.Session:context-window].
 *
 * Since: 0.1
 */
void
agent_session_set_context_window (AgentSession *self,
                                  guint64       tokens)
{
  g_return_if_fail (AGENT_IS_SESSION (self));

  if (self->context_window != tokens)
    {
      self->context_window = tokens;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_WINDOW]);
    }
}

/**
 * agent_session_get_context_used:
 * @self: a [class@Agent.Session]
 *
 * Gets the estimate of the next request's tokens (see
 * [property@Agent.Session:context-used]).
 *
 * Returns: the estimate in tokens, or -1 before the first request
 *
 * Since: 0.1
 */
gint64
agent_session_get_context_used (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), -1);
  return self->context_used;
}

/**
 * agent_session_get_context_estimated:
 * @self: a [class@Agent.Session]
 *
 * Gets whether [property@Agent.Session:context-used] is an estimate.
 *
 * Returns: %TRUE unless it is all the server's own count
 *
 * Since: 0.1
 */
gboolean
agent_session_get_context_estimated (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), TRUE);
  return self->context_estimated;
}

/**
 * agent_session_estimate_context_used:
 * @self: a [class@Agent.Session]
 *
 * Estimates [property@Agent.Session:context-used] anew from the memory
 * as it is: after the application showed another conversation
 * ([method@Agent.Session.set_memory]) or changed this one, so that a
 * view shows its size before its next request. An empty memory is -1.
 * The memory is read: a stored conversation not loaded yet is loaded.
 *
 * Since: 0.1
 */
void
agent_session_estimate_context_used (AgentSession *self)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  _agent_session_update_context_used (self);
}

/**
 * agent_session_get_context_pressure_threshold:
 * @self: a [class@Agent.Session]
 *
 * Gets the fraction of the context window at which the session reports
 * pressure and compacts.
 *
 * Returns: a fraction between 0 and 1
 *
 * Since: 0.1
 */
double
agent_session_get_context_pressure_threshold (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), DEFAULT_PRESSURE_THRESHOLD);
  return self->context_pressure_threshold;
}

/**
 * agent_session_set_context_pressure_threshold:
 * @self: a [class@Agent.Session]
 * @fraction: a fraction between 0 and 1
 *
 * Sets [property@Agent.Session:context-pressure-threshold].
 *
 * Since: 0.1
 */
void
agent_session_set_context_pressure_threshold (AgentSession *self,
                                              double        fraction)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (fraction >= 0.0 && fraction <= 1.0);

  if (self->context_pressure_threshold != fraction)
    {
      self->context_pressure_threshold = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_PRESSURE_THRESHOLD]);
    }
}
