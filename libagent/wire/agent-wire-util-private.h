/* agent-wire-util-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What replaces a secret in text that is shown */
#define AGENT_REDACTED "[redacted]"

char *agent_wire_format_limit (gsize               limit);
char *agent_redact            (const char         *text,
                               const char * const *secrets);
char *agent_excerpt           (const char         *text,
                               gsize               len,
                               guint               max_chars,
                               const char * const *secrets);

G_END_DECLS
