/* agent-gtk-elicitation-form-fields.c
 *
 * The fields of an AgentGtkElicitationForm, one per property of the
 * requested schema (the restricted schema of the MCP specification: a flat
 * object of strings, numbers, integers, booleans and lists of choices): its
 * title, "Required", its description, its control with the default filled
 * in, and a label for what is wrong with it; and the value it gives.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-elicitation-form-private.h"

void
_agent_gtk_elicitation_field_free (AgentGtkElicitationField *field)
{
  g_free (field->name);
  g_clear_pointer (&field->values, g_ptr_array_unref);
  g_clear_pointer (&field->checks, g_ptr_array_unref);
  g_free (field);
}

/* The schema */

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
member_number (JsonObject *object,
               const char *name,
               double     *value)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
    return FALSE;
  *value = json_node_get_double (node);
  return TRUE;
}

/* The values of "enum" (titled by "enumNames") or of "oneOf"/"anyOf"
 * {const, title}, and their titles; FALSE if there are none */
static gboolean
read_choices (JsonObject *field,
              GPtrArray  *values,
              GPtrArray  *titles)
{
  JsonNode *node;

  if ((node = json_object_get_member (field, "enum")) != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      JsonNode *names = json_object_get_member (field, "enumNames");
      JsonArray *name_array = names && JSON_NODE_HOLDS_ARRAY (names)
                              ? json_node_get_array (names) : NULL;

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          const char *value;
          const char *title = NULL;

          if (!JSON_NODE_HOLDS_VALUE (element) ||
              json_node_get_value_type (element) != G_TYPE_STRING)
            continue;
          value = json_node_get_string (element);
          if (name_array != NULL && i < json_array_get_length (name_array))
            {
              JsonNode *name = json_array_get_element (name_array, i);

              if (JSON_NODE_HOLDS_VALUE (name) && json_node_get_value_type (name) == G_TYPE_STRING)
                title = json_node_get_string (name);
            }
          g_ptr_array_add (values, g_strdup (value));
          g_ptr_array_add (titles, g_strdup (title ? title : value));
        }
      return values->len > 0;
    }

  if (((node = json_object_get_member (field, "oneOf")) != NULL ||
       (node = json_object_get_member (field, "anyOf")) != NULL) && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          JsonObject *choice;
          const char *value;
          const char *title;

          if (!JSON_NODE_HOLDS_OBJECT (element))
            continue;
          choice = json_node_get_object (element);
          if ((value = member_string (choice, "const")) == NULL)
            continue;
          title = member_string (choice, "title");
          g_ptr_array_add (values, g_strdup (value));
          g_ptr_array_add (titles, g_strdup (title ? title : value));
        }
      return values->len > 0;
    }
  return FALSE;
}

static gboolean
is_required (JsonObject *schema,
             const char *name)
{
  JsonNode *node = json_object_get_member (schema, "required");
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING &&
          g_strcmp0 (json_node_get_string (element), name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* The values */

static gboolean
field_sends (AgentGtkElicitationField *field)
{
  return field->required || field->has_default || field->touched;
}

void
_agent_gtk_elicitation_field_add_value (AgentGtkElicitationField *field,
                                        JsonObject               *content)
{
  switch (field->kind)
    {
    case AGENT_GTK_ELICITATION_FIELD_TEXT:
      {
        const char *text = gtk_editable_get_text (GTK_EDITABLE (field->control));

        /* Nothing typed: not given (a required one says so) */
        if (text[0] != '\0')
          json_object_set_string_member (content, field->name, text);
      }
      break;
    case AGENT_GTK_ELICITATION_FIELD_NUMBER:
      if (field_sends (field))
        json_object_set_double_member (content, field->name,
                                       gtk_spin_button_get_value (GTK_SPIN_BUTTON (field->control)));
      break;
    case AGENT_GTK_ELICITATION_FIELD_INTEGER:
      if (field_sends (field))
        json_object_set_int_member (content, field->name,
                                    gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (field->control)));
      break;
    case AGENT_GTK_ELICITATION_FIELD_BOOLEAN:
      if (field_sends (field))
        json_object_set_boolean_member (content, field->name,
                                        gtk_switch_get_active (GTK_SWITCH (field->control)));
      break;
    case AGENT_GTK_ELICITATION_FIELD_CHOICE:
      {
        guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (field->control));

        if (field->placeholder)
          {
            if (selected == 0 || selected == GTK_INVALID_LIST_POSITION)
              break;
            selected--;
          }
        if (selected < field->values->len)
          json_object_set_string_member (content, field->name, field->values->pdata[selected]);
      }
      break;
    case AGENT_GTK_ELICITATION_FIELD_CHOICES:
      if (field_sends (field))
        {
          JsonArray *array = json_array_new ();

          for (guint i = 0; i < field->checks->len; i++)
            if (gtk_check_button_get_active (field->checks->pdata[i]))
              json_array_add_string_element (array, field->values->pdata[i]);
          json_object_set_array_member (content, field->name, array);
        }
      break;
    default:
      g_assert_not_reached ();
    }
}

