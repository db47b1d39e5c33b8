/* agent-mcp-elicitation.c — a server's request for the user's input
 *
 * The object holds the task of the server's request until the application
 * answers it: accept, decline and cancel complete the task with the result
 * the server is sent; the task's cancellable (the server withdrew the
 * request, the connection ended) completes it with G_IO_ERROR_CANCELLED
 * and emits ::closed; dropping the last reference unanswered answers
 * "cancel", so that the server never waits for nobody.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "mcp/agent-mcp-private.h"

/**
 * AgentMcpElicitation:
 *
 * A request of an MCP server for input from the user: values for a form
 * (an email address, a choice, a date), or the user's consent to open a
 * URL in a browser (to sign in somewhere, to pay: what must not pass
 * through the client). The MCP specification calls it elicitation.
 *
 * An [class@Agent.McpClient] whose
 * [property@Agent.McpClient:handles-elicitation] is %TRUE hands each one to
 * the application with [signal@Agent.McpClient::elicitation]. The
 * application shows [method@Agent.McpElicitation.get_message] and the
 * fields of [method@Agent.McpElicitation.get_requested_schema] (or the URL,
 * with the server's name: never open it without asking), keeps a
 * reference, and answers once, when the user has chosen, with
 * [method@Agent.McpElicitation.accept], [method@Agent.McpElicitation.decline]
 * or [method@Agent.McpElicitation.cancel]. The server waits meanwhile, and
 * so does the tool call that asked.
 *
 * [method@Agent.McpElicitation.accept] checks the values against the
 * schema first, and refuses them (the request stays open) with an error
 * that names the field and what is wrong with it, for the form to show.
 *
 * A request whose last reference is dropped before it is answered is
 * answered "cancel". A request that goes away unanswered — the server
 * withdrew it, or the connection ended — emits
 * [signal@Agent.McpElicitation::closed]: close the form.
 *
 * Everything happens on the main context of the client: answer from it.
 *
 * Since: 0.1
 */

struct _AgentMcpElicitation
{
  GObject                  parent_instance;

  char                    *server_name;
  AgentMcpElicitationMode  mode;
  char                    *message;
  JsonObject              *requested_schema;
  char                    *url;
  char                    *elicitation_id;

  GTask                   *task;          /* until answered or closed */
  GSource                 *cancel_source;
  guint                    answered : 1;
  guint                    closed : 1;
};

enum {
  PROP_0,
  PROP_SERVER_NAME,
  PROP_MODE,
  PROP_MESSAGE,
  PROP_REQUESTED_SCHEMA,
  PROP_URL,
  PROP_ELICITATION_ID,
  PROP_ANSWERED,
  N_PROPS
};

enum {
  CLOSED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (AgentMcpElicitation, agent_mcp_elicitation, G_TYPE_OBJECT)

static void
clear_cancel_source (AgentMcpElicitation *self)
{
  if (self->cancel_source != NULL)
    {
      g_source_destroy (self->cancel_source);
      g_clear_pointer (&self->cancel_source, g_source_unref);
    }
}

/* Completes the request with the result the server is sent. */
static void
answer (AgentMcpElicitation       *self,
        AgentMcpElicitationAction  action,
        JsonObject                *content,
        gboolean                   notify)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  JsonObject *result = json_object_new ();
  static const char * const names[] = { "accept", "decline", "cancel" };

  clear_cancel_source (self);
  self->answered = TRUE;

  json_object_set_string_member (result, "action", names[action]);
  if (content != NULL)
    {
      JsonNode *node = json_node_alloc ();

      json_node_init_object (node, content);
      json_object_set_member (result, "content", json_node_copy (node));
      json_node_unref (node);
    }

  _agent_mcp_log (self->server_name, "elicitation answered: %s", names[action]);

  if (notify)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANSWERED]);

  g_task_return_pointer (task, result, (GDestroyNotify) json_object_unref);
}

