/* agent-init.c
 *
 * What libagent does when it is loaded, before any of its functions runs:
 * it binds its gettext domain, GETTEXT_PACKAGE ("libagent-1"), so that
 * every program gets its messages translated without calling anything
 * first, and registers the AgentError domain.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"

static void agent_init (void) __attribute__((constructor));

static void
agent_init (void)
{
  const char *localedir = LOCALEDIR;

#ifdef AGENT_ENABLE_LOCALEDIR_OVERRIDE
  /* Development builds only: AGENT_LOCALEDIR replaces the installed
   * catalogues' directory, for the tests to point it at the build tree's. */
  const char *override = g_getenv ("AGENT_LOCALEDIR");

  if (override != NULL && *override != '\0')
    localedir = override;
#endif

  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  /* AgentError is an extended error domain: registered before any error
   * can be made with its quark by name (a binding's GLib.Error, a stored
   * error read back), so that every one of them has the room for its
   * private data */
  (void) agent_error_quark ();
}
