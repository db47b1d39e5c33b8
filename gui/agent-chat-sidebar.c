/* agent-chat-sidebar.c
 *
 * The stored conversations, newest first (the store's own list, which
 * follows every write), or the results of a full-text search while the
 * search entry holds text. Picking one emits ::conversation-activated; the
 * window tells the sidebar which conversation it shows, and that one stays
 * selected as the list moves. Moving through the list with the keys (the
 * arrows, Home, End, the pages) emits ::conversation-selected instead: the
 * window shows the conversation and leaves the keyboard in the list, until
 * Enter.
 *
 * Each row's menu renames (a dialog), exports (Markdown or JSON, through a
 * file chooser) or deletes; with the keyboard on a row, the Menu key (or
 * Shift+F10) opens that menu, F2 renames and Delete deletes. A deleted
 * conversation leaves at once, with an "Undo" toast (Undo opens it again
 * if it was the one shown); it is deleted for good when the last such
 * toast goes (or, if the app quits first, when the store is next opened).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-a11y.h"
#include "agent-gtk-alert-private.h"
#include "agent-chat-approvals.h"
#include "agent-chat-sidebar.h"
#include "agent-chat-sidebar-row.h"

struct _AgentChatSidebar
{
  GtkWidget           parent_instance;

  GtkWidget          *box;
  GtkSearchEntry     *search_entry;
  GtkStack           *stack;
  GtkListView        *list_view;
  GtkSignalListItemFactory *factory;
  AdwStatusPage      *empty_page;

  AgentStore         *store;
  GListModel         *conversations;  /* the store's list */
  GtkSingleSelection *selection;
  AgentConversation  *conversation;   /* the one the window shows */
  GCancellable       *searching;      /* while the store searches */
  guint               n_pending;      /* delete toasts not yet dismissed */
  guint               syncing : 1;
  guint               moving : 1;     /* the keys move the selection */
};

enum {
  PROP_0,
  PROP_STORE,
  PROP_CONVERSATION,
  N_PROPS
};

enum {
  CONVERSATION_ACTIVATED,
  CONVERSATION_SELECTED,
  CONVERSATION_DELETED,
  SHOW_TOAST,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (AgentChatSidebar, agent_chat_sidebar, GTK_TYPE_WIDGET)

/* Shows @toast (transfer full) where ::show-toast puts it, or over the
 * sidebar */
static void
show_toast (AgentChatSidebar *self,
            AdwToast         *toast)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);
  gboolean shown = FALSE;

  g_signal_emit (self, signals[SHOW_TOAST], 0, toast, &shown);
  if (shown)
    g_object_unref (toast);
  else if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), toast);
  else
    {
      adw_toast_dismiss (toast);
      g_object_unref (toast);
    }
}

static void
show_error (AgentChatSidebar *self,
            const char       *what,
            const GError     *error)
{
  g_autofree char *text = g_markup_printf_escaped ("%s: %s", what, error->message);
  AdwToast *toast = adw_toast_new (text);

  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  show_toast (self, toast);
}

static AgentConversation *
lookup (AgentChatSidebar *self,
        gint64            id)
{
  AgentConversation *conversation = agent_store_lookup_conversation (self->store, id);

  if (conversation != NULL)
    g_object_unref (conversation);  /* the store's list keeps it */
  return conversation;
}

/* Selection: the shown conversation, wherever it moved */

static void
sync_selection (AgentChatSidebar *self)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (model);
  guint position = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; self->conversation != NULL && i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (agent_chat_sidebar_item_get_conversation (item) == self->conversation)
        {
          position = i;
          break;
        }
    }

  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->syncing = FALSE;
}

static void
update_empty (AgentChatSidebar *self)
{
  gboolean searching = gtk_single_selection_get_model (self->selection) != self->conversations;

  if (g_list_model_get_n_items (G_LIST_MODEL (self->selection)) > 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "list");
      return;
    }
  adw_status_page_set_icon_name (self->empty_page, searching ? "edit-find-symbolic"
                                                             : "document-open-recent-symbolic");
  adw_status_page_set_title (self->empty_page, searching ? _("No Results Found")
                                                         : _("No Conversations"));
  adw_status_page_set_description (self->empty_page,
                                   searching ? _("No conversation holds these words")
                                             : _("Conversations are kept here as you chat"));
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

