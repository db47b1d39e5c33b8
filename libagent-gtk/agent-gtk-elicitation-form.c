/* agent-gtk-elicitation-form.c
 *
 * An MCP server's request for input (AgentMcpElicitation) as a form: which
 * server asks and its message, then one field per property of the
 * requested schema — an entry for text (its format as the placeholder and
 * the input purpose), a spin button for a number or an integer within its
 * bounds, a switch for a boolean, a drop-down for one choice, check buttons
 * for several — each with its title, its description, whether it is
 * required, its default filled in, and below it what is wrong with it, as
 * agent_mcp_elicitation_validate() says, once the user changed it. Accept
 * (insensitive while the values would be refused), Decline and Cancel
 * (Escape) answer the request. In URL mode the form shows the message and
 * the URL, and Open accepts and opens it in the browser: nothing else is
 * asked.
 *
 * Like AgentGtkApprovalPrompt, a widget rather than a dialog: an application
 * shows it where it likes, or in a dialog with
 * agent_gtk_elicitation_form_present(). It goes away by itself once the
 * request is answered, here or elsewhere, or closed by the server.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-dialog-private.h"
#include "agent-gtk-elicitation-form.h"
#include "agent-gtk-elicitation-form-private.h"
#include "agent-gtk-private.h"

/**
 * AgentGtkElicitationForm:
 *
 * Asks the user for what an MCP server requests
 * ([class@Agent.McpElicitation]): a form built from the requested schema,
 * with Accept, Decline and Cancel, or in URL mode the URL with Open. The
 * form answers the request itself, and hides (or closes its dialog, see
 * [method@AgentGtk.ElicitationForm.present]) once the request is answered
 * or closed by the server.
 *
 * Since: 0.1
 */


struct _AgentGtkElicitationForm
{
  GtkWidget            parent_instance;

  GtkWidget           *box;
  GtkWidget           *heading_label;
  GtkWidget           *message_label;
  GtkWidget           *url_label;
  GtkWidget           *fields_box;
  GtkWidget           *error_label;
  GtkWidget           *cancel_button;
  GtkWidget           *decline_button;
  GtkWidget           *accept_button;

  AgentMcpElicitation *elicitation;
  GPtrArray           *fields;       /* of AgentGtkElicitationField */
  guint                pending : 1;
  guint                in_dialog : 1;   /* present()ed: the dialog goes */
};

enum {
  PROP_0,
  PROP_ELICITATION,
  PROP_PENDING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentGtkElicitationForm, agent_gtk_elicitation_form, GTK_TYPE_WIDGET)

/**
 * agent_gtk_elicitation_form_dup_content:
 * @self: an elicitation form
 *
 * Gets the values the form would send now: each field the user filled in,
 * changed, or that is required or has a default, by name.
 *
 * Returns: (transfer full): the values, as JSON members
 *
 * Since: 0.1
 */
JsonObject *
agent_gtk_elicitation_form_dup_content (AgentGtkElicitationForm *self)
{
  JsonObject *content;

  g_return_val_if_fail (AGENT_GTK_IS_ELICITATION_FORM (self), NULL);

  content = json_object_new ();
  for (guint i = 0; i < self->fields->len; i++)
    _agent_gtk_elicitation_field_add_value (self->fields->pdata[i], content);
  return content;
}

/* What is wrong, where: the library's message names the field
 * ("“email”: “ada@” is not an email address"), in its own domain */
static AgentGtkElicitationField *
field_of_error (AgentGtkElicitationForm  *self,
                const GError             *error,
                const char              **what)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      AgentGtkElicitationField *field = self->fields->pdata[i];
      g_autofree char *prefix = g_strdup_printf (g_dgettext ("libagent-1", "“%s”: %s"),
                                                 field->name, "");

      if (g_str_has_prefix (error->message, prefix))
        {
          *what = error->message + strlen (prefix);
          return field;
        }
    }
  *what = error->message;
  return NULL;
}

