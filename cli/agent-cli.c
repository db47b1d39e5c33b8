/* agent-cli.c — the terminal front end of libagent
 *
 * agent-cli [OPTIONS] [PROMPT]
 *
 * Streams the answer to PROMPT (or to standard input), running the tools
 * the model asks for. With --json, prints one JSON object per line: a
 * stable contract for scripts. Exit status: 0 on success, 1 on error, 130
 * when interrupted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <gio/gunixinputstream.h>

#include <agent.h>

#include "agent-cli-approval.h"
#include "agent-cli-attach.h"
#include "agent-cli-context.h"
#include "agent-cli-documents.h"
#include "agent-cli-log.h"
#include "agent-cli-mcp.h"
#include "agent-cli-mcp-context.h"
#include "agent-cli-models.h"
#include "agent-cli-output.h"
#include "agent-cli-profiles.h"
#include "agent-cli-schema.h"
#include "agent-cli-settings.h"
#include "agent-cli-store.h"
#include "agent-cli-voice.h"
#include "agent-cli-web.h"

#define EXIT_INTERRUPTED 130
/* How long a turn waits for another program's turn in the same
 * conversation, and how often it looks */
#define CLAIM_WAIT_SECONDS 600
#define CLAIM_RETRY_MS     50

typedef struct
{
  GMainLoop        *loop;
  AgentSession     *session;
  CliOutput        *output;
  CliApprover      *approver;
  CliStore         *store;
  char             *prompt;       /* the turn's, while it waits for the conversation */
  GPtrArray        *attachments;  /* --attach: go with the first prompt */
  AgentMessage     *first_message; /* --mcp-prompt's last message, without a PROMPT */
  gint64            claim_since;
  GCancellable     *cancellable;
  GCancellable     *starting;    /* until the first prompt: Ctrl-C stops starting */
  GDataInputStream *input;
  int               exit_status;
  guint             interactive : 1;
  guint             interrupted : 1;
  guint             turn_running : 1;
  guint             claim_waiting : 1;
  guint             output_failed : 1;  /* standard output could not be written to */
  guint             syncing : 1;        /* the answer is being written to the disk… */
  AgentMessage     *answer;             /* …this answer, told once it is kept */
  AgentMessage     *streaming;          /* the message whose text is streaming… */
  guint             n_breaks_shown;     /* …and how many of its content breaks were shown */
} Cli;

static char *opt_provider;
static char *opt_base_url;
static char *opt_model;
static char *opt_system;
static char **opt_tools;
static gboolean opt_show_chunks;
static int opt_max_steps = 10;
static int opt_max_tool_calls;
/* As the library's properties allow; UNSET_TIMEOUT: not given */
#define MAX_TIMEOUT_SECONDS 1e9
#define UNSET_TIMEOUT (-G_MAXDOUBLE)
static double opt_tool_timeout = UNSET_TIMEOUT;
static gboolean opt_yes;
static gboolean opt_json;
static char *opt_schema;
static gboolean opt_list_tools;
static gboolean opt_list_models;
static int opt_max_tokens;
static int opt_max_retries = -1;
static double opt_connect_timeout = UNSET_TIMEOUT;
static double opt_first_byte_timeout = UNSET_TIMEOUT;
static double opt_idle_timeout = UNSET_TIMEOUT;
static double opt_step_timeout = UNSET_TIMEOUT;
static double opt_turn_timeout = UNSET_TIMEOUT;
static double opt_stall_timeout = UNSET_TIMEOUT;
static char *opt_max_turn_size;
static char *opt_max_request_size;
static char *opt_context_window;
static char *opt_compact;
static char *opt_compact_strategy;
static int opt_keep_turns;
static char *opt_tls_ca_file;
static char *opt_reasoning_effort;
static gboolean opt_version;

