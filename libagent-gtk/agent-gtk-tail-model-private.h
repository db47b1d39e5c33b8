/* agent-gtk-tail-model-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_TAIL_MODEL (agent_gtk_tail_model_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkTailModel, agent_gtk_tail_model, AGENT_GTK, TAIL_MODEL, GObject)

AgentGtkTailModel *agent_gtk_tail_model_new          (GtkFilter         *counted,
                                                      guint              n_initial,
                                                      guint              n_max);
void               agent_gtk_tail_model_set_model    (AgentGtkTailModel *self,
                                                      GListModel        *model);
guint              agent_gtk_tail_model_get_n_hidden (AgentGtkTailModel *self);
guint              agent_gtk_tail_model_get_n_hidden_after (AgentGtkTailModel *self);
void               agent_gtk_tail_model_show_more    (AgentGtkTailModel *self,
                                                      guint              n_counted);
void               agent_gtk_tail_model_show_later   (AgentGtkTailModel *self,
                                                      guint              n_counted);
void               agent_gtk_tail_model_show_end     (AgentGtkTailModel *self);
guint              agent_gtk_tail_model_get_n_counted     (AgentGtkTailModel *self);
guint              agent_gtk_tail_model_get_counted_start (AgentGtkTailModel *self);
guint              agent_gtk_tail_model_get_counted_end   (AgentGtkTailModel *self);
void               agent_gtk_tail_model_show_counted      (AgentGtkTailModel *self,
                                                           guint              index,
                                                           guint              n_before);

G_END_DECLS
