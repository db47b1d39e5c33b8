/* bench-attachments.c — what an image costs the requests of a conversation
 *
 *   bench-attachments [--provider NAME] [--turns N] [--side PIXELS] [--store] [--no-scale]
 *
 * A conversation whose first message carries a photo-like PNG (random
 * pixels, SIDE × 3/4 SIDE: 1600 makes 5.7 MB, which no compression
 * shrinks), sent to a model server in this process, then N-1 follow-up
 * questions. For each turn it prints the bytes of the request and the
 * time from the step's start (prepare-step, just before the body is built)
 * to the server having read the whole body: building the request, and
 * carrying it over the loopback (the server's reading is in the same
 * process, its part the same for every build). The first turn also scales
 * the image, when the session does (scale-images, on a worker thread
 * before the step: the turn's total time says it). And the process's CPU
 * time over the follow-ups.
 *
 * With --store the conversation is kept in a SQLite store in a temporary
 * directory, and after the turns the store is opened again (a restart):
 * one more follow-up is measured on the conversation read back.
 * --no-scale turns scale-images off (a build without it sends images as
 * they are anyway). The same source builds against a libagent without
 * scale-images, to compare (bench/README.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <agent.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "bench-util.h"

static char *provider_name = NULL;
static int n_turns = 5;
static int side = 1600;
static gboolean use_store = FALSE;
static gboolean no_scale = FALSE;

typedef struct
{
  gint64  step_at;       /* prepare-step of the step being measured */
  gint64  read_at;       /* the server read its body */
  gsize   bytes;
  gboolean done;
} Turn;

static Turn turn;

/* The server: every request read whole, answered with a short text */

static const char *
answer_for (const char *name)
{
  if (g_str_equal (name, "anthropic"))
    return "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\","
           "\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n"
           "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
           "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
           "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
           "\"delta\":{\"type\":\"text_delta\",\"text\":\"A photo.\"}}\n\n"
           "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
           "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":"
           "{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":3}}\n\n"
           "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
  return "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":"
         "\"A photo.\"}}]}\n\n"
         "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
         "data: [DONE]\n\n";
}

static void
on_request_read (SoupServer        *server,
                 SoupServerMessage *message,
                 gpointer           user_data)
{
  turn.read_at = g_get_monotonic_time ();
  turn.bytes = soup_server_message_get_request_body (message)->length;
}

static void
handle_cb (SoupServer        *server,
           SoupServerMessage *message,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  const char *body = answer_for (user_data);

  soup_server_message_set_status (message, 200, NULL);
  soup_message_headers_set_content_type (soup_server_message_get_response_headers (message),
                                         "text/event-stream", NULL);
  soup_message_body_append (soup_server_message_get_response_body (message), SOUP_MEMORY_STATIC,
                            body, strlen (body));
}

/* The client */

static void
on_prepare_step (AgentSession     *session,
                 AgentStepRequest *request,
                 gpointer          user_data)
{
  turn.step_at = g_get_monotonic_time ();
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) answer = agent_session_send_finish (AGENT_SESSION (object), result,
                                                             &error);

  if (answer == NULL)
    g_error ("bench-attachments: %s", error->message);
  turn.done = TRUE;
}

static void
message_sent_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) answer = agent_session_send_message_finish (AGENT_SESSION (object),
                                                                     result, &error);

  if (answer == NULL)
    g_error ("bench-attachments: %s", error->message);
  turn.done = TRUE;
}

/* One turn (@message, or @text); its numbers printed */
static void
run_turn (AgentSession *session,
          AgentMessage *message,
          const char   *text,
          const char   *label)
{
  gint64 start = g_get_monotonic_time ();

  memset (&turn, 0, sizeof turn);
  if (message != NULL)
    agent_session_send_message_async (session, message, NULL, message_sent_cb, NULL);
  else
    agent_session_send_async (session, text, NULL, sent_cb, NULL);
  while (!turn.done)
    g_main_context_iteration (NULL, TRUE);
  printf ("%-28s request %9.1f kB   step to body read %8.2f ms   turn %8.2f ms\n", label,
          turn.bytes / 1e3, (turn.read_at - turn.step_at) / 1e3,
          (g_get_monotonic_time () - start) / 1e3);
}

/* Random pixels: a photo's worth of bytes that PNG cannot shrink */
static GBytes *
photo_new (int width,
           int height)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, width, height);
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autoptr(GError) error = NULL;
  guchar *pixels = gdk_pixbuf_get_pixels (pixbuf);
  gsize len = (gsize) gdk_pixbuf_get_rowstride (pixbuf) * height;
  char *buffer = NULL;
  gsize size;

  for (gsize i = 0; i < len; i++)
    pixels[i] = g_rand_int (rand) & 0xff;
  if (!gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &size, "png", &error, NULL))
    g_error ("bench-attachments: %s", error->message);
  return g_bytes_new_take (buffer, size);
}