static void
on_items_changed (AgentChatSidebar *self)
{
  sync_selection (self);
  update_empty (self);
}

static void
on_selection_changed (AgentChatSidebar *self)
{
  GObject *item = gtk_single_selection_get_selected_item (self->selection);
  AgentConversation *conversation = item ? agent_chat_sidebar_item_get_conversation (item) : NULL;

  if (self->syncing || conversation == NULL || conversation == self->conversation)
    return;

  agent_chat_sidebar_set_conversation (self, conversation);
  g_signal_emit (self, signals[self->moving ? CONVERSATION_SELECTED : CONVERSATION_ACTIVATED], 0,
                 conversation);
}

static gboolean
on_list_key_pressed (GtkEventControllerKey *controller,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     AgentChatSidebar      *self)
{
  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
    case GDK_KEY_End:
    case GDK_KEY_KP_End:
    case GDK_KEY_Page_Up:
    case GDK_KEY_KP_Page_Up:
    case GDK_KEY_Page_Down:
    case GDK_KEY_KP_Page_Down:
      self->moving = TRUE;
      break;
    default:
      self->moving = FALSE;
    }
  return GDK_EVENT_PROPAGATE;
}

static void
on_list_key_released (AgentChatSidebar *self)
{
  self->moving = FALSE;
}

static void
on_activate (AgentChatSidebar *self,
             guint             position)
{
  g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  AgentConversation *conversation = item ? agent_chat_sidebar_item_get_conversation (item) : NULL;

  if (conversation == NULL)
    return;
  agent_chat_sidebar_set_conversation (self, conversation);
  g_signal_emit (self, signals[CONVERSATION_ACTIVATED], 0, conversation);
}

/* Search */

static void
show_results (AgentChatSidebar *self,
              GListModel       *results)
{
  self->syncing = TRUE;
  gtk_single_selection_set_model (self->selection, results ? results : self->conversations);
  self->syncing = FALSE;
  on_items_changed (self);
}

static void
on_searched (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  g_autoptr(AgentChatSidebar) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) results = agent_store_search_finish (AGENT_STORE (source), result, &error);

  /* Other words were typed since (or the sidebar went) */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->searching);
  if (results == NULL)
    show_error (self, _("Could not search"), error);
  show_results (self, results);
}

/* The store searches on a thread of its own: the words typed since cancel
 * a search still running */
static void
search (AgentChatSidebar *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (self->searching != NULL)
    g_cancellable_cancel (self->searching);
  g_clear_object (&self->searching);
  if (self->store == NULL)
    return;

  if (*text == '\0')
    {
      show_results (self, NULL);
      return;
    }
  self->searching = g_cancellable_new ();
  agent_store_search_async (self->store, text, self->searching, on_searched,
                            g_object_ref (self));
}

static void
on_stop_search (AgentChatSidebar *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
}

/**
 * agent_chat_sidebar_focus_search:
 * @self: a #AgentChatSidebar
 *
 * Moves the keyboard focus to the search entry, its text selected.
 */
