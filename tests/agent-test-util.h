/* agent-test-util.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

char     *agent_test_corpus_path      (const char   *relative);
char    **agent_test_list_corpus      (const char   *subdir,
                                       const char   *suffix);
JsonNode *agent_test_load_json        (const char   *path);
JsonNode *agent_test_parse_json       (const char   *text);
gboolean  agent_test_json_equal       (JsonNode     *a,
                                       JsonNode     *b);
void      agent_test_wait_for         (gboolean     *flag);
void      agent_test_wait_until       (gboolean    (*predicate) (gpointer),
                                       gpointer      data);

G_END_DECLS
