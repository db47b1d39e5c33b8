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
  GtkWidget *attach_button;
  GtkWidget *attachments_scroller;
  GtkWidget *attachments_box;

  GListStore           *attachments;  /* of AgentContentPart */
  GCancellable         *cancellable;  /* files and the clipboard being read */
  GtkFileChooserNative *chooser;
  guint64               max_attachment_size;

  guint      busy : 1;
  guint      editing : 1;
};

GtkWidget *_agent_gtk_composer_get_placeholder  (AgentGtkComposer *self);

/* agent-gtk-composer-attachments.c */
void       _agent_gtk_composer_class_init_attachments (GtkWidgetClass   *widget_class);
void       _agent_gtk_composer_init_attachments       (AgentGtkComposer *self);
void       _agent_gtk_composer_dispose_attachments    (AgentGtkComposer *self);

G_END_DECLS