static gboolean
cancelled_cb (GCancellable *cancellable,
              gpointer      data)
{
  AgentMcpElicitation *self = data;
  g_autoptr(AgentMcpElicitation) hold = g_object_ref (self);
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  g_clear_pointer (&self->cancel_source, g_source_unref);
  self->closed = TRUE;

  _agent_mcp_log (self->server_name, "elicitation closed unanswered");
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("The MCP server “%s” withdrew its request"), self->server_name);
  g_signal_emit (self, signals[CLOSED], 0);

  return G_SOURCE_REMOVE;
}

static void
agent_mcp_elicitation_dispose (GObject *object)
{
  AgentMcpElicitation *self = AGENT_MCP_ELICITATION (object);

  /* Nobody will answer: the server must not wait for ever. */
  if (self->task != NULL)
    answer (self, AGENT_MCP_ELICITATION_ACTION_CANCEL, NULL, FALSE);
  clear_cancel_source (self);

  G_OBJECT_CLASS (agent_mcp_elicitation_parent_class)->dispose (object);
}

static void
agent_mcp_elicitation_finalize (GObject *object)
{
  AgentMcpElicitation *self = AGENT_MCP_ELICITATION (object);

  g_free (self->server_name);
  g_free (self->message);
  g_clear_pointer (&self->requested_schema, json_object_unref);
  g_free (self->url);
  g_free (self->elicitation_id);

  G_OBJECT_CLASS (agent_mcp_elicitation_parent_class)->finalize (object);
}