static const GOptionEntry entries[] = {
  { "provider", 'p', 0, G_OPTION_ARG_STRING, &opt_provider,
    N_("The API the server speaks: openai (default), openai-responses, anthropic, ollama, gemini; "
       "or desktop, the desktop assistant service"),
    N_("NAME") },
  { "base-url", 'u', 0, G_OPTION_ARG_STRING, &opt_base_url,
    N_("The server's base URL (default: the provider's own service)"), N_("URL") },
  { "model", 'm', 0, G_OPTION_ARG_STRING, &opt_model,
    N_("The model to use"), N_("NAME") },
  { "system", 's', 0, G_OPTION_ARG_STRING, &opt_system,
    N_("A system prompt"), N_("TEXT") },
  { "tool", 't', 0, G_OPTION_ARG_STRING_ARRAY, &opt_tools,
    N_("Let the model use a built-in tool (repeatable)"), N_("NAME") },
  { "show-tool-call-chunks", 0, 0, G_OPTION_ARG_NONE, &opt_show_chunks,
    N_("Show tool-call arguments as they stream"), NULL },
  { "max-steps", 0, 0, G_OPTION_ARG_INT, &opt_max_steps,
    N_("At most N model requests per prompt (default: 10)"), N_("N") },
  { "max-tool-calls", 0, 0, G_OPTION_ARG_INT, &opt_max_tool_calls,
    N_("At most N tool runs per prompt (default: no limit)"), N_("N") },
  { "tool-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt_tool_timeout,
    N_("Stop a tool call after SECONDS (default: no limit)"), N_("SECONDS") },
  { "yes", 'y', 0, G_OPTION_ARG_NONE, &opt_yes,
    N_("Approve every tool call without asking"), NULL },
  { "max-retries", 0, 0, G_OPTION_ARG_INT, &opt_max_retries,
    N_("Try a failed request again up to N times (default: 2)"), N_("N") },
  { "connect-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt_connect_timeout,
    N_("Give up connecting after SECONDS (default: 30; 0: no limit)"), N_("SECONDS") },
  { "first-byte-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt_first_byte_timeout,
    N_("Give up waiting for the answer to start after SECONDS (default: 600)"), N_("SECONDS") },
  { "idle-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt_idle_timeout,
    N_("Give up when the answer stalls for SECONDS (default: 300)"), N_("SECONDS") },
  { "step-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt_step_timeout,
    N_("Give up on one model request after SECONDS (default: no limit)"), N_("SECONDS") },
  { "turn-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt_turn_timeout,
    N_("Give up on the prompt after SECONDS (default: no limit)"), N_("SECONDS") },
  { "stall-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt_stall_timeout,
    N_("Give up when a request brings no new content for SECONDS (default: 600)"),
    N_("SECONDS") },
  { "max-turn-size", 0, 0, G_OPTION_ARG_STRING, &opt_max_turn_size,
    N_("Stop a prompt whose answers and tool results pass SIZE bytes (K, M, G: KiB, MiB, GiB; "
       "default: 32M; 0: no limit)"), N_("SIZE") },
  { "max-request-size", 0, 0, G_OPTION_ARG_STRING, &opt_max_request_size,
    N_("Send no request larger than SIZE bytes (default: 32M; 0: no limit)"), N_("SIZE") },
  { "context-window", 0, 0, G_OPTION_ARG_STRING, &opt_context_window,
    N_("The model's context window is TOKENS, or auto: as the server's model list says "
       "(default: unknown until a request is refused as too long)"), N_("TOKENS|auto") },
  { "compact", 0, 0, G_OPTION_ARG_STRING, &opt_compact,
    N_("auto: compact a conversation that no longer fits the context window; off (default)"),
    N_("auto|off") },
  { "compact-strategy", 0, 0, G_OPTION_ARG_STRING, &opt_compact_strategy,
    N_("How to compact: summarize, keep-last, trim-tool-results, separated by commas (default: "
       "trim-tool-results,summarize)"), N_("LIST") },
  { "keep-turns", 0, 0, G_OPTION_ARG_INT, &opt_keep_turns,
    N_("Compacting leaves the last N turns as they are (default: 4)"), N_("N") },
  { "tls-ca-file", 0, 0, G_OPTION_ARG_FILENAME, &opt_tls_ca_file,
    N_("Trust the certificate authorities in FILE (PEM) instead of the system's"), N_("FILE") },
  { "json", 'j', 0, G_OPTION_ARG_NONE, &opt_json,
    N_("Print one JSON event per line"), NULL },
  { "schema", 0, 0, G_OPTION_ARG_FILENAME, &opt_schema,
    N_("Answer with a JSON object that follows the JSON Schema in FILE, printed whole"),
    N_("FILE") },
  { "max-tokens", 0, 0, G_OPTION_ARG_INT, &opt_max_tokens,
    N_("At most N tokens per answer (default: the provider's)"), N_("N") },
  { "reasoning-effort", 0, 0, G_OPTION_ARG_STRING, &opt_reasoning_effort,
    N_("How much a reasoning model thinks: none, low, medium or high"), N_("LEVEL") },
  { "list-tools", 0, 0, G_OPTION_ARG_NONE, &opt_list_tools,
    N_("List the built-in tools and exit"), NULL },
  { "list-models", 0, 0, G_OPTION_ARG_NONE, &opt_list_models,
    N_("List the models the server offers and exit"), NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, &opt_version,
    N_("Print the version and exit"), NULL },
  { NULL }
};

static void read_next_prompt (Cli *cli);

/* Session signals */

static void
text_delta_cb (AgentSession *session,
               AgentMessage *message,
               const char   *delta,
               Cli          *cli)
{
  guint n_breaks = 0;

  /* A summary of the conversation is not the answer (agent-cli-context.c) */
  if (agent_message_is_summary (message))
    return;

  /* A new piece of the answer (a Responses message item, say) begins
   * with this delta: shown apart */
  agent_message_get_content_breaks (message, &n_breaks);
  if (message != cli->streaming)
    {
      g_set_object (&cli->streaming, message);
      cli->n_breaks_shown = 0;
    }
  if (n_breaks > cli->n_breaks_shown)
    {
      cli->n_breaks_shown = n_breaks;
      cli_output_text_break (cli->output);
    }

  cli_output_text_delta (cli->output, delta);
}

/* The session sends less than asked, to suit the model */
static void
session_notice_cb (AgentSession *session,
                   const char   *code,
                   const char   *message,
                   Cli          *cli)
{
  cli_output_session_notice (cli->output, code, message);
}

static void
reasoning_delta_cb (AgentSession *session,
                    AgentMessage *message,
                    const char   *delta,
                    Cli          *cli)
{
  cli_output_reasoning_delta (cli->output, delta);
}

static void
tool_call_delta_cb (AgentSession  *session,
                    AgentToolCall *call,
                    const char    *delta,
                    Cli           *cli)
{
  cli_output_tool_call_delta (cli->output, call, delta);
}