void
agent_chat_sidebar_focus_search (AgentChatSidebar *self)
{
  g_return_if_fail (AGENT_CHAT_IS_SIDEBAR (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

/* Rename */

static void
on_rename_response (AgentGtkAlert   *dialog,
                    const char       *response,
                    AgentChatSidebar *self)
{
  AgentConversation *conversation = g_object_get_data (G_OBJECT (dialog), "conversation");
  GtkEditable *entry = GTK_EDITABLE (agent_gtk_alert_get_extra_child (dialog));
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (response, "rename") == 0 &&
      !agent_conversation_rename (conversation, gtk_editable_get_text (entry), &error))
    show_error (self, _("Could not rename the conversation"), error);
}

/**
 * agent_chat_sidebar_rename:
 * @self: a #AgentChatSidebar
 * @conversation: a stored conversation
 *
 * Asks for a new title for @conversation, in a dialog.
 */
void
agent_chat_sidebar_rename (AgentChatSidebar  *self,
                           AgentConversation *conversation)
{
  AgentGtkAlert *dialog;
  GtkWidget *entry;
  const char *title;

  g_return_if_fail (AGENT_CHAT_IS_SIDEBAR (self));
  g_return_if_fail (AGENT_IS_CONVERSATION (conversation));

  title = agent_conversation_get_title (conversation);
  dialog = agent_gtk_alert_new (GTK_WIDGET (self), _("Rename Conversation"), NULL);
  entry = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (entry), title ? title : "");
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Title"), -1);
  agent_gtk_alert_set_extra_child (dialog, entry);
  agent_gtk_alert_add_response (dialog, "cancel", _("_Cancel"), ADW_RESPONSE_DEFAULT);
  agent_gtk_alert_add_response (dialog, "rename", _("_Rename"), ADW_RESPONSE_SUGGESTED);
  agent_gtk_alert_set_responses (dialog, "rename", "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "conversation", g_object_ref (conversation),
                          g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_rename_response), self, 0);
  agent_gtk_alert_present (dialog);
  gtk_widget_grab_focus (entry);
}

/* Delete, with Undo */

static void
on_undo_clicked (AdwToast         *toast,
                 AgentChatSidebar *self)
{
  AgentConversation *conversation = g_object_get_data (G_OBJECT (toast), "conversation");
  g_autoptr(GError) error = NULL;

  if (!agent_store_restore_conversation (self->store, conversation, &error))
    {
      show_error (self, _("Could not restore the conversation"), error);
      return;
    }
  if (gtk_single_selection_get_model (self->selection) != self->conversations)
    search (self);
  /* The conversation that was open opens again */
  if (g_object_get_data (G_OBJECT (toast), "was-shown") != NULL)
    {
      agent_chat_sidebar_set_conversation (self, conversation);
      g_signal_emit (self, signals[CONVERSATION_ACTIVATED], 0, conversation);
    }
}

static void
on_delete_dismissed (AdwToast         *toast,
                     AgentChatSidebar *self)
{
  g_autoptr(GError) error = NULL;

  g_signal_handlers_disconnect_by_data (toast, self);
  g_assert (self->n_pending > 0);
  /* Purging deletes all the deleted: wait until no Undo is on offer */
  if (--self->n_pending == 0 && !agent_store_purge_deleted (self->store, &error))
    g_warning ("Deleted conversations could not be purged: %s", error->message);
}

/**
 * agent_chat_sidebar_delete:
 * @self: a #AgentChatSidebar
 * @conversation: a stored conversation
 *
 * Deletes @conversation (after ::conversation-deleted, so that a window
 * showing it can leave it first), and offers to undo that in a toast.
 *
 * Returns: %TRUE if it was deleted
 */
gboolean
agent_chat_sidebar_delete (AgentChatSidebar  *self,
                           AgentConversation *conversation)
{
  g_autoptr(AgentConversation) hold = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  gboolean shown;
  AdwToast *toast;

  g_return_val_if_fail (AGENT_CHAT_IS_SIDEBAR (self), FALSE);
  g_return_val_if_fail (AGENT_IS_CONVERSATION (conversation), FALSE);

  hold = g_object_ref (conversation);
  shown = conversation == self->conversation;
  g_signal_emit (self, signals[CONVERSATION_DELETED], 0, conversation);
  if (!agent_store_delete_conversation (self->store, conversation, &error))
    {
      show_error (self, _("Could not delete the conversation"), error);
      return FALSE;
    }
  if (gtk_single_selection_get_model (self->selection) != self->conversations)
    search (self);

  title = g_markup_escape_text (agent_conversation_get_title (conversation)
                                ? agent_conversation_get_title (conversation) : _("Untitled"),
                                -1);
  /* Translators: the title of a deleted conversation, in quotes */
  toast = adw_toast_new_format (_("“%s” deleted"), title);
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  g_object_set_data_full (G_OBJECT (toast), "conversation", g_steal_pointer (&hold),
                          g_object_unref);
  if (shown)
    g_object_set_data (G_OBJECT (toast), "was-shown", GINT_TO_POINTER (TRUE));
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (on_undo_clicked), self, 0);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_delete_dismissed), self, 0);
  self->n_pending++;
  show_toast (self, toast);
  return TRUE;
}

