/* agent-test-load.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>

#include "agent-test-load.h"
#include "agent-test-openai.h"
#include "agent-test-server.h"
#include "agent-test-util.h"

/* The time one load run may take before it is called hung */
#define LOAD_WAIT_SECONDS 120

typedef struct _Load Load;

typedef struct
{
  Load          *load;
  guint          number;
  AgentSession  *session;
  AgentMessage  *result;
  GError        *error;
  gint64         first_delta_us;
  gint64         finished_us;
  gboolean       finished;
} LoadSession;

struct _Load
{
  const AgentTestLoadOptions *options;
  AgentTestLoadResult        *result;
  AgentTestServer            *server;
  GPtrArray                  *sessions;  /* LoadSession */
  gint64                      released_us;
  guint                       n_finished;
};

static guint
expected_value (guint number)
{
  return number * 7 + 3;
}

/* "Session N: N*7+3 is RESULT." and a word for each delta, so that each
 * delta has some text */
static char *
answer_text (guint       number,
             const char *result,
             guint       n_deltas)
{
  GString *text = g_string_new (NULL);

  g_string_printf (text, "Session %u: %u*7+3 is %s.", number, number, result);
  for (guint i = 0; i < n_deltas; i++)
    g_string_append (text, " Checked.");
  return g_string_free (text, FALSE);
}

static char *
expected_answer (guint number,
                 guint n_deltas)
{
  g_autofree char *value = g_strdup_printf ("%u", expected_value (number));

  return answer_text (number, value, n_deltas);
}

static const char *
message_string (JsonObject *message,
                const char *member)
{
  JsonNode *node = json_object_get_member (message, member);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_string (node) : NULL;
}

/* The server's side: which session asks, and whether it brings the result */
static void
respond (AgentTestServer *server,
         const char      *path,
         JsonNode        *body,
         gpointer         user_data)
{
  Load *load = user_data;
  const AgentTestLoadOptions *options = load->options;
  JsonArray *messages;
  JsonObject *first, *last;
  const char *tool_result;
  AgentTestResponse *r;
  guint number;

  g_assert_nonnull (body);
  messages = json_object_get_array_member (json_node_get_object (body), "messages");
  first = json_array_get_object_element (messages, 0);
  last = json_array_get_object_element (messages, json_array_get_length (messages) - 1);
  g_assert_cmpint (sscanf (message_string (first, "content"), "Session %u:", &number), ==, 1);

  r = agent_test_openai_begin (server, "");
  tool_result = g_strcmp0 (message_string (last, "role"), "tool") == 0
                ? message_string (last, "content") : NULL;

  if (tool_result == NULL)
    {
      g_autofree char *call_id = g_strdup_printf ("call_%u", number);
      g_autofree char *operand = g_strdup_printf ("%u", number);
      const AgentTestToolChunk fragments[] = {
        { 0, call_id, "calculator", "{\"expression\":" },
        { 0, NULL, NULL, "\"" },
        { 0, NULL, NULL, operand },
        { 0, NULL, NULL, "*7+3\"}" },
      };

      agent_test_response_add_wait (r);
      for (guint i = 0; i < G_N_ELEMENTS (fragments); i++)
        {
          agent_test_response_add_delay (r, options->delay_ms);
          agent_test_openai_add_tool_chunk (r, &fragments[i]);
        }
      agent_test_openai_add_end (r, "tool_calls", 20, 10);
    }
  else
    {
      /* The answer quotes the result the request carried, in pieces */
      g_autofree char *text = answer_text (number, tool_result, options->n_deltas);
      gsize len = strlen (text);
      guint n = MAX (1, options->n_deltas);

      for (guint i = 0; i < n; i++)
        {
          g_autofree char *piece = g_strndup (text + i * len / n,
                                              (i + 1) * len / n - i * len / n);

          agent_test_response_add_delay (r, options->delay_ms);
          agent_test_openai_add_text (r, piece);
        }
      agent_test_openai_add_end (r, "stop", 30, n);
    }
}

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               LoadSession  *ls)
{
  if (ls->first_delta_us == 0)
    ls->first_delta_us = g_get_monotonic_time ();
  ls->load->result->n_text_deltas++;
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  LoadSession *ls = user_data;

  ls->result = agent_session_send_finish (AGENT_SESSION (object), result, &ls->error);
  ls->finished_us = g_get_monotonic_time ();
  ls->finished = TRUE;
  ls->load->n_finished++;
}

