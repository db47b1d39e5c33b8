/* agent-gtk-composer-prompts.c
 *
 * "/" commands: the prompts of the composer's MCP servers. "/" at the start
 * of a message (of one line) opens a popover above the text that lists
 * the connected servers' prompts (name, title, description, server),
 * filtered as the name is typed; Up and Down move, Enter or Tab pick,
 * Escape closes it (until the text changes). After the name, it lists the
 * prompt's arguments not given yet (required ones marked, with their
 * descriptions): picking one writes "name=", its value follows; a value
 * with spaces is quoted ("city="New York"").
 *
 * Sending "/name arg=value…" gets the prompt from its server
 * (agent_mcp_client_get_prompt_async()) and sends its messages as the
 * user's message, as agent-cli --mcp-prompt does: their text as the text,
 * their images and documents as attachments. A prompt no server has, or
 * one the server refuses, is ::prompt-error, and the text stays. Only a
 * first word that can be a prompt's name ("/" then letters, digits and
 * "_-.:") is a command; "//" sends a text that starts with "/".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-gtk-composer-private.h"

typedef struct
{
  AgentMcpClient *client;
  AgentMcpPrompt *prompt;
  char           *argument;  /* NULL for the prompt itself */
} Choice;

static void
choice_free (Choice *choice)
{
  g_clear_object (&choice->client);
  g_clear_object (&choice->prompt);
  g_free (choice->argument);
  g_free (choice);
}

/* Listing the servers' prompts */

static void
on_prompts_listed (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(AgentGtkComposer) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) prompts = NULL;

  prompts = agent_mcp_client_list_prompts_finish (AGENT_MCP_CLIENT (object), result, &error);
  if (prompts == NULL || self->prompts == NULL)
    {
      if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("The prompts of the MCP server “%s” could not be listed: %s",
                 agent_mcp_client_get_name (AGENT_MCP_CLIENT (object)), error->message);
      return;
    }
  g_hash_table_insert (self->prompts, g_object_ref (object), g_steal_pointer (&prompts));
}

/* The servers changed, or one's state or prompts: lists them again */
void
_agent_gtk_composer_update_prompts (AgentGtkComposer *self)
{
  guint n = self->mcp_servers ? g_list_model_get_n_items (self->mcp_servers) : 0;

  if (self->prompts == NULL)
    return;
  g_cancellable_cancel (self->mcp_cancellable);
  g_clear_object (&self->mcp_cancellable);
  self->mcp_cancellable = g_cancellable_new ();
  g_hash_table_remove_all (self->prompts);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMcpClient) client = g_list_model_get_item (self->mcp_servers, i);

      if (!_agent_gtk_composer_server_offers (client, "prompts"))
        continue;
      agent_mcp_client_list_prompts_async (client, self->mcp_cancellable, on_prompts_listed,
                                           g_object_ref (self));
    }
}

/* Whether @c may be in a prompt's name as "/" commands take it */
static gboolean
is_name_char (gunichar c)
{
  return g_unichar_isalnum (c) || c == '_' || c == '-' || c == '.' || c == ':';
}

/* The prompt @name (or "server:name") of a connected server, or NULL */
static AgentMcpPrompt *
lookup_prompt (AgentGtkComposer  *self,
               const char        *name,
               AgentMcpClient   **client)
{
  const char *colon = strchr (name, ':');
  GHashTableIter iter;
  gpointer key, value;

  for (int pass = 0; pass < 2; pass++)
    {
      g_hash_table_iter_init (&iter, self->prompts);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          const char *wanted = name;

          if (pass == 1)
            {
              const char *server = agent_mcp_client_get_name (key);

              if (colon == NULL || strlen (server) != (gsize) (colon - name) ||
                  strncmp (server, name, colon - name) != 0)
                continue;
              wanted = colon + 1;
            }
          for (guint i = 0; i < g_list_model_get_n_items (value); i++)
            {
              g_autoptr(AgentMcpPrompt) prompt = g_list_model_get_item (value, i);

              if (g_str_equal (agent_mcp_prompt_get_name (prompt), wanted))
                {
                  *client = key;
                  return prompt;  /* the list holds it */
                }
            }
        }
    }
  return NULL;
}

/* The popover */

