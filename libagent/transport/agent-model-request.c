/* agent-model-request.c — one request of the model manager
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "transport/agent-model-request-private.h"
#include "models/agent-models-private.h"
#include "wire/agent-wire-util-private.h"
#include "wire/agent-ndjson-private.h"

/* A model list or description; a pull's lines are far shorter */
#define MAX_BODY     (8 * 1024 * 1024)
#define MAX_LINE     (64 * 1024)
#define READ_SIZE    (16 * 1024)

typedef struct
{
  SoupMessage         *message;
  GInputStream        *stream;
  GByteArray          *body;
  AgentNdjsonSplitter *lines;
  AgentJsonParser     *parser;
  AgentModelLineFunc   line_func;
  gpointer             line_data;
  char                *model;
  char               **secrets;
  guint8              *buffer;
} Request;

static void
request_free (gpointer data)
{
  Request *request = data;

  _agent_close_stream_now (&request->stream);
  g_clear_object (&request->message);
  g_clear_pointer (&request->body, g_byte_array_unref);
  g_clear_pointer (&request->lines, agent_ndjson_splitter_free);
  g_clear_pointer (&request->parser, agent_json_parser_free);
  _agent_secrets_free (request->secrets);
  g_free (request->model);
  g_free (request->buffer);
  g_free (request);
}

/* {"error": "…"} in the words the user needs, or NULL if it is no error */
static GError *
error_from_line (Request         *request,
                 const AgentJson *root)
{
  AgentJson member = agent_json_member (root, "error");
  const char *text;
  g_autofree char *shown = NULL;
  GError *error;

  if (!agent_json_exists (&member))
    return NULL;
  text = agent_json_string (&member, NULL);
  if (text == NULL)
    text = agent_json_member_string (&member, "message", NULL);
  shown = agent_redact (text != NULL ? text : "", (const char * const *) request->secrets);
  if ((error = _agent_model_error_from_ollama (shown, request->model)) != NULL)
    return error;
  return g_error_new (AGENT_ERROR, AGENT_ERROR_PROVIDER, _("The server reported an error: %s"),
                      shown);
}

static gboolean
line_cb (const char  *line,
         gsize        len,
         gpointer     user_data,
         GError     **error)
{
  Request *request = user_data;
  AgentJson root;
  GError *line_error;

  if (!agent_json_parser_parse (request->parser, line, len, &root, NULL) ||
      !agent_json_is (&root, AGENT_JSON_OBJECT))
    {
      g_autofree char *cut = agent_excerpt (line, len, 80,
                                            (const char * const *) request->secrets);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                   _("The server sent a line that is not a JSON object: “%s”"), cut);
      return FALSE;
    }
  if ((line_error = error_from_line (request, &root)) != NULL)
    {
      g_propagate_error (error, line_error);
      return FALSE;
    }
  return request->line_func (line, len, request->line_data, error);
}

static void
return_transfer_error (GTask  *task,
                       GError *error)
{
  Request *request = g_task_get_task_data (task);

  g_task_return_error (task, _agent_provider_transfer_error (
                               (const char * const *) request->secrets, request->message, error));
}

