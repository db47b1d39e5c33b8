/* agent-gtk-resource-picker.c
 *
 * The composer's “From <server>…”: a window that lists an MCP server's
 * resources and resource templates (name or title, URI, MIME type, size),
 * searchable, and reads the one picked. A template asks for its variables
 * first (one field each) and is expanded as RFC 6570 says for the
 * expressions servers use ({name}, {+path}, {/a,b}, {?q,lang}, …).
 *
 * What is read is handed to the composer by ::attach (a list of
 * AgentContentPart, as agent_mcp_client_read_resource_finish() makes them:
 * text as a text file named by its URI, a blob as an image or a file by
 * its MIME type), and the window closes. A resource that cannot be read
 * leaves the window open, with a line that says why under the list.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-gtk-private.h"
#include "agent-gtk-resource-picker-private.h"

struct _AgentGtkResourcePicker
{
  AdwWindow           parent_instance;

  GtkWidget          *back_button;
  GtkWidget          *window_title;
  GtkWidget          *search_entry;
  GtkWidget          *stack;
  GtkWidget          *spinner;
  GtkWidget          *list_box;
  GtkWidget          *status_page;
  GtkWidget          *arguments_group;
  GtkWidget          *attach_button;
  GtkWidget          *error_label;

  AgentMcpClient     *client;
  GCancellable       *cancellable;
  GListStore         *resources;  /* of AgentMcpResource: resources, then templates */
  GtkFilterListModel *filtered;
  AgentMcpResource   *template;   /* the template whose variables are asked */
  GPtrArray          *fields;     /* its AdwEntryRows, named by their variable */
  GError             *list_error;
  guint               pending;
};

enum {
  ATTACH,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentGtkResourcePicker, agent_gtk_resource_picker, ADW_TYPE_WINDOW)

static guint signals[N_SIGNALS];

/* URI templates (RFC 6570, level 3 and the explode and prefix modifiers read
 * but not applied: servers' templates use simple variables) */

/* The variables of @uri_template, in order, each once */
char **
_agent_gtk_resource_template_variables (const char *uri_template)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *p = uri_template;

  while ((p = strchr (p, '{')) != NULL)
    {
      const char *end = strchr (p, '}');
      g_autofree char *expression = NULL;
      g_auto(GStrv) names = NULL;
      const char *body;

      if (end == NULL)
        break;
      expression = g_strndup (p + 1, end - p - 1);
      body = expression;
      if (*body != '\0' && strchr ("+#./;?&", *body) != NULL)
        body++;
      names = g_strsplit (body, ",", -1);
      for (guint i = 0; names[i] != NULL; i++)
        {
          char *name = g_strstrip (names[i]);
          char *modifier = strpbrk (name, ":*");

          if (modifier != NULL)
            *modifier = '\0';
          if (*name != '\0' && !g_hash_table_contains (seen, name))
            {
              g_hash_table_add (seen, g_strdup (name));
              g_strv_builder_add (builder, name);
            }
        }
      p = end + 1;
    }
  return g_strv_builder_end (builder);
}

/* @uri_template with its variables replaced by @values (names to strings);
 * a variable without a value (or an empty one) is left out, as RFC 6570
 * does with undefined ones */
char *
_agent_gtk_resource_template_expand (const char *uri_template,
                                     GHashTable *values)
{
  GString *uri = g_string_new (NULL);
  const char *p = uri_template;

  while (*p != '\0')
    {
      const char *end;
      g_autofree char *expression = NULL;
      g_auto(GStrv) names = NULL;
      const char *body, *first = "", *separator = ",";
      gboolean named = FALSE, reserved = FALSE, any = FALSE;
      char operator = '\0';

      if (*p != '{' || (end = strchr (p, '}')) == NULL)
        {
          g_string_append_c (uri, *p++);
          continue;
        }
      expression = g_strndup (p + 1, end - p - 1);
      body = expression;
      if (*body != '\0' && strchr ("+#./;?&", *body) != NULL)
        operator = *body++;
      switch (operator)
        {
        case '+': reserved = TRUE; break;
        case '#': reserved = TRUE; first = "#"; break;
        case '.': first = "."; separator = "."; break;
        case '/': first = "/"; separator = "/"; break;
        case ';': first = ";"; separator = ";"; named = TRUE; break;
        case '?': first = "?"; separator = "&"; named = TRUE; break;
        case '&': first = "&"; separator = "&"; named = TRUE; break;
        default: break;
        }
      names = g_strsplit (body, ",", -1);
      for (guint i = 0; names[i] != NULL; i++)
        {
          char *name = g_strstrip (names[i]);
          char *modifier = strpbrk (name, ":*");
          const char *value;
          g_autofree char *escaped = NULL;

          if (modifier != NULL)
            *modifier = '\0';
          value = g_hash_table_lookup (values, name);
          if (value == NULL || *value == '\0')
            continue;
          escaped = g_uri_escape_string (value, reserved ? G_URI_RESERVED_CHARS_ALLOWED_IN_PATH
                                                         : NULL, FALSE);
          g_string_append (uri, any ? separator : first);
          if (named)
            g_string_append_printf (uri, "%s=", name);
          g_string_append (uri, escaped);
          any = TRUE;
        }
      p = end + 1;
    }
  return g_string_free (uri, FALSE);
}

