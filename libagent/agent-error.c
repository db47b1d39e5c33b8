/* agent-error.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"

/* libagent's messages are in its own gettext domain, GETTEXT_PACKAGE
 * ("libagent-1"), bound when the library is loaded so that every program
 * gets them translated without calling anything first. AGENT_LOCALEDIR
 * replaces the installed catalogues' directory: the tests point it at
 * the build tree's. */
static void agent_init_i18n (void) __attribute__((constructor));

static void
agent_init_i18n (void)
{
  const char *localedir = g_getenv ("AGENT_LOCALEDIR");

  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}

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
 * @error: a #GError
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
