/* agent-cli-output.h
 *
 * What agent-cli prints: the answer as it streams and tool activity on
 * stderr, or with --json exactly one JSON object per line on stdout.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdlib.h>

#include <agent.h>

G_BEGIN_DECLS

typedef struct _CliOutput CliOutput;

/* Called once, when writing to standard output failed */
typedef void (*CliOutputFailedFunc) (gpointer user_data);

char      *cli_escape_for_terminal      (const char     *text,
                                         gboolean        keep_lines);

CliOutput *cli_output_new               (gboolean        json);
void       cli_output_set_failed_func   (CliOutput      *self,
                                         CliOutputFailedFunc func,
                                         gpointer        user_data);
gboolean   cli_output_report_failure    (CliOutput      *self);
int        cli_output_finish            (int             status);
void       cli_output_free              (CliOutput      *self);
void       cli_output_flush             (CliOutput      *self);
void       cli_output_text_delta        (CliOutput      *self,
                                         const char     *text);
void       cli_output_text_break        (CliOutput      *self);
void       cli_output_reasoning_delta   (CliOutput      *self,
                                         const char     *text);
void       cli_output_tool_call_delta   (CliOutput      *self,
                                         AgentToolCall  *call,
                                         const char     *arguments_delta);
void       cli_output_tool_call         (CliOutput      *self,
                                         AgentToolCall  *call);
void       cli_output_tool_started      (CliOutput      *self,
                                         AgentToolCall  *call);
void       cli_output_tool_finished     (CliOutput      *self,
                                         AgentToolCall  *call);
void       cli_output_tool_progress     (CliOutput      *self,
                                         AgentToolCall  *call,
                                         double          fraction,
                                         const char     *text);
void       cli_output_tool_failed       (CliOutput      *self,
                                         AgentToolCall  *call,
                                         const GError   *error);
void       cli_output_retry             (CliOutput      *self,
                                         guint           attempt,
                                         double          delay,
                                         const GError   *error);
void       cli_output_step_finished     (CliOutput      *self,
                                         AgentMessage   *message);
void       cli_output_done              (CliOutput      *self,
                                         AgentMessage   *message,
                                         AgentUsage     *usage,
                                         AgentMetrics   *metrics);
void       cli_output_error             (CliOutput      *self,
                                         const GError   *error);

/* cli_output_error() of @error, which it frees: EXIT_FAILURE, for a
 * command that ends there (`return cli_output_fail (output, error);`) */
static inline int
cli_output_fail (CliOutput *self,
                 GError    *error)
{
  cli_output_error (self, error);
  g_error_free (error);
  return EXIT_FAILURE;
}

void       cli_output_notice            (CliOutput      *self,
                                         const char     *text);
/* AgentSession::notice: a line on stderr, or {"type": "notice", "code",
 * "message"} */
void       cli_output_session_notice    (CliOutput      *self,
                                         const char     *code,
                                         const char     *message);
void       cli_output_attachment        (CliOutput      *self,
                                         AgentContentPart *part);
void       cli_output_set_objects       (CliOutput      *self,
                                         gboolean        objects);
void       cli_output_object_delta      (CliOutput      *self,
                                         JsonNode       *changes);
void       cli_output_object            (CliOutput      *self,
                                         JsonNode       *object);
/* With --json: an event of @type that the caller fills, then ends */
JsonBuilder *cli_output_begin_event     (const char     *type);
void       cli_output_add_string        (JsonBuilder    *builder,
                                         const char     *name,
                                         const char     *value);
void       cli_output_end_event         (CliOutput      *self,
                                         JsonBuilder    *builder);
void       cli_output_models            (CliOutput      *self,
                                         const char * const *names);

void       cli_output_compacted         (CliOutput      *self,
                                         const char     *strategy,
                                         guint           start,
                                         guint           stop,
                                         gint64          tokens_before,
                                         gint64          tokens_after,
                                         AgentMessage   *summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliOutput, cli_output_free)

G_END_DECLS