static void
validate (AgentGtkElicitationForm *self)
{
  g_autoptr(JsonObject) content = NULL;
  g_autoptr(GError) error = NULL;
  AgentGtkElicitationField *wrong = NULL;
  const char *what = NULL;
  gboolean valid;

  if (agent_mcp_elicitation_get_mode (self->elicitation) == AGENT_MCP_ELICITATION_MODE_URL)
    return;

  content = agent_gtk_elicitation_form_dup_content (self);
  valid = agent_mcp_elicitation_validate (self->elicitation, content, &error);
  if (!valid)
    wrong = field_of_error (self, error, &what);

  for (guint i = 0; i < self->fields->len; i++)
    {
      AgentGtkElicitationField *field = self->fields->pdata[i];
      /* What the user has not changed yet is not wrong yet: Accept says it */
      gboolean show = field == wrong && field->touched;

      gtk_label_set_text (GTK_LABEL (field->error_label), show ? what : "");
      gtk_widget_set_visible (field->error_label, show);
      gtk_accessible_update_state (GTK_ACCESSIBLE (field->control), GTK_ACCESSIBLE_STATE_INVALID,
                                   show ? GTK_ACCESSIBLE_INVALID_TRUE
                                        : GTK_ACCESSIBLE_INVALID_FALSE, -1);
    }
  /* Not about one field: under the form */
  gtk_label_set_text (GTK_LABEL (self->error_label), !valid && wrong == NULL ? what : "");
  gtk_widget_set_visible (self->error_label, !valid && wrong == NULL);
  gtk_widget_set_sensitive (self->accept_button, valid && self->pending);
}

void
_agent_gtk_elicitation_form_changed (GtkWidget *control)
{
  GtkWidget *ancestor = gtk_widget_get_ancestor (control, AGENT_GTK_TYPE_ELICITATION_FORM);
  AgentGtkElicitationForm *self;

  /* Not in the form yet: its default being set */
  if (ancestor == NULL)
    return;
  self = AGENT_GTK_ELICITATION_FORM (ancestor);
  for (guint i = 0; i < self->fields->len; i++)
    if (_agent_gtk_elicitation_field_owns (self->fields->pdata[i], control))
      ((AgentGtkElicitationField *) self->fields->pdata[i])->touched = TRUE;
  validate (self);
}

static void
build (AgentGtkElicitationForm *self)
{
  JsonObject *schema = agent_mcp_elicitation_get_requested_schema (self->elicitation);
  const char *server = agent_mcp_elicitation_get_server_name (self->elicitation);
  const char *url = agent_mcp_elicitation_get_url (self->elicitation);
  gboolean url_mode = agent_mcp_elicitation_get_mode (self->elicitation) ==
                      AGENT_MCP_ELICITATION_MODE_URL;
  g_autofree char *heading = NULL;
  JsonNode *node;

  /* TRANSLATORS: %s is the name of an MCP server */
  heading = url_mode ? g_strdup_printf (_("“%s” Asks You to Open a Page"), server)
                     : g_strdup_printf (_("“%s” Asks for Information"), server);
  gtk_label_set_text (GTK_LABEL (self->heading_label), heading);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, heading,
                                  -1);
  gtk_label_set_text (GTK_LABEL (self->message_label),
                      agent_mcp_elicitation_get_message (self->elicitation));

  if (url_mode)
    {
      gtk_label_set_text (GTK_LABEL (self->url_label), url);
      gtk_widget_set_visible (self->url_label, url != NULL);
      gtk_button_set_label (GTK_BUTTON (self->accept_button), _("_Open"));
      gtk_widget_set_tooltip_text (self->accept_button, _("Open the Page in the Browser"));
      return;
    }

  gtk_widget_set_tooltip_text (self->accept_button, _("Send the Values"));
  node = schema ? json_object_get_member (schema, "properties") : NULL;
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *fields = json_node_get_object (node);
      g_autoptr(GList) names = json_object_get_members (fields);

      /* In the server's order (json-glib keeps it) */
      for (GList *l = names; l != NULL; l = l->next)
        {
          JsonNode *property = json_object_get_member (fields, l->data);

          if (JSON_NODE_HOLDS_OBJECT (property))
            {
              AgentGtkElicitationField *field =
                _agent_gtk_elicitation_field_new (schema, l->data, json_node_get_object (property));

              gtk_box_append (GTK_BOX (self->fields_box), field->box);
              g_ptr_array_add (self->fields, field);
            }
        }
    }
  gtk_widget_set_visible (self->fields_box, self->fields->len > 0);
  validate (self);
}

/* Answers */

static void
set_pending (AgentGtkElicitationForm *self,
             gboolean                 pending)
{
  GtkRoot *root;
  GtkWidget *focus;

  if (self->pending == !!pending)
    return;
  self->pending = !!pending;

  /* The focus leaves first: GTK 4.8 warns of an entry made insensitive or
   * hidden while it had it ("did not receive a focus-out event") */
  root = gtk_widget_get_root (GTK_WIDGET (self));
  focus = root ? gtk_root_get_focus (root) : NULL;
  if (!pending && focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self)))
    gtk_root_set_focus (root, NULL);

  gtk_widget_set_sensitive (self->box, pending);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
  /* Shown where the application put it: it goes (a dialog closes on
   * notify::pending) */
  if (!pending && !self->in_dialog)
    gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