static void
tool_call_cb (AgentSession  *session,
              AgentToolCall *call,
              Cli           *cli)
{
  cli_output_tool_call (cli->output, call);
}

static void
tool_started_cb (AgentSession  *session,
                 AgentToolCall *call,
                 Cli           *cli)
{
  cli_output_tool_started (cli->output, call);
}

static void
tool_finished_cb (AgentSession  *session,
                  AgentToolCall *call,
                  Cli           *cli)
{
  cli_output_tool_finished (cli->output, call);
}

static void
tool_failed_cb (AgentSession  *session,
                AgentToolCall *call,
                const GError  *error,
                Cli           *cli)
{
  cli_output_tool_failed (cli->output, call, error);
}

static void
tool_progress_cb (AgentSession  *session,
                  AgentToolCall *call,
                  double         fraction,
                  const char    *text,
                  Cli           *cli)
{
  cli_output_tool_progress (cli->output, call, fraction, text);
}

static gboolean
approve_tool_call_cb (AgentSession      *session,
                      AgentToolCall     *call,
                      AgentToolApproval *approval,
                      Cli               *cli)
{
  return cli_approver_handle (cli->approver, call, approval);
}

static void
retry_cb (AgentSession *session,
          guint         attempt,
          double        delay,
          const GError *error,
          Cli          *cli)
{
  cli_output_retry (cli->output, attempt, delay, error);
}

static void
step_finished_cb (AgentSession *session,
                  AgentMessage *message,
                  Cli          *cli)
{
  cli_output_step_finished (cli->output, message);
}

/* Turns */

static void
quit (Cli *cli,
      int  status)
{
  cli->exit_status = status;
  g_main_loop_quit (cli->loop);
}

/* Nobody reads what follows (a full disk, a closed pipe): the turn stops
 * rather than spend tokens on it, and the run ends with an error. */
static void
output_failed_cb (gpointer user_data)
{
  Cli *cli = user_data;

  cli->output_failed = TRUE;
  if (cli->turn_running)
    g_cancellable_cancel (cli->cancellable);
  else if (cli->loop != NULL)
    quit (cli, EXIT_FAILURE);
}

/* The turn is over, and what it answered kept: @message, or @error */
static void
turn_told (Cli          *cli,
           AgentMessage *message,
           const GError *error)
{
  if (cli->output_failed)
    {
      cli_output_report_failure (cli->output);
      quit (cli, EXIT_FAILURE);
      return;
    }

  if (message != NULL)
    cli_output_done (cli->output, message, agent_session_get_usage (cli->session),
                     agent_message_get_turn_metrics (message));
  else
    {
      cli_output_error (cli->output, error);
      cli_store_told (cli->store, error);
    }

  /* The last lines may be what failed */
  if (cli_output_report_failure (cli->output))
    {
      quit (cli, EXIT_FAILURE);
      return;
    }

  if (cli->interactive)
    {
      /* Ctrl-C stops the turn, not the conversation. */
      cli->interrupted = FALSE;
      read_next_prompt (cli);
      return;
    }

  if (message != NULL)
    quit (cli, EXIT_SUCCESS);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    quit (cli, EXIT_INTERRUPTED);
  else
    quit (cli, EXIT_FAILURE);
}

static void
synced_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(AgentMessage) message = g_steal_pointer (&cli->answer);
  g_autoptr(GError) error = NULL;
  gboolean kept = cli_store_sync_finish (cli->store, result, &error);

  cli->syncing = FALSE;
  /* Leaving already (Ctrl-C, standard output gone): the last flush tells
   * what failed */
  if (!g_main_loop_is_running (cli->loop))
    return;

  if (kept)
    turn_told (cli, message, NULL);
  else
    turn_told (cli, NULL, error);
}