/* Export */

/**
 * agent_chat_sidebar_export_to_file:
 * @self: a #AgentChatSidebar
 * @conversation: a stored conversation
 * @format: Markdown or JSON
 * @file: where to write it
 * @error: return location for a #GError
 *
 * Writes @conversation to @file, as [method@Agent.Conversation.export] gives it.
 *
 * Returns: %TRUE if the file was written
 */
gboolean
agent_chat_sidebar_export_to_file (AgentChatSidebar   *self,
                                   AgentConversation  *conversation,
                                   AgentExportFormat   format,
                                   GFile              *file,
                                   GError            **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (AGENT_CHAT_IS_SIDEBAR (self), FALSE);
  g_return_val_if_fail (AGENT_IS_CONVERSATION (conversation), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (!(text = agent_conversation_export (conversation, format, error)))
    return FALSE;
  return g_file_replace_contents (file, text, strlen (text), NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

static void
on_export_response (GtkNativeDialog  *chooser,
                    int               response,
                    AgentChatSidebar *self)
{
  AgentConversation *conversation = g_object_get_data (G_OBJECT (chooser), "conversation");
  AgentExportFormat format = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "format"));
  g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT && file != NULL)
    {
      if (agent_chat_sidebar_export_to_file (self, conversation, format, file, &error))
        {
          g_autofree char *name = g_file_get_basename (file);
          g_autofree char *escaped = g_markup_escape_text (name, -1);

          show_toast (self, adw_toast_new_format (_("Exported to %s"), escaped));
        }
      else
        show_error (self, _("Could not export the conversation"), error);
    }
  g_object_unref (chooser);
}

/* A file name from a title: no directory separators, no leading dot. */
static char *
file_name_for (AgentConversation *conversation,
               AgentExportFormat  format)
{
  const char *title = agent_conversation_get_title (conversation);
  g_autofree char *name = g_strdup (title && *title ? title : _("Conversation"));

  g_strdelimit (name, "/\\:", '-');
  while (name[0] == '.')
    name[0] = '_';
  return g_strconcat (name, format == AGENT_EXPORT_FORMAT_JSON ? ".json" : ".md", NULL);
}

