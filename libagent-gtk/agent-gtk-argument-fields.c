/* agent-gtk-argument-fields.c
 *
 * A tool call's arguments as fields: one row per member of the object the
 * model writes, its name dimmed and its value as text (a string without
 * its quotes, what is nested as indented "name: value" lines), growing as
 * the arguments stream in.
 *
 * The text is read by one AgentPartialJson, fed only what was appended
 * since the last time; the rows change only when the value read did.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <string.h>

#include <agent.h>

#include "agent-gtk-argument-fields-private.h"
#include "agent-gtk-private.h"

struct _AgentGtkArgumentFields
{
  GtkWidget         parent_instance;

  AgentPartialJson *reader;
  GString          *fed;        /* the text the reader was fed */
  guint             revision;   /* the reader's revision the rows show */
  guint             failed : 1; /* the text is not JSON */
  GPtrArray        *keys;       /* a GtkLabel per row */
  GPtrArray        *values;
};

G_DEFINE_FINAL_TYPE (AgentGtkArgumentFields, agent_gtk_argument_fields, GTK_TYPE_WIDGET)

static gboolean
is_filled_container (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return json_object_get_size (json_node_get_object (node)) > 0;
  if (JSON_NODE_HOLDS_ARRAY (node))
    return json_array_get_length (json_node_get_array (node)) > 0;
  return FALSE;
}

static void
append_scalar (GString  *out,
               JsonNode *node)
{
  g_autofree char *json = NULL;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_string_append (out, json_node_get_string (node));
      return;
    }
  json = json_to_string (node, FALSE);
  g_string_append (out, json);
}

static void append_nested (GString  *out,
                           JsonNode *node,
                           guint     indent,
                           gboolean  go_on);

/* A new line at @indent; or, with @go_on, the line goes on (the first
 * member of an element, after its bullet) */
static void
start_line (GString  *out,
            guint     indent,
            gboolean *go_on)
{
  if (*go_on)
    {
      *go_on = FALSE;
      return;
    }
  if (out->len > 0)
    g_string_append_c (out, '\n');
  for (guint i = 0; i < indent; i++)
    g_string_append (out, "  ");
}

/* After a name: a scalar on the same line, a container on the lines below;
 * after a bullet, a container begins on the bullet's line */
static void
append_value (GString  *out,
              JsonNode *node,
              guint     indent,
              gboolean  bullet)
{
  if (is_filled_container (node))
    {
      if (bullet)
        g_string_append_c (out, ' ');
      append_nested (out, node, indent, bullet);
    }
  else
    {
      g_string_append_c (out, ' ');
      append_scalar (out, node);
    }
}

/* @node's members as "name: value" lines, an array's elements as "• value"
 * lines; what they hold in turn on the lines after, indented (YAML-like) */
static void
append_nested (GString  *out,
               JsonNode *node,
               guint     indent,
               gboolean  go_on)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (object);

      for (const GList *l = members; l != NULL; l = l->next)
        {
          start_line (out, indent, &go_on);
          g_string_append_printf (out, "%s:", (const char *) l->data);
          append_value (out, json_object_get_member (object, l->data), indent + 1, FALSE);
        }
    }
  else
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          start_line (out, indent, &go_on);
          g_string_append (out, "•");
          append_value (out, json_array_get_element (array, i), indent + 1, TRUE);
        }
    }
}

/* @node as a field's value shows it: a string as its text, a number or a
 * literal as JSON, an object or an array as indented lines */
char *
_agent_gtk_format_json_value (JsonNode *node)
{
  GString *out = g_string_new (NULL);

  if (node == NULL)
    return g_string_free (out, FALSE);
  if (is_filled_container (node))
    append_nested (out, node, 0, FALSE);
  else
    append_scalar (out, node);
  return g_string_free (out, FALSE);
}

static void
set_label_text (GtkWidget  *label,
                const char *text)
{
  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) != 0)
    gtk_label_set_text (GTK_LABEL (label), text);
}

static void
attach (AgentGtkArgumentFields *self,
        GtkWidget              *child,
        guint                   row,
        guint                   column)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  GtkLayoutChild *layout_child;

  gtk_widget_set_parent (child, GTK_WIDGET (self));
  layout_child = gtk_layout_manager_get_layout_child (layout, child);
  gtk_grid_layout_child_set_row (GTK_GRID_LAYOUT_CHILD (layout_child), row);
  gtk_grid_layout_child_set_column (GTK_GRID_LAYOUT_CHILD (layout_child), column);
}

/* A row: the name dimmed, the value beside it, wrapped; the value named by
 * its name for screen readers */
static void
add_row (AgentGtkArgumentFields *self)
{
  GtkWidget *key = g_object_new (GTK_TYPE_LABEL,
                                 "xalign", 0.0f,
                                 "yalign", 0.0f,
                                 "valign", GTK_ALIGN_START,
                                 "wrap", TRUE,
                                 "wrap-mode", PANGO_WRAP_WORD_CHAR,
                                 "max-width-chars", 16,
                                 "css-classes",
                                 (const char *[]) { "dim-label", "field-name", NULL },
                                 NULL);
  GtkWidget *value = g_object_new (GTK_TYPE_LABEL,
                                   "xalign", 0.0f,
                                   "hexpand", TRUE,
                                   "wrap", TRUE,
                                   "wrap-mode", PANGO_WRAP_WORD_CHAR,
                                   "width-chars", AGENT_GTK_LABEL_MIN_CHARS,
                                   "css-classes", (const char *[]) { "field-value", NULL },
                                   NULL);

  gtk_accessible_update_relation (GTK_ACCESSIBLE (value),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, key, NULL,
                                  -1);
  attach (self, key, self->keys->len, 0);
  attach (self, value, self->values->len, 1);
  g_ptr_array_add (self->keys, key);
  g_ptr_array_add (self->values, value);
}

