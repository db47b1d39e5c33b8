/* agent-chat-mcp-sign-in.c
 *
 * Signing in to one MCP server that requires OAuth: what the user sees of
 * it (the phase: sign-in required, waiting for the browser, signed in,
 * failed and why) and what they can do (Sign In, Cancel, Sign Out).
 *
 * libagent does the OAuth work and says where it stands in
 * AgentMcpClient:authorization; it hands over the authorization URL in
 * ::authorize. The app never opens the browser on its own: a server that
 * asks while the app starts or in the middle of a conversation shows
 * "Sign In Required" in Preferences, and the browser opens when the user
 * presses Sign In (gtk_show_uri_full(): the default browser, or the
 * OpenURI portal in a Flatpak). Pressed after the server's request ended
 * (cancelled, failed, signed out), Sign In connects again, or pings a
 * connected server, so that the server refuses and libagent asks again;
 * that URL is then opened at once.
 *
 * One for each server of the app (AgentChatMcpServers keeps them), so that
 * a sign-in outlives the Preferences window that started it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-mcp-sign-in.h"

struct _AgentChatMcpSignIn
{
  GObject                  parent_instance;

  AgentMcpClient          *client;
  GCancellable            *cancellable;
  char                    *uri;             /* of the authorization waiting, or NULL */
  char                    *message;         /* what went wrong, or NULL */
  AgentChatMcpSignInPhase  phase;
  guint                    needs : 1;       /* the server uses OAuth */
  guint                    opened : 1;      /* the browser has the waiting URL */
  guint                    open_when_asked : 1;
};

enum {
  PROP_0,
  PROP_PHASE,
  PROP_MESSAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentChatMcpSignIn, agent_chat_mcp_sign_in, G_TYPE_OBJECT)

static void
set_message (AgentChatMcpSignIn *self,
             const char         *message)
{
  if (g_strcmp0 (self->message, message) == 0)
    return;
  g_free (self->message);
  self->message = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
}

static gboolean
is_authentication_error (const GError *error)
{
  return error != NULL && g_error_matches (error, AGENT_ERROR, AGENT_ERROR_AUTHENTICATION);
}

static void
update (AgentChatMcpSignIn *self)
{
  AgentMcpAuthorization authorization = agent_mcp_client_get_authorization (self->client);
  AgentMcpClientState state = agent_mcp_client_get_state (self->client);
  const GError *error = agent_mcp_client_get_error (self->client);
  AgentChatMcpSignInPhase phase;

  if (state == AGENT_MCP_CLIENT_STATE_FAILED)
    self->open_when_asked = FALSE;
  if (authorization != AGENT_MCP_AUTHORIZATION_REQUIRED)
    {
      self->opened = FALSE;
      g_clear_pointer (&self->uri, g_free);
    }

  if (authorization == AGENT_MCP_AUTHORIZATION_AUTHORIZED)
    {
      self->needs = TRUE;
      phase = AGENT_CHAT_MCP_SIGN_IN_SIGNED_IN;
    }
  else if (authorization == AGENT_MCP_AUTHORIZATION_REQUIRED)
    {
      self->needs = TRUE;
      phase = self->opened ? AGENT_CHAT_MCP_SIGN_IN_WAITING : AGENT_CHAT_MCP_SIGN_IN_REQUIRED;
    }
  else if (self->open_when_asked)
    phase = AGENT_CHAT_MCP_SIGN_IN_WAITING;
  else if (state == AGENT_MCP_CLIENT_STATE_FAILED && is_authentication_error (error))
    {
      self->needs = TRUE;
      phase = AGENT_CHAT_MCP_SIGN_IN_FAILED;
    }
  else if (!self->needs)
    phase = AGENT_CHAT_MCP_SIGN_IN_NONE;
  else if (state == AGENT_MCP_CLIENT_STATE_FAILED && error != NULL &&
           !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    phase = AGENT_CHAT_MCP_SIGN_IN_FAILED;
  else
    phase = AGENT_CHAT_MCP_SIGN_IN_REQUIRED;

  if (phase == AGENT_CHAT_MCP_SIGN_IN_FAILED)
    set_message (self, error ? error->message : NULL);
  else if (phase != AGENT_CHAT_MCP_SIGN_IN_WAITING)
    set_message (self, NULL);

  if (self->phase != phase)
    {
      self->phase = phase;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PHASE]);
    }
}

/* The browser */

typedef struct
{
  AgentChatMcpSignIn *self;
  GtkWindow          *parent;
  char               *uri;
} Launch;

static void
launch_free (Launch *launch)
{
  g_object_unref (launch->self);
  g_clear_object (&launch->parent);
  g_free (launch->uri);
  g_free (launch);
}