static void
flushed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  agent_store_flush_finish (AGENT_STORE (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

static void
flush (AgentStore *store)
{
  gboolean flushed = FALSE;

  agent_store_flush_async (store, NULL, flushed_cb, &flushed);
  while (!flushed)
    g_main_context_iteration (NULL, TRUE);
}

static AgentSession *
session_new (AgentProvider *provider)
{
  AgentSession *session = agent_session_new (provider);

  if (no_scale && g_object_class_find_property (G_OBJECT_GET_CLASS (session), "scale-images"))
    g_object_set (session, "scale-images", FALSE, NULL);
  g_signal_connect (session, "prepare-step", G_CALLBACK (on_prepare_step), NULL);
  return session;
}

int
main (int   argc,
      char *argv[])
{
  const GOptionEntry entries[] = {
    { "provider", 0, 0, G_OPTION_ARG_STRING, &provider_name, "openai (default) or anthropic", "NAME" },
    { "turns", 0, 0, G_OPTION_ARG_INT, &n_turns, "Turns of the conversation (default 5)", "N" },
    { "side", 0, 0, G_OPTION_ARG_INT, &side, "The image's width (default 1600: 5.7 MB)", "PIXELS" },
    { "store", 0, 0, G_OPTION_ARG_NONE, &use_store, "Keep it in a store, and open it again", NULL },
    { "no-scale", 0, 0, G_OPTION_ARG_NONE, &no_scale, "scale-images off", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- an image in a conversation");
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GSList) uris = NULL;
  g_autofree char *url = NULL;
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentSession) session = NULL;
  g_autoptr(AgentStore) store = NULL;
  g_autoptr(AgentConversation) conversation = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(AgentContentPart) text = NULL;
  g_autoptr(AgentContentPart) image = NULL;
  g_autoptr(AgentMessage) first = NULL;
  g_autofree char *dir = NULL;
  AgentContentPart *parts[2];
  double cpu_start;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-attachments: %s\n", error->message);
      return 1;
    }
  if (provider_name == NULL)
    provider_name = g_strdup ("openai");

  if (!soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
    g_error ("%s", error->message);
  soup_server_add_handler (server, NULL, handle_cb, provider_name, NULL);
  g_signal_connect (server, "request-read", G_CALLBACK (on_request_read), NULL);
  uris = soup_server_get_uris (server);
  url = g_strdup_printf ("http://127.0.0.1:%d%s", g_uri_get_port (uris->data),
                         g_str_equal (provider_name, "openai") ? "/v1" : "");

  provider = agent_provider_new (provider_name, &error);
  if (provider == NULL)
    g_error ("%s", error->message);
  agent_provider_set_base_url (provider, url);
  agent_provider_set_api_key (provider, "bench");
  session = session_new (provider);

  if (use_store)
    {
      g_autofree char *path = NULL;

      dir = g_dir_make_tmp ("bench-attachments-XXXXXX", &error);
      path = g_build_filename (dir, "conversations.db", NULL);
      store = agent_store_new (path, &error);
      if (store == NULL)
        g_error ("%s", error->message);
      conversation = agent_store_create_conversation (store);
      agent_session_set_memory (session, AGENT_MEMORY (conversation));
    }

  png = photo_new (side, side * 3 / 4);
  printf ("bench-attachments: %s, a PNG of %d × %d (%.1f MB), %s, %s build\n", provider_name,
          side, side * 3 / 4, g_bytes_get_size (png) / 1e6,
          no_scale ? "scale-images off" : "scale-images as the build has it", BENCH_BUILDTYPE);
  text = agent_content_part_new_text ("What is in this photo?");
  image = agent_content_part_new_image ("image/png", png);
  parts[0] = text;
  parts[1] = image;
  first = agent_message_new_with_parts (AGENT_MESSAGE_ROLE_USER, parts, 2);

  run_turn (session, first, NULL, "turn 1 (the image)");
  cpu_start = bench_process_cputime ();
  for (int i = 2; i <= n_turns; i++)
    {
      g_autofree char *label = g_strdup_printf ("turn %d (a follow-up)", i);

      run_turn (session, NULL, "And what else?", label);
    }
  if (n_turns > 1)
    printf ("CPU over the %d follow-ups: %.2f ms a turn\n", n_turns - 1,
            (bench_process_cputime () - cpu_start) * 1e3 / (n_turns - 1));

  if (use_store)
    {
      g_autoptr(AgentStore) again = NULL;
      g_autoptr(AgentConversation) back = NULL;
      g_autoptr(AgentSession) later = NULL;
      g_autofree char *path = g_build_filename (dir, "conversations.db", NULL);
      gint64 id = agent_conversation_get_id (conversation);

      flush (store);
      again = agent_store_new (path, &error);
      back = agent_store_lookup_conversation (again, id);
      if (back == NULL || !agent_conversation_load (back, &error))
        g_error ("bench-attachments: the conversation was not read back");
      later = session_new (provider);
      agent_session_set_memory (later, AGENT_MEMORY (back));
      cpu_start = bench_process_cputime ();
      run_turn (later, NULL, "And after a restart?", "after a restart (a follow-up)");
      printf ("CPU of that turn: %.2f ms\n", (bench_process_cputime () - cpu_start) * 1e3);
      flush (again);
      agent_session_set_memory (session, NULL);
      g_clear_object (&conversation);
      g_clear_object (&back);
      g_clear_object (&later);
      g_clear_object (&again);
      flush (store);
      g_clear_object (&store);
      {
        g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
        const char *name;

        while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
          {
            g_autofree char *file = g_build_filename (dir, name, NULL);

            g_unlink (file);
          }
        g_rmdir (dir);
      }
    }

  g_free (provider_name);
  return 0;
}
