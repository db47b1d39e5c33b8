/* agent-error.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "agent-enums.h"
#include "agent-error-private.h"

/* An extended error domain (GLib 2.68): an error of %AGENT_ERROR carries
 * what its message also says in words — the HTTP status of the answer
 * that caused it, the token counts of %AGENT_ERROR_CONTEXT_LENGTH — so
 * that programs need not read the message. The domain's name stays
 * "agent-error-quark". */
typedef struct
{
  gint64 requested;
  gint64 limit;
  guint  http_status;
} AgentErrorPrivate;

/* PyGObject keeps only the domain, code and message of an error, and
 * makes a new GError of them when one goes back to C: the numbers of the
 * last errors that had some are kept here, and given back to a new error
 * of the same code and message (which names them, so it cannot be
 * another's). */
#define N_RECENT 16

typedef struct
{
  int                code;
  char              *message;
  AgentErrorPrivate  data;
} Recent;

static GMutex recent_mutex;
static Recent recent[N_RECENT];
static guint next_recent;

/* The private data sits before the GError, aligned as GLib aligns it
 * (G_DEFINE_EXTENDED_ERROR does the same, but names the domain after the
 * type) */
static AgentErrorPrivate *
get_private (const GError *error)
{
  const gsize align = 2 * sizeof (gsize);

  return (AgentErrorPrivate *) ((guint8 *) error -
                                ((sizeof (AgentErrorPrivate) + align - 1) & -align));
}

static Recent *
find_recent (const GError *error)
{
  for (guint i = 0; i < N_RECENT; i++)
    if (recent[i].message != NULL && recent[i].code == error->code &&
        g_str_equal (recent[i].message, error->message))
      return &recent[i];
  return NULL;
}

/* Keeps @error's numbers for a copy made of its code and message */
static void
remember (const GError *error)
{
  Recent *entry;

  if (error->message == NULL)
    return;

  g_mutex_lock (&recent_mutex);
  if ((entry = find_recent (error)) == NULL)
    {
      entry = &recent[next_recent];
      next_recent = (next_recent + 1) % N_RECENT;
      g_free (entry->message);
      entry->code = error->code;
      entry->message = g_strdup (error->message);
    }
  entry->data = *get_private (error);
  g_mutex_unlock (&recent_mutex);
}

static void
agent_error_private_init (GError *error)
{
  AgentErrorPrivate *priv = get_private (error);
  Recent *entry;

  priv->requested = -1;
  priv->limit = -1;
  priv->http_status = 0;

  /* GLib sets the code and the message before it calls this */
  if (error->message == NULL)
    return;

  g_mutex_lock (&recent_mutex);
  if ((entry = find_recent (error)) != NULL)
    *priv = entry->data;
  g_mutex_unlock (&recent_mutex);
}

static void
agent_error_private_copy (const GError *src,
                          GError       *dest)
{
  *get_private (dest) = *get_private (src);
}

static void
agent_error_private_clear (GError *error)
{
}

/**
 * agent_error_quark:
 *
 * Gets the error domain of libagent's errors, %AGENT_ERROR, whose codes
 * are [error@Agent.Error].
 *
 * Returns: the error domain
 *
 * Since: 0.1
 */
GQuark
agent_error_quark (void)
{
  static gsize quark;

  if (g_once_init_enter (&quark))
    {
      GQuark domain = g_error_domain_register_static ("agent-error-quark",
                                                      sizeof (AgentErrorPrivate),
                                                      agent_error_private_init,
                                                      agent_error_private_copy,
                                                      agent_error_private_clear);

      g_once_init_leave (&quark, domain);
    }

  return (GQuark) quark;
}

/* Records the token counts (-1 for unknown) on an %AGENT_ERROR error. */
void
_agent_error_set_context_tokens (GError *error,
                                 gint64  requested,
                                 gint64  limit)
{
  AgentErrorPrivate *priv;

  g_return_if_fail (error != NULL && error->domain == AGENT_ERROR);

  priv = get_private (error);
  priv->requested = requested;
  priv->limit = limit;
  remember (error);
}

