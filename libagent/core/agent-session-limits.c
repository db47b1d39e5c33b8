/* agent-session-limits.c — how large a turn and a request may grow, and
 * how long a step may go without news
 *
 * Properties of AgentSession, kept apart from the others in
 * agent-session.c: agent-turn.c enforces them. With them, scale-images:
 * images sent at the size the API uses, not larger (agent-turn-parts.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "core/agent-session-private.h"

enum {
  PROP_MAX_REQUEST_SIZE,
  PROP_MAX_TURN_SIZE,
  PROP_STALL_TIMEOUT,
  PROP_MAX_ATTACHMENT_SIZE,
  PROP_SCALE_IMAGES,
  N_LIMIT_PROPS
};

G_STATIC_ASSERT (N_LIMIT_PROPS == AGENT_SESSION_N_LIMIT_PROPS);

static GParamSpec *properties[N_LIMIT_PROPS];
static guint first_prop_id;

void
_agent_session_init_limits (AgentSession *self)
{
  self->max_request_size = AGENT_SESSION_DEFAULT_MAX_REQUEST_SIZE;
  self->max_turn_size = AGENT_SESSION_DEFAULT_MAX_TURN_SIZE;
  self->stall_timeout = AGENT_SESSION_DEFAULT_STALL_TIMEOUT;
  self->max_attachment_size = AGENT_SESSION_DEFAULT_MAX_ATTACHMENT_SIZE;
  self->scale_images = TRUE;
}

void
_agent_session_class_add_limits (GObjectClass *object_class,
                                 guint         first_id)
{
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  first_prop_id = first_id;

  /**
   * AgentSession:max-request-size:
   *
   * The most bytes of conversation one request may carry (the system
   * prompt and the messages, as the request is about to be built; then the
   * request body as built), or 0 for no limit. A turn whose next request
   * would be larger fails with %AGENT_ERROR_LIMIT before sending it; the
   * conversation stays as it was. The default, 32 MiB, is beyond what any
   * model reads at once, and keeps a runaway conversation from taking the
   * application's memory.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_REQUEST_SIZE] =
    g_param_spec_uint64 ("max-request-size", NULL, NULL,
                         0, G_MAXUINT64, AGENT_SESSION_DEFAULT_MAX_REQUEST_SIZE, flags);

  /**
   * AgentSession:max-turn-size:
   *
   * The most bytes one turn may add to the conversation — the text,
   * reasoning and tool-call arguments the model streams in all its steps,
   * and the results of the tools — or 0 for no limit. When an answer
   * crosses it, the step stops and the turn fails with %AGENT_ERROR_LIMIT:
   * the part of the answer that arrived is kept (marked interrupted), as
   * is everything before it. The default is 32 MiB.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_TURN_SIZE] =
    g_param_spec_uint64 ("max-turn-size", NULL, NULL,
                         0, G_MAXUINT64, AGENT_SESSION_DEFAULT_MAX_TURN_SIZE, flags);

  /**
   * AgentSession:stall-timeout:
   *
   * The most seconds a request may go without bringing new content (text,
   * reasoning, a refusal or tool-call arguments), from the moment it is
   * sent, or 0 for no limit. Unlike the provider's
   * [property@Agent.Provider:idle-timeout], bytes that carry nothing (SSE
   * comments, keep-alive events, a trickle of whitespace) do not count as
   * progress. Reaching it fails the turn with %AGENT_ERROR_TIMEOUT; what
   * streamed is kept. The default, 600 s, ends every request that stopped
   * making progress.
   *
   * Since: 0.1
   */
  properties[PROP_STALL_TIMEOUT] =
    g_param_spec_double ("stall-timeout", NULL, NULL,
                         0, AGENT_MAX_TIMEOUT_SECONDS, AGENT_SESSION_DEFAULT_STALL_TIMEOUT,
                         flags);

  /**
   * AgentSession:max-attachment-size:
   *
   * The most bytes one image or document of the conversation may hold, or
   * 0 for no limit. A turn whose next request would carry a larger one
   * fails with %AGENT_ERROR_LIMIT before anything is sent, naming it; the
   * conversation stays as it was. Attachments count in
   * [property@Agent.Session:max-request-size] too. The default, 20 MiB,
   * is what the largest provider limits allow.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_ATTACHMENT_SIZE] =
    g_param_spec_uint64 ("max-attachment-size", NULL, NULL,
                         0, G_MAXUINT64, AGENT_SESSION_DEFAULT_MAX_ATTACHMENT_SIZE, flags);

  /**
   * AgentSession:scale-images:
   *
   * Whether images are sent scaled down to the largest size the
   * provider's API documents as useful (OpenAI: within 2048 × 2048 and
   * 768 on the shorter side; Anthropic: 1568 on the longer side and 1.15
   * megapixels; Gemini: 3072 × 3072; Ollama: 2048), which the server
   * would otherwise scale them down to: the same tokens, a fraction of
   * the bytes. An image is scaled once per conversation, on a worker
   * thread before the request is built, and kept with the part (and by
   * an [class@Agent.Store], across a restart); every image and document
   * is encoded in base64 once the same way. An image that cannot be
   * read, or that is larger than %AGENT_CONTENT_PART_MAX_IMAGE_PIXELS, is
   * sent as it is. The attachments in memory are never changed.
   *
   * Since: 0.1
   */
  properties[PROP_SCALE_IMAGES] =
    g_param_spec_boolean ("scale-images", NULL, NULL, TRUE, flags);

  for (guint i = 0; i < N_LIMIT_PROPS; i++)
    g_object_class_install_property (object_class, first_prop_id + i, properties[i]);
}

