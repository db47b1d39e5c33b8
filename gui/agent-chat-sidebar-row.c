/* agent-chat-sidebar-row.c
 *
 * One stored conversation in the sidebar: its title (kept up to date while
 * the row shows it), the words that matched when it is a search result,
 * and a menu to rename, export or delete it: its button, and the row's
 * context menu (a right click, a long press, or the keys the sidebar
 * handles: Menu, Shift+F10). The list item holding the row takes the
 * focus, named after the title. Rows are recycled: setting a new item
 * drops the binding to the old one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-a11y.h"
#include "agent-chat-approvals.h"
#include "agent-chat-popover.h"
#include "agent-chat-sidebar-row.h"
#include "agent-chat-snippet.h"

struct _AgentChatSidebarRow
{
  GtkWidget  parent_instance;

  GtkWidget *box;
  GtkWidget *title_label;
  GtkWidget *snippet_label;
  GtkWidget *menu_button;

  GObject   *item;          /* an AgentConversation or an AgentSearchResult */
  GBinding  *title_binding;
};

enum {
  PROP_0,
  PROP_ITEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentChatSidebarRow, agent_chat_sidebar_row, GTK_TYPE_WIDGET)

/* Characters shown before a search's first match, at most */
#define SNIPPET_CONTEXT 12

/**
 * agent_chat_sidebar_item_get_conversation:
 * @item: an item of the sidebar's list
 *
 * Returns: (transfer none) (nullable): the conversation @item stands for
 */
AgentConversation *
agent_chat_sidebar_item_get_conversation (GObject *item)
{
  if (AGENT_IS_CONVERSATION (item))
    return AGENT_CONVERSATION (item);
  if (AGENT_IS_SEARCH_RESULT (item))
    return agent_search_result_get_conversation (AGENT_SEARCH_RESULT (item));
  return NULL;
}

/* The list item holding the row takes the focus: named after the title */
static void
update_accessible (AgentChatSidebarRow *self)
{
  const char *title = gtk_label_get_label (GTK_LABEL (self->title_label));

  /* Unbound (the row is recycled, or its item goes): nothing to say */
  if (self->item == NULL)
    return;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  agent_gtk_a11y_label_list_item (GTK_WIDGET (self), title);
}

/**
 * agent_chat_sidebar_row_popup_menu:
 * @self: a #AgentChatSidebarRow
 *
 * Opens the row's menu: rename, export, delete.
 */
void
agent_chat_sidebar_row_popup_menu (AgentChatSidebarRow *self)
{
  g_return_if_fail (AGENT_CHAT_IS_SIDEBAR_ROW (self));

  if (self->item != NULL)
    gtk_menu_button_popup (GTK_MENU_BUTTON (self->menu_button));
}

static void
on_context_click (GtkGesture          *gesture,
                  int                  n_press,
                  double               x,
                  double               y,
                  AgentChatSidebarRow *self)
{
  gtk_gesture_set_state (gesture, GTK_EVENT_SEQUENCE_CLAIMED);
  agent_chat_sidebar_row_popup_menu (self);
}

static void
on_long_press (GtkGesture          *gesture,
               double               x,
               double               y,
               AgentChatSidebarRow *self)
{
  gtk_gesture_set_state (gesture, GTK_EVENT_SEQUENCE_CLAIMED);
  agent_chat_sidebar_row_popup_menu (self);
}

static gboolean
title_or_untitled (GBinding     *binding,
                   const GValue *from,
                   GValue       *to,
                   gpointer      user_data)
{
  const char *title = g_value_get_string (from);

  g_value_set_string (to, title != NULL && *title != '\0' ? title : _("Untitled"));
  return TRUE;
}

static void
append_item (GMenu      *menu,
             const char *label,
             const char *action,
             gint64      id)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, g_variant_new_int64 (id));
  g_menu_append_item (menu, item);
}

/* The row's menu, made when it first opens: its actions are the
 * sidebar's, given the conversation's id. */
static void
create_menu (GtkMenuButton *button,
             gpointer       user_data)
{
  AgentChatSidebarRow *self = user_data;
  AgentConversation *conversation = agent_chat_sidebar_row_get_conversation (self);
  gint64 id = conversation ? agent_conversation_get_id (conversation) : 0;
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) first = g_menu_new ();
  g_autoptr(GMenu) last = g_menu_new ();

  append_item (first, _("_Rename…"), "sidebar.rename", id);
  append_item (first, _("Export as _Markdown…"), "sidebar.export-markdown", id);
  append_item (first, _("Export as _JSON…"), "sidebar.export-json", id);
  if (conversation != NULL)
    {
      g_auto(GStrv) allowed = agent_chat_approvals_list (AGENT_MEMORY (conversation));

      /* Tools it may run without asking, given back */
      if (allowed[0] != NULL)
        append_item (first, _("Ask Again Before _Every Tool"), "sidebar.revoke-approvals", id);
    }
  append_item (last, _("_Delete"), "sidebar.delete", id);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (first));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (last));
  gtk_menu_button_set_menu_model (button, G_MENU_MODEL (menu));
  gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_menu_button_get_popover (button)),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Conversation Menu"), -1);
  agent_chat_popover_forward_shortcuts (gtk_menu_button_get_popover (button));
}