/* Records the HTTP status of the answer that caused an %AGENT_ERROR
 * error. */
void
_agent_error_set_http_status (GError *error,
                              guint   status)
{
  g_return_if_fail (error != NULL && error->domain == AGENT_ERROR);

  get_private (error)->http_status = status;
  remember (error);
}

/**
 * agent_error_get_http_status:
 * @error: a [struct@GLib.Error]
 *
 * Gets the HTTP status the server answered with, when that answer is what
 * failed: a status that is not a success (`429`, `500`, `401` for
 * %AGENT_ERROR_AUTHENTICATION, `400` for most
 * %AGENT_ERROR_CONTEXT_LENGTH errors, …), or a redirect, which libagent
 * does not follow. An error that no answer of a server caused — the
 * server could not be reached, the stream broke or made no sense, a limit
 * or a time limit was reached, a tool failed — has none.
 *
 * Model requests, model listings and the HTTP transport of MCP servers
 * set it. The status travels with the [struct@GLib.Error] itself, so it
 * survives g_error_copy() and GJS; in Python, PyGObject keeps only an
 * error's domain, code and message, and libagent gives the status back to
 * an error it recently made when Python passes it to this function.
 * agent-cli prints it as `http-status` in its `--json` error and retry
 * lines.
 *
 * Returns: the HTTP status, or 0 if the error has none
 *
 * Since: 0.1
 */
guint
agent_error_get_http_status (const GError *error)
{
  g_return_val_if_fail (error != NULL, 0);

  if (error->domain != AGENT_ERROR)
    return 0;

  return get_private (error)->http_status;
}

/**
 * agent_error_get_context_tokens:
 * @error: a [struct@GLib.Error]
 * @requested: (out) (optional): where to store how many tokens the request
 *   needed, or -1 if the server did not say
 * @limit: (out) (optional): where to store the model's context window in
 *   tokens, or -1 if the server did not say
 *
 * Gets the numbers of a %AGENT_ERROR_CONTEXT_LENGTH error, as the server
 * gave them: OpenAI, Anthropic, Gemini and llama.cpp name both, Ollama
 * neither. The error's message shows the same numbers, in words.
 *
 * The numbers travel with the [struct@GLib.Error] itself (an extended
 * error domain), so they survive g_error_copy() and GJS; in Python,
 * PyGObject keeps only an error's domain, code and message, and libagent
 * gives the numbers back to an error it recently made when Python passes
 * it to this function.
 *
 * Returns: %TRUE if @error is a %AGENT_ERROR_CONTEXT_LENGTH error
 *
 * Since: 0.1
 */
gboolean
agent_error_get_context_tokens (const GError *error,
                                gint64       *requested,
                                gint64       *limit)
{
  AgentErrorPrivate *priv;

  if (requested != NULL)
    *requested = -1;
  if (limit != NULL)
    *limit = -1;

  g_return_val_if_fail (error != NULL, FALSE);

  if (!g_error_matches (error, AGENT_ERROR, AGENT_ERROR_CONTEXT_LENGTH))
    return FALSE;

  priv = get_private (error);
  if (requested != NULL)
    *requested = priv->requested;
  if (limit != NULL)
    *limit = priv->limit;

  return TRUE;
}

/**
 * agent_error_get_code:
 * @error: a [struct@GLib.Error]
 *
 * Gets a short, stable name for @error, for scripts and logs: the nick of
 * its [error@Agent.Error] code (`"http"`, `"protocol"`, `"limit"`, …),
 * `"cancelled"` for `G_IO_ERROR_CANCELLED`, or `"failed"` for any other error.
 *
 * Returns: a static string
 *
 * Since: 0.1
 */
const char *
agent_error_get_code (const GError *error)
{
  g_return_val_if_fail (error != NULL, "failed");

  if (error->domain == AGENT_ERROR)
    {
      GEnumClass *klass = g_type_class_ref (AGENT_TYPE_ERROR);
      GEnumValue *value = g_enum_get_value (klass, error->code);
      const char *nick = value != NULL ? value->value_nick : "failed";

      g_type_class_unref (klass);
      return nick;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return "cancelled";

  return "failed";
}
