/* agent-chat-demo.c
 *
 * libagent's demo server (agent-demo-server) for the app: where it is, how
 * a server is known to be it, and starting it.
 *
 * The demo server listens on a random port of the loopback address, which
 * it prints, and leaves with the app (it reads its standard input until the
 * end, and the app holds that open). So the address the first run saved is
 * dead at the next start of the app. The profile of the demo server is
 * known by a convention (docs/profiles.md): its provider is "openai", its
 * model "demo" and its base URL on the loopback address. When the app
 * starts with such a profile and nothing listens at its address, it starts
 * agent-demo-server once and gives the demo profiles of that address its
 * live address, saved in the file, where the windows using them find it.
 * A demo server that answers there (started by hand) is used as it is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-application.h"
#include "agent-chat-demo.h"

/**
 * agent_chat_demo_dup_program:
 *
 * Returns: (transfer full) (nullable): the path of agent-demo-server
 *   ($AGENT_DEMO_SERVER, next to agent-chat, or on the PATH), if it is there
 */
char *
agent_chat_demo_dup_program (void)
{
  const char *given = g_getenv ("AGENT_DEMO_SERVER");
  g_autofree char *installed = g_build_filename (AGENT_CHAT_BINDIR, "agent-demo-server", NULL);

  if (given != NULL && g_file_test (given, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (given);
  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&installed);
  return g_find_program_in_path ("agent-demo-server");
}

/**
 * agent_chat_demo_is_server:
 * @provider: (nullable): a provider name
 * @base_url: (nullable): its base URL
 * @model: (nullable): the model
 *
 * The demo server listens on the loopback address only, speaks the openai
 * API and serves one model, "demo".
 *
 * Returns: whether that server is the demo server
 */
gboolean
agent_chat_demo_is_server (const char *provider,
                           const char *base_url,
                           const char *model)
{
  g_autoptr(GUri) uri = NULL;
  const char *host;

  if (g_strcmp0 (provider, "openai") != 0 || g_strcmp0 (model, "demo") != 0 || base_url == NULL)
    return FALSE;
  uri = g_uri_parse (base_url, G_URI_FLAGS_NONE, NULL);
  host = uri != NULL ? g_uri_get_host (uri) : NULL;
  return g_strcmp0 (host, "127.0.0.1") == 0 || g_strcmp0 (host, "localhost") == 0 ||
         g_strcmp0 (host, "::1") == 0;
}

/**
 * agent_chat_demo_is_profile:
 * @profile: a profile
 *
 * Returns: whether @profile is the demo server's
 */
gboolean
agent_chat_demo_is_profile (AgentProfile *profile)
{
  g_return_val_if_fail (AGENT_IS_PROFILE (profile), FALSE);

  return agent_chat_demo_is_server (agent_profile_get_provider (profile),
                                    agent_profile_get_base_url (profile),
                                    agent_profile_get_model (profile));
}

static void
on_url (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object),
                                                                     result, NULL, &error);

  if (line == NULL && error != NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else if (line == NULL || !g_str_has_prefix (g_strstrip (line), "http://"))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s",
                             _("it gave no address"));
  else
    g_task_return_pointer (task, g_steal_pointer (&line), g_free);
}

/**
 * agent_chat_demo_start_async:
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with its address
 * @user_data: for @callback
 *
 * Starts agent-demo-server, which leaves with the app.
 */
void
agent_chat_demo_start_async (GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autofree char *program = agent_chat_demo_dup_program ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) output = NULL;
  GError *error = NULL;
  GApplication *app = g_application_get_default ();

  g_task_set_source_tag (task, agent_chat_demo_start_async);
  if (program == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s",
                               _("agent-demo-server is not installed"));
      return;
    }
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                              &error, program, "--quiet", "--exit-on-stdin-eof", NULL);
  if (process == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* It leaves with the app, which holds its standard input */
  if (AGENT_CHAT_IS_APPLICATION (app))
    agent_chat_application_keep_process (AGENT_CHAT_APPLICATION (app), process);
  output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  g_data_input_stream_read_line_async (output, G_PRIORITY_DEFAULT, cancellable, on_url,
                                       g_steal_pointer (&task));
}

/**
 * agent_chat_demo_start_finish:
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the demo server's base URL
 */
char *
agent_chat_demo_start_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The demo profiles of one address, dead at the start, and where they go */
typedef struct
{
  AgentProfileList *profiles;
  char             *dead_url;
} Revival;

static void
revival_free (Revival *revival)
{
  g_object_unref (revival->profiles);
  g_free (revival->dead_url);
  g_free (revival);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Revival, revival_free)

static void
on_revived (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Revival) revival = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = agent_chat_demo_start_finish (result, &error);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (revival->profiles));

  if (url == NULL)
    {
      g_warning ("The demo server did not start: %s", error->message);
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentProfile) profile = g_list_model_get_item (G_LIST_MODEL (revival->profiles),
                                                               i);

      if (agent_chat_demo_is_profile (profile) &&
          g_strcmp0 (agent_profile_get_base_url (profile), revival->dead_url) == 0)
        agent_profile_set_base_url (profile, url);
    }
  if (!agent_profile_list_save (revival->profiles, &error))
    g_warning ("The demo server's address could not be saved: %s", error->message);
}

/* Something answers at the address (a demo server started by hand, on a
 * port of its choice): kept. Nothing: the demo server of an earlier run of
 * the app, gone with it, started again. */
static void
on_probed (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Revival) revival = user_data;
  g_autoptr(GSocketConnection) connection = NULL;

  connection = g_socket_client_connect_to_uri_finish (G_SOCKET_CLIENT (object), result, NULL);
  if (connection != NULL)
    return;
  agent_chat_demo_start_async (NULL, on_revived, g_steal_pointer (&revival));
}

/**
 * agent_chat_demo_revive:
 * @profiles: the app's profiles
 *
 * When one of @profiles is the demo server's and nothing listens at its
 * address, starts the demo server and gives it to the demo profiles of that
 * address (saved in the file).
 */
void
agent_chat_demo_revive (AgentProfileList *profiles)
{
  guint n;

  g_return_if_fail (AGENT_IS_PROFILE_LIST (profiles));

  n = g_list_model_get_n_items (G_LIST_MODEL (profiles));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentProfile) profile = g_list_model_get_item (G_LIST_MODEL (profiles), i);
      g_autoptr(GSocketClient) client = NULL;
      Revival *revival;

      if (!agent_chat_demo_is_profile (profile))
        continue;
      revival = g_new0 (Revival, 1);
      revival->profiles = g_object_ref (profiles);
      revival->dead_url = g_strdup (agent_profile_get_base_url (profile));
      client = g_socket_client_new ();
      g_socket_client_connect_to_uri_async (client, revival->dead_url, 80, NULL, on_probed,
                                            revival);
      return;
    }
}