/* The fields */

static GtkWidget *
text_control (AgentGtkElicitationField *field,
              JsonObject *schema)
{
  GtkWidget *entry = gtk_entry_new ();
  const char *format = member_string (schema, "format");
  const char *value = member_string (schema, "default");

  if (g_strcmp0 (format, "email") == 0)
    {
      gtk_entry_set_input_purpose (GTK_ENTRY (entry), GTK_INPUT_PURPOSE_EMAIL);
      gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("name@example.com"));
    }
  else if (g_strcmp0 (format, "uri") == 0)
    {
      gtk_entry_set_input_purpose (GTK_ENTRY (entry), GTK_INPUT_PURPOSE_URL);
      gtk_entry_set_placeholder_text (GTK_ENTRY (entry), "https://");
    }
  else if (g_strcmp0 (format, "date") == 0)
    /* TRANSLATORS: the form of a date to type; keep the letters, which the
     * server reads in this order whatever the language */
    gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("YYYY-MM-DD"));
  else if (g_strcmp0 (format, "date-time") == 0)
    /* TRANSLATORS: the form of a date and time to type, as the server reads it */
    gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("YYYY-MM-DDThh:mm:ss+01:00"));
  if (value != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (entry), value);
      field->has_default = TRUE;
    }
  g_signal_connect (entry, "changed", G_CALLBACK (_agent_gtk_elicitation_form_changed), NULL);
  return entry;
}

static GtkWidget *
number_control (AgentGtkElicitationField *field,
                JsonObject *schema)
{
  gboolean integer = field->kind == AGENT_GTK_ELICITATION_FIELD_INTEGER;
  double minimum = integer ? G_MININT32 : -1e15;
  double maximum = integer ? G_MAXINT32 : 1e15;
  double value = 0;
  GtkWidget *spin;

  member_number (schema, "minimum", &minimum);
  member_number (schema, "maximum", &maximum);
  if (maximum < minimum)
    maximum = minimum;
  spin = gtk_spin_button_new_with_range (minimum, maximum, 1);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), integer ? 0 : 2);
  gtk_widget_set_halign (spin, GTK_ALIGN_START);
  if (member_number (schema, "default", &value))
    field->has_default = TRUE;
  else
    value = CLAMP (0, minimum, maximum);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  g_signal_connect (spin, "value-changed", G_CALLBACK (_agent_gtk_elicitation_form_changed), NULL);
  return spin;
}

static GtkWidget *
boolean_control (AgentGtkElicitationField *field,
                 JsonObject *schema)
{
  GtkWidget *toggle = gtk_switch_new ();
  JsonNode *node = json_object_get_member (schema, "default");

  gtk_widget_set_halign (toggle, GTK_ALIGN_START);
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    {
      gtk_switch_set_active (GTK_SWITCH (toggle), json_node_get_boolean (node));
      field->has_default = TRUE;
    }
  g_signal_connect (toggle, "notify::active", G_CALLBACK (_agent_gtk_elicitation_form_changed), NULL);
  return toggle;
}

static GtkWidget *
choice_control (AgentGtkElicitationField *field,
                JsonObject *schema,
                GPtrArray  *titles)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  const char *value = member_string (schema, "default");
  guint selected = 0;
  GtkWidget *drop_down;

  if (value != NULL && g_ptr_array_find_with_equal_func (field->values, value, g_str_equal,
                                                         &selected))
    field->has_default = TRUE;
  else
    {
      /* Nothing chosen until the user chooses */
      field->placeholder = TRUE;
      gtk_string_list_append (list, _("Not Chosen"));
    }
  for (guint i = 0; i < titles->len; i++)
    gtk_string_list_append (list, titles->pdata[i]);
  drop_down = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&list)), NULL);
  gtk_widget_set_halign (drop_down, GTK_ALIGN_START);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (drop_down), field->placeholder ? 0 : selected);
  g_signal_connect (drop_down, "notify::selected", G_CALLBACK (_agent_gtk_elicitation_form_changed), NULL);
  return drop_down;
}