/* The turn is over: @message, or @error */
static void
turn_done (Cli          *cli,
           AgentMessage *message,
           const GError *error)
{
  cli->turn_running = FALSE;
  g_clear_object (&cli->cancellable);
  g_clear_pointer (&cli->prompt, g_free);
  cli_store_release (cli->store);
  /* What standard output still holds of the answer: a failure to write
   * it is this turn's */
  cli_output_flush (cli->output);

  /* "done" (and exit status 0) say the answer is kept: once it is on the
   * disk. A full disk, a file size limit is this turn's error instead. */
  if (message != NULL && !cli->output_failed)
    {
      g_set_object (&cli->answer, message);
      cli->syncing = TRUE;
      cli_store_sync_async (cli->store, synced_cb, cli);
      return;
    }

  turn_told (cli, message, error);
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(AgentMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  message = agent_session_send_finish (AGENT_SESSION (object), result, &error);
  turn_done (cli, message, error);
}

static void
send_message_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(AgentMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  message = agent_session_send_message_finish (AGENT_SESSION (object), result, &error);
  turn_done (cli, message, error);
}

static void
continue_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(AgentMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  message = agent_session_continue_finish (AGENT_SESSION (object), result, &error);
  turn_done (cli, message, error);
}

static gboolean claim_retry_cb (gpointer data);

/* The turn starts once the conversation is ours: another program may be
 * in the middle of its turn in it (agent-cli -c twice); we wait for it,
 * bounded. */
static void
try_send (Cli *cli)
{
  g_autoptr(GError) error = NULL;
  gboolean busy = FALSE;

  if (g_cancellable_set_error_if_cancelled (cli->cancellable, &error))
    {
      turn_done (cli, NULL, error);
      return;
    }

  if (!cli_store_claim (cli->store, &busy, &error))
    {
      gint64 waited = g_get_monotonic_time () - cli->claim_since;

      if (busy && waited < CLAIM_WAIT_SECONDS * G_USEC_PER_SEC)
        {
          if (!cli->claim_waiting)
            cli_output_notice (cli->output, _("Another program is adding to this conversation; "
                                              "waiting for it to finish…"));
          cli->claim_waiting = TRUE;
          g_timeout_add (CLAIM_RETRY_MS, claim_retry_cb, cli);
          return;
        }
      if (busy)
        g_prefix_error (&error, _("Waited %d s: "), CLAIM_WAIT_SECONDS);
      turn_done (cli, NULL, error);
      return;
    }

  /* --regenerate: a new answer to the last question, the old one kept */
  if (cli->prompt == NULL)
    {
      if (!cli_store_branch_for_regenerate (cli->store, &error))
        turn_done (cli, NULL, error);
      else
        agent_session_continue_async (cli->session, cli->cancellable, continue_cb, cli);
      return;
    }

  /* --mcp-prompt's last message is the first prompt, with the files */
  if (cli->first_message != NULL)
    {
      g_autoptr(AgentMessage) message = g_steal_pointer (&cli->first_message);
      g_autoptr(GPtrArray) attachments = g_steal_pointer (&cli->attachments);

      for (guint i = 0; attachments != NULL && i < attachments->len; i++)
        agent_message_add_part (message, g_ptr_array_index (attachments, i));
      agent_session_send_message_async (cli->session, message, cli->cancellable,
                                        send_message_cb, cli);
      return;
    }

  /* The files of --attach go with the first prompt */
  if (cli->attachments != NULL)
    {
      g_autoptr(GPtrArray) attachments = g_steal_pointer (&cli->attachments);
      g_autoptr(AgentMessage) message = cli_attach_new_message (cli->prompt, attachments);

      agent_session_send_message_async (cli->session, message, cli->cancellable,
                                        send_message_cb, cli);
      return;
    }

  agent_session_send_async (cli->session, cli->prompt, cli->cancellable, send_cb, cli);
}

static gboolean
claim_retry_cb (gpointer data)
{
  Cli *cli = data;

  try_send (cli);
  return G_SOURCE_REMOVE;
}

static void
send_prompt (Cli        *cli,
             const char *prompt)
{
  cli->cancellable = g_cancellable_new ();
  cli->turn_running = TRUE;
  cli->prompt = g_strdup (prompt);
  cli->claim_since = g_get_monotonic_time ();
  cli->claim_waiting = FALSE;
  try_send (cli);
}

static gboolean
interrupt_cb (gpointer user_data)
{
  Cli *cli = user_data;

  /* Still starting (the MCP servers): stop, and let them go */
  if (cli->starting != NULL)
    {
      cli->interrupted = TRUE;
      g_cancellable_cancel (cli->starting);
      return G_SOURCE_CONTINUE;
    }

  if (cli->turn_running && !cli->interrupted)
    {
      /* The first Ctrl-C cancels the turn; what streamed is printed and
       * the turn ends with a "cancelled" error. */
      cli->interrupted = TRUE;
      g_cancellable_cancel (cli->cancellable);
      return G_SOURCE_CONTINUE;
    }

  /* At the prompt, or a second Ctrl-C: leave now. */
  if (!cli->turn_running && !opt_json)
    fputc ('\n', stderr);
  quit (cli, EXIT_INTERRUPTED);
  return G_SOURCE_CONTINUE;
}

static void
handle_signals (Cli *cli)
{
  g_unix_signal_add (SIGINT, interrupt_cb, cli);
  g_unix_signal_add (SIGTERM, interrupt_cb, cli);
}

/* Interactive mode: one turn per line, in one conversation. */

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Cli *cli = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  gsize len;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, &len,
                                                    &error);
  if (error != NULL)
    {
      cli_output_error (cli->output, error);
      quit (cli, EXIT_FAILURE);
      return;
    }

  if (line == NULL)
    {
      fputc ('\n', stderr);
      quit (cli, EXIT_SUCCESS);
      return;
    }

  g_strstrip (line);
  if (line[0] == '\0')
    {
      read_next_prompt (cli);
      return;
    }

  send_prompt (cli, line);
}

static void
read_next_prompt (Cli *cli)
{
  cli_output_flush (cli->output);
  fputs ("> ", stderr);
  fflush (stderr);
  g_data_input_stream_read_line_async (cli->input, G_PRIORITY_DEFAULT, NULL, read_line_cb, cli);
}

static void
splice_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The prompt from standard input; Ctrl-C (@cancellable) stops the wait */
static char *
read_all_stdin (GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(GInputStream) stream = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *text = NULL;

  g_output_stream_splice_async (memory, stream, G_OUTPUT_STREAM_SPLICE_NONE, G_PRIORITY_DEFAULT,
                                cancellable, splice_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (g_output_stream_splice_finish (memory, result, error) < 0)
    return NULL;

  /* NUL-terminate */
  if (!g_output_stream_write_all (memory, "", 1, NULL, NULL, error) ||
      !g_output_stream_close (memory, NULL, error))
    return NULL;

  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (memory));
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The prompt on standard input is not valid UTF-8"));
      return NULL;
    }
  return g_steal_pointer (&text);
}