static void
agent_mcp_elicitation_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AgentMcpElicitation *self = AGENT_MCP_ELICITATION (object);

  switch (prop_id)
    {
    case PROP_SERVER_NAME:      g_value_set_string (value, self->server_name); break;
    case PROP_MODE:             g_value_set_enum (value, self->mode); break;
    case PROP_MESSAGE:          g_value_set_string (value, self->message); break;
    case PROP_REQUESTED_SCHEMA: g_value_set_boxed (value, self->requested_schema); break;
    case PROP_URL:              g_value_set_string (value, self->url); break;
    case PROP_ELICITATION_ID:   g_value_set_string (value, self->elicitation_id); break;
    case PROP_ANSWERED:         g_value_set_boolean (value, self->answered); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_mcp_elicitation_class_init (AgentMcpElicitationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_mcp_elicitation_dispose;
  object_class->finalize = agent_mcp_elicitation_finalize;
  object_class->get_property = agent_mcp_elicitation_get_property;

  /**
   * AgentMcpElicitation:server-name:
   *
   * The name of the server that asks, as configured
   * ([property@Agent.McpClient:name]): show it, so that the user knows who
   * asks.
   *
   * Since: 0.1
   */
  properties[PROP_SERVER_NAME] =
    g_param_spec_string ("server-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * AgentMcpElicitation:mode:
   *
   * Whether the server asks for values (a form) or to open a URL.
   *
   * Since: 0.1
   */
  properties[PROP_MODE] =
    g_param_spec_enum ("mode", NULL, NULL, AGENT_TYPE_MCP_ELICITATION_MODE,
                       AGENT_MCP_ELICITATION_MODE_FORM,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * AgentMcpElicitation:message:
   *
   * What the server says to the user: why it asks.
   *
   * Since: 0.1
   */
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * AgentMcpElicitation:requested-schema:
   *
   * In form mode, what the server asks for: a JSON Schema of an object
   * whose `properties` are the fields (each a string, number, integer,
   * boolean, or a list of choices; with a `title`, a `description`, a
   * `default`), and whose `required` names those that must be given.
   * %NULL in URL mode.
   *
   * Since: 0.1
   */
  properties[PROP_REQUESTED_SCHEMA] =
    g_param_spec_boxed ("requested-schema", NULL, NULL, JSON_TYPE_OBJECT,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * AgentMcpElicitation:url:
   *
   * In URL mode, the address the server asks the user to open (`http` or
   * `https`). Show it whole, with the server's name, and open it only if
   * the user agrees. %NULL in form mode.
   *
   * Since: 0.1
   */
  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * AgentMcpElicitation:elicitation-id:
   *
   * In URL mode, the server's identifier of the request, which it names
   * again when the interaction in the browser is over. %NULL in form mode.
   *
   * Since: 0.1
   */
  properties[PROP_ELICITATION_ID] =
    g_param_spec_string ("elicitation-id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * AgentMcpElicitation:answered:
   *
   * Whether the request was answered: accepted, declined or cancelled.
   *
   * Since: 0.1
   */
  properties[PROP_ANSWERED] =
    g_param_spec_boolean ("answered", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentMcpElicitation::closed:
   * @self: the request
   *
   * The request went away unanswered: the server withdrew it
   * (`notifications/cancelled`), the connection to the server ended, or
   * the call that caused it was cancelled. Close what shows it; answering
   * it now does nothing.
   *
   * Since: 0.1
   */
  signals[CLOSED] =
    g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
agent_mcp_elicitation_init (AgentMcpElicitation *self)
{
}

static gboolean
is_web_url (const char *text)
{
  g_autoptr(GUri) uri = g_uri_parse (text, G_URI_FLAGS_NONE, NULL);

  return uri != NULL && g_uri_get_host (uri) != NULL && *g_uri_get_host (uri) != '\0' &&
         (g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") == 0 ||
          g_ascii_strcasecmp (g_uri_get_scheme (uri), "http") == 0);
}

/* The request of `elicitation/create` @params, to be answered through
 * @task (a reference is taken): NULL, with an AGENT_MCP_RPC_ERROR, if the
 * parameters are not a request a user can answer (in English: the error
 * goes to the server). */
AgentMcpElicitation *
_agent_mcp_elicitation_new (const char  *server_name,
                            JsonObject  *params,
                            GTask       *task,
                            GError     **error)
{
  g_autoptr(AgentMcpElicitation) self = NULL;
  const char *mode = _agent_mcp_string (params, "mode");
  GCancellable *cancellable = g_task_get_cancellable (task);

  self = g_object_new (AGENT_TYPE_MCP_ELICITATION, NULL);
  self->server_name = g_strdup (server_name);
  self->message = g_strdup (_agent_mcp_string (params, "message"));
  if (self->message == NULL)
    self->message = g_strdup ("");

  if (mode == NULL || g_str_equal (mode, "form"))
    {
      JsonNode *schema = params ? json_object_get_member (params, "requestedSchema") : NULL;

      self->mode = AGENT_MCP_ELICITATION_MODE_FORM;
      if (schema == NULL || !JSON_NODE_HOLDS_OBJECT (schema))
        {
          g_set_error (error, AGENT_MCP_RPC_ERROR, AGENT_MCP_RPC_INVALID_PARAMS,
                       "The elicitation has no requested schema");
          return NULL;
        }
      if (!_agent_mcp_elicitation_check_schema (json_node_get_object (schema), error))
        return NULL;
      self->requested_schema = json_object_ref (json_node_get_object (schema));
    }
  else if (g_str_equal (mode, "url"))
    {
      self->mode = AGENT_MCP_ELICITATION_MODE_URL;
      self->url = g_strdup (_agent_mcp_string (params, "url"));
      self->elicitation_id = g_strdup (_agent_mcp_string (params, "elicitationId"));
      if (self->url == NULL || !is_web_url (self->url))
        {
          g_set_error (error, AGENT_MCP_RPC_ERROR, AGENT_MCP_RPC_INVALID_PARAMS,
                       "The elicitation's URL is not an http or https address");
          return NULL;
        }
      if (self->elicitation_id == NULL)
        {
          g_set_error (error, AGENT_MCP_RPC_ERROR, AGENT_MCP_RPC_INVALID_PARAMS,
                       "The elicitation has no elicitationId");
          return NULL;
        }
    }
  else
    {
      g_set_error (error, AGENT_MCP_RPC_ERROR, AGENT_MCP_RPC_INVALID_PARAMS,
                   "The elicitation's mode \"%s\" is not form or url", mode);
      return NULL;
    }

  self->task = g_object_ref (task);
  if (cancellable != NULL)
    {
      self->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (self->cancel_source, G_SOURCE_FUNC (cancelled_cb), self, NULL);
      g_source_set_static_name (self->cancel_source, "[agent-mcp-elicitation]");
      g_source_attach (self->cancel_source, g_task_get_context (task));
    }

  return g_steal_pointer (&self);
}

/**
 * agent_mcp_elicitation_get_server_name:
 * @self: an [class@Agent.McpElicitation]
 *
 * Gets the name of the server that asks.
 * [property@Agent.McpElicitation:server-name].
 *
 * Returns: (transfer none): the configured name of the server
 *
 * Since: 0.1
 */
const char *
agent_mcp_elicitation_get_server_name (AgentMcpElicitation *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_ELICITATION (self), NULL);
  return self->server_name;
}

/**
 * agent_mcp_elicitation_get_mode:
 * @self: an [class@Agent.McpElicitation]
 *
 * Gets what the server asks for. [property@Agent.McpElicitation:mode].
 *
 * Returns: form or URL
 *
 * Since: 0.1
 */
AgentMcpElicitationMode
agent_mcp_elicitation_get_mode (AgentMcpElicitation *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_ELICITATION (self), AGENT_MCP_ELICITATION_MODE_FORM);
  return self->mode;
}

/**
 * agent_mcp_elicitation_get_message:
 * @self: an [class@Agent.McpElicitation]
 *
 * Gets what the server says to the user.
 * [property@Agent.McpElicitation:message].
 *
 * Returns: (transfer none): the message
 *
 * Since: 0.1
 */
const char *
agent_mcp_elicitation_get_message (AgentMcpElicitation *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_ELICITATION (self), NULL);
  return self->message;
}

/**
 * agent_mcp_elicitation_get_requested_schema:
 * @self: an [class@Agent.McpElicitation]
 *
 * Gets the fields the server asks for, in form mode.
 * [property@Agent.McpElicitation:requested-schema].
 *
 * Returns: (nullable) (transfer none): the schema, or %NULL in URL mode
 *
 * Since: 0.1
 */
JsonObject *
agent_mcp_elicitation_get_requested_schema (AgentMcpElicitation *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_ELICITATION (self), NULL);
  return self->requested_schema;
}

/**
 * agent_mcp_elicitation_get_url:
 * @self: an [class@Agent.McpElicitation]
 *
 * Gets the URL to open, in URL mode. [property@Agent.McpElicitation:url].
 *
 * Returns: (nullable) (transfer none): the URL, or %NULL in form mode
 *
 * Since: 0.1
 */
const char *
agent_mcp_elicitation_get_url (AgentMcpElicitation *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_ELICITATION (self), NULL);
  return self->url;
}

/**
 * agent_mcp_elicitation_get_elicitation_id:
 * @self: an [class@Agent.McpElicitation]
 *
 * Gets the server's identifier of a URL-mode request.
 * [property@Agent.McpElicitation:elicitation-id].
 *
 * Returns: (nullable) (transfer none): the identifier, or %NULL in form mode
 *
 * Since: 0.1
 */
const char *
agent_mcp_elicitation_get_elicitation_id (AgentMcpElicitation *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_ELICITATION (self), NULL);
  return self->elicitation_id;
}

/**
 * agent_mcp_elicitation_get_answered:
 * @self: an [class@Agent.McpElicitation]
 *
 * Gets whether the request was answered.
 * [property@Agent.McpElicitation:answered].
 *
 * Returns: %TRUE once accepted, declined or cancelled
 *
 * Since: 0.1
 */
gboolean
agent_mcp_elicitation_get_answered (AgentMcpElicitation *self)
{
  g_return_val_if_fail (AGENT_IS_MCP_ELICITATION (self), FALSE);
  return self->answered;
}

/**
 * agent_mcp_elicitation_validate:
 * @self: an [class@Agent.McpElicitation]
 * @content: the values the user gave, by field name
 * @error: return location for a #GError
 *
 * Checks values against [property@Agent.McpElicitation:requested-schema]:
 * each is of its field's type (a string, a number, an integer, a boolean,
 * choices among the field's), within its bounds (`minLength`,
 * `maxLength`, `minimum`, `maximum`, `minItems`, `maxItems`), of its
 * format (`email`, `uri`, `date`, `date-time`); every required field is
 * given, and no other. A form calls it as the user types, to show what is
 * wrong where.
 *
 * In URL mode there is nothing to check: @content must be empty.
 *
 * Returns: %TRUE if @content may be sent; %FALSE with an
 *   %AGENT_ERROR_SCHEMA error that names the first field that is wrong
 *   and why (`“email”: “ada@” is not an email address`)
 *
 * Since: 0.1
 */
gboolean
agent_mcp_elicitation_validate (AgentMcpElicitation  *self,
                                JsonObject           *content,
                                GError              **error)
{
  g_return_val_if_fail (AGENT_IS_MCP_ELICITATION (self), FALSE);
  g_return_val_if_fail (content != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->mode == AGENT_MCP_ELICITATION_MODE_URL)
    {
      if (json_object_get_size (content) == 0)
        return TRUE;
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_SCHEMA,
                   _("A request to open a URL takes no values"));
      return FALSE;
    }

  return _agent_mcp_elicitation_check_content (self->requested_schema, content, error);
}

