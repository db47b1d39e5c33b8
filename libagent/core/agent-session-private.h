/* agent-session-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "core/agent-session.h"
#include "agent-util-private.h"
#include "messages/agent-content-part-private.h"

G_BEGIN_DECLS

typedef struct _AgentTurn AgentTurn;

struct _AgentSession
{
  GObject        parent_instance;
  AgentProvider *provider;
  AgentMemory   *memory;
  GListStore    *tools;
  GHashTable    *tool_names;  /* name → tool of tools, made with the first */
  char          *system_prompt;
  AgentUsage    *usage;
  AgentMetrics  *turn_metrics;
  AgentMessage  *current_message;
  GObject       *transcript;  /* an AgentTranscript, made when asked for */
  JsonNode      *output_schema;
  AgentRequestSettings *settings;  /* agent-session-settings.c */
  AgentTurn     *turn;
  double         tool_timeout;
  double         step_timeout;
  double         turn_timeout;
  double         stall_timeout;
  guint64        max_request_size;
  guint64        max_turn_size;
  guint64        max_attachment_size;
  guint          max_steps;
  guint          max_tool_calls;
  guint          stream_tool_call_chunks : 1;
  guint          validate_tool_arguments : 1;  /* agent-session-tools.c */
  guint          scale_images : 1;

  /* agent-session-context.c */
  AgentContextPolicy *context_policy;
  guint64        context_window;     /* tokens, 0 if unknown */
  gint64         context_used;       /* estimate of the next request, -1 if none yet */
  double         context_pressure_threshold;
  guint          context_boundary;   /* memory position: a policy cut what is before */
  guint          context_since;      /* memory position of the last compaction */
  guint          context_pressure : 1;
  guint          context_estimated : 1;  /* context_used is not all the server's count */
};

typedef enum
{
  AGENT_SESSION_TEXT_DELTA,
  AGENT_SESSION_REASONING_DELTA,
  AGENT_SESSION_TOOL_CALL_DELTA,
  AGENT_SESSION_TOOL_CALL,
  AGENT_SESSION_TOOL_STARTED,
  AGENT_SESSION_TOOL_FINISHED,
  AGENT_SESSION_STEP_FINISHED,
  AGENT_SESSION_COMPLETED,
  AGENT_SESSION_CHECK_INPUT,
  AGENT_SESSION_PREPARE_STEP,
  AGENT_SESSION_CHECK_TOOL_CALL,
  AGENT_SESSION_APPROVE_TOOL_CALL,
  AGENT_SESSION_FILTER_TOOL_RESULT,
  AGENT_SESSION_TOOL_PROGRESS,
  AGENT_SESSION_TURN_FINISHED,
  AGENT_SESSION_RETRY,
  AGENT_SESSION_CONTEXT_PRESSURE,
  AGENT_SESSION_COMPACTED,
  AGENT_SESSION_OBJECT_DELTA,
  AGENT_SESSION_OBJECT_FINISHED,
  AGENT_SESSION_TOOL_FAILED,
  AGENT_SESSION_CHECK_OUTPUT,
  AGENT_SESSION_NOTICE,
  AGENT_SESSION_N_SIGNALS
} AgentSessionSignal;

void     _agent_session_emit        (AgentSession       *self,
                                     AgentSessionSignal  signal,
                                     ...);
gboolean _agent_session_has_handler (AgentSession       *self,
                                     AgentSessionSignal  signal);

void _agent_session_set_turn            (AgentSession *self,
                                         AgentTurn    *turn);
void _agent_session_set_current_message (AgentSession *self,
                                         AgentMessage *message);
void _agent_session_set_usage           (AgentSession *self,
                                         AgentUsage   *usage);
void _agent_session_set_turn_metrics    (AgentSession *self,
                                         AgentMetrics *metrics);

/* agent-session-limits.c: max-request-size, max-turn-size, stall-timeout,
 * max-attachment-size, scale-images */
