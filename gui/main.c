/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "agent-chat-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AgentChatApplication) app = NULL;
  const char *localedir;

  /* The app's own messages are in its domain; libagent binds its own.
   * AGENT_LOCALEDIR replaces the catalogues' directory, as for libagent. */
  localedir = g_getenv ("AGENT_LOCALEDIR");
  setlocale (LC_ALL, "");
  bindtextdomain (AGENT_CHAT_GETTEXT_PACKAGE,
                  localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (AGENT_CHAT_GETTEXT_PACKAGE, "UTF-8");
  textdomain (AGENT_CHAT_GETTEXT_PACKAGE);

  app = agent_chat_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