/* The list */

static void
show_error (AgentGtkResourcePicker *self,
            const char             *uri,
            const GError           *error)
{
  g_autofree char *message = NULL;

  /* Translators: the first %s is a resource's URI, the second an MCP
   * server's name, the third why */
  message = g_strdup_printf (_("Could not read “%s” from “%s”: %s"), uri,
                             agent_mcp_client_get_name (self->client), error->message);
  gtk_label_set_text (GTK_LABEL (self->error_label), message);
  gtk_widget_set_visible (self->error_label, TRUE);
}

static gboolean
matches (gpointer item,
         gpointer user_data)
{
  AgentGtkResourcePicker *self = user_data;
  AgentMcpResource *resource = item;
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *needle = NULL;
  const char *fields[] = {
    agent_mcp_resource_get_name (resource),
    agent_mcp_resource_get_title (resource),
    agent_mcp_resource_get_uri (resource),
    agent_mcp_resource_get_uri_template (resource),
    agent_mcp_resource_get_description (resource),
  };

  if (search == NULL || *search == '\0')
    return TRUE;
  needle = g_utf8_casefold (search, -1);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autofree char *haystack = fields[i] ? g_utf8_casefold (fields[i], -1) : NULL;

      if (haystack != NULL && strstr (haystack, needle) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* "text/markdown · 1.2 kB", what is known of it */
static char *
dup_details (AgentMcpResource *resource)
{
  const char *mime_type = agent_mcp_resource_get_mime_type (resource);
  gint64 size = agent_mcp_resource_get_size (resource);
  g_autofree char *formatted = size >= 0 ? g_format_size (size) : NULL;

  if (mime_type != NULL && formatted != NULL)
    return g_strdup_printf ("%s · %s", mime_type, formatted);
  if (mime_type != NULL)
    return g_strdup (mime_type);
  return g_steal_pointer (&formatted);
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  AgentMcpResource *resource = item;
  const char *title = agent_mcp_resource_get_title (resource);
  const char *uri = agent_mcp_resource_get_uri (resource);
  const char *uri_template = agent_mcp_resource_get_uri_template (resource);
  g_autofree char *details = dup_details (resource);
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                 title ? title : agent_mcp_resource_get_name (resource));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), uri ? uri : uri_template);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  if (details != NULL)
    {
      GtkWidget *label = gtk_label_new (details);

      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 18);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
    }
  if (uri_template != NULL)
    {
      GtkWidget *icon = gtk_image_new_from_icon_name ("go-next-symbolic");

      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      _("Asks for its arguments"), -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), icon);
    }
  return row;
}

static void
show_list (AgentGtkResourcePicker *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->resources));

  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), FALSE);
  gtk_widget_set_visible (self->back_button, FALSE);
  gtk_widget_set_visible (self->search_entry, n > 0);
  if (n == 0 && self->list_error != NULL)
    {
      adw_status_page_set_icon_name (ADW_STATUS_PAGE (self->status_page),
                                     "dialog-error-symbolic");
      adw_status_page_set_title (ADW_STATUS_PAGE (self->status_page),
                                 _("Could Not List the Resources"));
      adw_status_page_set_description (ADW_STATUS_PAGE (self->status_page),
                                       self->list_error->message);
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "status");
    }
  else if (n == 0)
    {
      adw_status_page_set_icon_name (ADW_STATUS_PAGE (self->status_page),
                                     "folder-documents-symbolic");
      adw_status_page_set_title (ADW_STATUS_PAGE (self->status_page), _("No Resources"));
      adw_status_page_set_description (ADW_STATUS_PAGE (self->status_page),
                                       _("The server offers none."));
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "status");
    }
  else if (g_list_model_get_n_items (G_LIST_MODEL (self->filtered)) == 0)
    {
      adw_status_page_set_icon_name (ADW_STATUS_PAGE (self->status_page),
                                     "edit-find-symbolic");
      adw_status_page_set_title (ADW_STATUS_PAGE (self->status_page), _("No Results Found"));
      adw_status_page_set_description (ADW_STATUS_PAGE (self->status_page),
                                       _("Try a different search."));
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "status");
    }
  else
    gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "list");
  if (n > 0)
    gtk_widget_grab_focus (self->search_entry);
}

