/* agent-test-png.h — PNG files written byte by byte, of any size
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

GBytes       *agent_test_grey_png_new       (guint32     width,
                                             guint32     height,
                                             guint32     rows_written);
AgentMessage *agent_test_image_message_new  (const char *text,
                                             GBytes     *png);

G_END_DECLS