static void
hide_popover (AgentGtkComposer *self)
{
  if (self->prompt_popover != NULL && gtk_widget_get_visible (self->prompt_popover))
    gtk_popover_popdown (GTK_POPOVER (self->prompt_popover));
}

static GtkWidget *
new_row (const char *title,
         const char *subtitle,
         const char *suffix)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (title);
  g_autofree char *name = NULL;

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (top), label);
  if (suffix != NULL)
    {
      GtkWidget *tag = gtk_label_new (suffix);

      gtk_widget_add_css_class (tag, "caption");
      gtk_widget_add_css_class (tag, "dim-label");
      gtk_box_append (GTK_BOX (top), tag);
    }
  gtk_box_append (GTK_BOX (box), top);
  if (subtitle != NULL && *subtitle != '\0')
    {
      GtkWidget *caption = gtk_label_new (subtitle);

      gtk_label_set_xalign (GTK_LABEL (caption), 0);
      gtk_label_set_wrap (GTK_LABEL (caption), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (caption), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_max_width_chars (GTK_LABEL (caption), 40);
      gtk_label_set_lines (GTK_LABEL (caption), 2);
      gtk_label_set_ellipsize (GTK_LABEL (caption), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (caption, "caption");
      gtk_widget_add_css_class (caption, "dim-label");
      gtk_box_append (GTK_BOX (box), caption);
    }
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  name = suffix ? g_strdup_printf ("%s (%s)", title, suffix) : g_strdup (title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle ? subtitle : "",
                                  -1);
  return row;
}

static void
clear_rows (AgentGtkComposer *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->prompt_list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->prompt_list), child);
  g_ptr_array_set_size (self->prompt_choices, 0);
}

static void
add_choice (AgentGtkComposer *self,
            AgentMcpClient   *client,
            AgentMcpPrompt   *prompt,
            const char       *argument)
{
  Choice *choice = g_new0 (Choice, 1);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  const char *suffix;

  choice->client = g_object_ref (client);
  choice->prompt = g_object_ref (prompt);
  choice->argument = g_strdup (argument);
  g_ptr_array_add (self->prompt_choices, choice);

  if (argument == NULL)
    {
      const char *prompt_title = agent_mcp_prompt_get_title (prompt);
      const char *description = agent_mcp_prompt_get_description (prompt);

      title = prompt_title ? g_strdup_printf ("/%s — %s", agent_mcp_prompt_get_name (prompt),
                                              prompt_title)
                           : g_strdup_printf ("/%s", agent_mcp_prompt_get_name (prompt));
      subtitle = g_strdup (description);
      suffix = agent_mcp_client_get_name (client);
    }
  else
    {
      title = g_strdup_printf ("%s=", argument);
      subtitle = g_strdup (agent_mcp_prompt_get_argument_description (prompt, argument));
      suffix = agent_mcp_prompt_get_argument_required (prompt, argument) ? _("required")
                                                                        : _("optional");
    }
  gtk_list_box_append (GTK_LIST_BOX (self->prompt_list), new_row (title, subtitle, suffix));
}

/* What is typed: the whole text, when it is one line that starts with "/"
 * and a name; NULL else */
static char *
dup_command (AgentGtkComposer *self)
{
  g_autofree char *text = agent_gtk_composer_dup_text (self);

  if (text[0] != '/' || text[1] == '/' || strchr (text, '\n') != NULL)
    return NULL;
  for (const char *p = text + 1; *p != '\0' && *p != ' '; p = g_utf8_next_char (p))
    if (!is_name_char (g_utf8_get_char (p)))
      return NULL;
  return g_steal_pointer (&text);
}

/* The words after the name, split as a shell would (a word being typed
 * with an open quote taken as it is) */
static char **
split_arguments (const char *rest)
{
  char **argv = NULL;

  while (*rest == ' ')
    rest++;
  if (*rest == '\0')
    return g_new0 (char *, 1);
  if (!g_shell_parse_argv (rest, NULL, &argv, NULL))
    argv = g_strsplit_set (rest, " ", -1);
  return argv;
}

