/* agent-gtk-error-card-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "agent-gtk-error-card.h"

G_BEGIN_DECLS

const char *_agent_gtk_describe_interruption (const GError *error);

G_END_DECLS
