/* agent-gtk-error-item-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_ERROR_ITEM (agent_gtk_error_item_get_type ())

G_DECLARE_FINAL_TYPE (AgentGtkErrorItem, agent_gtk_error_item, AGENT_GTK, ERROR_ITEM, GObject)

AgentGtkErrorItem *agent_gtk_error_item_new                 (const GError      *error,
                                                             gboolean           partial,
                                                             gboolean           api_key_missing);
const GError      *agent_gtk_error_item_get_error           (AgentGtkErrorItem *self);
gboolean           agent_gtk_error_item_get_partial         (AgentGtkErrorItem *self);
gboolean           agent_gtk_error_item_get_api_key_missing (AgentGtkErrorItem *self);

G_END_DECLS