static void
export_conversation (AgentChatSidebar  *self,
                     AgentConversation *conversation,
                     AgentExportFormat  format)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = file_name_for (conversation, format);

  chooser = gtk_file_chooser_native_new (format == AGENT_EXPORT_FORMAT_JSON
                                         ? _("Export as JSON") : _("Export as Markdown"),
                                         GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                         GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  gtk_file_filter_set_name (filter, format == AGENT_EXPORT_FORMAT_JSON ? _("JSON") : _("Markdown"));
  gtk_file_filter_add_mime_type (filter, format == AGENT_EXPORT_FORMAT_JSON ? "application/json"
                                                                            : "text/markdown");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data_full (G_OBJECT (chooser), "conversation", g_object_ref (conversation),
                          g_object_unref);
  g_object_set_data (G_OBJECT (chooser), "format", GINT_TO_POINTER (format));
  g_signal_connect_object (chooser, "response", G_CALLBACK (on_export_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Actions of the rows' menus, given the conversation's id */

static void
conversation_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  AgentChatSidebar *self = AGENT_CHAT_SIDEBAR (widget);
  AgentConversation *conversation;

  if (self->store == NULL ||
      !(conversation = lookup (self, g_variant_get_int64 (parameter))))
    return;

  if (g_str_equal (action_name, "sidebar.rename"))
    agent_chat_sidebar_rename (self, conversation);
  else if (g_str_equal (action_name, "sidebar.delete"))
    agent_chat_sidebar_delete (self, conversation);
  else if (g_str_equal (action_name, "sidebar.export-markdown"))
    export_conversation (self, conversation, AGENT_EXPORT_FORMAT_MARKDOWN);
  else if (g_str_equal (action_name, "sidebar.export-json"))
    export_conversation (self, conversation, AGENT_EXPORT_FORMAT_JSON);
  else if (g_str_equal (action_name, "sidebar.revoke-approvals"))
    {
      g_autoptr(GError) error = NULL;

      if (!agent_chat_approvals_revoke (AGENT_MEMORY (conversation), NULL, &error))
        show_error (self, _("Could not change the conversation"), error);
    }
}

/* The keys of the focused row */

/* The row whose list item has the keyboard focus, if any */
static AgentChatSidebarRow *
focused_row (AgentChatSidebar *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  for (GtkWidget *widget = focus; widget != NULL; widget = gtk_widget_get_parent (widget))
    if (gtk_widget_get_parent (widget) == GTK_WIDGET (self->list_view))
      {
        GtkWidget *child = gtk_widget_get_first_child (widget);

        return child != NULL && AGENT_CHAT_IS_SIDEBAR_ROW (child) ? AGENT_CHAT_SIDEBAR_ROW (child)
                                                                  : NULL;
      }
  return NULL;
}

/* The focus on the row at @position (or the last), as after a deletion */
static void
focus_position (AgentChatSidebar *self,
                guint             position)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (model);
  g_autoptr(GObject) item = NULL;

  if (n == 0)
    {
      gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
      return;
    }
  item = g_list_model_get_item (model, MIN (position, n - 1));
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *row = gtk_widget_get_first_child (child);

      if (row != NULL && AGENT_CHAT_IS_SIDEBAR_ROW (row) &&
          agent_chat_sidebar_row_get_item (AGENT_CHAT_SIDEBAR_ROW (row)) == item)
        {
          gtk_widget_grab_focus (child);
          return;
        }
    }
}

static guint
position_of (AgentChatSidebar  *self,
             AgentConversation *conversation)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (agent_chat_sidebar_item_get_conversation (item) == conversation)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static void
row_key_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  AgentChatSidebar *self = AGENT_CHAT_SIDEBAR (widget);
  AgentChatSidebarRow *row = focused_row (self);
  AgentConversation *conversation = row ? agent_chat_sidebar_row_get_conversation (row) : NULL;

  if (conversation == NULL)
    return;

  if (g_str_equal (action_name, "sidebar.row-menu"))
    agent_chat_sidebar_row_popup_menu (row);
  else if (g_str_equal (action_name, "sidebar.row-rename"))
    agent_chat_sidebar_rename (self, conversation);
  else if (g_str_equal (action_name, "sidebar.row-delete"))
    {
      guint position = position_of (self, conversation);

      if (agent_chat_sidebar_delete (self, conversation) && position != GTK_INVALID_LIST_POSITION)
        focus_position (self, position);
    }
}

/* List items */

static void
on_setup_item (GtkSignalListItemFactory *factory,
               GtkListItem              *item)
{
  gtk_list_item_set_child (item, agent_chat_sidebar_row_new ());
}

static void
on_bind_item (GtkSignalListItemFactory *factory,
              GtkListItem              *item)
{
  agent_chat_sidebar_row_set_item (AGENT_CHAT_SIDEBAR_ROW (gtk_list_item_get_child (item)),
                                   gtk_list_item_get_item (item));
}

static void
on_unbind_item (GtkSignalListItemFactory *factory,
                GtkListItem              *item)
{
  agent_chat_sidebar_row_set_item (AGENT_CHAT_SIDEBAR_ROW (gtk_list_item_get_child (item)), NULL);
}

/* Properties */

