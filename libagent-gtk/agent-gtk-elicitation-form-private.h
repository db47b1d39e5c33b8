/* agent-gtk-elicitation-form-private.h
 *
 * The fields of an AgentGtkElicitationForm (agent-gtk-elicitation-form-
 * fields.c): one per property of the requested schema, its control and
 * its value.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  AGENT_GTK_ELICITATION_FIELD_TEXT,
  AGENT_GTK_ELICITATION_FIELD_NUMBER,
  AGENT_GTK_ELICITATION_FIELD_INTEGER,
  AGENT_GTK_ELICITATION_FIELD_BOOLEAN,
  AGENT_GTK_ELICITATION_FIELD_CHOICE,
  AGENT_GTK_ELICITATION_FIELD_CHOICES,
} AgentGtkElicitationFieldKind;

typedef struct
{
  char                         *name;
  AgentGtkElicitationFieldKind  kind;
  gboolean                      required;
  gboolean                      has_default;
  gboolean                      touched;      /* changed by the user */
  GPtrArray                    *values;       /* of a choice: the values offered */
  gboolean                      placeholder;  /* CHOICE: its first item is "Not Chosen" */
  GtkWidget                    *box;          /* title, description, control, error */
  GtkWidget                    *control;
  GPtrArray                    *checks;       /* CHOICES: a GtkCheckButton per value */
  GtkWidget                    *error_label;
} AgentGtkElicitationField;

AgentGtkElicitationField *_agent_gtk_elicitation_field_new       (JsonObject               *schema,
                                                                  const char               *name,
                                                                  JsonObject               *property);
void                      _agent_gtk_elicitation_field_free      (AgentGtkElicitationField *field);
void                      _agent_gtk_elicitation_field_add_value (AgentGtkElicitationField *field,
                                                                  JsonObject               *content);
gboolean                  _agent_gtk_elicitation_field_owns      (AgentGtkElicitationField *field,
                                                                  GtkWidget                *control);

/* agent-gtk-elicitation-form.c: a control of @field changed */
void                      _agent_gtk_elicitation_form_changed    (GtkWidget                *control);

G_END_DECLS