/* Setup */

/* The timeouts given (the others are UNSET_TIMEOUT): numbers of seconds, 0 for no
 * limit. NaN, infinities and negative numbers are refused, naming the
 * option. */
static gboolean
check_timeouts (GError **error)
{
  static const struct { const char *option; const double *value; } timeouts[] = {
    { "--connect-timeout", &opt_connect_timeout },
    { "--first-byte-timeout", &opt_first_byte_timeout },
    { "--idle-timeout", &opt_idle_timeout },
    { "--step-timeout", &opt_step_timeout },
    { "--turn-timeout", &opt_turn_timeout },
    { "--stall-timeout", &opt_stall_timeout },
    { "--tool-timeout", &opt_tool_timeout },
  };

  for (guint i = 0; i < G_N_ELEMENTS (timeouts); i++)
    {
      double value = *timeouts[i].value;

      if (value != UNSET_TIMEOUT && !(value >= 0 && value <= MAX_TIMEOUT_SECONDS))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("%s must be a number of seconds from 0 (no limit) to %g, not %g"),
                       timeouts[i].option, MAX_TIMEOUT_SECONDS, value);
          return FALSE;
        }
    }

  return TRUE;
}

/* A size: bytes, or with K, M or G (KiB, MiB, GiB) after the number */
static gboolean
parse_size (const char  *option,
            const char  *text,
            guint64     *size,
            GError     **error)
{
  guint64 value = 0;
  guint64 unit = 1;
  char *end = NULL;

  if (text != NULL && g_ascii_isdigit (text[0]))
    value = g_ascii_strtoull (text, &end, 10);

  if (end != NULL && end[0] != '\0' && end[1] == '\0')
    {
      switch (g_ascii_toupper (end[0]))
        {
        case 'K': unit = 1024; end++; break;
        case 'M': unit = 1024 * 1024; end++; break;
        case 'G': unit = 1024 * 1024 * 1024; end++; break;
        default: break;
        }
    }

  if (end == NULL || end[0] != '\0' || value > G_MAXUINT64 / unit)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s must be a number of bytes, with K, M or G after it for KiB, MiB or "
                     "GiB (0: no limit), not “%s”"),
                   option, text);
      return FALSE;
    }

  *size = value * unit;
  return TRUE;
}

