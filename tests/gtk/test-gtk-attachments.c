/* test-gtk-attachments.c — attachments in libagent-gtk's composer and chat
 * view, through their public API, in a host's window (agent-test-gtk.c)
 * against the in-process test server: an image pasted, files dropped
 * (the composer's drop target's drop) and pasted, each removable; sent as
 * the provider's parts (OpenAI: an image_url data URL); shown in the
 * conversation, bounded, whole in a viewer that Escape closes; a refusal
 * (a type the provider cannot take, one too large) gives the message back
 * to the composer; drafts per conversation, Edit and Resend. Runs under
 * Xvfb. (A real drag from another program: test-gui-attach-e2e.py.)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include <agent-gtk.h>

#include "agent-test-gtk.h"
#include "agent-test-openai.h"
#include "agent-test-util.h"

static gboolean
has_attachments (gpointer data)
{
  Fixture *fixture = data;

  return g_list_model_get_n_items (agent_gtk_composer_get_attachments (fixture->composer)) > 0;
}

static guint
n_attachments (Fixture *fixture)
{
  return g_list_model_get_n_items (agent_gtk_composer_get_attachments (fixture->composer));
}

/* A 6×4 PNG, red */
static GdkTexture *
new_texture (void)
{
  g_autoptr(GBytes) pixels = NULL;
  guchar data[6 * 4 * 4];

  for (guint i = 0; i < sizeof data; i += 4)
    {
      data[i] = 0xff;
      data[i + 1] = data[i + 2] = 0;
      data[i + 3] = 0xff;
    }
  pixels = g_bytes_new (data, sizeof data);
  return gdk_memory_texture_new (6, 4, GDK_MEMORY_R8G8B8A8, pixels, 6 * 4);
}

static guint
n_pictures (GtkWidget *widget)
{
  g_autoptr(GPtrArray) pictures = find_visible (widget, GTK_TYPE_PICTURE);
  guint n = 0;

  for (guint i = 0; i < pictures->len; i++)
    n += gtk_widget_is_visible (g_ptr_array_index (pictures, i));
  return n;
}

static void
click (GtkWidget *button)
{
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  iterate ();
}

/* An image pasted (Ctrl+V's paste, with an image on the clipboard) shows
 * as a thumbnail; Send sends it with the text as the provider's image part
 * (OpenAI: a data URL), the composer is emptied, and the conversation
 * shows the picture */
static void
test_attach_paste (Fixture       *fixture,
                   gconstpointer  data)
{
  const char *deltas[] = { "A red rectangle.", NULL };
  g_autoptr(GdkTexture) texture = new_texture ();
  g_autoptr(GPtrArray) text_views = find_visible (GTK_WIDGET (fixture->composer), GTK_TYPE_TEXT_VIEW);
  g_autofree char *text = NULL;
  JsonObject *message;
  JsonArray *content;
  JsonObject *image;

  gdk_clipboard_set_texture (gtk_widget_get_clipboard (fixture->window), texture);
  agent_gtk_composer_set_text (fixture->composer, "What is this?");
  g_assert_cmpuint (text_views->len, ==, 1);
  gtk_widget_activate_action (g_ptr_array_index (text_views, 0), "clipboard.paste", NULL);
  agent_test_wait_until (has_attachments, fixture);
  g_assert_cmpuint (n_attachments (fixture), ==, 1);
  g_assert_cmpuint (n_pictures (GTK_WIDGET (fixture->composer)), ==, 1);
  g_assert_nonnull (find_button (GTK_WIDGET (fixture->composer), "Remove Image"));
  /* The text was not pasted over: the clipboard held no text */
  text = agent_gtk_composer_dup_text (fixture->composer);
  g_assert_cmpstr (text, ==, "What is this?");

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  click (find_button (GTK_WIDGET (fixture->composer), "Send"));
  agent_test_wait_until (view_idle, fixture);
  wait_until_shown (GTK_WIDGET (fixture->view), "A red rectangle.");
  g_assert_no_error (fixture->finished_error);
  g_assert_cmpuint (n_attachments (fixture), ==, 0);

  message = agent_test_openai_get_message (fixture->server, 0, 0);
  g_assert_cmpstr (json_object_get_string_member (message, "role"), ==, "user");
  content = json_object_get_array_member (message, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (content, 0),
                                                  "text"), ==, "What is this?");
  image = json_array_get_object_element (content, 1);
  g_assert_cmpstr (json_object_get_string_member (image, "type"), ==, "image_url");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (
                   json_object_get_object_member (image, "image_url"), "url"),
                   "data:image/png;base64,iVBOR"));

  /* The conversation shows it, and the composer none */
  g_assert_cmpuint (n_pictures (GTK_WIDGET (fixture->view)), ==, 1);
  g_assert_cmpuint (n_pictures (GTK_WIDGET (fixture->composer)), ==, 0);
  g_assert_nonnull (find_button (GTK_WIDGET (fixture->view), "Image"));
}