/* NULL if @ls ended as it should, else what was wrong */
static char *
check_session (LoadSession *ls)
{
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (ls->session));
  g_autofree char *answer = expected_answer (ls->number, ls->load->options->n_deltas);
  g_autofree char *value = g_strdup_printf ("%u", expected_value (ls->number));
  g_autoptr(AgentMessage) call_message = NULL;
  g_autoptr(AgentMessage) tool_message = NULL;
  g_autoptr(AgentMessage) last = NULL;

  if (ls->error != NULL)
    return g_strdup_printf ("session %u failed: %s", ls->number, ls->error->message);
  if (g_strcmp0 (agent_message_get_content (ls->result), answer) != 0)
    return g_strdup_printf ("session %u answered “%.60s…”, not “%.60s…”", ls->number,
                            agent_message_get_content (ls->result), answer);
  if (g_list_model_get_n_items (memory) != 4)
    return g_strdup_printf ("session %u has %u messages in memory, not 4", ls->number,
                            g_list_model_get_n_items (memory));

  call_message = g_list_model_get_item (memory, 1);
  tool_message = g_list_model_get_item (memory, 2);
  last = g_list_model_get_item (memory, 3);
  if (agent_message_get_n_tool_calls (call_message) != 1 ||
      agent_message_get_role (tool_message) != AGENT_MESSAGE_ROLE_TOOL ||
      g_strcmp0 (agent_message_get_content (tool_message), value) != 0 ||
      last != ls->result)
    return g_strdup_printf ("session %u's memory is not user, call, result %s, answer",
                            ls->number, value);

  return NULL;
}

static gboolean
all_at_barrier (gpointer data)
{
  Load *load = data;
  guint n_waiting = agent_test_server_get_n_waiting (load->server);

  load->result->max_waiting = MAX (load->result->max_waiting, n_waiting);
  return n_waiting == load->options->n_sessions || load->n_finished > 0;
}

static gboolean
all_finished (gpointer data)
{
  Load *load = data;

  return load->n_finished == load->options->n_sessions;
}

static void
load_session_free (gpointer data)
{
  LoadSession *ls = data;

  g_signal_handlers_disconnect_by_data (ls->session, ls);
  g_clear_object (&ls->session);
  g_clear_object (&ls->result);
  g_clear_error (&ls->error);
  g_free (ls);
}

void
agent_test_load_run (const AgentTestLoadOptions *options,
                     AgentTestLoadResult        *result)
{
  g_autoptr(AgentTestServer) server = agent_test_server_new ();
  g_autoptr(AgentProvider) shared = NULL;
  g_autoptr(AgentTool) calculator = agent_calculator_tool_new ();
  Load load = { options, result, server, NULL, 0, 0 };
  gint64 start_us;

  memset (result, 0, sizeof *result);
  load.sessions = g_ptr_array_new_with_free_func (load_session_free);
  agent_test_server_set_responder (server, respond, &load);
  if (options->shared_provider)
    shared = agent_test_openai_provider_new (server);

  for (guint i = 0; i < options->n_sessions; i++)
    {
      g_autoptr(AgentProvider) own = options->shared_provider ? NULL
                                     : agent_test_openai_provider_new (server);
      LoadSession *ls = g_new0 (LoadSession, 1);

      ls->load = &load;
      ls->number = i + 1;
      ls->session = agent_session_new (shared != NULL ? shared : own);
      agent_session_add_tool (ls->session, calculator);
      g_signal_connect (ls->session, "text-delta", G_CALLBACK (text_delta_cb), ls);
      g_ptr_array_add (load.sessions, ls);
    }

  start_us = g_get_monotonic_time ();
  for (guint i = 0; i < load.sessions->len; i++)
    {
      LoadSession *ls = g_ptr_array_index (load.sessions, i);
      g_autofree char *question = g_strdup_printf ("Session %u: what is %u*7+3?",
                                                   ls->number, ls->number);

      agent_session_send_async (ls->session, question, NULL, send_cb, ls);
    }

  /* Every first answer streams at once before any goes on */
  if (!agent_test_wait_until_timeout (all_at_barrier, &load, LOAD_WAIT_SECONDS))
    result->first_failure = g_strdup_printf ("only %u of %u first answers reached the barrier",
                                             agent_test_server_get_n_waiting (server),
                                             options->n_sessions);
  load.released_us = g_get_monotonic_time ();
  agent_test_server_release (server);

  if (!agent_test_wait_until_timeout (all_finished, &load, LOAD_WAIT_SECONDS) &&
      result->first_failure == NULL)
    result->first_failure = g_strdup_printf ("only %u of %u sessions finished",
                                             load.n_finished, options->n_sessions);
  result->wall_us = g_get_monotonic_time () - start_us;
  result->finish_min_us = G_MAXINT64;

  for (guint i = 0; i < load.sessions->len; i++)
    {
      LoadSession *ls = g_ptr_array_index (load.sessions, i);
      g_autofree char *failure = ls->finished ? check_session (ls)
                                 : g_strdup_printf ("session %u did not finish", ls->number);

      if (failure == NULL)
        result->n_correct++;
      else if (result->first_failure == NULL)
        result->first_failure = g_steal_pointer (&failure);

      if (ls->finished)
        {
          result->finish_min_us = MIN (result->finish_min_us, ls->finished_us - load.released_us);
          result->finish_max_us = MAX (result->finish_max_us, ls->finished_us - load.released_us);
        }
      if (ls->first_delta_us != 0)
        result->first_delta_max_us = MAX (result->first_delta_max_us,
                                          ls->first_delta_us - load.released_us);
    }

  g_ptr_array_unref (load.sessions);
}

void
agent_test_load_result_clear (AgentTestLoadResult *result)
{
  g_clear_pointer (&result->first_failure, g_free);
}