/* The whole answer is there */
static void
body_read (GTask *task)
{
  Request *request = g_task_get_task_data (task);
  guint status = soup_message_get_status (request->message);
  const char *data = (const char *) request->body->data;
  gsize len = request->body->len;
  GError *error = NULL;

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_autoptr(AgentJsonParser) parser = agent_json_parser_new ();
      AgentJson root;

      if (SOUP_STATUS_IS_REDIRECTION (status))
        error = _agent_provider_error_from_redirect ((const char * const *) request->secrets,
                                                     request->message);
      /* Ollama's {"error": "…"} that says what it is */
      else if (len > 0 && len <= MAX_BODY &&
               agent_json_parser_parse (parser, data, len, &root, NULL) &&
               agent_json_is (&root, AGENT_JSON_OBJECT))
        {
          AgentJson member = agent_json_member (&root, "error");
          g_autofree char *shown = agent_redact (agent_json_string (&member, NULL),
                                                 (const char * const *) request->secrets);

          error = _agent_model_error_from_ollama (shown, request->model);
          if (error == NULL && status == SOUP_STATUS_NOT_FOUND && request->model != NULL &&
              shown != NULL && strstr (shown, "not found") != NULL)
            error = _agent_model_error_not_installed (request->model);
        }
      if (error == NULL)
        error = _agent_provider_error_from_http ((const char * const *) request->secrets, status,
                                                 soup_message_get_reason_phrase (request->message),
                                                 data, MIN (len, MAX_BODY));
      g_task_return_error (task, error);
      return;
    }

  if (request->lines != NULL)
    {
      if (!agent_ndjson_splitter_finish (request->lines, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      g_task_return_pointer (task, g_bytes_new (NULL, 0), (GDestroyNotify) g_bytes_unref);
      return;
    }

  if (len > MAX_BODY)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_LIMIT,
                               _("The server's answer is larger than %d MiB"),
                               MAX_BODY / (1024 * 1024));
      return;
    }
  g_task_return_pointer (task, g_bytes_new (data, len), (GDestroyNotify) g_bytes_unref);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Request *request = g_task_get_task_data (task);
  GCancellable *cancellable;
  GError *error = NULL;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);
  if (n < 0)
    {
      return_transfer_error (task, error);
      return;
    }

  if (n == 0)
    {
      g_input_stream_close (request->stream, NULL, NULL);
      g_clear_object (&request->stream);
      body_read (task);
      return;
    }

  /* A stream that went well is read line by line, as it comes */
  if (request->lines != NULL &&
      SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (request->message)))
    {
      if (!agent_ndjson_splitter_feed (request->lines, (const char *) request->buffer, n, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }
  else if (request->body->len <= MAX_BODY)
    g_byte_array_append (request->body, request->buffer, n);
  else
    {
      body_read (task);
      return;
    }

  /* (Its cancellable before the task is given away) */
  cancellable = g_task_get_cancellable (task);
  g_input_stream_read_async (request->stream, request->buffer, READ_SIZE, G_PRIORITY_DEFAULT,
                             cancellable, read_cb, g_steal_pointer (&task));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Request *request = g_task_get_task_data (task);
  GCancellable *cancellable;
  GError *error = NULL;

  request->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (request->stream == NULL)
    {
      return_transfer_error (task, error);
      return;
    }

  request->body = g_byte_array_new ();
  request->buffer = g_malloc (READ_SIZE);
  /* (Its cancellable before the task is given away) */
  cancellable = g_task_get_cancellable (task);
  g_input_stream_read_async (request->stream, request->buffer, READ_SIZE, G_PRIORITY_DEFAULT,
                             cancellable, read_cb, g_steal_pointer (&task));
}

void
_agent_model_request_async (AgentProvider       *provider,
                            const char          *method,
                            const char          *path,
                            const char          *body,
                            const char          *model,
                            AgentModelLineFunc   line_func,
                            gpointer             line_data,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  SoupSession *session;
  Request *request;

  task = g_task_new (provider, cancellable, callback, user_data);
  g_task_set_source_tag (task, _agent_model_request_async);

  request = g_new0 (Request, 1);
  request->model = g_strdup (model);
  request->secrets = _agent_provider_dup_secrets (provider);
  request->line_func = line_func;
  request->line_data = line_data;
  if (line_func != NULL)
    {
      request->lines = agent_ndjson_splitter_new (line_cb, request);
      request->parser = agent_json_parser_new ();
      agent_ndjson_splitter_set_max_line (request->lines, MAX_LINE);
    }
  g_task_set_task_data (task, request, request_free);

  if (!(url = _agent_provider_build_url (provider, path, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  request->message = soup_message_new (method, url);
  /* The key goes to the base URL's origin only */
  soup_message_add_flags (request->message, SOUP_MESSAGE_NO_REDIRECT);
  soup_message_headers_replace (soup_message_get_request_headers (request->message),
                                "Accept", line_func != NULL ? "application/x-ndjson"
                                                            : "application/json");
  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      _agent_message_set_body (request->message, "application/json", bytes);
    }
  if (!_agent_provider_add_headers (provider, NULL,
                                    soup_message_get_request_headers (request->message), &error) ||
      !(session = _agent_provider_get_soup_session (provider, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  soup_session_send_async (session, request->message, G_PRIORITY_DEFAULT, cancellable, send_cb,
                           g_steal_pointer (&task));
}

GBytes *
_agent_model_request_finish (AgentProvider  *provider,
                             GAsyncResult   *result,
                             GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, provider), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