static void
set_store (AgentChatSidebar *self,
           AgentStore       *store)
{
  g_return_if_fail (store == NULL || AGENT_IS_STORE (store));

  if (!g_set_object (&self->store, store))
    return;

  g_clear_object (&self->conversations);
  self->conversations = store ? agent_store_list_conversations (store)
                              : G_LIST_MODEL (g_list_store_new (AGENT_TYPE_CONVERSATION));
  on_stop_search (self);
  search (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE]);
}

AgentStore *
agent_chat_sidebar_get_store (AgentChatSidebar *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_SIDEBAR (self), NULL);
  return self->store;
}

/**
 * agent_chat_sidebar_get_conversation:
 * @self: a #AgentChatSidebar
 *
 * Returns: (transfer none) (nullable): the conversation shown as selected
 */
AgentConversation *
agent_chat_sidebar_get_conversation (AgentChatSidebar *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_SIDEBAR (self), NULL);
  return self->conversation;
}

/**
 * agent_chat_sidebar_set_conversation:
 * @self: a #AgentChatSidebar
 * @conversation: (nullable): the conversation the window shows
 *
 * Selects @conversation's row, now and whenever the list moves; none while
 * it is not stored yet.
 */
void
agent_chat_sidebar_set_conversation (AgentChatSidebar  *self,
                                     AgentConversation *conversation)
{
  g_return_if_fail (AGENT_CHAT_IS_SIDEBAR (self));
  g_return_if_fail (conversation == NULL || AGENT_IS_CONVERSATION (conversation));

  if (!g_set_object (&self->conversation, conversation))
    return;
  sync_selection (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONVERSATION]);
}

/**
 * agent_chat_sidebar_get_model:
 * @self: a #AgentChatSidebar
 *
 * Returns: (transfer none): what the list shows: conversations, or search
 *   results ([class@Agent.SearchResult]) while searching
 */
GListModel *
agent_chat_sidebar_get_model (AgentChatSidebar *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_SIDEBAR (self), NULL);
  return gtk_single_selection_get_model (self->selection);
}

GtkSearchEntry *
agent_chat_sidebar_get_search_entry (AgentChatSidebar *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_SIDEBAR (self), NULL);
  return self->search_entry;
}

/* GObject */

static void
agent_chat_sidebar_dispose (GObject *object)
{
  AgentChatSidebar *self = AGENT_CHAT_SIDEBAR (object);

  if (self->searching != NULL)
    g_cancellable_cancel (self->searching);
  g_clear_object (&self->searching);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_SIDEBAR);
  g_clear_object (&self->selection);
  g_clear_object (&self->conversations);
  g_clear_object (&self->conversation);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (agent_chat_sidebar_parent_class)->dispose (object);
}

