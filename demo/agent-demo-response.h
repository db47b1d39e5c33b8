/* agent-demo-response.h
 *
 * The wire format of the demo model's replies.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-demo-model.h"

G_BEGIN_DECLS

JsonObject *demo_response_build_completion (const DemoReply *reply);
GPtrArray  *demo_response_build_events     (const DemoReply *reply);

G_END_DECLS