gboolean
_agent_session_get_limit_property (AgentSession *self,
                                   guint         prop_id,
                                   GValue       *value)
{
  switch (prop_id - first_prop_id)
    {
    case PROP_MAX_REQUEST_SIZE:
      g_value_set_uint64 (value, self->max_request_size);
      return TRUE;

    case PROP_MAX_TURN_SIZE:
      g_value_set_uint64 (value, self->max_turn_size);
      return TRUE;

    case PROP_STALL_TIMEOUT:
      g_value_set_double (value, self->stall_timeout);
      return TRUE;

    case PROP_MAX_ATTACHMENT_SIZE:
      g_value_set_uint64 (value, self->max_attachment_size);
      return TRUE;

    case PROP_SCALE_IMAGES:
      g_value_set_boolean (value, self->scale_images);
      return TRUE;

    default:
      return FALSE;
    }
}

gboolean
_agent_session_set_limit_property (AgentSession *self,
                                   guint         prop_id,
                                   const GValue *value)
{
  switch (prop_id - first_prop_id)
    {
    case PROP_MAX_REQUEST_SIZE:
      agent_session_set_max_request_size (self, g_value_get_uint64 (value));
      return TRUE;

    case PROP_MAX_TURN_SIZE:
      agent_session_set_max_turn_size (self, g_value_get_uint64 (value));
      return TRUE;

    case PROP_STALL_TIMEOUT:
      agent_session_set_stall_timeout (self, g_value_get_double (value));
      return TRUE;

    case PROP_MAX_ATTACHMENT_SIZE:
      if (self->max_attachment_size != g_value_get_uint64 (value))
        {
          self->max_attachment_size = g_value_get_uint64 (value);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_ATTACHMENT_SIZE]);
        }
      return TRUE;

    case PROP_SCALE_IMAGES:
      if (self->scale_images != g_value_get_boolean (value))
        {
          self->scale_images = g_value_get_boolean (value);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCALE_IMAGES]);
        }
      return TRUE;

    default:
      return FALSE;
    }
}

/**
 * agent_session_get_max_request_size:
 * @self: a [class@Agent.Session]
 *
 * Gets [property@Agent.Session:max-request-size].
 *
 * Returns: the most bytes one request may carry, or 0 for no limit
 *
 * Since: 0.1
 */
guint64
agent_session_get_max_request_size (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->max_request_size;
}

/**
 * agent_session_set_max_request_size:
 * @self: a [class@Agent.Session]
 * @max_request_size: the most bytes one request may carry, or 0 for no limit
 *
 * Sets [property@Agent.Session:max-request-size].
 *
 * Since: 0.1
 */
void
agent_session_set_max_request_size (AgentSession *self,
                                    guint64       max_request_size)
{
  g_return_if_fail (AGENT_IS_SESSION (self));

  if (self->max_request_size != max_request_size)
    {
      self->max_request_size = max_request_size;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_REQUEST_SIZE]);
    }
}

/**
 * agent_session_get_max_turn_size:
 * @self: a [class@Agent.Session]
 *
 * Gets [property@Agent.Session:max-turn-size].
 *
 * Returns: the most bytes one turn may add, or 0 for no limit
 *
 * Since: 0.1
 */
guint64
agent_session_get_max_turn_size (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->max_turn_size;
}

/**
 * agent_session_set_max_turn_size:
 * @self: a [class@Agent.Session]
 * @max_turn_size: the most bytes one turn may add, or 0 for no limit
 *
 * Sets [property@Agent.Session:max-turn-size].
 *
 * Since: 0.1
 */
void
agent_session_set_max_turn_size (AgentSession *self,
                                 guint64       max_turn_size)
{
  g_return_if_fail (AGENT_IS_SESSION (self));

  if (self->max_turn_size != max_turn_size)
    {
      self->max_turn_size = max_turn_size;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TURN_SIZE]);
    }
}

/**
 * agent_session_get_stall_timeout:
 * @self: a [class@Agent.Session]
 *
 * Gets [property@Agent.Session:stall-timeout].
 *
 * Returns: seconds, or 0 for no limit
 *
 * Since: 0.1
 */
double
agent_session_get_stall_timeout (AgentSession *self)
{
  g_return_val_if_fail (AGENT_IS_SESSION (self), 0);
  return self->stall_timeout;
}

/**
 * agent_session_set_stall_timeout:
 * @self: a [class@Agent.Session]
 * @stall_timeout: seconds, or 0 for no limit
 *
 * Sets [property@Agent.Session:stall-timeout].
 *
 * Since: 0.1
 */
void
agent_session_set_stall_timeout (AgentSession *self,
                                 double        stall_timeout)
{
  g_return_if_fail (AGENT_IS_SESSION (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (stall_timeout));

  if (self->stall_timeout != stall_timeout)
    {
      self->stall_timeout = stall_timeout;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STALL_TIMEOUT]);
    }
}
