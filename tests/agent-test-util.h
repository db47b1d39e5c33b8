/* agent-test-util.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "agent-test-changes.h"

G_BEGIN_DECLS

/* How long agent_test_wait_until() lets the main loop run before it fails. */
#define AGENT_TEST_WAIT_LIMIT_SECONDS 30

char        *agent_test_corpus_path        (const char     *relative);
/* Runs the main loop until standard input reaches end of file: the test
 * servers that tests drive as programs end when their test does */
void         agent_test_run_until_stdin_closes (void);
char       **agent_test_list_corpus        (const char     *subdir,
                                            const char     *suffix);
void         agent_test_add_corpus_tests   (const char     *prefix,
                                            const char     *subdir,
                                            const char     *suffix,
                                            GTestDataFunc   func);
JsonObject  *agent_test_load_corpus_file   (const char     *path,
                                            const char     *suffix,
                                            char          **contents,
                                            gsize          *len);
JsonNode    *agent_test_load_json          (const char     *path);
JsonNode    *agent_test_parse_json         (const char     *text);
gboolean     agent_test_json_equal         (JsonNode       *a,
                                            JsonNode       *b);
const char  *agent_test_get_string         (JsonObject     *object,
                                            const char     *member);
void         agent_test_append_escaped     (GString        *string,
                                            const char     *bytes,
                                            gsize           len);
char        *agent_test_closed_port_url    (GSocket       **socket);
gboolean     agent_test_wait_until_timeout (gboolean (*predicate) (gpointer),
                                            gpointer        data,
                                            guint           seconds);
void         agent_test_wait_until         (gboolean (*predicate) (gpointer),
                                            gpointer        data);
void         agent_test_wait_for           (gboolean       *flag);
void         agent_test_count_notify       (GObject        *object,
                                            GParamSpec     *pspec,
                                            guint          *count);

char        *agent_test_make_dir           (const char     *template_prefix);
void         agent_test_remove_dir         (const char     *dir);
char        *agent_test_write_file         (const char     *dir,
                                            const char     *name,
                                            const char     *contents,
                                            gssize          len);
char        *agent_test_path_arguments     (const char     *path);
char        *agent_test_invoke_tool        (AgentTool      *tool,
                                            const char     *arguments,
                                            GCancellable   *cancellable,
                                            gboolean       *is_error);
void         agent_test_assert_same_text   (const char     *actual,
                                            const char     *expected);
void         agent_test_assert_contains    (const char     *haystack,
                                            const char     *needle);
gboolean     agent_test_json_is_view_of    (JsonNode       *part,
                                            JsonNode       *whole);
GThread     *agent_test_grow_on_open       (const char     *path,
                                            guint           n_mib);
AgentTool   *agent_test_counting_tool_new  (guint          *runs);
char        *agent_test_nested_arrays      (guint           depth,
                                            const char     *inner);
guint        agent_test_memory_length      (AgentSession   *session);
AgentMessage *agent_test_memory_message    (AgentSession   *session,
                                            guint           index);

G_END_DECLS
