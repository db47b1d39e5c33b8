/* agent-gtk-error-card.c
 *
 * A failed turn, as a conversation shows it: a heading that says what
 * happened in plain words, the provider's own message (or what to do) and
 * Retry — and Preferences, where the application has them and the fix is
 * likely there (a missing or refused API key, a wrong address). A dropped
 * connection is told apart from a server that could not be reached, and a
 * 401 when no key is set from a refused key.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <agent.h>
#include <glib/gi18n-lib.h>

#include "agent-gtk-error-card-private.h"
#include "agent-gtk-private.h"

/**
 * AgentGtkErrorCard:
 *
 * Why a turn failed, in words a person can act on (the server refused the
 * key, could not be reached, the answer was cut short…), with Retry
 * ([signal@AgentGtk.ErrorCard::retry]) and, when the fix is likely in the
 * application's settings, Preferences.
 *
 * Since: 0.1
 */
struct _AgentGtkErrorCard
{
  GtkWidget  parent_instance;

  GtkWidget *heading_label;
  GtkWidget *body_label;
  GtkWidget *settings_button;

  GError    *error;
  char      *heading;
  char      *body;
  guint      partial : 1;
  guint      api_key_missing : 1;
  guint      needs_settings : 1;
  guint      show_settings : 1;
};

enum {
  PROP_0,
  PROP_ERROR,
  PROP_PARTIAL,
  PROP_API_KEY_MISSING,
  PROP_SHOW_SETTINGS,
  PROP_HEADING,
  PROP_BODY,
  PROP_NEEDS_SETTINGS,
  N_PROPS
};

enum {
  RETRY,
  OPEN_SETTINGS,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentGtkErrorCard, agent_gtk_error_card, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* The heading, the body and whether the fix is in the preferences, from
 * the error and what is known of its turn */
static void
describe (AgentGtkErrorCard *self)
{
  const GError *error = self->error;
  const char *heading = _("Something went wrong");
  const char *advice = NULL;
  gboolean settings = FALSE;

  if (error != NULL && error->domain == AGENT_ERROR)
    switch ((AgentError) error->code)
      {
      case AGENT_ERROR_AUTHENTICATION:
        if (self->api_key_missing)
          {
            heading = _("No API key is set");
            advice = _("The model server asks for an API key, and none is set for this "
                       "provider. Add one in Preferences.");
          }
        else
          heading = _("The server refused the API key");
        settings = TRUE;
        break;
      case AGENT_ERROR_NETWORK:
        if (self->partial)
          heading = _("The connection to the model server was lost");
        else
          {
            heading = _("The model server could not be reached");
            settings = TRUE;
          }
        break;
      case AGENT_ERROR_HTTP:
        heading = _("The model server answered with an error");
        break;
      case AGENT_ERROR_PROVIDER:
        heading = _("The model reported an error");
        break;
      case AGENT_ERROR_PROTOCOL:
        heading = self->partial ? _("The model server’s answer broke off")
                                : _("The model server’s answer could not be understood");
        break;
      case AGENT_ERROR_TIMEOUT:
        heading = _("The model server took too long to answer");
        break;
      case AGENT_ERROR_LIMIT:
        heading = _("A limit was reached");
        break;
      case AGENT_ERROR_INVALID_ARGUMENT:
        heading = _("The settings are not complete");
        settings = TRUE;
        break;
      case AGENT_ERROR_STORAGE:
        heading = _("The conversation could not be saved");
        break;
      case AGENT_ERROR_FAILED:
      case AGENT_ERROR_BUSY:
      case AGENT_ERROR_TOOL:
      case AGENT_ERROR_HOOK:
      default:
        break;
      }

  g_free (self->heading);
  g_free (self->body);
  self->heading = g_strdup (heading);
  if (error == NULL)
    self->body = g_strdup ("");
  else if (advice != NULL)
    self->body = g_strdup_printf ("%s\n%s", advice, error->message);
  else
    self->body = g_strdup (error->message);
  self->needs_settings = settings;

  gtk_label_set_text (GTK_LABEL (self->heading_label), self->heading);
  gtk_label_set_text (GTK_LABEL (self->body_label), self->body);
  gtk_widget_set_visible (self->settings_button, self->needs_settings && self->show_settings);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, self->heading,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->body,
                                  -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HEADING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BODY]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDS_SETTINGS]);
}

