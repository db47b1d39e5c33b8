/* agent-gtk-argument-fields-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_ARGUMENT_FIELDS (agent_gtk_argument_fields_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkArgumentFields, agent_gtk_argument_fields,
                      AGENT_GTK, ARGUMENT_FIELDS, GtkWidget)

GtkWidget *agent_gtk_argument_fields_new      (void);
gboolean   agent_gtk_argument_fields_set_text (AgentGtkArgumentFields *self,
                                               const char             *text,
                                               gboolean                whole);
guint      agent_gtk_argument_fields_get_n_fields (AgentGtkArgumentFields *self);
void       agent_gtk_argument_fields_reset    (AgentGtkArgumentFields *self);
char      *_agent_gtk_format_json_value       (JsonNode               *node);

G_END_DECLS