static void
launched_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Launch *launch = user_data;
  AgentChatMcpSignIn *self = launch->self;
  g_autoptr(GError) error = NULL;

  if (!gtk_show_uri_full_finish (launch->parent, result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && self->client != NULL)
    {
      /* Still waiting: the user can open the address by hand */
      g_autofree char *text = g_strdup_printf (_("The browser could not be opened (%s). Open "
                                                 "this address in a browser to sign in: %s"),
                                               error->message, launch->uri);

      g_warning ("MCP server “%s”: %s", agent_mcp_client_get_name (self->client), error->message);
      set_message (self, text);
    }
  launch_free (launch);
}

static void
open_browser (AgentChatMcpSignIn *self,
              GtkWindow          *parent)
{
  Launch *launch;

  if (self->uri == NULL)
    return;
  launch = g_new0 (Launch, 1);
  launch->self = g_object_ref (self);
  launch->parent = parent ? g_object_ref (parent) : NULL;
  launch->uri = g_strdup (self->uri);
  self->opened = TRUE;
  set_message (self, NULL);
  gtk_show_uri_full (parent, self->uri, GDK_CURRENT_TIME, self->cancellable, launched_cb,
                     launch);
  update (self);
}

static void
on_authorize (AgentMcpClient     *client,
              const char         *uri,
              AgentChatMcpSignIn *self)
{
  g_free (self->uri);
  self->uri = g_strdup (uri);
  self->opened = FALSE;
  if (self->open_when_asked)
    {
      GApplication *app = g_application_get_default ();
      GtkWindow *window = GTK_IS_APPLICATION (app)
                          ? gtk_application_get_active_window (GTK_APPLICATION (app)) : NULL;

      self->open_when_asked = FALSE;
      open_browser (self, window);
    }
  update (self);
}

/* The user's requests */

static void
connected_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  /* A failure is in the client's state and error */
  agent_mcp_client_connect_finish (AGENT_MCP_CLIENT (object), result, NULL);
}

static void
pinged_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(AgentChatMcpSignIn) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!agent_mcp_client_ping_finish (AGENT_MCP_CLIENT (object), result, &error) &&
      self->client != NULL && self->open_when_asked)
    {
      /* It never asked: say why */
      self->open_when_asked = FALSE;
      set_message (self, error->message);
      update (self);
    }
  else if (self->client != NULL && self->open_when_asked)
    {
      /* It let us in without asking: the tokens were good after all */
      self->open_when_asked = FALSE;
      update (self);
    }
}

/**
 * agent_chat_mcp_sign_in_start:
 * @self: a #AgentChatMcpSignIn
 * @parent: (nullable): the window the user pressed Sign In in
 *
 * Opens the browser at the server's authorization page; if no
 * authorization waits, makes the server ask for one first.
 */
void
agent_chat_mcp_sign_in_start (AgentChatMcpSignIn *self,
                              GtkWindow          *parent)
{
  AgentMcpClientState state;

  g_return_if_fail (AGENT_CHAT_IS_MCP_SIGN_IN (self));

  if (self->uri != NULL &&
      agent_mcp_client_get_authorization (self->client) == AGENT_MCP_AUTHORIZATION_REQUIRED)
    {
      open_browser (self, parent);
      return;
    }

  self->open_when_asked = TRUE;
  set_message (self, NULL);
  state = agent_mcp_client_get_state (self->client);
  if (state == AGENT_MCP_CLIENT_STATE_READY)
    agent_mcp_client_ping_async (self->client, self->cancellable, pinged_cb, g_object_ref (self));
  else if (state != AGENT_MCP_CLIENT_STATE_CONNECTING)
    {
      agent_mcp_client_set_enabled (self->client, TRUE);
      agent_mcp_client_connect_async (self->client, self->cancellable, connected_cb, NULL);
    }
  update (self);
}

/**
 * agent_chat_mcp_sign_in_cancel:
 * @self: a #AgentChatMcpSignIn
 *
 * Stops waiting for the browser: the requests that waited fail, and the
 * server shows "Sign In Required" again.
 */
void
agent_chat_mcp_sign_in_cancel (AgentChatMcpSignIn *self)
{
  g_return_if_fail (AGENT_CHAT_IS_MCP_SIGN_IN (self));

  self->open_when_asked = FALSE;
  self->opened = FALSE;
  agent_mcp_client_cancel_authorization (self->client);
  update (self);
}

static void
closed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  agent_mcp_client_close_finish (AGENT_MCP_CLIENT (object), result, NULL);
}