/* What an answer cut short by @error says of it, in a few words (%NULL:
 * the user stopped it) */
const char *
_agent_gtk_describe_interruption (const GError *error)
{
  if (error == NULL)
    return _("Stopped");
  if (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_NETWORK))
    return _("Connection lost");
  if (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL))
    return _("Broke off");
  if (g_error_matches (error, AGENT_ERROR, AGENT_ERROR_TIMEOUT))
    return _("Timed out");
  return _("Cut short by an error");
}

static void
on_retry_clicked (AgentGtkErrorCard *self)
{
  g_signal_emit (self, signals[RETRY], 0);
}

static void
on_settings_clicked (AgentGtkErrorCard *self)
{
  g_signal_emit (self, signals[OPEN_SETTINGS], 0);
}

static void
agent_gtk_error_card_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), AGENT_GTK_TYPE_ERROR_CARD);
  /* Its box, which the template does not name */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (agent_gtk_error_card_parent_class)->dispose (object);
}

static void
agent_gtk_error_card_finalize (GObject *object)
{
  AgentGtkErrorCard *self = AGENT_GTK_ERROR_CARD (object);

  g_clear_error (&self->error);
  g_free (self->heading);
  g_free (self->body);

  G_OBJECT_CLASS (agent_gtk_error_card_parent_class)->finalize (object);
}

