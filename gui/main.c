/* main.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
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

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = agent_chat_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