/* Files dropped on the composer (its drop target's drop, with a list of
 * real files) are read: an image as a thumbnail, a text file as a chip
 * with its name and size; the remove buttons take them off */
static void
test_attach_drop (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GdkTexture) texture = new_texture ();
  g_autofree char *dir = g_dir_make_tmp ("agent-gtk-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "red.png", NULL);
  g_autofree char *txt = g_build_filename (dir, "notes.txt", NULL);
  g_autoptr(GFile) png_file = g_file_new_for_path (png);
  g_autoptr(GFile) txt_file = g_file_new_for_path (txt);
  GSList *files = NULL;
  GValue value = G_VALUE_INIT;
  GtkEventController *drop = NULL;
  g_autoptr(GListModel) controllers = NULL;
  gboolean dropped = FALSE;
  g_autofree char *text = NULL;

  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_assert_true (g_file_set_contents (txt, "Some notes, 26 bytes long.", -1, NULL));
  controllers = gtk_widget_observe_controllers (GTK_WIDGET (fixture->composer));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        drop = controller;
    }
  g_assert_nonnull (drop);
  files = g_slist_append (g_slist_append (NULL, g_object_ref (png_file)), g_object_ref (txt_file));
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, files);
  g_signal_emit_by_name (drop, "drop", &value, 10.0, 10.0, &dropped);
  g_value_unset (&value);
  g_assert_true (dropped);
  agent_test_wait_until (has_attachments, fixture);
  g_assert_cmpuint (n_attachments (fixture), ==, 2);
  text = shown_text (GTK_WIDGET (fixture->composer));
  g_assert_nonnull (strstr (text, "notes.txt\n26 bytes"));
  g_assert_cmpuint (n_pictures (GTK_WIDGET (fixture->composer)), ==, 1);

  click (find_button (GTK_WIDGET (fixture->composer), "Remove notes.txt"));
  g_assert_cmpuint (n_attachments (fixture), ==, 1);
  g_clear_pointer (&text, g_free);
  text = shown_text (GTK_WIDGET (fixture->composer));
  g_assert_null (strstr (text, "notes.txt"));
  click (find_button (GTK_WIDGET (fixture->composer), "Remove red.png"));
  g_assert_cmpuint (n_attachments (fixture), ==, 0);
  g_assert_cmpuint (n_pictures (GTK_WIDGET (fixture->composer)), ==, 0);

  /* Files copied (as a file manager offers them: as text too) are pasted
   * as attachments, not as their names */
  {
    g_autoptr(GPtrArray) text_views = find_visible (GTK_WIDGET (fixture->composer),
                                                GTK_TYPE_TEXT_VIEW);
    GdkContentProvider *providers[2];
    g_autoptr(GdkContentProvider) provider = NULL;

    g_value_init (&value, GDK_TYPE_FILE_LIST);
    g_value_take_boxed (&value, g_slist_append (NULL, g_object_ref (txt_file)));
    providers[0] = gdk_content_provider_new_for_value (&value);
    providers[1] = gdk_content_provider_new_typed (G_TYPE_STRING, txt);
    g_value_unset (&value);
    provider = gdk_content_provider_new_union (providers, 2);
    gdk_clipboard_set_content (gtk_widget_get_clipboard (fixture->window), provider);
    agent_gtk_composer_set_text (fixture->composer, "Read these");
    gtk_widget_activate_action (g_ptr_array_index (text_views, 0), "clipboard.paste", NULL);
    agent_test_wait_until (has_attachments, fixture);
    /* (long enough for a paste of the text to have come, were there one) */
    for (guint i = 0; i < 20; i++)
      {
        g_usleep (10000);
        iterate ();
      }
    g_clear_pointer (&text, g_free);
    text = agent_gtk_composer_dup_text (fixture->composer);
    g_assert_cmpstr (text, ==, "Read these");
    g_assert_cmpuint (n_attachments (fixture), ==, 1);
  }

  g_unlink (png);
  g_unlink (txt);
  g_rmdir (dir);
}