static void
listed (AgentGtkResourcePicker *self,
        GListModel             *list,
        GError                 *error,
        gboolean                templates)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (list != NULL)
    {
      for (guint i = 0; i < g_list_model_get_n_items (list); i++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (list, i);

          /* Resources before templates, whichever answers first */
          if (templates)
            g_list_store_append (self->resources, item);
          else
            g_list_store_insert (self->resources, i, item);
        }
    }
  else if (!templates && self->list_error == NULL)
    self->list_error = g_error_copy (error);
  /* A server without templates refuses to list them: not an error */
  if (--self->pending == 0)
    show_list (self);
}

static void
on_resources_listed (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(AgentGtkResourcePicker) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) list = agent_mcp_client_list_resources_finish (AGENT_MCP_CLIENT (object),
                                                                       result, &error);

  listed (self, list, error, FALSE);
}

static void
on_templates_listed (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(AgentGtkResourcePicker) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) list = NULL;

  list = agent_mcp_client_list_resource_templates_finish (AGENT_MCP_CLIENT (object), result,
                                                          &error);
  listed (self, list, error, TRUE);
}

/* Reading */

static void
on_read (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(AgentGtkResourcePicker) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) parts = NULL;

  parts = agent_mcp_client_read_resource_finish (AGENT_MCP_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  gtk_widget_set_sensitive (self->stack, TRUE);
  gtk_widget_set_sensitive (self->search_entry, TRUE);
  if (parts == NULL)
    {
      show_error (self, g_object_get_data (G_OBJECT (self), "agent-gtk-reading"), error);
      /* The keyboard back where it was, to write another value */
      if (self->template == NULL)
        show_list (self);
      else if (self->fields->len > 0)
        gtk_widget_grab_focus (g_ptr_array_index (self->fields, 0));
      else
        gtk_widget_grab_focus (self->attach_button);
      return;
    }
  g_signal_emit (self, signals[ATTACH], 0, parts);
  gtk_window_close (GTK_WINDOW (self));
}

static void
read_resource (AgentGtkResourcePicker *self,
               const char             *uri)
{
  gtk_widget_set_visible (self->error_label, FALSE);
  gtk_widget_set_sensitive (self->stack, FALSE);
  gtk_widget_set_sensitive (self->search_entry, FALSE);
  g_object_set_data_full (G_OBJECT (self), "agent-gtk-reading", g_strdup (uri), g_free);
  agent_mcp_client_read_resource_async (self->client, uri, self->cancellable, on_read,
                                        g_object_ref (self));
}

/* A template's variables */

static void
show_arguments (AgentGtkResourcePicker *self,
                AgentMcpResource       *template)
{
  const char *uri_template = agent_mcp_resource_get_uri_template (template);
  const char *title = agent_mcp_resource_get_title (template);
  const char *description = agent_mcp_resource_get_description (template);
  g_auto(GStrv) variables = _agent_gtk_resource_template_variables (uri_template);

  for (guint i = 0; i < self->fields->len; i++)
    adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self->arguments_group),
                                  g_ptr_array_index (self->fields, i));
  g_ptr_array_set_size (self->fields, 0);
  g_set_object (&self->template, template);

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (self->arguments_group),
                                   title ? title : agent_mcp_resource_get_name (template));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self->arguments_group),
                                         description ? description : uri_template);
  for (guint i = 0; variables[i] != NULL; i++)
    {
      GtkWidget *field = adw_entry_row_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (field), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (field), variables[i]);
      g_signal_connect_object (field, "entry-activated",
                               G_CALLBACK (gtk_widget_activate), self->attach_button,
                               G_CONNECT_SWAPPED);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (self->arguments_group), field);
      g_ptr_array_add (self->fields, field);
    }
  gtk_widget_set_visible (self->error_label, FALSE);
  gtk_widget_set_visible (self->search_entry, FALSE);
  gtk_widget_set_visible (self->back_button, TRUE);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "arguments");
  if (self->fields->len > 0)
    gtk_widget_grab_focus (g_ptr_array_index (self->fields, 0));
  else
    gtk_widget_grab_focus (self->attach_button);
}

