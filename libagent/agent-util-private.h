/* agent-util-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <sys/stat.h>

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

/* The largest timeout in seconds (about 31 years): in microseconds it still
 * fits a gint64. NaN and infinities are refused along with negatives. */
#define AGENT_MAX_TIMEOUT_SECONDS 1e9
#define AGENT_IS_VALID_TIMEOUT(s) ((s) >= 0 && (s) <= AGENT_MAX_TIMEOUT_SECONDS)

void  _agent_run_on_owner      (GObject      *object,
                                GThread      *owner,
                                GMainContext *context,
                                GSourceFunc   func);
void  _agent_run_later         (GObject      *object,
                                GMainContext *context,
                                GSourceFunc   func);
char *_agent_url_hide_userinfo (const char   *url);
char *_agent_redirect_target   (SoupMessage        *message,
                                const char * const *secrets);
int   _agent_open_regular_file (const char         *path,
                                GCancellable       *cancellable,
                                struct stat        *info);

gboolean _agent_header_is_secret (const char *name);

G_END_DECLS