static guint
n_toplevels (void)
{
  return g_list_model_get_n_items (gtk_window_get_toplevels ());
}

/* A large image shows bounded in the conversation (at most 240 px wide, its
 * aspect kept: it never widens the window); clicking it shows it whole in a
 * window of its own, which Escape closes */
static void
test_attach_picture (Fixture       *fixture,
                     gconstpointer  data)
{
  const char *deltas[] = { "A wide image.", NULL };
  g_autoptr(GBytes) pixels = g_bytes_new_take (g_malloc0 (1800 * 600 * 4), 1800 * 600 * 4);
  g_autoptr(GdkTexture) texture = gdk_memory_texture_new (1800, 600, GDK_MEMORY_R8G8B8A8, pixels,
                                                          1800 * 4);
  g_autoptr(GBytes) png = gdk_texture_save_to_png_bytes (texture);
  g_autoptr(AgentContentPart) part = agent_content_part_new_image ("image/png", png);
  g_autoptr(GPtrArray) pictures = NULL;
  GtkWidget *picture;
  GtkWidget *viewer = NULL;
  guint n_windows;
  int minimum, natural;

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_gtk_composer_add_attachment (fixture->composer, part);
  click (find_button (GTK_WIDGET (fixture->composer), "Send"));
  agent_test_wait_until (view_idle, fixture);
  wait_until_shown (GTK_WIDGET (fixture->view), "A wide image.");

  pictures = find_visible (GTK_WIDGET (fixture->view), GTK_TYPE_PICTURE);
  g_assert_cmpuint (pictures->len, ==, 1);
  picture = g_ptr_array_index (pictures, 0);
  gtk_widget_measure (picture, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  g_assert_cmpint (natural, <=, 240);
  g_assert_cmpint (minimum, <=, 240);
  gtk_widget_measure (picture, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, NULL, NULL);
  g_assert_cmpint (natural, ==, 80);

  n_windows = n_toplevels ();
  click (gtk_widget_get_parent (picture));
  g_assert_cmpuint (n_toplevels (), ==, n_windows + 1);
  for (guint i = 0; i < n_toplevels (); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (gtk_window_get_toplevels (), i);

      if (window != fixture->window)
        viewer = window;
    }
  g_assert_nonnull (viewer);
  g_clear_pointer (&pictures, g_ptr_array_unref);
  pictures = find_visible (viewer, GTK_TYPE_PICTURE);
  g_assert_cmpuint (pictures->len, ==, 1);
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (
                     gtk_picture_get_paintable (g_ptr_array_index (pictures, 0))), ==, 1800);

  /* Escape: its shortcut, as the key would trigger it */
  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (viewer);
    gboolean closed = FALSE;

    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

        if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
          continue;
        for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
          {
            g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
            GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
            g_autofree char *keys = gtk_shortcut_trigger_to_string (trigger);

            if (g_str_equal (keys, "Escape"))
              closed = gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, viewer,
                                                     NULL);
          }
      }
    g_assert_true (closed);
  }
  iterate ();
  g_assert_cmpuint (n_toplevels (), ==, n_windows);
}

/* The attachments are the conversation's draft: another conversation shown
 * has its own (none), and they come back with it; Edit and Resend puts a
 * message's attachments in the composer with its text, Cancel takes them
 * off */
