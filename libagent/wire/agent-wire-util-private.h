/* agent-wire-util-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What replaces a secret in text that is shown: any run of a secret this
 * long or longer (a shorter secret, whole) */
#define AGENT_REDACTED "[redacted]"
#define AGENT_REDACT_MIN_RUN 8

char *agent_wire_format_limit (gsize               limit);
char *agent_redact            (const char         *text,
                               const char * const *secrets);
char *agent_redact_prefix     (const char         *text,
                               gsize               len,
                               const char * const *secrets,
                               gsize              *consumed);
gsize agent_secrets_longest  (const char * const *secrets);
char *agent_excerpt           (const char         *text,
                               gsize               len,
                               guint               max_chars,
                               const char * const *secrets);

G_END_DECLS