static GtkWidget *
choices_control (AgentGtkElicitationField *field,
                 JsonObject *schema,
                 GPtrArray  *titles)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  JsonNode *node = json_object_get_member (schema, "default");
  JsonArray *defaults = node && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;

  field->has_default = defaults != NULL;
  field->checks = g_ptr_array_new ();
  for (guint i = 0; i < titles->len; i++)
    {
      GtkWidget *check = gtk_check_button_new_with_label (titles->pdata[i]);

      for (guint j = 0; defaults != NULL && j < json_array_get_length (defaults); j++)
        {
          JsonNode *element = json_array_get_element (defaults, j);

          if (JSON_NODE_HOLDS_VALUE (element) &&
              json_node_get_value_type (element) == G_TYPE_STRING &&
              g_strcmp0 (json_node_get_string (element), field->values->pdata[i]) == 0)
            gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
        }
      g_signal_connect (check, "toggled", G_CALLBACK (_agent_gtk_elicitation_form_changed), NULL);
      gtk_box_append (GTK_BOX (box), check);
      g_ptr_array_add (field->checks, check);
    }
  return box;
}

AgentGtkElicitationField *
_agent_gtk_elicitation_field_new (JsonObject *schema,
                                  const char *name,
                                  JsonObject *property)
{
  g_autoptr(GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);
  AgentGtkElicitationField *field = g_new0 (AgentGtkElicitationField, 1);
  const char *type = member_string (property, "type");
  const char *title = member_string (property, "title");
  const char *description = member_string (property, "description");
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *heading = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title_label;

  field->name = g_strdup (name);
  field->required = is_required (schema, name);
  field->values = g_ptr_array_new_with_free_func (g_free);

  if (g_strcmp0 (type, "array") == 0)
    {
      JsonNode *items = json_object_get_member (property, "items");

      field->kind = AGENT_GTK_ELICITATION_FIELD_CHOICES;
      if (items != NULL && JSON_NODE_HOLDS_OBJECT (items))
        read_choices (json_node_get_object (items), field->values, titles);
      field->control = choices_control (field, property, titles);
    }
  else if (g_strcmp0 (type, "string") == 0 && read_choices (property, field->values, titles))
    {
      field->kind = AGENT_GTK_ELICITATION_FIELD_CHOICE;
      field->control = choice_control (field, property, titles);
    }
  else if (g_strcmp0 (type, "number") == 0 || g_strcmp0 (type, "integer") == 0)
    {
      field->kind = g_str_equal (type, "integer") ? AGENT_GTK_ELICITATION_FIELD_INTEGER : AGENT_GTK_ELICITATION_FIELD_NUMBER;
      field->control = number_control (field, property);
    }
  else if (g_strcmp0 (type, "boolean") == 0)
    {
      field->kind = AGENT_GTK_ELICITATION_FIELD_BOOLEAN;
      field->control = boolean_control (field, property);
    }
  else
    {
      field->kind = AGENT_GTK_ELICITATION_FIELD_TEXT;
      field->control = text_control (field, property);
    }

  title_label = gtk_label_new (title ? title : name);
  gtk_label_set_xalign (GTK_LABEL (title_label), 0);
  gtk_label_set_wrap (GTK_LABEL (title_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (title_label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (title_label, "heading");
  gtk_box_append (GTK_BOX (heading), title_label);
  if (field->required)
    {
      GtkWidget *required = gtk_label_new (_("Required"));

      gtk_widget_add_css_class (required, "dim-label");
      gtk_widget_add_css_class (required, "caption");
      gtk_widget_set_valign (required, GTK_ALIGN_BASELINE);
      gtk_box_append (GTK_BOX (heading), required);
      gtk_accessible_update_property (GTK_ACCESSIBLE (field->control),
                                      GTK_ACCESSIBLE_PROPERTY_REQUIRED, TRUE, -1);
    }
  gtk_box_append (GTK_BOX (box), heading);

  /* The control is called by the field's title, and described by its
   * description */
  gtk_accessible_update_property (GTK_ACCESSIBLE (field->control),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title ? title : name, -1);
  if (description != NULL)
    {
      GtkWidget *label = gtk_label_new (description);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (GTK_BOX (box), label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (field->control),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
    }
  gtk_box_append (GTK_BOX (box), field->control);

  field->error_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (field->error_label), 0);
  gtk_label_set_wrap (GTK_LABEL (field->error_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (field->error_label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (field->error_label, "error");
  gtk_widget_set_visible (field->error_label, FALSE);
  gtk_box_append (GTK_BOX (box), field->error_label);

  field->box = box;
  return field;
}

gboolean
_agent_gtk_elicitation_field_owns (AgentGtkElicitationField *field,
                                   GtkWidget                *control)
{
  return field->control == control ||
         (field->checks != NULL && g_ptr_array_find (field->checks, control, NULL));
}

