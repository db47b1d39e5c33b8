/* agent-gtk-resource-picker-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <adwaita.h>
#include <agent.h>

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_RESOURCE_PICKER (agent_gtk_resource_picker_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkResourcePicker, agent_gtk_resource_picker, AGENT_GTK,
                      RESOURCE_PICKER, AdwWindow)

GtkWidget *agent_gtk_resource_picker_new          (AgentMcpClient *client,
                                                   GtkWindow      *parent);
char      *_agent_gtk_resource_template_expand    (const char     *uri_template,
                                                   GHashTable     *values);
char     **_agent_gtk_resource_template_variables (const char     *uri_template);

G_END_DECLS