static AgentSession *
create_session (GError **error)
{
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentSession) session = NULL;
  AgentProfile *profile;
  const char *key_variable;
  guint64 max_turn_size = 0;
  guint64 max_request_size = 0;

  /* The profile's provider, with its settings; else the options' */
  profile = cli_profiles_get_chosen ();
  if (profile != NULL)
    provider = agent_profile_create_provider (profile, error);
  else
    provider = agent_provider_new (opt_provider ? opt_provider : "openai", error);
  if (provider == NULL)
    return NULL;

  if (opt_base_url != NULL)
    {
      g_autoptr(GUri) uri = g_uri_parse (opt_base_url, G_URI_FLAGS_NONE, NULL);

      if (uri == NULL || (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
                          g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("--base-url: “%s” is not an http or https URL"), opt_base_url);
          return NULL;
        }
      agent_provider_set_base_url (provider, opt_base_url);
    }

  if (opt_model != NULL)
    agent_provider_set_model (provider, opt_model);

  key_variable = agent_provider_get_api_key_variable (provider);
  if (key_variable != NULL)
    agent_provider_set_api_key (provider, g_getenv (key_variable));

  if (!check_timeouts (error))
    return NULL;
  if (opt_connect_timeout != UNSET_TIMEOUT)
    agent_provider_set_connect_timeout (provider, opt_connect_timeout);
  if (opt_first_byte_timeout != UNSET_TIMEOUT)
    agent_provider_set_first_byte_timeout (provider, opt_first_byte_timeout);
  if (opt_idle_timeout != UNSET_TIMEOUT)
    agent_provider_set_idle_timeout (provider, opt_idle_timeout);

  if (opt_max_retries < -1)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("--max-retries must be 0 or more, not %d"), opt_max_retries);
      return NULL;
    }
  if (opt_max_retries >= 0)
    agent_provider_set_max_retries (provider, opt_max_retries);

  if (opt_tls_ca_file != NULL)
    {
      if (!g_file_test (opt_tls_ca_file, G_FILE_TEST_IS_REGULAR))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("--tls-ca-file: “%s” is not a file"), opt_tls_ca_file);
          return NULL;
        }
      agent_provider_set_tls_ca_file (provider, opt_tls_ca_file);
    }

  if (opt_max_tokens < 0)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("--max-tokens must be 0 (the provider's default) or more, not %d"),
                   opt_max_tokens);
      return NULL;
    }
  agent_provider_set_max_tokens (provider, opt_max_tokens);

  if (opt_reasoning_effort != NULL)
    {
      static const char * const levels[] = { "none", "low", "medium", "high", NULL };
      static const AgentReasoningEffort efforts[] = {
        AGENT_REASONING_EFFORT_NONE, AGENT_REASONING_EFFORT_LOW,
        AGENT_REASONING_EFFORT_MEDIUM, AGENT_REASONING_EFFORT_HIGH,
      };
      guint i;

      for (i = 0; levels[i] != NULL; i++)
        if (g_ascii_strcasecmp (opt_reasoning_effort, levels[i]) == 0)
          break;
      if (levels[i] == NULL)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("--reasoning-effort must be none, low, medium or high, not “%s”"),
                       opt_reasoning_effort);
          return NULL;
        }
      agent_provider_set_reasoning_effort (provider, efforts[i]);
    }

  if (opt_max_steps < 1)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("--max-steps must be at least 1, not %d"), opt_max_steps);
      return NULL;
    }

  if (opt_max_tool_calls < 0)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("--max-tool-calls must be 0 (no limit) or more, not %d"), opt_max_tool_calls);
      return NULL;
    }

  if ((opt_max_turn_size != NULL &&
       !parse_size ("--max-turn-size", opt_max_turn_size, &max_turn_size, error)) ||
      (opt_max_request_size != NULL &&
       !parse_size ("--max-request-size", opt_max_request_size, &max_request_size, error)))
    return NULL;

  session = agent_session_new (provider);
  agent_session_set_max_steps (session, opt_max_steps);
  agent_session_set_max_tool_calls (session, opt_max_tool_calls);
  if (opt_tool_timeout != UNSET_TIMEOUT)
    agent_session_set_tool_timeout (session, opt_tool_timeout);
  if (opt_step_timeout != UNSET_TIMEOUT)
    agent_session_set_step_timeout (session, opt_step_timeout);
  if (opt_turn_timeout != UNSET_TIMEOUT)
    agent_session_set_turn_timeout (session, opt_turn_timeout);
  if (opt_stall_timeout != UNSET_TIMEOUT)
    agent_session_set_stall_timeout (session, opt_stall_timeout);
  if (opt_max_turn_size != NULL)
    agent_session_set_max_turn_size (session, max_turn_size);
  if (opt_max_request_size != NULL)
    agent_session_set_max_request_size (session, max_request_size);
  agent_session_set_system_prompt (session, opt_system);
  agent_session_set_stream_tool_call_chunks (session, opt_show_chunks);

  for (guint i = 0; opt_tools != NULL && opt_tools[i] != NULL; i++)
    {
      g_autoptr(AgentTool) tool = g_str_equal (opt_tools[i], "search_documents")
                                    ? cli_documents_tool_new (provider, error)
                                    : cli_web_tool_new (opt_tools[i], error);

      if (tool == NULL)
        return NULL;
      agent_session_add_tool (session, tool);
    }

  if (!cli_settings_apply (session, error))
    return NULL;

  return g_steal_pointer (&session);
}

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* --list-models: one name per line (a JSON array with --json). */
static int
list_models (AgentSession *session,
             CliOutput    *output)
{
  AgentProvider *provider = agent_session_get_provider (session);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  agent_provider_list_models_async (provider, NULL, list_models_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  if (!(names = agent_provider_list_models_finish (provider, result, &error)))
    {
      cli_output_error (output, error);
      return EXIT_FAILURE;
    }

  cli_output_models (output, (const char * const *) names);
  if (cli_output_report_failure (output))
    return EXIT_FAILURE;
  return EXIT_SUCCESS;
}

/* --mcp-prompt's messages start the conversation: before @prompt, or,
 * without one, the last of them is the first turn */
static gboolean
cli_mcp_add_prompt (Cli           *cli,
                    CliMcp        *mcp,
                    const char    *prompt,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(GListModel) messages = NULL;
  AgentMemory *memory = agent_session_get_memory (cli->session);
  guint n;

  messages = cli_mcp_context_get_prompt (cli_mcp_get_servers (mcp), cancellable, error);
  if (messages == NULL)
    return FALSE;

  n = g_list_model_get_n_items (messages);
  if (prompt == NULL)
    {
      g_autoptr(AgentMessage) last = g_list_model_get_item (messages, n - 1);

      if (agent_message_get_role (last) != AGENT_MESSAGE_ROLE_USER)
        {
          g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("The MCP prompt ends with an answer of the model: "
                                 "give a PROMPT to follow it"));
          return FALSE;
        }
      n--;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (messages, i);

      if (!agent_memory_append (memory, message, error))
        return FALSE;
    }
  if (prompt == NULL)
    cli->first_message = g_list_model_get_item (messages, n);
  return TRUE;
}

/* What --mcp-resource gives the first prompt, after --attach's files */
static gboolean
cli_mcp_add_context (Cli           *cli,
                     CliMcp        *mcp,
                     CliOutput     *output,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GPtrArray) parts = NULL;

  if (!cli_mcp_context_wanted ())
    return TRUE;

  parts = cli_mcp_context_read_resources (cli_mcp_get_servers (mcp), cancellable, error);
  if (parts == NULL)
    return FALSE;

  if (cli->attachments == NULL)
    cli->attachments = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < parts->len; i++)
    {
      cli_output_attachment (output, g_ptr_array_index (parts, i));
      g_ptr_array_add (cli->attachments, g_object_ref (g_ptr_array_index (parts, i)));
    }
  return TRUE;
}

