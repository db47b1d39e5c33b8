/* agent-gtk-composer.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_GTK_INSIDE) && !defined(AGENT_GTK_COMPILATION)
# error "Only <agent-gtk.h> can be included directly."
#endif

#include <agent.h>
#include <gtk/gtk.h>

#include "agent-gtk-version-macros.h"

G_BEGIN_DECLS

#define AGENT_GTK_TYPE_COMPOSER (agent_gtk_composer_get_type ())

AGENT_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AgentGtkComposer, agent_gtk_composer, AGENT_GTK, COMPOSER, GtkWidget)

AGENT_GTK_AVAILABLE_IN_ALL
GtkWidget  *agent_gtk_composer_new                  (void);
AGENT_GTK_AVAILABLE_IN_ALL
char       *agent_gtk_composer_dup_text             (AgentGtkComposer *self);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_set_text             (AgentGtkComposer *self,
                                                     const char       *text);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_send                 (AgentGtkComposer *self);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_add_suffix           (AgentGtkComposer *self,
                                                     GtkWidget        *widget);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean    agent_gtk_composer_get_busy             (AgentGtkComposer *self);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_set_busy             (AgentGtkComposer *self,
                                                     gboolean          busy);
AGENT_GTK_AVAILABLE_IN_ALL
gboolean    agent_gtk_composer_get_editing          (AgentGtkComposer *self);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_set_editing          (AgentGtkComposer *self,
                                                     gboolean          editing);
AGENT_GTK_AVAILABLE_IN_ALL
const char *agent_gtk_composer_get_status           (AgentGtkComposer *self);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_set_status           (AgentGtkComposer *self,
                                                     const char       *status);
AGENT_GTK_AVAILABLE_IN_ALL
const char *agent_gtk_composer_get_placeholder_text (AgentGtkComposer *self);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_set_placeholder_text (AgentGtkComposer *self,
                                                     const char       *placeholder_text);
AGENT_GTK_AVAILABLE_IN_ALL
GListModel *agent_gtk_composer_get_attachments      (AgentGtkComposer *self);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_add_attachment       (AgentGtkComposer *self,
                                                     AgentContentPart *part);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_remove_attachment    (AgentGtkComposer *self,
                                                     AgentContentPart *part);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_clear_attachments    (AgentGtkComposer *self);
AGENT_GTK_AVAILABLE_IN_ALL
guint64     agent_gtk_composer_get_max_attachment_size (AgentGtkComposer *self);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_set_max_attachment_size (AgentGtkComposer *self,
                                                        guint64           max_attachment_size);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_attach_files         (AgentGtkComposer  *self,
                                                     GFile            **files,
                                                     guint              n_files);
AGENT_GTK_AVAILABLE_IN_ALL
GListModel *agent_gtk_composer_get_mcp_servers      (AgentGtkComposer *self);
AGENT_GTK_AVAILABLE_IN_ALL
void        agent_gtk_composer_set_mcp_servers      (AgentGtkComposer *self,
                                                     GListModel       *mcp_servers);

G_END_DECLS