static void
on_request_over (AgentGtkElicitationForm *self)
{
  set_pending (self, FALSE);
}

static void
launched_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!gtk_show_uri_full_finish (GTK_WINDOW (object), result, &error))
    g_warning ("The page could not be opened: %s", error->message);
}

static void
on_accept_clicked (AgentGtkElicitationForm *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) content = NULL;

  if (!self->pending)
    return;

  if (agent_mcp_elicitation_get_mode (self->elicitation) == AGENT_MCP_ELICITATION_MODE_URL)
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
      g_autofree char *url = g_strdup (agent_mcp_elicitation_get_url (self->elicitation));

      if (agent_mcp_elicitation_accept (self->elicitation, NULL, &error) && url != NULL)
        gtk_show_uri_full (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, url,
                           GDK_CURRENT_TIME, NULL, launched_cb, NULL);
    }
  else
    {
      /* Everything the user left is shown wrong now */
      for (guint i = 0; i < self->fields->len; i++)
        ((AgentGtkElicitationField *) self->fields->pdata[i])->touched = TRUE;
      content = agent_gtk_elicitation_form_dup_content (self);
      agent_mcp_elicitation_accept (self->elicitation, content, &error);
    }

  if (error != NULL)
    {
      validate (self);
      if (!gtk_widget_get_visible (self->error_label))
        {
          gtk_label_set_text (GTK_LABEL (self->error_label), error->message);
          gtk_widget_set_visible (self->error_label, TRUE);
        }
      return;
    }
  set_pending (self, FALSE);
}

static void
on_decline_clicked (AgentGtkElicitationForm *self)
{
  if (!self->pending)
    return;
  agent_mcp_elicitation_decline (self->elicitation);
  set_pending (self, FALSE);
}

static void
on_cancel_clicked (AgentGtkElicitationForm *self)
{
  if (!self->pending)
    return;
  agent_mcp_elicitation_cancel (self->elicitation);
  set_pending (self, FALSE);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  on_cancel_clicked (AGENT_GTK_ELICITATION_FORM (widget));
}

static void
accept_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  AgentGtkElicitationForm *self = AGENT_GTK_ELICITATION_FORM (widget);

  if (gtk_widget_get_sensitive (self->accept_button))
    on_accept_clicked (self);
}

/* The object */

static void
agent_gtk_elicitation_form_dispose (GObject *object)
{
  AgentGtkElicitationForm *self = AGENT_GTK_ELICITATION_FORM (object);

  if (self->elicitation != NULL)
    g_signal_handlers_disconnect_by_data (self->elicitation, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_GTK_TYPE_ELICITATION_FORM);
  g_clear_object (&self->elicitation);
  g_clear_pointer (&self->fields, g_ptr_array_unref);

  G_OBJECT_CLASS (agent_gtk_elicitation_form_parent_class)->dispose (object);
}

