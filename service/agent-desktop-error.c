/* agent-desktop-error.c — the errors of io.github.libagent.Assistant1
 *
 * Registered with GDBus, so that a GError of this domain returned to a
 * caller has its name on the bus, and a GDBus client of this domain gets
 * it back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <agent.h>

#include "agent-desktop-error.h"

static const GDBusErrorEntry error_entries[] = {
  { AGENT_DESKTOP_ERROR_FAILED, "io.github.libagent.Assistant1.Error.Failed" },
  { AGENT_DESKTOP_ERROR_ACCESS_DENIED, "io.github.libagent.Assistant1.Error.AccessDenied" },
  { AGENT_DESKTOP_ERROR_LIMIT_REACHED, "io.github.libagent.Assistant1.Error.LimitReached" },
  { AGENT_DESKTOP_ERROR_NO_SUCH_PROFILE, "io.github.libagent.Assistant1.Error.NoSuchProfile" },
  { AGENT_DESKTOP_ERROR_INVALID_ARGS, "io.github.libagent.Assistant1.Error.InvalidArgs" },
  { AGENT_DESKTOP_ERROR_BUSY, "io.github.libagent.Assistant1.Error.Busy" },
  { AGENT_DESKTOP_ERROR_CANCELLED, "io.github.libagent.Assistant1.Error.Cancelled" },
  { AGENT_DESKTOP_ERROR_NOT_SUPPORTED, "io.github.libagent.Assistant1.Error.NotSupported" },
};

G_STATIC_ASSERT (G_N_ELEMENTS (error_entries) == AGENT_DESKTOP_N_ERRORS);

GQuark
agent_desktop_error_quark (void)
{
  static gsize quark = 0;

  g_dbus_error_register_error_domain ("agent-desktop-error-quark", &quark,
                                      error_entries, G_N_ELEMENTS (error_entries));
  return (GQuark) quark;
}

/* The name on the bus of any error: its own for this domain, Cancelled for
 * a cancellation, else Failed (the message says what). */
const char *
agent_desktop_error_to_name (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return error_entries[AGENT_DESKTOP_ERROR_CANCELLED].dbus_error_name;
  if (error->domain == AGENT_DESKTOP_ERROR && error->code >= 0
      && error->code < AGENT_DESKTOP_N_ERRORS)
    return error_entries[error->code].dbus_error_name;
  if (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_BUSY))
    return error_entries[AGENT_DESKTOP_ERROR_BUSY].dbus_error_name;
  return error_entries[AGENT_DESKTOP_ERROR_FAILED].dbus_error_name;
}
