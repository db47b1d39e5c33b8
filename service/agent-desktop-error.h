/* agent-desktop-error.h — the errors of io.github.libagent.Assistant1
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define AGENT_DESKTOP_ERROR (agent_desktop_error_quark ())

/* Each is io.github.libagent.Assistant1.Error.NAME on the bus (the comment) */
typedef enum
{
  AGENT_DESKTOP_ERROR_FAILED,           /* Failed */
  AGENT_DESKTOP_ERROR_ACCESS_DENIED,    /* AccessDenied: the user said no, or not yet */
  AGENT_DESKTOP_ERROR_LIMIT_REACHED,    /* LimitReached: the app's tokens of the day are used */
  AGENT_DESKTOP_ERROR_NO_SUCH_PROFILE,  /* NoSuchProfile */
  AGENT_DESKTOP_ERROR_INVALID_ARGS,     /* InvalidArgs */
  AGENT_DESKTOP_ERROR_BUSY,             /* Busy: a turn is running */
  AGENT_DESKTOP_ERROR_CANCELLED,        /* Cancelled */
  AGENT_DESKTOP_ERROR_NOT_SUPPORTED,    /* NotSupported: not for a sandboxed caller */
} AgentDesktopError;

#define AGENT_DESKTOP_N_ERRORS (AGENT_DESKTOP_ERROR_NOT_SUPPORTED + 1)

GQuark      agent_desktop_error_quark   (void);
const char *agent_desktop_error_to_name (const GError *error);

G_END_DECLS
