/* agent-gtk-update-pacer-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The default of _agent_gtk_update_pacer_set_interval(): at most every 30
 * ms, 30 to 33 updates a second while text streams faster */
#define AGENT_GTK_UPDATE_PACER_INTERVAL 30

typedef void (*AgentGtkUpdatePacerFunc) (GtkWidget *widget);

typedef struct
{
  GtkWidget               *widget;      /* not owned: the pacer is part of it */
  AgentGtkUpdatePacerFunc  update;
  GdkFrameClock           *clock;            /* waited for: its next before-paint */
  gulong                   before_paint_id;
  guint                    tick_id;          /* or, not realized yet: a tick */
  guint                    timeout_id;
  gint64                   updated_at;  /* the last update, monotonic µs */
} AgentGtkUpdatePacer;

void     _agent_gtk_update_pacer_init         (AgentGtkUpdatePacer     *pacer,
                                               GtkWidget               *widget,
                                               AgentGtkUpdatePacerFunc  update);
void     _agent_gtk_update_pacer_queue        (AgentGtkUpdatePacer     *pacer);
void     _agent_gtk_update_pacer_queue_paced  (AgentGtkUpdatePacer     *pacer);
void     _agent_gtk_update_pacer_cancel       (AgentGtkUpdatePacer     *pacer);
gboolean _agent_gtk_update_pacer_flush        (AgentGtkUpdatePacer     *pacer);

guint    _agent_gtk_update_pacer_get_interval (void);
void     _agent_gtk_update_pacer_set_interval (guint                    ms);

G_END_DECLS