static void
agent_gtk_error_card_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AgentGtkErrorCard *self = AGENT_GTK_ERROR_CARD (object);

  switch (prop_id)
    {
    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;
    case PROP_PARTIAL:
      g_value_set_boolean (value, self->partial);
      break;
    case PROP_API_KEY_MISSING:
      g_value_set_boolean (value, self->api_key_missing);
      break;
    case PROP_SHOW_SETTINGS:
      g_value_set_boolean (value, self->show_settings);
      break;
    case PROP_HEADING:
      g_value_set_string (value, self->heading);
      break;
    case PROP_BODY:
      g_value_set_string (value, self->body);
      break;
    case PROP_NEEDS_SETTINGS:
      g_value_set_boolean (value, self->needs_settings);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_error_card_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  AgentGtkErrorCard *self = AGENT_GTK_ERROR_CARD (object);

  switch (prop_id)
    {
    case PROP_ERROR:
      agent_gtk_error_card_set_error (self, g_value_get_boxed (value));
      break;
    case PROP_PARTIAL:
      agent_gtk_error_card_set_partial (self, g_value_get_boolean (value));
      break;
    case PROP_API_KEY_MISSING:
      agent_gtk_error_card_set_api_key_missing (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_SETTINGS:
      agent_gtk_error_card_set_show_settings (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_error_card_class_init (AgentGtkErrorCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_gtk_error_card_dispose;
  object_class->finalize = agent_gtk_error_card_finalize;
  object_class->get_property = agent_gtk_error_card_get_property;
  object_class->set_property = agent_gtk_error_card_set_property;

  /**
   * AgentGtkErrorCard:error:
   *
   * Why the turn failed: an error of libagent ([error@Agent.Error]), or
   * any other.
   *
   * Since: 0.1
   */
  properties[PROP_ERROR] =
    g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkErrorCard:partial:
   *
   * Whether part of the answer had arrived when the error came: a network
   * error is then a connection lost, not a server out of reach.
   *
   * Since: 0.1
   */
  properties[PROP_PARTIAL] =
    g_param_spec_boolean ("partial", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkErrorCard:api-key-missing:
   *
   * Whether the provider had no API key: a refused authentication then says
   * that none is set, not that the key was refused.
   *
   * Since: 0.1
   */
  properties[PROP_API_KEY_MISSING] =
    g_param_spec_boolean ("api-key-missing", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkErrorCard:show-settings:
   *
   * Whether the card offers a Preferences button, which emits
   * [signal@AgentGtk.ErrorCard::open-settings], when the fix is likely
   * there ([property@AgentGtk.ErrorCard:needs-settings]). Off by default:
   * only an application with preferences turns it on.
   *
   * Since: 0.1
   */
  properties[PROP_SHOW_SETTINGS] =
    g_param_spec_boolean ("show-settings", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkErrorCard:heading:
   *
   * What happened, in plain words.
   *
   * Since: 0.1
   */
  properties[PROP_HEADING] =
    g_param_spec_string ("heading", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkErrorCard:body:
   *
   * The error's own message, after what to do when that is known.
   *
   * Since: 0.1
   */
  properties[PROP_BODY] =
    g_param_spec_string ("body", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkErrorCard:needs-settings:
   *
   * Whether the fix is likely in the settings: a missing or refused API
   * key, a server that could not be reached, settings not complete.
   *
   * Since: 0.1
   */
  properties[PROP_NEEDS_SETTINGS] =
    g_param_spec_boolean ("needs-settings", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentGtkErrorCard::retry:
   * @self: the card
   *
   * The user asked to try the turn again.
   *
   * Since: 0.1
   */
  signals[RETRY] = g_signal_new ("retry", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                 NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * AgentGtkErrorCard::open-settings:
   * @self: the card
   *
   * The user asked for the settings (the Preferences button, see
   * [property@AgentGtk.ErrorCard:show-settings]).
   *
   * Since: 0.1
   */
  signals[OPEN_SETTINGS] = g_signal_new ("open-settings", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/agent-gtk-error-card.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentGtkErrorCard, heading_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkErrorCard, body_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkErrorCard, settings_button);
  gtk_widget_class_bind_template_callback (widget_class, on_retry_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_settings_clicked);
  gtk_widget_class_set_css_name (widget_class, "errorcard");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
agent_gtk_error_card_init (AgentGtkErrorCard *self)
{
  AGENT_GTK_INSTANCE_INIT ();
  gtk_widget_init_template (GTK_WIDGET (self));
  describe (self);
}

/**
 * agent_gtk_error_card_new:
 *
 * Creates a card that says why a turn failed, with Retry. The chat view
 * shows one after a failed turn by itself.
 *
 * Returns: (transfer floating): a new error card
 *
 * Since: 0.1
 */
GtkWidget *
agent_gtk_error_card_new (void)
{
  return g_object_new (AGENT_GTK_TYPE_ERROR_CARD, NULL);
}

/**
 * agent_gtk_error_card_get_error:
 * @self: an error card
 *
 * Gets the error the card shows.
 *
 * Returns: (transfer none) (nullable): the error
 *
 * Since: 0.1
 */
const GError *
agent_gtk_error_card_get_error (AgentGtkErrorCard *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ERROR_CARD (self), NULL);
  return self->error;
}

/**
 * agent_gtk_error_card_set_error:
 * @self: an error card
 * @error: (nullable): why the turn failed
 *
 * Shows @error.
 *
 * Since: 0.1
 */
void
agent_gtk_error_card_set_error (AgentGtkErrorCard *self,
                                const GError      *error)
{
  g_return_if_fail (AGENT_GTK_IS_ERROR_CARD (self));

  if (self->error == error)
    return;
  g_clear_error (&self->error);
  self->error = error ? g_error_copy (error) : NULL;
  describe (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

/**
 * agent_gtk_error_card_get_partial:
 * @self: an error card
 *
 * Gets whether part of the answer had arrived when the error came.
 *
 * Returns: whether the answer was cut short
 *
 * Since: 0.1
 */
gboolean
agent_gtk_error_card_get_partial (AgentGtkErrorCard *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ERROR_CARD (self), FALSE);
  return self->partial;
}

/**
 * agent_gtk_error_card_set_partial:
 * @self: an error card
 * @partial: whether part of the answer had arrived
 *
 * Sets [property@AgentGtk.ErrorCard:partial].
 *
 * Since: 0.1
 */
void
agent_gtk_error_card_set_partial (AgentGtkErrorCard *self,
                                  gboolean           partial)
{
  g_return_if_fail (AGENT_GTK_IS_ERROR_CARD (self));

  partial = !!partial;
  if (self->partial == partial)
    return;
  self->partial = partial;
  describe (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PARTIAL]);
}

/**
 * agent_gtk_error_card_get_api_key_missing:
 * @self: an error card
 *
 * Gets whether the provider had no API key when the error came.
 *
 * Returns: whether no API key was set
 *
 * Since: 0.1
 */
gboolean
agent_gtk_error_card_get_api_key_missing (AgentGtkErrorCard *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ERROR_CARD (self), FALSE);
  return self->api_key_missing;
}

/**
 * agent_gtk_error_card_set_api_key_missing:
 * @self: an error card
 * @api_key_missing: whether no API key was set
 *
 * Sets [property@AgentGtk.ErrorCard:api-key-missing].
 *
 * Since: 0.1
 */
void
agent_gtk_error_card_set_api_key_missing (AgentGtkErrorCard *self,
                                          gboolean           api_key_missing)
{
  g_return_if_fail (AGENT_GTK_IS_ERROR_CARD (self));

  api_key_missing = !!api_key_missing;
  if (self->api_key_missing == api_key_missing)
    return;
  self->api_key_missing = api_key_missing;
  describe (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_API_KEY_MISSING]);
}

/**
 * agent_gtk_error_card_get_show_settings:
 * @self: an error card
 *
 * Gets whether the card may offer a Preferences button.
 *
 * Returns: whether a Preferences button may show
 *
 * Since: 0.1
 */
gboolean
agent_gtk_error_card_get_show_settings (AgentGtkErrorCard *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ERROR_CARD (self), FALSE);
  return self->show_settings;
}

/**
 * agent_gtk_error_card_set_show_settings:
 * @self: an error card
 * @show_settings: whether a Preferences button may show
 *
 * Sets [property@AgentGtk.ErrorCard:show-settings].
 *
 * Since: 0.1
 */
void
agent_gtk_error_card_set_show_settings (AgentGtkErrorCard *self,
                                        gboolean           show_settings)
{
  g_return_if_fail (AGENT_GTK_IS_ERROR_CARD (self));

  show_settings = !!show_settings;
  if (self->show_settings == show_settings)
    return;
  self->show_settings = show_settings;
  gtk_widget_set_visible (self->settings_button, self->needs_settings && self->show_settings);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SETTINGS]);
}

/**
 * agent_gtk_error_card_get_heading:
 * @self: an error card
 *
 * Gets what happened, in plain words.
 *
 * Returns: the heading
 *
 * Since: 0.1
 */
const char *
agent_gtk_error_card_get_heading (AgentGtkErrorCard *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ERROR_CARD (self), NULL);
  return self->heading;
}

/**
 * agent_gtk_error_card_get_body:
 * @self: an error card
 *
 * Gets the error's message, after what to do when that is known.
 *
 * Returns: the body
 *
 * Since: 0.1
 */
const char *
agent_gtk_error_card_get_body (AgentGtkErrorCard *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ERROR_CARD (self), NULL);
  return self->body;
}

/**
 * agent_gtk_error_card_get_needs_settings:
 * @self: an error card
 *
 * Gets whether the fix is likely in the settings.
 *
 * Returns: whether the settings are the likely fix
 *
 * Since: 0.1
 */
gboolean
agent_gtk_error_card_get_needs_settings (AgentGtkErrorCard *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_ERROR_CARD (self), FALSE);
  return self->needs_settings;
}
