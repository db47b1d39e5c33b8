/* agent-gtk-composer-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "agent-gtk-composer.h"

G_BEGIN_DECLS

struct _AgentGtkComposer
{
  GtkWidget  parent_instance;

  GtkWidget *clamp;
  GtkWidget *box;
  GtkWidget *status_bar;
  GtkWidget *status_spinner;
  GtkWidget *status_label;
  GtkWidget *editing_bar;
  GtkWidget *placeholder;
  GtkWidget *scroller;
  GtkWidget *text_view;
  GtkWidget *send_button;
  GtkWidget *suffix_box;
  GtkWidget *attach_button;
  GtkWidget *attach_menu_button;
  GtkWidget *attachments_scroller;
  GtkWidget *attachments_box;

  GListStore           *attachments;  /* of AgentContentPart */
  GCancellable         *cancellable;  /* files and the clipboard being read */
  GtkFileChooserNative *chooser;
  guint64               max_attachment_size;

  /* MCP servers (agent-gtk-composer-resources.c, agent-gtk-composer-prompts.c) */
  GListModel           *mcp_servers;  /* of AgentMcpClient, or NULL */
  GPtrArray            *watched;      /* the clients whose state is watched */
  GMenu                *server_menu;  /* the attach menu's "From <server>…" */
  GtkWidget            *resource_picker;
  GHashTable           *prompts;      /* AgentMcpClient → GListModel of AgentMcpPrompt */
  GCancellable         *mcp_cancellable;
  GtkWidget            *prompt_popover;
  GtkWidget            *prompt_list;
  GPtrArray            *prompt_choices; /* what the popover's rows offer */
  char                 *prompt_name;  /* the prompt being got */
  guint                 prompt_getting : 1;
  guint                 prompt_dismissed : 1;

  guint      busy : 1;
  guint      editing : 1;
};

GtkWidget *_agent_gtk_composer_get_placeholder  (AgentGtkComposer *self);

void       _agent_gtk_composer_send              (AgentGtkComposer *self,
                                                 const char       *text);

/* agent-gtk-composer-attachments.c */
void       _agent_gtk_composer_class_init_attachments (GtkWidgetClass   *widget_class);
void       _agent_gtk_composer_init_attachments       (AgentGtkComposer *self);
void       _agent_gtk_composer_dispose_attachments    (AgentGtkComposer *self);

/* agent-gtk-composer-resources.c: the attach menu's "From <server>…" */
void       _agent_gtk_composer_init_resources     (AgentGtkComposer *self);
void       _agent_gtk_composer_dispose_resources  (AgentGtkComposer *self);
void       _agent_gtk_composer_mcp_servers_changed (AgentGtkComposer *self);
AgentMcpClient *_agent_gtk_composer_lookup_server (AgentGtkComposer *self,
                                                   const char       *name);
gboolean   _agent_gtk_composer_server_offers     (AgentMcpClient   *client,
                                                  const char       *capability);

/* agent-gtk-composer-prompts.c: "/" commands */
void       _agent_gtk_composer_init_prompts      (AgentGtkComposer *self);
void       _agent_gtk_composer_dispose_prompts   (AgentGtkComposer *self);
void       _agent_gtk_composer_update_prompts    (AgentGtkComposer *self);
gboolean   _agent_gtk_composer_prompt_key        (AgentGtkComposer *self,
                                                  guint             keyval,
                                                  GdkModifierType   state);
gboolean   _agent_gtk_composer_send_prompt       (AgentGtkComposer *self,
                                                  const char       *text);

G_END_DECLS