static void
on_attach_clicked (AgentGtkResourcePicker *self)
{
  g_autoptr(GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *uri = NULL;

  if (self->template == NULL)
    return;
  for (guint i = 0; i < self->fields->len; i++)
    {
      AdwPreferencesRow *field = g_ptr_array_index (self->fields, i);

      g_hash_table_insert (values, (char *) adw_preferences_row_get_title (field),
                           (char *) gtk_editable_get_text (GTK_EDITABLE (field)));
    }
  uri = _agent_gtk_resource_template_expand (agent_mcp_resource_get_uri_template (self->template),
                                             values);
  read_resource (self, uri);
}

static void
on_back_clicked (AgentGtkResourcePicker *self)
{
  g_clear_object (&self->template);
  gtk_widget_set_visible (self->error_label, FALSE);
  show_list (self);
}

static void
on_row_activated (AgentGtkResourcePicker *self,
                  GtkListBoxRow          *row)
{
  g_autoptr(AgentMcpResource) resource = NULL;

  resource = g_list_model_get_item (G_LIST_MODEL (self->filtered),
                                    gtk_list_box_row_get_index (row));
  if (resource == NULL)
    return;
  if (agent_mcp_resource_get_uri_template (resource) != NULL)
    show_arguments (self, resource);
  else
    read_resource (self, agent_mcp_resource_get_uri (resource));
}

static void
on_search_changed (AgentGtkResourcePicker *self)
{
  GtkFilter *filter = gtk_filter_list_model_get_filter (self->filtered);

  gtk_filter_changed (filter, GTK_FILTER_CHANGE_DIFFERENT);
  if (self->pending == 0 && self->template == NULL)
    show_list (self);
}

/* Enter in the search picks the first match */
static void
on_search_activate (AgentGtkResourcePicker *self)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->list_box), 0);

  if (row != NULL)
    on_row_activated (self, row);
}

/* Down in the search goes to the list */
static gboolean
on_search_key (GtkEventControllerKey  *controller,
               guint                   keyval,
               guint                   keycode,
               GdkModifierType         state,
               AgentGtkResourcePicker *self)
{
  GtkListBoxRow *row;

  if (keyval != GDK_KEY_Down && keyval != GDK_KEY_KP_Down)
    return GDK_EVENT_PROPAGATE;
  row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->list_box), 0);
  if (row == NULL)
    return GDK_EVENT_PROPAGATE;
  gtk_widget_grab_focus (GTK_WIDGET (row));
  return GDK_EVENT_STOP;
}

static void
agent_gtk_resource_picker_dispose (GObject *object)
{
  AgentGtkResourcePicker *self = AGENT_GTK_RESOURCE_PICKER (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_GTK_TYPE_RESOURCE_PICKER);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->filtered);
  g_clear_object (&self->resources);
  g_clear_object (&self->template);
  g_clear_object (&self->client);
  g_clear_pointer (&self->fields, g_ptr_array_unref);
  g_clear_error (&self->list_error);

  G_OBJECT_CLASS (agent_gtk_resource_picker_parent_class)->dispose (object);
}

static void
agent_gtk_resource_picker_class_init (AgentGtkResourcePickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_resource_picker_dispose;

  /* ::attach (parts): the resource read, a list of AgentContentPart */
  signals[ATTACH] = g_signal_new ("attach", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_LIST_MODEL);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/"
                                               "agent-gtk-resource-picker.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentGtkResourcePicker, back_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkResourcePicker, window_title);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkResourcePicker, search_entry);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkResourcePicker, stack);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkResourcePicker, spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkResourcePicker, list_box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkResourcePicker, status_page);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkResourcePicker, arguments_group);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkResourcePicker, attach_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkResourcePicker, error_label);
  gtk_widget_class_bind_template_callback (widget_class, on_back_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_attach_clicked);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
agent_gtk_resource_picker_init (AgentGtkResourcePicker *self)
{
  GtkEventController *keys;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  self->fields = g_ptr_array_new ();
  self->resources = g_list_store_new (AGENT_TYPE_MCP_RESOURCE);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->resources)),
                                              GTK_FILTER (gtk_custom_filter_new (matches, self,
                                                                                 NULL)));
  gtk_list_box_bind_model (GTK_LIST_BOX (self->list_box), G_LIST_MODEL (self->filtered),
                           create_row, NULL, NULL);

  keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_search_key), self);
  gtk_widget_add_controller (self->search_entry, keys);
}

/* Lists the resources and templates of @client, a ready server, over
 * @parent */
GtkWidget *
agent_gtk_resource_picker_new (AgentMcpClient *client,
                               GtkWindow      *parent)
{
  AgentGtkResourcePicker *self;
  g_autofree char *title = NULL;

  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (client), NULL);

  self = g_object_new (AGENT_GTK_TYPE_RESOURCE_PICKER, "transient-for", parent, NULL);
  self->client = g_object_ref (client);
  /* Translators: the title of the window that lists the resources of an
   * MCP server; %s is its name */
  title = g_strdup_printf (_("Attach from %s"), agent_mcp_client_get_name (client));
  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_window_title_set_title (ADW_WINDOW_TITLE (self->window_title), title);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), TRUE);
  gtk_widget_set_visible (self->search_entry, FALSE);
  self->pending = 2;
  agent_mcp_client_list_resources_async (client, self->cancellable, on_resources_listed,
                                         g_object_ref (self));
  agent_mcp_client_list_resource_templates_async (client, self->cancellable, on_templates_listed,
                                                  g_object_ref (self));
  return GTK_WIDGET (self);
}