static void
update_popover (AgentGtkComposer *self)
{
  g_autofree char *command = dup_command (self);
  g_autofree char *prefix = NULL;
  GtkListBoxRow *first;
  graphene_rect_t bounds;
  gboolean select_first = TRUE;
  const char *space;

  if (self->prompts == NULL)
    return;
  if (command == NULL || self->prompt_dismissed || g_hash_table_size (self->prompts) == 0)
    {
      hide_popover (self);
      return;
    }
  clear_rows (self);
  space = strchr (command, ' ');
  if (space == NULL)
    {
      GHashTableIter iter;
      gpointer key, value;

      prefix = g_utf8_casefold (command + 1, -1);
      g_hash_table_iter_init (&iter, self->prompts);
      while (g_hash_table_iter_next (&iter, &key, &value))
        for (guint i = 0; i < g_list_model_get_n_items (value); i++)
          {
            g_autoptr(AgentMcpPrompt) prompt = g_list_model_get_item (value, i);
            g_autofree char *name = g_utf8_casefold (agent_mcp_prompt_get_name (prompt), -1);
            const char *title = agent_mcp_prompt_get_title (prompt);
            g_autofree char *folded = title ? g_utf8_casefold (title, -1) : NULL;

            if (strstr (name, prefix) != NULL || (folded && strstr (folded, prefix) != NULL))
              add_choice (self, key, prompt, NULL);
          }
    }
  else
    {
      g_autofree char *name = g_strndup (command + 1, space - command - 1);
      g_auto(GStrv) words = split_arguments (space + 1);
      const char *last = NULL;
      AgentMcpClient *client = NULL;
      AgentMcpPrompt *prompt = lookup_prompt (self, name, &client);
      const char * const *arguments;
      gboolean missing = FALSE;
      gsize len = strlen (command);

      if (prompt == NULL)
        {
          hide_popover (self);
          return;
        }
      /* The word being typed: a value (after "=") closes the popover */
      if (command[len - 1] != ' ' && words[0] != NULL)
        last = words[g_strv_length (words) - 1];
      if (last != NULL && strchr (last, '=') != NULL)
        {
          hide_popover (self);
          return;
        }
      arguments = agent_mcp_prompt_get_argument_names (prompt);
      for (guint i = 0; arguments != NULL && arguments[i] != NULL; i++)
        {
          g_autofree char *given = g_strdup_printf ("%s=", arguments[i]);
          gboolean found = FALSE;

          for (guint j = 0; words[j] != NULL; j++)
            found |= g_str_has_prefix (words[j], given);
          if (found)
            continue;
          missing |= agent_mcp_prompt_get_argument_required (prompt, arguments[i]);
          if (last == NULL || g_str_has_prefix (arguments[i], last))
            add_choice (self, client, prompt, arguments[i]);
        }
      /* Enter picks only a name being typed or an argument still wanted:
       * else it sends */
      select_first = last != NULL || missing;
    }

  if (self->prompt_choices->len == 0)
    {
      hide_popover (self);
      return;
    }
  first = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->prompt_list), 0);
  if (select_first)
    gtk_list_box_select_row (GTK_LIST_BOX (self->prompt_list), first);
  else
    gtk_list_box_unselect_all (GTK_LIST_BOX (self->prompt_list));
  /* Above the start of the text */
  if (gtk_widget_compute_bounds (self->scroller, GTK_WIDGET (self), &bounds))
    {
      GdkRectangle rect = { bounds.origin.x, bounds.origin.y, MIN (bounds.size.width, 24), 1 };

      gtk_popover_set_pointing_to (GTK_POPOVER (self->prompt_popover), &rect);
    }
  if (!gtk_widget_get_visible (self->prompt_popover))
    gtk_popover_popup (GTK_POPOVER (self->prompt_popover));
  else
    gtk_popover_present (GTK_POPOVER (self->prompt_popover));
}

/* Writes the choice of @row into the text */
static void
pick (AgentGtkComposer *self,
      GtkListBoxRow    *row)
{
  Choice *choice = g_ptr_array_index (self->prompt_choices, gtk_list_box_row_get_index (row));
  g_autofree char *command = dup_command (self);
  g_autofree char *text = NULL;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));

  if (command == NULL)
    return;
  if (choice->argument == NULL)
    text = g_strdup_printf ("/%s ", agent_mcp_prompt_get_name (choice->prompt));
  else
    {
      gsize len = strlen (command);
      char *start = command + len;

      /* Replaces the word being typed (if any) */
      while (start > command && start[-1] != ' ')
        start--;
      *start = '\0';
      text = g_strdup_printf ("%s%s=", command, choice->argument);
    }
  gtk_text_buffer_set_text (buffer, text, -1);
}

