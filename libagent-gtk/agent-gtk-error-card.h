/* agent-gtk-error-card.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_GTK_INSIDE) && !defined(AGENT_GTK_COMPILATION)
# error "Only <agent-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "agent-gtk-version-macros.h"

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_ERROR_CARD (agent_gtk_error_card_get_type ())

AGENT_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentGtkErrorCard, agent_gtk_error_card, AGENT_GTK, ERROR_CARD, GtkWidget)

AGENT_GTK_AVAILABLE_IN_ALL
GtkWidget    *agent_gtk_error_card_new                 (void);
AGENT_GTK_AVAILABLE_IN_ALL
const GError *agent_gtk_error_card_get_error           (AgentGtkErrorCard *self);
AGENT_GTK_AVAILABLE_IN_ALL
void          agent_gtk_error_card_set_error           (AgentGtkErrorCard *self,
                                                        const GError      *error);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean      agent_gtk_error_card_get_partial         (AgentGtkErrorCard *self);
AGENT_GTK_AVAILABLE_IN_ALL
void          agent_gtk_error_card_set_partial         (AgentGtkErrorCard *self,
                                                        gboolean           partial);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean      agent_gtk_error_card_get_api_key_missing (AgentGtkErrorCard *self);
AGENT_GTK_AVAILABLE_IN_ALL
void          agent_gtk_error_card_set_api_key_missing (AgentGtkErrorCard *self,
                                                        gboolean           api_key_missing);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean      agent_gtk_error_card_get_show_settings   (AgentGtkErrorCard *self);
AGENT_GTK_AVAILABLE_IN_ALL
void          agent_gtk_error_card_set_show_settings   (AgentGtkErrorCard *self,
                                                        gboolean           show_settings);
AGENT_GTK_AVAILABLE_IN_ALL
const char   *agent_gtk_error_card_get_heading         (AgentGtkErrorCard *self);
AGENT_GTK_AVAILABLE_IN_ALL
const char   *agent_gtk_error_card_get_body            (AgentGtkErrorCard *self);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean      agent_gtk_error_card_get_needs_settings  (AgentGtkErrorCard *self);

G_END_DECLS
