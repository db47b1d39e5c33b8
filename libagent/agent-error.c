/* agent-error.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "agent-enums.h"
#include "agent-error.h"

/**
 * agent_error_quark:
 *
 * Gets the error domain of libagent's errors, %AGENT_ERROR, whose codes
 * are [error@Agent.Error].
 *
 * Returns: the error domain
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (agent-error-quark, agent_error)

/**
 * agent_error_get_code:
 * @error: a [struct@GLib.Error]
 *
 * Gets a short, stable name for @error, for scripts and logs: the nick of
 * its [error@Agent.Error] code (`"http"`, `"protocol"`, `"limit"`, …),
 * `"cancelled"` for `G_IO_ERROR_CANCELLED`, or `"failed"` for any other error.
 *
 * Returns: a static string
 *
 * Since: 0.1
 */
const char *
agent_error_get_code (const GError *error)
{
  g_return_val_if_fail (error != NULL, "failed");

  if (error->domain == AGENT_ERROR)
    {
      GEnumClass *klass = g_type_class_ref (AGENT_TYPE_ERROR);
      GEnumValue *value = g_enum_get_value (klass, error->code);
      const char *nick = value != NULL ? value->value_nick : "failed";

      g_type_class_unref (klass);
      return nick;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return "cancelled";

  return "failed";
}