static void
test_attach_draft_and_edit (Fixture       *fixture,
                            gconstpointer  data)
{
  const char *deltas[] = { "Noted.", NULL };
  g_autoptr(GBytes) bytes = g_bytes_new_static ("Day 1: Paris\n", 13);
  g_autoptr(AgentContentPart) part = agent_content_part_new_file ("text/plain", bytes,
                                                                  "itinerary.txt");
  AgentMemory *first = agent_session_get_memory (fixture->session);
  g_autoptr(AgentMemory) other = agent_simple_memory_new ();
  g_autoptr(AgentMessage) sent = NULL;

  g_object_ref (first);
  agent_gtk_composer_add_attachment (fixture->composer, part);
  agent_session_set_memory (fixture->session, other);
  iterate ();
  g_assert_cmpuint (n_attachments (fixture), ==, 0);
  agent_session_set_memory (fixture->session, first);
  iterate ();
  g_assert_cmpuint (n_attachments (fixture), ==, 1);

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_gtk_composer_set_text (fixture->composer, "My plans");
  click (find_button (GTK_WIDGET (fixture->composer), "Send"));
  agent_test_wait_until (view_idle, fixture);
  g_assert_cmpuint (n_attachments (fixture), ==, 0);
  sent = g_list_model_get_item (G_LIST_MODEL (first), 0);
  g_assert_cmpuint (agent_message_get_n_attachments (sent), ==, 1);

  agent_gtk_chat_view_edit (fixture->view, sent);
  g_assert_cmpuint (n_attachments (fixture), ==, 1);
  agent_gtk_chat_view_cancel_edit (fixture->view);
  g_assert_cmpuint (n_attachments (fixture), ==, 0);
  g_object_unref (first);
}

static gboolean
finished_twice (gpointer data)
{
  Fixture *fixture = data;

  return fixture->n_finished == 2;
}

/* A Regenerate that fails for an attachment already in the conversation
 * (the limit lowered since) cuts nothing and gives nothing back: only a
 * message just sent goes back to the composer */
static void
test_attach_regenerate_refused (Fixture       *fixture,
                                gconstpointer  data)
{
  const char *deltas[] = { "A red rectangle.", NULL };
  g_autoptr(GdkTexture) texture = new_texture ();
  g_autoptr(GBytes) png = gdk_texture_save_to_png_bytes (texture);
  g_autoptr(AgentContentPart) part = agent_content_part_new_image ("image/png", png);
  GListModel *memory = G_LIST_MODEL (agent_session_get_memory (fixture->session));
  g_autoptr(AgentMessage) answer = NULL;
  g_autofree char *text = NULL;

  agent_test_openai_add_text_response (fixture->server, deltas, 1, 1);
  agent_gtk_composer_set_text (fixture->composer, "What is this?");
  agent_gtk_composer_add_attachment (fixture->composer, part);
  click (find_button (GTK_WIDGET (fixture->composer), "Send"));
  agent_test_wait_until (view_idle, fixture);
  g_assert_no_error (fixture->finished_error);
  g_assert_cmpuint (g_list_model_get_n_items (memory), ==, 2);

  g_object_set (fixture->session, "max-attachment-size", (guint64) 10, NULL);
  answer = g_list_model_get_item (memory, 1);
  agent_gtk_chat_view_regenerate (fixture->view, answer);
  agent_test_wait_until (finished_twice, fixture);
  g_assert_error (fixture->finished_error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_assert_cmpuint (g_list_model_get_n_items (memory), >=, 1);
  g_assert_cmpuint (n_attachments (fixture), ==, 0);
  text = agent_gtk_composer_dup_text (fixture->composer);
  g_assert_cmpstr (text, ==, "");
}

static void
on_attachment_error (AgentGtkComposer *composer,
                     const GError     *error,
                     GError          **out)
{
  g_clear_error (out);
  *out = g_error_copy (error);
}

static gboolean
error_set (gpointer data)
{
  return *(GError **) data != NULL;
}

/* A file that cannot be read is refused, named */
static void
test_attach_unreadable (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/secret-plans.pdf");
  g_autoptr(GError) error = NULL;

  g_signal_connect (fixture->composer, "attachment-error", G_CALLBACK (on_attachment_error),
                    &error);
  agent_gtk_composer_attach_files (fixture->composer, &file, 1);
  agent_test_wait_until (error_set, &error);
  g_assert_nonnull (strstr (error->message, "secret-plans.pdf"));
  g_assert_cmpuint (n_attachments (fixture), ==, 0);
}

/* A file larger than the session sends is refused before it is read, named
 * with its size: the chat view gives the composer the session's limit */
static void
test_attach_over_limit (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("agent-gtk-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "big.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, "more than ten bytes", -1, NULL));
  g_object_set (fixture->session, "max-attachment-size", (guint64) 10, NULL);
  g_assert_cmpuint (agent_gtk_composer_get_max_attachment_size (fixture->composer), ==, 10);
  g_signal_connect (fixture->composer, "attachment-error", G_CALLBACK (on_attachment_error),
                    &error);
  agent_gtk_composer_attach_files (fixture->composer, &file, 1);
  agent_test_wait_until (error_set, &error);
  g_assert_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "big.txt"));
  g_assert_nonnull (strstr (error->message, "19 bytes"));
  g_assert_cmpuint (n_attachments (fixture), ==, 0);

  /* Under the limit again: attached */
  g_object_set (fixture->session, "max-attachment-size", (guint64) 0, NULL);
  agent_gtk_composer_attach_files (fixture->composer, &file, 1);
  agent_test_wait_until (has_attachments, fixture);
  g_unlink (path);
  g_rmdir (dir);
}