static void
agent_chat_sidebar_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AgentChatSidebar *self = AGENT_CHAT_SIDEBAR (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;

    case PROP_CONVERSATION:
      g_value_set_object (value, self->conversation);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_sidebar_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  AgentChatSidebar *self = AGENT_CHAT_SIDEBAR (object);

  switch (prop_id)
    {
    case PROP_STORE:
      set_store (self, g_value_get_object (value));
      break;

    case PROP_CONVERSATION:
      agent_chat_sidebar_set_conversation (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_sidebar_class_init (AgentChatSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char * const actions[] = {
    "sidebar.rename", "sidebar.delete", "sidebar.export-markdown", "sidebar.export-json",
    "sidebar.revoke-approvals",
  };

  object_class->dispose = agent_chat_sidebar_dispose;
  object_class->get_property = agent_chat_sidebar_get_property;
  object_class->set_property = agent_chat_sidebar_set_property;

  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, AGENT_TYPE_STORE,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_CONVERSATION] =
    g_param_spec_object ("conversation", NULL, NULL, AGENT_TYPE_CONVERSATION,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentChatSidebar::conversation-activated:
   * @self: a #AgentChatSidebar
   * @conversation: the conversation the user picked
   */
  signals[CONVERSATION_ACTIVATED] =
    g_signal_new ("conversation-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, AGENT_TYPE_CONVERSATION);
  /**
   * AgentChatSidebar::conversation-selected:
   * @self: a #AgentChatSidebar
   * @conversation: the conversation the keys moved the selection to
   *
   * To show, leaving the keyboard in the list.
   */
  signals[CONVERSATION_SELECTED] =
    g_signal_new ("conversation-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, AGENT_TYPE_CONVERSATION);
  /**
   * AgentChatSidebar::conversation-deleted:
   * @self: a #AgentChatSidebar
   * @conversation: the conversation about to be deleted
   */
  signals[CONVERSATION_DELETED] =
    g_signal_new ("conversation-deleted", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, AGENT_TYPE_CONVERSATION);
  /**
   * AgentChatSidebar::show-toast:
   * @self: a #AgentChatSidebar
   * @toast: a toast of the sidebar's (a conversation deleted, with Undo)
   *
   * Lets the window show @toast where it likes. Without a handler that
   * returns %TRUE, it shows in the toast overlay the sidebar is in.
   *
   * Returns: %TRUE if the handler showed @toast
   */
  signals[SHOW_TOAST] =
    g_signal_new ("show-toast", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  g_signal_accumulator_true_handled, NULL, NULL, G_TYPE_BOOLEAN, 1,
                  ADW_TYPE_TOAST);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-sidebar.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatSidebar, box);
  gtk_widget_class_bind_template_child (widget_class, AgentChatSidebar, search_entry);
  gtk_widget_class_bind_template_child (widget_class, AgentChatSidebar, stack);
  gtk_widget_class_bind_template_child (widget_class, AgentChatSidebar, list_view);
  gtk_widget_class_bind_template_child (widget_class, AgentChatSidebar, factory);
  gtk_widget_class_bind_template_child (widget_class, AgentChatSidebar, empty_page);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sidebar");

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i], "x", conversation_action);

  /* On the focused row (in the search entry, Delete deletes text) */
  gtk_widget_class_install_action (widget_class, "sidebar.row-menu", NULL, row_key_action);
  gtk_widget_class_install_action (widget_class, "sidebar.row-rename", NULL, row_key_action);
  gtk_widget_class_install_action (widget_class, "sidebar.row-delete", NULL, row_key_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "sidebar.row-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK,
                                       "sidebar.row-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "sidebar.row-rename", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "sidebar.row-delete",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "sidebar.row-delete",
                                       NULL);
}

static void
agent_chat_sidebar_init (AgentChatSidebar *self)
{
  GtkEventController *keys;

  gtk_widget_init_template (GTK_WIDGET (self));
  agent_chat_a11y_name_status_page (self->empty_page);

  self->conversations = G_LIST_MODEL (g_list_store_new (AGENT_TYPE_CONVERSATION));
  self->selection = gtk_single_selection_new (g_object_ref (self->conversations));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  g_signal_connect (self->factory, "setup", G_CALLBACK (on_setup_item), NULL);
  g_signal_connect (self->factory, "bind", G_CALLBACK (on_bind_item), NULL);
  g_signal_connect (self->factory, "unbind", G_CALLBACK (on_unbind_item), NULL);
  g_signal_connect_object (self->selection, "items-changed", G_CALLBACK (on_items_changed), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (self->selection, "selection-changed",
                           G_CALLBACK (on_selection_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->list_view, "activate", G_CALLBACK (on_activate), self,
                           G_CONNECT_SWAPPED);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_list_key_pressed), self);
  g_signal_connect_swapped (keys, "key-released", G_CALLBACK (on_list_key_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self->list_view), keys);
  g_signal_connect_object (self->search_entry, "search-changed", G_CALLBACK (search), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "stop-search", G_CALLBACK (on_stop_search), self,
                           G_CONNECT_SWAPPED);
  update_empty (self);
}

/**
 * agent_chat_sidebar_new:
 * @store: (nullable): the store whose conversations to list
 *
 * Returns: (transfer floating): a new #AgentChatSidebar
 */
GtkWidget *
agent_chat_sidebar_new (AgentStore *store)
{
  return g_object_new (AGENT_CHAT_TYPE_SIDEBAR, "store", store, NULL);
}