static void
on_row_activated (AgentGtkComposer *self,
                  GtkListBoxRow    *row)
{
  pick (self, row);
  gtk_widget_grab_focus (self->text_view);
}

/* Keys in the text while the popover shows: Up, Down, Enter, Tab, Escape */
gboolean
_agent_gtk_composer_prompt_key (AgentGtkComposer *self,
                                guint             keyval,
                                GdkModifierType   state)
{
  GtkListBoxRow *selected;
  int index;

  if (self->prompt_popover == NULL || !gtk_widget_get_visible (self->prompt_popover) ||
      (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)) != 0)
    return FALSE;
  selected = gtk_list_box_get_selected_row (GTK_LIST_BOX (self->prompt_list));
  index = selected ? gtk_list_box_row_get_index (selected) : -1;
  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      {
        int n = self->prompt_choices->len;
        gboolean down = keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down;
        GtkListBoxRow *row;

        index = index < 0 ? (down ? 0 : n - 1) : (index + (down ? 1 : n - 1)) % n;
        row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->prompt_list), index);
        gtk_list_box_select_row (GTK_LIST_BOX (self->prompt_list), row);
        gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_SELECTED, TRUE,
                                     -1);
        /* Scrolled into view */
        gtk_widget_grab_focus (GTK_WIDGET (row));
        gtk_widget_grab_focus (self->text_view);
        return TRUE;
      }
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
    case GDK_KEY_Tab:
    case GDK_KEY_KP_Tab:
      if (selected == NULL)
        return FALSE;
      pick (self, selected);
      return TRUE;
    case GDK_KEY_Escape:
      self->prompt_dismissed = TRUE;
      hide_popover (self);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
on_text_changed (AgentGtkComposer *self)
{
  self->prompt_dismissed = FALSE;
  update_popover (self);
}

/* Sending */

static void
prompt_error (AgentGtkComposer *self,
              GError           *error)
{
  g_signal_emit_by_name (self, "prompt-error", error);
}

static void
on_prompt_got (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(AgentGtkComposer) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) messages = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *name = NULL;

  messages = agent_mcp_client_get_prompt_finish (AGENT_MCP_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->attachments == NULL)
    return;
  self->prompt_getting = FALSE;
  name = g_steal_pointer (&self->prompt_name);
  agent_gtk_composer_set_status (self, NULL);
  if (messages == NULL)
    {
      g_autoptr(GError) named = NULL;

      named = g_error_new (error->domain, error->code,
                           /* Translators: %s is a prompt's name, then an MCP server's, then
                            * why */
                           _("Could not get the prompt “%s” from “%s”: %s"),
                           name ? name : "", agent_mcp_client_get_name (AGENT_MCP_CLIENT (object)),
                           error->message);
      prompt_error (self, named);
      return;
    }

  /* Its messages' text is the text, their images and documents go with it */
  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (messages, i);
      g_autoptr(GListModel) parts = agent_message_list_parts (message);

      for (guint j = 0; j < g_list_model_get_n_items (parts); j++)
        {
          g_autoptr(AgentContentPart) part = g_list_model_get_item (parts, j);

          if (agent_content_part_get_kind (part) != AGENT_CONTENT_PART_KIND_TEXT)
            agent_gtk_composer_add_attachment (self, part);
          else if (agent_content_part_get_text (part) != NULL)
            {
              if (text->len > 0)
                g_string_append (text, "\n\n");
              g_string_append (text, agent_content_part_get_text (part));
            }
        }
    }
  _agent_gtk_composer_send (self, text->str);
}

/* Sends @text as a "/" command if it is one: TRUE when it was (or failed
 * as one), FALSE when it is text to send as it is */