/* An attachment the provider cannot take (OpenAI: a ZIP), or one too large
 * for the session: the turn fails before anything is sent, the error says
 * why, and the composer keeps the text and the attachment */
static void
test_attach_refused (Fixture       *fixture,
                     gconstpointer  data)
{
  gboolean too_large = GPOINTER_TO_INT (data);
  g_autoptr(GBytes) bytes = g_bytes_new_static ("PK\3\4 not really a zip", 21);
  g_autoptr(AgentContentPart) part = agent_content_part_new_file ("application/zip", bytes,
                                                                  "archive.zip");
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;

  if (too_large)
    {
      g_object_set (fixture->session, "max-attachment-size", (guint64) 10, NULL);
      g_clear_object (&part);
      part = agent_content_part_new_file ("text/plain", bytes, "archive.txt");
    }
  agent_gtk_composer_set_text (fixture->composer, "Unpack this");
  agent_gtk_composer_add_attachment (fixture->composer, part);
  iterate ();
  click (find_button (GTK_WIDGET (fixture->composer), "Send"));
  agent_test_wait_until (view_idle, fixture);

  g_assert_error (fixture->finished_error, AGENT_ERROR,
                  (int) (too_large ? AGENT_ERROR_LIMIT : AGENT_ERROR_INVALID_ARGUMENT));
  g_assert_cmpuint (agent_test_server_get_n_requests (fixture->server), ==, 0);
  if (!too_large)
    {
      g_assert_nonnull (strstr (fixture->finished_error->message, "OpenAI"));
      g_assert_nonnull (strstr (fixture->finished_error->message, "application/zip"));
    }
  wait_until_shown (GTK_WIDGET (fixture->view), fixture->finished_error->message);
  /* The conversation stays as it was: the message is in the composer only */
  shown = shown_text (GTK_WIDGET (fixture->view));
  g_assert_null (strstr (shown, "Unpack this"));
  g_clear_pointer (&shown, g_free);
  text = agent_gtk_composer_dup_text (fixture->composer);
  g_assert_cmpstr (text, ==, "Unpack this");
  g_assert_cmpuint (n_attachments (fixture), ==, 1);
  shown = shown_text (GTK_WIDGET (fixture->composer));
  g_assert_nonnull (strstr (shown, too_large ? "archive.txt" : "archive.zip"));
}

int
main (int   argc,
      char *argv[])
{
  agent_test_gtk_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/gtk/composer/attach-paste", test_attach_paste);
  ADD ("/gtk/composer/attach-drop", test_attach_drop);
  ADD ("/gtk/composer/attach-unreadable", test_attach_unreadable);
  ADD ("/gtk/composer/attach-over-limit", test_attach_over_limit);
  ADD ("/gtk/chat-view/attach-picture", test_attach_picture);
  ADD ("/gtk/chat-view/attach-draft-and-edit", test_attach_draft_and_edit);
  ADD ("/gtk/chat-view/attach-regenerate-refused", test_attach_regenerate_refused);
#undef ADD
  g_test_add ("/gtk/composer/attach-refused", Fixture, GINT_TO_POINTER (FALSE), fixture_set_up,
              test_attach_refused, fixture_tear_down);
  g_test_add ("/gtk/composer/attach-too-large", Fixture, GINT_TO_POINTER (TRUE), fixture_set_up,
              test_attach_refused, fixture_tear_down);

  return g_test_run ();
}