#define AGENT_SESSION_DEFAULT_MAX_REQUEST_SIZE (G_GUINT64_CONSTANT (32) * 1024 * 1024)
#define AGENT_SESSION_DEFAULT_MAX_TURN_SIZE    (G_GUINT64_CONSTANT (32) * 1024 * 1024)
#define AGENT_SESSION_DEFAULT_MAX_ATTACHMENT_SIZE (G_GUINT64_CONSTANT (20) * 1024 * 1024)
#define AGENT_SESSION_DEFAULT_STALL_TIMEOUT    600.0

void     _agent_session_init_limits          (AgentSession *self);
void     _agent_session_class_add_limits     (GObjectClass *object_class,
                                              guint         first_prop_id);
gboolean _agent_session_get_limit_property   (AgentSession *self,
                                              guint         prop_id,
                                              GValue       *value);
gboolean _agent_session_set_limit_property   (AgentSession *self,
                                              guint         prop_id,
                                              const GValue *value);

/* agent-session-limits.c adds this many properties */
#define AGENT_SESSION_N_LIMIT_PROPS 5

/* agent-session-context.c adds this many properties */
#define AGENT_SESSION_N_CONTEXT_PROPS 5

/* agent-session-context.c: context-policy, context-window, context-used,
 * context-pressure-threshold, context-estimated; context-pressure and
 * compacted */
void     _agent_session_init_context          (AgentSession *self);
void     _agent_session_dispose_context       (AgentSession *self);
void     _agent_session_class_add_context     (GObjectClass *object_class,
                                               guint         first_prop_id,
                                               guint        *signal_ids);
gboolean _agent_session_get_context_property  (AgentSession *self,
                                               guint         prop_id,
                                               GValue       *value);
gboolean _agent_session_set_context_property  (AgentSession *self,
                                               guint         prop_id,
                                               const GValue *value);
void     _agent_session_set_context_used      (AgentSession *self,
                                               gint64        tokens,
                                               gboolean      estimated);
/* context-used while an answer streams: notified, no pressure emitted */
void     _agent_session_show_context_used     (AgentSession *self,
                                               gint64        tokens);
/* agent-turn-context.c: context-used of the memory as it is */
void     _agent_session_update_context_used   (AgentSession *self);

/* agent-session-output.c: output-schema, object-delta, object-finished,
 * check-output */
#define AGENT_SESSION_N_OUTPUT_PROPS 1

void     _agent_session_class_add_output     (GObjectClass *object_class,
                                              guint         first_prop_id,
                                              guint        *object_delta_signal,
                                              guint        *object_finished_signal,
                                              guint        *check_output_signal);
gboolean _agent_session_get_output_property  (AgentSession *self,
                                              guint         prop_id,
                                              GValue       *value);
gboolean _agent_session_set_output_property  (AgentSession *self,
                                              guint         prop_id,
                                              const GValue *value);

/* agent-turn-capabilities.c: the notice signal */
void     _agent_session_class_add_notice    (GObjectClass *object_class,
                                             guint        *notice_signal);

/* agent-session-tools.c: validate-tool-arguments, tool-failed */
#define AGENT_SESSION_N_TOOLS_PROPS 1

void     _agent_session_init_tools          (AgentSession *self);
void     _agent_session_class_add_tools     (GObjectClass *object_class,
                                             guint         first_prop_id,
                                             guint        *tool_failed_signal);
gboolean _agent_session_get_tools_property  (AgentSession *self,
                                             guint         prop_id,
                                             GValue       *value);
gboolean _agent_session_set_tools_property  (AgentSession *self,
                                             guint         prop_id,
                                             const GValue *value);

/* agent-session-settings.c: settings */
#define AGENT_SESSION_N_SETTINGS_PROPS 1

void                  _agent_session_class_add_settings    (GObjectClass *object_class,
                                                            guint         first_prop_id);
gboolean              _agent_session_get_settings_property (AgentSession *self,
                                                            guint         prop_id,
                                                            GValue       *value);
AgentRequestSettings *_agent_session_dup_request_settings  (AgentSession *self);
/* agent-turn-parts.c: what the provider's API makes of images (its
 * billing), and the rule images are scaled by (NULL: scale-images off) */
const AgentImageRule *_agent_session_get_images       (AgentSession *self);
const AgentImageRule *_agent_session_get_scale_images (AgentSession *self);

G_END_DECLS
