/* agent-gtk-answer-info-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

/* What is known of how an answer was made, as a row shows it on hover
 * and focus ("14:03 · gpt-4o · 1,234 tokens · 3.2 s") and in words for
 * its tooltip and screen readers; NULL when nothing is known (a user's
 * message, an answer still streaming) */
char *_agent_gtk_answer_info_dup_short (AgentMessage *message,
                                        GDateTime    *now);
char *_agent_gtk_answer_info_dup_long  (AgentMessage *message,
                                        GDateTime    *now);

G_END_DECLS