static int
run (int   argc,
     char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(AgentSession) session = NULL;
  g_autoptr(CliOutput) output = NULL;
  g_autoptr(CliApprover) approver = NULL;
  g_autoptr(CliMcp) mcp = NULL;
  g_autoptr(CliStore) store = NULL;
  g_autoptr(GCancellable) starting = NULL;
  g_autofree char *prompt = NULL;
  g_autofree char *description = NULL;
  CliProfileOptions profile_options = { &opt_provider, &opt_base_url, &opt_model,
                                        &opt_context_window };
  Cli cli = { 0 };
  int status;


  context = g_option_context_new (_("[PROMPT] — chat with a language model that can use tools"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, cli_mcp_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, cli_mcp_context_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, cli_store_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, cli_profiles_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, cli_attach_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, cli_settings_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, cli_models_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, cli_voice_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, cli_web_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, cli_documents_entries, GETTEXT_PACKAGE);
  description = g_strconcat (
    _("The prompt is read from standard input when none is given; in a terminal, "
      "each line is a turn of one conversation.\n"
      "The API key is read from OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or "
      "OLLAMA_API_KEY, as the provider wants; web_search's Brave key from BRAVE_API_KEY.\n"
      "Exit status: 0 on success, 1 on error, 130 when interrupted."),
    cli_store_description (), NULL);
  g_option_context_set_description (context, description);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      /* Parsing stopped before --json may have been seen: look for it, so
       * that scripts get their error line. */
      for (int i = 1; i < argc; i++)
        if (g_str_equal (argv[i], "--json") || g_str_equal (argv[i], "-j"))
          opt_json = TRUE;

      if (opt_json)
        {
          g_autoptr(CliOutput) json_output = cli_output_new (TRUE);
          g_autoptr(GError) usage_error = g_error_new_literal (AGENT_ERROR,
                                                               AGENT_ERROR_INVALID_ARGUMENT,
                                                               error->message);

          cli_output_error (json_output, usage_error);
        }
      g_printerr ("agent-cli: %s\n", error->message);
      return EXIT_FAILURE;
    }

  if (opt_version)
    {
      g_print ("agent-cli %s\n", PACKAGE_VERSION);
      return EXIT_SUCCESS;
    }

  loop = g_main_loop_new (NULL, FALSE);
  cli.loop = loop;
  cli.starting = starting = g_cancellable_new ();

  if ((status = cli_mcp_sign_out ()) >= 0)
    return status;

  if (opt_list_tools)
    {
      const char * const *names = agent_builtin_tool_list_names ();

      handle_signals (&cli);
      for (guint i = 0; names[i] != NULL; i++)
        g_print ("%s\n", names[i]);
      if ((status = cli_mcp_list_tools (starting)) >= 0)
        return cli.interrupted ? EXIT_INTERRUPTED : status;
      return EXIT_SUCCESS;
    }

  output = cli_output_new (opt_json);
  cli_output_set_failed_func (output, output_failed_cb, &cli);

  /* --profiles, --save-profile; --profile's provider, model… are defaults */
  if ((status = cli_profiles_run (output, opt_json, &profile_options)) >= 0)
    return status;

  /* The stored conversation, whose profile, provider, model… are the defaults */
  if (!opt_list_models && !cli_models_wanted (FALSE) && !cli_voice_wanted () &&
      (status = cli_store_prepare (&store, output, opt_json, &profile_options,
                                   &opt_system)) >= 0)
    return status;
  if (!cli_profiles_choose (NULL, cli_store_is_new (store), &profile_options, output, &error))
    {
      cli_output_error (output, error);
      return EXIT_FAILURE;
    }

  if (!(session = create_session (&error)) ||
      !cli_context_setup (session, output, opt_context_window, opt_compact, opt_compact_strategy,
                          opt_keep_turns, &error))
    {
      cli_output_error (output, error);
      return EXIT_FAILURE;
    }

  if ((status = cli_store_attach (store, session, output)) >= 0)
    return status;

  if (opt_schema != NULL && !cli_schema_attach (session, output, opt_schema, &error))
    {
      cli_output_error (output, error);
      return EXIT_FAILURE;
    }

  /* The model manager's commands: Ctrl-C cancels them */
  if (cli_models_wanted (opt_list_models))
    {
      handle_signals (&cli);
      status = cli_models_run (agent_session_get_provider (session), output, opt_json,
                               opt_list_models, opt_yes, starting);
      return cli.interrupted && status != EXIT_SUCCESS ? EXIT_INTERRUPTED : status;
    }

  if (opt_list_models)
    return list_models (session, output);

  /* --transcribe, --speak: Ctrl-C cancels them */
  if (cli_voice_wanted ())
    {
      g_autofree char *stdin_text = NULL;

      handle_signals (&cli);
      if (cli_voice_reads_stdin () && !(stdin_text = read_all_stdin (starting, &error)))
        {
          cli_output_error (output, error);
          return cli.interrupted ? EXIT_INTERRUPTED : EXIT_FAILURE;
        }
      status = cli_voice_run (agent_session_get_provider (session), output, opt_json,
                              stdin_text, starting);
      return cli.interrupted && status != EXIT_SUCCESS ? EXIT_INTERRUPTED : status;
    }

  /* Ctrl-C and SIGTERM are ours from here on, before any MCP server
   * starts: until the first prompt they stop agent-cli, and the servers
   * leave with it; then Ctrl-C stops the turn. (Until here, nothing needs
   * cleaning up: they end agent-cli at once.) */
  handle_signals (&cli);

  if ((status = cli_documents_update (agent_session_get_provider (session), output, opt_json,
                                      starting)) >= 0)
    return cli.interrupted ? EXIT_INTERRUPTED : status;

  if ((status = cli_mcp_attach (&mcp, session, output, opt_json, starting)) >= 0)
    return cli.interrupted ? EXIT_INTERRUPTED : status;

  if (argc > 1)
    prompt = g_strjoinv (" ", argv + 1);
  else if (!cli_mcp_context_prompt_wanted () && !cli_store_regenerate_wanted () &&
           !isatty (STDIN_FILENO) &&
           !(prompt = read_all_stdin (starting, &error)))
    {
      cli_output_error (output, error);
      return cli.interrupted ? EXIT_INTERRUPTED : EXIT_FAILURE;
    }

  /* Read before the first request: a file that cannot be read sends nothing */
  cli.attachments = cli_attach_load (session, output, starting, &error);
  if (error != NULL)
    {
      cli_output_error (output, error);
      return cli.interrupted ? EXIT_INTERRUPTED : EXIT_FAILURE;
    }
  cli.session = session;
  if ((cli_mcp_context_prompt_wanted () || cli_mcp_context_wanted ()) && mcp == NULL)
    g_set_error_literal (&error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                         _("--mcp-resource and --mcp-prompt need --mcp-config"));
  else if (cli_mcp_add_context (&cli, mcp, output, starting, &error) &&
           cli_mcp_context_prompt_wanted ())
    cli_mcp_add_prompt (&cli, mcp, prompt, starting, &error);
  if (error != NULL)
    {
      g_clear_pointer (&cli.attachments, g_ptr_array_unref);
      cli_output_error (output, error);
      return cli.interrupted ? EXIT_INTERRUPTED : EXIT_FAILURE;
    }
  cli.starting = NULL;

  approver = cli_approver_new (opt_yes);
  cli.session = session;
  cli.store = store;
  cli.output = output;
  cli.approver = approver;

  g_signal_connect (session, "text-delta", G_CALLBACK (text_delta_cb), &cli);
  g_signal_connect (session, "notice", G_CALLBACK (session_notice_cb), &cli);
  g_signal_connect (session, "reasoning-delta", G_CALLBACK (reasoning_delta_cb), &cli);
  g_signal_connect (session, "tool-call-delta", G_CALLBACK (tool_call_delta_cb), &cli);
  g_signal_connect (session, "tool-call", G_CALLBACK (tool_call_cb), &cli);
  g_signal_connect (session, "tool-started", G_CALLBACK (tool_started_cb), &cli);
  g_signal_connect (session, "tool-failed", G_CALLBACK (tool_failed_cb), &cli);
  g_signal_connect (session, "tool-finished", G_CALLBACK (tool_finished_cb), &cli);
  g_signal_connect (session, "tool-progress", G_CALLBACK (tool_progress_cb), &cli);
  g_signal_connect (session, "approve-tool-call", G_CALLBACK (approve_tool_call_cb), &cli);
  g_signal_connect (session, "retry", G_CALLBACK (retry_cb), &cli);
  g_signal_connect (session, "step-finished", G_CALLBACK (step_finished_cb), &cli);

  if (cli_store_regenerate_wanted () && (prompt != NULL || cli.first_message != NULL))
    {
      g_set_error_literal (&error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("--regenerate answers the last message again: it takes no prompt"));
      cli_output_error (output, error);
      return EXIT_FAILURE;
    }

  if (cli_store_regenerate_wanted ())
    send_prompt (&cli, NULL);
  else if (cli.first_message != NULL)
    send_prompt (&cli, "");
  else if (prompt != NULL)
    {
      g_strstrip (prompt);
      if (prompt[0] == '\0')
        {
          g_set_error_literal (&error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("The prompt is empty"));
          cli_output_error (output, error);
          return EXIT_FAILURE;
        }
      send_prompt (&cli, prompt);
    }
  else
    {
      g_autoptr(GInputStream) stdin_stream = g_unix_input_stream_new (STDIN_FILENO, FALSE);

      cli.interactive = TRUE;
      cli.input = g_data_input_stream_new (stdin_stream);
      cli_output_notice (output, _("Type a message and press Enter; Ctrl-D quits."));
      read_next_prompt (&cli);
    }

  g_main_loop_run (loop);

  /* Leaving while a turn runs (a second Ctrl-C): let it wind down cleanly. */
  if (cli.turn_running)
    {
      g_cancellable_cancel (cli.cancellable);
      while (cli.turn_running)
        g_main_context_iteration (NULL, TRUE);
    }
  while (cli.syncing)
    g_main_context_iteration (NULL, TRUE);

  g_clear_object (&cli.input);
  g_clear_object (&cli.streaming);
  g_clear_object (&cli.first_message);
  g_clear_object (&cli.answer);
  g_clear_pointer (&cli.attachments, g_ptr_array_unref);
  /* The session goes before the approver it calls. */
  g_signal_handlers_disconnect_by_data (session, &cli);
  /* What the turns wrote is on the disk before we go */
  return cli_store_flush (store, output, cli.exit_status);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* agent-cli's messages are in libagent's domain, which the library binds */
  setlocale (LC_ALL, "");
  textdomain (GETTEXT_PACKAGE);
  cli_log_init ();

  /* A reader that went away (`| head`) is a failed write, reported and
   * ending the turn, not a signal that kills the process mid-sentence;
   * so is a file size limit (ulimit -f) that a write passes, to standard
   * output or to the store */
  signal (SIGPIPE, SIG_IGN);
  signal (SIGXFSZ, SIG_IGN);

  status = run (argc, argv);
  cli_profiles_free ();
  cli_documents_free ();
  return cli_output_finish (status);
}
