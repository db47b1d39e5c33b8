/* agent-gtk-code.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkWidget  *_agent_gtk_code_new          (void);
void        _agent_gtk_code_set_text     (GtkWidget  *code,
                                          const char *text,
                                          const char *language,
                                          gboolean    open);
const char *_agent_gtk_code_get_language (GtkWidget  *code);
void        _agent_gtk_code_prepare      (GtkWidget  *widget);

G_END_DECLS