static void
signed_out_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(AgentChatMcpSignIn) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!agent_mcp_client_sign_out_finish (AGENT_MCP_CLIENT (object), result, &error))
    {
      g_autofree char *text = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      text = g_strdup_printf (_("Signing out failed: %s"), error->message);
      set_message (self, text);
      return;
    }
  /* Its tools are not offered until the user signs in again */
  if (self->client != NULL)
    agent_mcp_client_close_async (self->client, NULL, closed_cb, NULL);
}

/**
 * agent_chat_mcp_sign_in_sign_out:
 * @self: a #AgentChatMcpSignIn
 *
 * Forgets the server's tokens, in the app and in the keyring, and closes
 * the connection: the server shows "Sign In Required".
 */
void
agent_chat_mcp_sign_in_sign_out (AgentChatMcpSignIn *self)
{
  g_return_if_fail (AGENT_CHAT_IS_MCP_SIGN_IN (self));

  self->needs = TRUE;
  self->open_when_asked = FALSE;
  agent_mcp_client_sign_out_async (self->client, self->cancellable, signed_out_cb,
                                   g_object_ref (self));
}

/* The object */

static void
agent_chat_mcp_sign_in_dispose (GObject *object)
{
  AgentChatMcpSignIn *self = AGENT_CHAT_MCP_SIGN_IN (object);

  g_cancellable_cancel (self->cancellable);
  if (self->client != NULL)
    g_signal_handlers_disconnect_by_data (self->client, self);
  g_clear_object (&self->client);

  G_OBJECT_CLASS (agent_chat_mcp_sign_in_parent_class)->dispose (object);
}

static void
agent_chat_mcp_sign_in_finalize (GObject *object)
{
  AgentChatMcpSignIn *self = AGENT_CHAT_MCP_SIGN_IN (object);

  g_clear_object (&self->cancellable);
  g_free (self->uri);
  g_free (self->message);

  G_OBJECT_CLASS (agent_chat_mcp_sign_in_parent_class)->finalize (object);
}

static void
agent_chat_mcp_sign_in_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  AgentChatMcpSignIn *self = AGENT_CHAT_MCP_SIGN_IN (object);

  switch (prop_id)
    {
    case PROP_PHASE:
      g_value_set_uint (value, self->phase);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_mcp_sign_in_class_init (AgentChatMcpSignInClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_chat_mcp_sign_in_dispose;
  object_class->finalize = agent_chat_mcp_sign_in_finalize;
  object_class->get_property = agent_chat_mcp_sign_in_get_property;

  /* An AgentChatMcpSignInPhase */
  properties[PROP_PHASE] =
    g_param_spec_uint ("phase", NULL, NULL, 0, AGENT_CHAT_MCP_SIGN_IN_FAILED,
                       AGENT_CHAT_MCP_SIGN_IN_NONE,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_chat_mcp_sign_in_init (AgentChatMcpSignIn *self)
{
  self->cancellable = g_cancellable_new ();
}

/**
 * agent_chat_mcp_sign_in_new:
 * @client: a server
 *
 * Returns: (transfer full): the sign-in of @client, which handles its
 *   ::authorize from now on
 */
AgentChatMcpSignIn *
agent_chat_mcp_sign_in_new (AgentMcpClient *client)
{
  AgentChatMcpSignIn *self;

  g_return_val_if_fail (AGENT_IS_MCP_CLIENT (client), NULL);

  self = g_object_new (AGENT_CHAT_TYPE_MCP_SIGN_IN, NULL);
  self->client = g_object_ref (client);
  g_signal_connect (client, "authorize", G_CALLBACK (on_authorize), self);
  g_signal_connect_swapped (client, "notify::authorization", G_CALLBACK (update), self);
  g_signal_connect_swapped (client, "notify::state", G_CALLBACK (update), self);
  g_signal_connect_swapped (client, "notify::error", G_CALLBACK (update), self);
  update (self);
  return self;
}

AgentMcpClient *
agent_chat_mcp_sign_in_get_client (AgentChatMcpSignIn *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SIGN_IN (self), NULL);
  return self->client;
}

AgentChatMcpSignInPhase
agent_chat_mcp_sign_in_get_phase (AgentChatMcpSignIn *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SIGN_IN (self), AGENT_CHAT_MCP_SIGN_IN_NONE);
  return self->phase;
}

/**
 * agent_chat_mcp_sign_in_get_message:
 * @self: a #AgentChatMcpSignIn
 *
 * Returns: (nullable): why signing in failed, or what the user can do
 *   when the browser could not be opened, or %NULL
 */
const char *
agent_chat_mcp_sign_in_get_message (AgentChatMcpSignIn *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_MCP_SIGN_IN (self), NULL);
  return self->message;
}
