/* bench-loop.c — the tool loop over TLS: what each step costs beyond the
 * server's own time, and how many connections and handshakes a loop takes
 *
 *   bench-loop --serve [--cert FILE --key FILE]   the model server
 *                                                 (bench-loop-server.h)
 *   bench-loop --child BASE_URL [--ca FILE] [--prompts N]
 *                                                 libagent as a contender
 *                                                 (bench-loop-client.h)
 *
 * bench/run-all starts the server, runs every contender against it and
 * prints the figures; see bench/README.md, "The tool loop".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <locale.h>

#include <glib.h>

#include "bench-loop-client.h"
#include "bench-loop-server.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  gboolean serve = FALSE;
  g_autofree char *child = NULL;
  g_autofree char *certificate = NULL;
  g_autofree char *key = NULL;
  g_autofree char *ca = NULL;
  int prompts = 1;
  const GOptionEntry entries[] = {
    { "serve", 0, 0, G_OPTION_ARG_NONE, &serve, "Run the model server", NULL },
    { "cert", 0, 0, G_OPTION_ARG_FILENAME, &certificate,
      "The server's certificate (PEM): serve HTTPS too", "FILE" },
    { "key", 0, 0, G_OPTION_ARG_FILENAME, &key, "The certificate's private key (PEM)", "FILE" },
    { "child", 0, 0, G_OPTION_ARG_STRING, &child, "Run libagent's loop against BASE_URL",
      "BASE_URL" },
    { "ca", 0, 0, G_OPTION_ARG_FILENAME, &ca, "Trust the certificate authorities of FILE",
      "FILE" },
    { "prompts", 0, 0, G_OPTION_ARG_INT, &prompts, "Prompts to send in turn (default 1)", "N" },
    { NULL }
  };

  setlocale (LC_ALL, "");
  context = g_option_context_new ("— the tool-loop benchmark's server and libagent client");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-loop: %s\n", error->message);
      return 2;
    }

  if (serve && child == NULL && (certificate == NULL) == (key == NULL))
    return bench_loop_server_main (certificate, key);

  if (child != NULL && !serve && prompts >= 1)
    return bench_loop_client_main (child, ca, prompts);

  g_printerr ("bench-loop: --serve [--cert FILE --key FILE], or --child BASE_URL [--ca FILE] "
              "[--prompts N ≥ 1]\n");
  return 2;
}