static void
remove_last_row (AgentGtkArgumentFields *self)
{
  gtk_widget_unparent (g_ptr_array_steal_index (self->keys, self->keys->len - 1));
  gtk_widget_unparent (g_ptr_array_steal_index (self->values, self->values->len - 1));
}

/* The members read so far, in order, a row each: the rows there already
 * are kept, and only the texts that changed are set */
static void
update_rows (AgentGtkArgumentFields *self,
             JsonObject             *object)
{
  g_autoptr(GList) members = json_object_get_members (object);
  guint n = 0;

  for (const GList *l = members; l != NULL; l = l->next, n++)
    {
      g_autofree char *value = _agent_gtk_format_json_value (json_object_get_member (object,
                                                                                     l->data));

      if (n == self->keys->len)
        add_row (self);
      set_label_text (g_ptr_array_index (self->keys, n), l->data);
      set_label_text (g_ptr_array_index (self->values, n), value);
    }
  while (self->keys->len > n)
    remove_last_row (self);
}

static void
agent_gtk_argument_fields_dispose (GObject *object)
{
  AgentGtkArgumentFields *self = AGENT_GTK_ARGUMENT_FIELDS (object);

  while (self->keys->len > 0)
    remove_last_row (self);

  G_OBJECT_CLASS (agent_gtk_argument_fields_parent_class)->dispose (object);
}

static void
agent_gtk_argument_fields_finalize (GObject *object)
{
  AgentGtkArgumentFields *self = AGENT_GTK_ARGUMENT_FIELDS (object);

  g_clear_pointer (&self->reader, agent_partial_json_unref);
  g_string_free (self->fed, TRUE);
  g_ptr_array_unref (self->keys);
  g_ptr_array_unref (self->values);

  G_OBJECT_CLASS (agent_gtk_argument_fields_parent_class)->finalize (object);
}

static void
agent_gtk_argument_fields_class_init (AgentGtkArgumentFieldsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_argument_fields_dispose;
  object_class->finalize = agent_gtk_argument_fields_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_GRID_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "argumentfields");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
agent_gtk_argument_fields_init (AgentGtkArgumentFields *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_grid_layout_set_column_spacing (GTK_GRID_LAYOUT (layout), 12);
  gtk_grid_layout_set_row_spacing (GTK_GRID_LAYOUT (layout), 4);
  self->reader = agent_partial_json_new ();
  self->fed = g_string_new (NULL);
  self->keys = g_ptr_array_new ();
  self->values = g_ptr_array_new ();
}

GtkWidget *
agent_gtk_argument_fields_new (void)
{
  return g_object_new (AGENT_GTK_TYPE_ARGUMENT_FIELDS, NULL);
}

/* Forgets the text read and the rows, for another call's arguments */
void
agent_gtk_argument_fields_reset (AgentGtkArgumentFields *self)
{
  g_return_if_fail (AGENT_GTK_IS_ARGUMENT_FIELDS (self));

  agent_partial_json_reset (self->reader);
  g_string_truncate (self->fed, 0);
  self->failed = FALSE;
  self->revision = agent_partial_json_get_revision (self->reader);
  while (self->keys->len > 0)
    remove_last_row (self);
}

/* Shows @text, the arguments as far as they came (or @whole), as fields.
 * Text that continues the text shown before is fed to the reader from
 * where it stopped; other text is read anew. Returns whether @text reads
 * as an object (so far, or a whole one if @whole): otherwise the rows
 * are not to be shown, and the caller shows the text as it is. */
gboolean
agent_gtk_argument_fields_set_text (AgentGtkArgumentFields *self,
                                    const char             *text,
                                    gboolean                whole)
{
  JsonNode *value;
  gsize len;

  g_return_val_if_fail (AGENT_GTK_IS_ARGUMENT_FIELDS (self), FALSE);

  text = text ? text : "";
  len = strlen (text);
  if (len < self->fed->len || memcmp (text, self->fed->str, self->fed->len) != 0)
    agent_gtk_argument_fields_reset (self);
  if (len > self->fed->len)
    {
      const char *delta = text + self->fed->len;
      gsize delta_len = len - self->fed->len;

      if (!self->failed && !agent_partial_json_feed (self->reader, delta, delta_len, NULL))
        self->failed = TRUE;
      g_string_append_len (self->fed, delta, delta_len);
    }

  value = agent_partial_json_get_value (self->reader);
  if (self->failed || value == NULL || !JSON_NODE_HOLDS_OBJECT (value) ||
      (whole && !agent_partial_json_is_complete (self->reader)))
    return FALSE;

  if (self->revision != agent_partial_json_get_revision (self->reader))
    {
      self->revision = agent_partial_json_get_revision (self->reader);
      update_rows (self, json_node_get_object (value));
    }
  return TRUE;
}

/* How many rows the fields show */
guint
agent_gtk_argument_fields_get_n_fields (AgentGtkArgumentFields *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ARGUMENT_FIELDS (self), 0);

  return self->keys->len;
}