static void
agent_gtk_elicitation_form_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  AgentGtkElicitationForm *self = AGENT_GTK_ELICITATION_FORM (object);

  switch (prop_id)
    {
    case PROP_ELICITATION:
      g_value_set_object (value, self->elicitation);
      break;
    case PROP_PENDING:
      g_value_set_boolean (value, self->pending);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_elicitation_form_set_property (GObject      *object,
                                         guint         prop_id,
                                         const GValue *value,
                                         GParamSpec   *pspec)
{
  AgentGtkElicitationForm *self = AGENT_GTK_ELICITATION_FORM (object);

  switch (prop_id)
    {
    case PROP_ELICITATION:
      self->elicitation = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_elicitation_form_constructed (GObject *object)
{
  AgentGtkElicitationForm *self = AGENT_GTK_ELICITATION_FORM (object);

  G_OBJECT_CLASS (agent_gtk_elicitation_form_parent_class)->constructed (object);

  g_return_if_fail (self->elicitation != NULL);
  self->pending = !agent_mcp_elicitation_get_answered (self->elicitation);
  g_signal_connect_swapped (self->elicitation, "closed", G_CALLBACK (on_request_over), self);
  g_signal_connect_swapped (self->elicitation, "notify::answered",
                            G_CALLBACK (on_request_over), self);
  build (self);
  if (!self->pending)
    {
      self->pending = TRUE;
      set_pending (self, FALSE);
    }
}

static void
agent_gtk_elicitation_form_class_init (AgentGtkElicitationFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_elicitation_form_dispose;
  object_class->get_property = agent_gtk_elicitation_form_get_property;
  object_class->set_property = agent_gtk_elicitation_form_set_property;
  object_class->constructed = agent_gtk_elicitation_form_constructed;

  /**
   * AgentGtkElicitationForm:elicitation:
   *
   * The request the form asks about.
   *
   * Since: 0.1
   */
  properties[PROP_ELICITATION] =
    g_param_spec_object ("elicitation", NULL, NULL, AGENT_TYPE_MCP_ELICITATION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AgentGtkElicitationForm:pending:
   *
   * Whether the request still waits for an answer: %FALSE once the form
   * answered it, it was answered elsewhere, or the server closed it. The
   * form then hides itself (or closes its dialog).
   *
   * Since: 0.1
   */
  properties[PROP_PENDING] =
    g_param_spec_boolean ("pending", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/agent-gtk-elicitation-form.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentGtkElicitationForm, box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkElicitationForm, heading_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkElicitationForm, message_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkElicitationForm, url_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkElicitationForm, fields_box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkElicitationForm, error_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkElicitationForm, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkElicitationForm, decline_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkElicitationForm, accept_button);
  gtk_widget_class_bind_template_callback (widget_class, on_accept_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_decline_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);

  gtk_widget_class_install_action (widget_class, "elicitation.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "elicitation.accept", NULL, accept_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "elicitation.cancel",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "elicitation.accept", NULL);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
agent_gtk_elicitation_form_init (AgentGtkElicitationForm *self)
{
  AGENT_GTK_INSTANCE_INIT ();
  gtk_widget_init_template (GTK_WIDGET (self));
  self->fields = g_ptr_array_new_with_free_func ((GDestroyNotify) _agent_gtk_elicitation_field_free);
}

/**
 * agent_gtk_elicitation_form_new:
 * @elicitation: a server's request for input
 *
 * Creates a form that asks the user for what @elicitation requests.
 *
 * Returns: (transfer floating): the form
 *
 * Since: 0.1
 */
GtkWidget *
agent_gtk_elicitation_form_new (AgentMcpElicitation *elicitation)
{
  g_return_val_if_fail (AGENT_IS_MCP_ELICITATION (elicitation), NULL);

  return g_object_new (AGENT_GTK_TYPE_ELICITATION_FORM, "elicitation", elicitation, NULL);
}

/**
 * agent_gtk_elicitation_form_get_elicitation:
 * @self: an elicitation form
 *
 * Gets the request the form asks about.
 *
 * Returns: (transfer none): the request
 *
 * Since: 0.1
 */
AgentMcpElicitation *
agent_gtk_elicitation_form_get_elicitation (AgentGtkElicitationForm *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ELICITATION_FORM (self), NULL);
  return self->elicitation;
}

/**
 * agent_gtk_elicitation_form_get_pending:
 * @self: an elicitation form
 *
 * Gets whether the request still waits for an answer.
 *
 * Returns: whether it waits
 *
 * Since: 0.1
 */
gboolean
agent_gtk_elicitation_form_get_pending (AgentGtkElicitationForm *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ELICITATION_FORM (self), FALSE);
  return self->pending;
}

/* The form in a dialog (agent-gtk-dialog.c): closing it cancels the
 * request; it goes once the request is answered or closed */
static gboolean
on_dialog_close (AgentGtkElicitationForm *self)
{
  on_cancel_clicked (self);
  return FALSE;
}

/**
 * agent_gtk_elicitation_form_present:
 * @self: an elicitation form, not in a parent yet
 * @parent: (nullable): a widget of the window the request is about
 *
 * Shows the form in a dialog over @parent's window (an [class@Adw.Dialog]
 * where libadwaita is 1.5 or later, a modal window before, no wider than
 * @parent's window). The dialog
 * goes once the request is answered, in it or elsewhere, or closed by the
 * server; closing it cancels the request.
 *
 * Since: 0.1
 */
void
agent_gtk_elicitation_form_present (AgentGtkElicitationForm *self,
                                    GtkWidget               *parent)
{
  g_return_if_fail (AGENT_GTK_IS_ELICITATION_FORM (self));
  g_return_if_fail (gtk_widget_get_parent (GTK_WIDGET (self)) == NULL);
  g_return_if_fail (parent == NULL || GTK_IS_WIDGET (parent));

  self->in_dialog = TRUE;
  _agent_gtk_dialog_present (GTK_WIDGET (self), parent,
                             gtk_label_get_text (GTK_LABEL (self->heading_label)),
                             self->accept_button, G_CALLBACK (on_dialog_close));
}