/**
 * agent_chat_sidebar_row_set_item:
 * @self: a #AgentChatSidebarRow
 * @item: (nullable): an #AgentConversation or an #AgentSearchResult
 *
 * Shows @item, and stops following the previous one.
 */
void
agent_chat_sidebar_row_set_item (AgentChatSidebarRow *self,
                                 GObject             *item)
{
  AgentConversation *conversation;
  g_autofree char *snippet = NULL;

  g_return_if_fail (AGENT_CHAT_IS_SIDEBAR_ROW (self));
  g_return_if_fail (item == NULL || agent_chat_sidebar_item_get_conversation (item) != NULL);

  if (self->item == item)
    return;

  g_clear_pointer (&self->title_binding, g_binding_unbind);
  g_set_object (&self->item, item);

  conversation = item ? agent_chat_sidebar_item_get_conversation (item) : NULL;
  if (conversation != NULL)
    self->title_binding = g_object_bind_property_full (conversation, "title",
                                                       self->title_label, "label",
                                                       G_BINDING_SYNC_CREATE,
                                                       title_or_untitled, NULL, NULL, NULL);
  else
    gtk_label_set_label (GTK_LABEL (self->title_label), "");
  /* The menu is made again, for this item, when it next opens */
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->menu_button), NULL);

  /* Plain text from the match on, not the message's Markdown */
  if (item != NULL && AGENT_IS_SEARCH_RESULT (item))
    snippet = agent_chat_snippet_to_markup (
      agent_search_result_get_snippet (AGENT_SEARCH_RESULT (item)), SNIPPET_CONTEXT);
  gtk_label_set_markup (GTK_LABEL (self->snippet_label), snippet ? snippet : "");
  gtk_widget_set_visible (self->snippet_label, snippet != NULL && *snippet != '\0');
  update_accessible (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

GObject *
agent_chat_sidebar_row_get_item (AgentChatSidebarRow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_SIDEBAR_ROW (self), NULL);
  return self->item;
}

/**
 * agent_chat_sidebar_row_get_conversation:
 * @self: a #AgentChatSidebarRow
 *
 * Returns: (transfer none) (nullable): the conversation the row shows
 */
AgentConversation *
agent_chat_sidebar_row_get_conversation (AgentChatSidebarRow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_SIDEBAR_ROW (self), NULL);
  return self->item ? agent_chat_sidebar_item_get_conversation (self->item) : NULL;
}

/**
 * agent_chat_sidebar_row_get_title:
 * @self: a #AgentChatSidebarRow
 *
 * Returns: the title the row shows
 */
const char *
agent_chat_sidebar_row_get_title (AgentChatSidebarRow *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_SIDEBAR_ROW (self), NULL);
  return gtk_label_get_label (GTK_LABEL (self->title_label));
}

static void
agent_chat_sidebar_row_dispose (GObject *object)
{
  AgentChatSidebarRow *self = AGENT_CHAT_SIDEBAR_ROW (object);

  g_clear_pointer (&self->title_binding, g_binding_unbind);
  g_clear_object (&self->item);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_SIDEBAR_ROW);

  G_OBJECT_CLASS (agent_chat_sidebar_row_parent_class)->dispose (object);
}

static void
agent_chat_sidebar_row_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  AgentChatSidebarRow *self = AGENT_CHAT_SIDEBAR_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_sidebar_row_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  AgentChatSidebarRow *self = AGENT_CHAT_SIDEBAR_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      agent_chat_sidebar_row_set_item (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_sidebar_row_class_init (AgentChatSidebarRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_sidebar_row_dispose;
  object_class->get_property = agent_chat_sidebar_row_get_property;
  object_class->set_property = agent_chat_sidebar_row_set_property;

  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL, G_TYPE_OBJECT,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/libagent/Chat/agent-chat-sidebar-row.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatSidebarRow, box);
  gtk_widget_class_bind_template_child (widget_class, AgentChatSidebarRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatSidebarRow, snippet_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatSidebarRow, menu_button);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sidebarrow");
}

static void
agent_chat_sidebar_row_init (AgentChatSidebarRow *self)
{
  GtkGesture *click;
  GtkGesture *long_press;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* Hidden by the template while it got its tooltip: GTK 4.8 asks the X
   * server where the pointer is for a visible one, a round trip a row */
  gtk_widget_set_visible (self->menu_button, TRUE);
  gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (self->menu_button), create_menu, self,
                                         NULL);
  g_signal_connect_object (self->title_label, "notify::label", G_CALLBACK (update_accessible),
                           self, G_CONNECT_SWAPPED);

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_context_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  long_press = gtk_gesture_long_press_new ();
  gtk_gesture_single_set_touch_only (GTK_GESTURE_SINGLE (long_press), TRUE);
  g_signal_connect (long_press, "pressed", G_CALLBACK (on_long_press), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (long_press));
}

GtkWidget *
agent_chat_sidebar_row_new (void)
{
  return g_object_new (AGENT_CHAT_TYPE_SIDEBAR_ROW, NULL);
}