gboolean
_agent_gtk_composer_send_prompt (AgentGtkComposer *self,
                                 const char       *text)
{
  g_autoptr(GHashTable) arguments = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *status = NULL;
  g_auto(GStrv) words = NULL;
  AgentMcpClient *client = NULL;
  AgentMcpPrompt *prompt;
  const char *end;

  if (text[0] != '/' || self->mcp_servers == NULL ||
      g_list_model_get_n_items (self->mcp_servers) == 0)
    return FALSE;
  if (text[1] == '/')
    {
      _agent_gtk_composer_send (self, text + 1);
      return TRUE;
    }
  for (end = text + 1; *end != '\0' && !g_unichar_isspace (g_utf8_get_char (end));
       end = g_utf8_next_char (end))
    if (!is_name_char (g_utf8_get_char (end)))
      return FALSE;
  if (end == text + 1)
    return FALSE;

  hide_popover (self);
  name = g_strndup (text + 1, end - text - 1);
  prompt = lookup_prompt (self, name, &client);
  if (prompt == NULL)
    {
      error = g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           /* Translators: %s is what follows "/" in the message, a
                            * name no connected tool server has a prompt of (short: a
                            * toast shows it) */
                           _("Unknown prompt “/%s”"), name);
      prompt_error (self, error);
      return TRUE;
    }

  arguments = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (*end != '\0' && !g_shell_parse_argv (end, NULL, &words, &error) &&
      !g_error_matches (error, G_SHELL_ERROR, G_SHELL_ERROR_EMPTY_STRING))
    {
      g_autoptr(GError) named = g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                                             _("The arguments of “/%s” cannot be read: %s"),
                                             name, error->message);
      prompt_error (self, named);
      return TRUE;
    }
  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    {
      const char *equals = strchr (words[i], '=');

      if (equals == NULL || equals == words[i])
        {
          g_autoptr(GError) named = NULL;

          named = g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               /* Translators: the first %s is a prompt's name, the second
                                * what was written after it */
                               _("The arguments of “/%s” are written name=value, not “%s”"),
                               name, words[i]);
          prompt_error (self, named);
          return TRUE;
        }
      g_hash_table_insert (arguments, g_strndup (words[i], equals - words[i]),
                           g_strdup (equals + 1));
    }

  self->prompt_getting = TRUE;
  g_free (self->prompt_name);
  self->prompt_name = g_strdup (agent_mcp_prompt_get_name (prompt));
  /* Translators: %s is an MCP prompt's name */
  status = g_strdup_printf (_("Getting the prompt “%s”…"), agent_mcp_prompt_get_name (prompt));
  agent_gtk_composer_set_status (self, status);
  agent_mcp_client_get_prompt_async (client, agent_mcp_prompt_get_name (prompt), arguments,
                                     self->cancellable, on_prompt_got, g_object_ref (self));
  return TRUE;
}

void
_agent_gtk_composer_init_prompts (AgentGtkComposer *self)
{
  GtkWidget *scroller;

  self->prompts = g_hash_table_new_full (g_direct_hash, g_direct_equal, g_object_unref,
                                         g_object_unref);
  self->prompt_choices = g_ptr_array_new_with_free_func ((GDestroyNotify) choice_free);
  self->mcp_cancellable = g_cancellable_new ();

  self->prompt_list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->prompt_list), GTK_SELECTION_BROWSE);
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (self->prompt_list), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->prompt_list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Prompts"), -1);
  gtk_widget_add_css_class (self->prompt_list, "navigation-sidebar");
  g_signal_connect_object (self->prompt_list, "row-activated", G_CALLBACK (on_row_activated),
                           self, G_CONNECT_SWAPPED);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 280);
  gtk_widget_set_size_request (scroller, 280, -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->prompt_list);

  self->prompt_popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (self->prompt_popover), scroller);
  gtk_popover_set_position (GTK_POPOVER (self->prompt_popover), GTK_POS_TOP);
  gtk_popover_set_autohide (GTK_POPOVER (self->prompt_popover), FALSE);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->prompt_popover), FALSE);
  gtk_widget_set_halign (self->prompt_popover, GTK_ALIGN_START);
  gtk_widget_add_css_class (self->prompt_popover, "prompt-popover");
  gtk_widget_set_parent (self->prompt_popover, GTK_WIDGET (self));

  g_signal_connect_object (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view)), "changed",
                           G_CALLBACK (on_text_changed), self, G_CONNECT_SWAPPED);
}

void
_agent_gtk_composer_dispose_prompts (AgentGtkComposer *self)
{
  g_cancellable_cancel (self->mcp_cancellable);
  g_clear_object (&self->mcp_cancellable);
  g_clear_pointer (&self->prompts, g_hash_table_unref);
  g_clear_pointer (&self->prompt_choices, g_ptr_array_unref);
  g_clear_pointer (&self->prompt_popover, gtk_widget_unparent);
  g_clear_pointer (&self->prompt_name, g_free);
  self->prompt_list = NULL;
}
