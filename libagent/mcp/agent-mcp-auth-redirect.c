/* agent-mcp-auth-redirect.c — where the browser comes back with the code
 *
 * A SoupServer on 127.0.0.1, on a port the system picks (RFC 8252 7.3),
 * that takes one redirect to /callback: its `state` must be the one sent,
 * or the flow fails. The browser gets a short page saying what happened.
 * It runs on the worker thread's context.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error-private.h"
#include "mcp/agent-mcp-auth-private.h"

struct _AgentMcpRedirect
{
  SoupServer *server;
  char       *uri;
  char       *state;
  char       *code;
  GError     *error;
  guint       done : 1;      /* a redirect came and was answered */
};

static void
finished_cb (SoupServerMessage *message,
             gpointer           user_data)
{
  AgentMcpRedirect *self = user_data;

  self->done = TRUE;
}

static void
answer (SoupServerMessage *message,
        guint              status,
        const char        *title,
        const char        *text)
{
  g_autofree char *escaped_title = g_markup_escape_text (title, -1);
  g_autofree char *escaped_text = g_markup_escape_text (text, -1);
  g_autofree char *page = NULL;
  gsize len;

  page = g_strdup_printf ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title>"
                          "</head><body style=\"font-family: sans-serif; margin: 3em\">"
                          "<h1>%s</h1><p>%s</p></body></html>\n",
                          escaped_title, escaped_title, escaped_text);
  soup_server_message_set_status (message, status, NULL);
  soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                "Cache-Control", "no-store");
  /* The receiver goes once it has the answer: no connection left open */
  soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                "Connection", "close");
  len = strlen (page);
  soup_server_message_set_response (message, "text/html; charset=utf-8", SOUP_MEMORY_TAKE,
                                    g_steal_pointer (&page), len);
}

static void
callback_cb (SoupServer        *server,
             SoupServerMessage *message,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  AgentMcpRedirect *self = user_data;
  const char *state = query ? g_hash_table_lookup (query, "state") : NULL;
  const char *code = query ? g_hash_table_lookup (query, "code") : NULL;
  const char *oauth_error = query ? g_hash_table_lookup (query, "error") : NULL;

  if (self->code != NULL || self->error != NULL || !g_str_equal (path, "/callback"))
    {
      answer (message, SOUP_STATUS_NOT_FOUND, _("Not found"),
              _("This address received the authorization already."));
      return;
    }

  g_signal_connect (message, "finished", G_CALLBACK (finished_cb), self);

  if (g_strcmp0 (state, self->state) != 0)
    {
      self->error = g_error_new (AGENT_ERROR, AGENT_ERROR_AUTHENTICATION,
                                 _("the redirect from the authorization server carried a wrong "
                                   "“state”: refused"));
      answer (message, SOUP_STATUS_BAD_REQUEST, _("Authorization refused"),
              _("The answer does not belong to the authorization the application started."));
    }
  else if (oauth_error != NULL || code == NULL)
    {
      const char *description = g_hash_table_lookup (query, "error_description");

      self->error = g_error_new (AGENT_ERROR, AGENT_ERROR_AUTHENTICATION,
                                 _("the authorization server answered: %s%s%s"),
                                 oauth_error ? oauth_error : _("no code"),
                                 description ? ", " : "", description ? description : "");
      answer (message, SOUP_STATUS_OK, _("Authorization failed"), self->error->message);
    }
  else
    {
      self->code = g_strdup (code);
      answer (message, SOUP_STATUS_OK, _("Authorized"),
              _("The application is authorized. You can close this window."));
    }
}

AgentMcpRedirect *
_agent_mcp_redirect_new (const char  *state,
                         GError     **error)
{
  g_autoptr(AgentMcpRedirect) self = g_new0 (AgentMcpRedirect, 1);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  GSList *listeners;

  self->state = g_strdup (state);
  self->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (self->server, NULL, callback_cb, self, NULL);
  if (!soup_server_listen (self->server, address, 0, error))
    return NULL;

  /* (Not soup_server_get_uris(), which leaks in libsoup 3.2) */
  listeners = soup_server_get_listeners (self->server);
  bound = g_socket_get_local_address (listeners->data, error);
  g_slist_free (listeners);
  if (bound == NULL)
    return NULL;
  self->uri = g_strdup_printf ("http://127.0.0.1:%u/callback",
                               g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  return g_steal_pointer (&self);
}

const char *
_agent_mcp_redirect_get_uri (AgentMcpRedirect *self)
{
  return self->uri;
}

static void
cancelled_cb (GCancellable *cancellable,
              gpointer      context)
{
  g_main_context_wakeup (context);
}

char *
_agent_mcp_redirect_wait (AgentMcpRedirect  *self,
                          const char        *server,
                          GCancellable      *cancellable,
                          GError           **error)
{
  GMainContext *context = g_main_context_get_thread_default ();
  gulong handler;

  /* Cancelled from another thread: the loop wakes up to see it */
  handler = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), context, NULL);
  while (!self->done && !g_cancellable_is_cancelled (cancellable))
    g_main_context_iteration (context, TRUE);
  g_cancellable_disconnect (cancellable, handler);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if (self->error != NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION,
                   _("MCP server “%s”: %s"), server, self->error->message);
      return NULL;
    }
  return g_strdup (self->code);
}

void
_agent_mcp_redirect_free (AgentMcpRedirect *self)
{
  if (self->server != NULL)
    soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  /* What the connections left to do, on the flow's context, which is not
   * run again */
  while (g_main_context_iteration (g_main_context_get_thread_default (), FALSE))
    ;
  g_free (self->uri);
  g_free (self->state);
  g_free (self->code);
  g_clear_error (&self->error);
  g_free (self);
}