/**
 * agent_mcp_elicitation_accept:
 * @self: an [class@Agent.McpElicitation]
 * @content: (nullable): in form mode, the values the user gave, by field
 *   name; %NULL for none (in URL mode: the user agreed to open the URL)
 * @error: return location for a #GError
 *
 * Answers that the user accepts, with @content: the values are checked
 * first, as [method@Agent.McpElicitation.validate] does. Values that do not
 * follow the schema are not sent: the request stays open, for the user to
 * correct them.
 *
 * In URL mode, accept once the user agreed to open the URL, and open it
 * (`gtk_uri_launcher_launch()`, `g_app_info_launch_default_for_uri()`);
 * the server goes on when the interaction in the browser is over.
 *
 * A request is answered once: answering it again is a programmer error. A
 * request that was closed ([signal@Agent.McpElicitation::closed]) cannot
 * be answered any more: this fails with %G_IO_ERROR_CANCELLED.
 *
 * Returns: %TRUE if the answer was sent; %FALSE with an error otherwise
 *
 * Since: 0.1
 */
gboolean
agent_mcp_elicitation_accept (AgentMcpElicitation  *self,
                              JsonObject           *content,
                              GError              **error)
{
  g_autoptr(JsonObject) empty = NULL;

  g_return_val_if_fail (AGENT_IS_MCP_ELICITATION (self), FALSE);
  g_return_val_if_fail (!self->answered, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->closed)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                   _("The MCP server “%s” withdrew its request"), self->server_name);
      return FALSE;
    }

  if (content == NULL)
    content = empty = json_object_new ();

  if (!agent_mcp_elicitation_validate (self, content, error))
    return FALSE;

  answer (self, AGENT_MCP_ELICITATION_ACTION_ACCEPT,
          self->mode == AGENT_MCP_ELICITATION_MODE_FORM ? content : NULL, TRUE);
  return TRUE;
}

/**
 * agent_mcp_elicitation_decline:
 * @self: an [class@Agent.McpElicitation]
 *
 * Answers that the user explicitly refused (a "Decline" or "No" button).
 * Nothing happens if the request was closed meanwhile.
 *
 * Since: 0.1
 */
void
agent_mcp_elicitation_decline (AgentMcpElicitation *self)
{
  g_return_if_fail (AGENT_IS_MCP_ELICITATION (self));
  g_return_if_fail (!self->answered);

  if (!self->closed)
    answer (self, AGENT_MCP_ELICITATION_ACTION_DECLINE, NULL, TRUE);
}

/**
 * agent_mcp_elicitation_cancel:
 * @self: an [class@Agent.McpElicitation]
 *
 * Answers that the user dismissed the request without choosing (closed
 * the dialog, pressed Escape). Nothing happens if the request was closed
 * meanwhile.
 *
 * Since: 0.1
 */
void
agent_mcp_elicitation_cancel (AgentMcpElicitation *self)
{
  g_return_if_fail (AGENT_IS_MCP_ELICITATION (self));
  g_return_if_fail (!self->answered);

  if (!self->closed)
    answer (self, AGENT_MCP_ELICITATION_ACTION_CANCEL, NULL, TRUE);
}
