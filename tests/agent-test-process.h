/* agent-test-process.h
 *
 * Running a built program as a black box: its standard streams are pipes,
 * read as they come while the main loop goes on serving (an in-process
 * AgentTestServer, say); waiting is bounded, so a hang fails with what the
 * child printed. Its --json output, one JSON object with a "type" per
 * line, can then be looked at event by event.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A NULL-terminated array of strings, for arguments and environments. */
#define AGENT_TEST_ARGS(...) ((const char * const[]) { __VA_ARGS__, NULL })

/* How long agent_test_process_wait() waits for a child to finish. */
#define AGENT_TEST_PROCESS_WAIT_SECONDS 20

typedef enum
{
  AGENT_TEST_PROCESS_DEFAULT    = 0,
  /* Standard input stays open until the process is freed (by default it is
   * closed after the input is written). */
  AGENT_TEST_PROCESS_KEEP_STDIN = 1 << 0,
} AgentTestProcessFlags;

typedef struct
{
  GSubprocess *process;
  char        *name;      /* the program's base name, for messages */
  GString     *out;
  GString     *err;
  GPtrArray   *events;    /* a JsonObject per stdout line, after agent_test_process_parse_json() */
  int          status;    /* the exit status, or -1 when a signal ended it */
  gboolean     out_eof;
  gboolean     err_eof;
  gboolean     exited;
} AgentTestProcess;

const char       *agent_test_find_program         (const char            *variable,
                                                   const char            *subdir,
                                                   const char            *name);

AgentTestProcess *agent_test_process_spawn        (const char            *program,
                                                   const char * const    *env,
                                                   const char            *input,
                                                   AgentTestProcessFlags  flags,
                                                   const char * const    *args);
void              agent_test_process_free         (AgentTestProcess      *self);
gboolean          agent_test_process_is_finished  (AgentTestProcess      *self);
void              agent_test_process_wait         (AgentTestProcess      *self);
void              agent_test_process_assert_exit  (AgentTestProcess      *self,
                                                   int                    status);

gboolean          agent_test_poll_until           (gboolean             (*predicate) (gpointer),
                                                   gpointer               data);
GPid              agent_test_read_pid_file        (const char            *path);
gboolean          agent_test_pid_is_gone          (GPid                   pid);
void              agent_test_assert_pid_gone      (GPid                   pid,
                                                   const char            *what);

void              agent_test_process_parse_json   (AgentTestProcess      *self);
GPtrArray        *agent_test_parse_json_lines     (const GString         *text);
const char       *agent_test_event_type           (JsonObject            *event);
guint             agent_test_process_count_events (AgentTestProcess      *self,
                                                   const char            *type);
JsonObject       *agent_test_process_nth_event    (AgentTestProcess      *self,
                                                   const char            *type,
                                                   guint                  nth);
JsonObject       *agent_test_process_last_event   (AgentTestProcess      *self);
char             *agent_test_process_event_types  (AgentTestProcess      *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentTestProcess, agent_test_process_free)

G_END_DECLS
