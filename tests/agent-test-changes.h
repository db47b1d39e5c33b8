/* agent-test-changes.h — the changes of an object-delta, applied as
 * docs/structured-output.md says: by the tests and by the partial JSON
 * fuzz target, each with a copy of their own
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

JsonNode *agent_test_try_apply_changes (JsonNode  *object,
                                        JsonNode  *changes,
                                        GError   **error);
JsonNode *agent_test_apply_changes     (JsonNode  *object,
                                        JsonNode  *changes);

G_END_DECLS
