/* agent-gtk-code.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void        _agent_gtk_code_set_text     (GtkLabel   *label,
                                          const char *code,
                                          const char *language);
const char *_agent_gtk_code_get_language (GtkLabel   *label);
void        _agent_gtk_code_prepare      (GtkWidget  *widget);

G_END_DECLS
