/* agent-chat-error-item.c
 *
 * A failed turn, as the conversation shows it: a title that says what
 * happened in plain words, the provider's own message (or what to do), and
 * whether the fix is in the preferences (a missing or refused API key, a
 * wrong address). A dropped connection is told apart from a server that
 * could not be reached, and a 401 when no key is set from a refused key.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <agent.h>
#include <glib/gi18n.h>

#include "agent-chat-error-item.h"

struct _AgentChatErrorItem
{
  GObject   parent_instance;
  GError   *error;
  char     *title;
  char     *message;
  gboolean  needs_settings;
};

G_DEFINE_FINAL_TYPE (AgentChatErrorItem, agent_chat_error_item, G_TYPE_OBJECT)

static void
agent_chat_error_item_finalize (GObject *object)
{
  AgentChatErrorItem *self = AGENT_CHAT_ERROR_ITEM (object);

  g_clear_error (&self->error);
  g_free (self->title);
  g_free (self->message);

  G_OBJECT_CLASS (agent_chat_error_item_parent_class)->finalize (object);
}

static void
agent_chat_error_item_class_init (AgentChatErrorItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = agent_chat_error_item_finalize;
}

static void
agent_chat_error_item_init (AgentChatErrorItem *self)
{
}

/**
 * agent_chat_error_item_new:
 * @error: why a turn failed
 * @flags: what else is known of the turn
 *
 * Returns: (transfer full): the error as the conversation shows it
 */
AgentChatErrorItem *
agent_chat_error_item_new (const GError        *error,
                           AgentChatErrorFlags  flags)
{
  AgentChatErrorItem *self;
  const char *title = _("Something went wrong");
  const char *message = NULL;
  gboolean partial = (flags & AGENT_CHAT_ERROR_PARTIAL) != 0;

  g_return_val_if_fail (error != NULL, NULL);

  self = g_object_new (AGENT_CHAT_TYPE_ERROR_ITEM, NULL);
  if (error->domain == AGENT_ERROR)
    switch ((AgentError) error->code)
      {
      case AGENT_ERROR_AUTHENTICATION:
        if (flags & AGENT_CHAT_ERROR_NO_KEY)
          {
            title = _("No API key is set");
            message = _("The model server asks for an API key, and none is set for this "
                        "provider. Add one in Preferences.");
          }
        else
          title = _("The server refused the API key");
        self->needs_settings = TRUE;
        break;
      case AGENT_ERROR_NETWORK:
        if (partial)
          title = _("The connection to the model server was lost");
        else
          {
            title = _("The model server could not be reached");
            self->needs_settings = TRUE;
          }
        break;
      case AGENT_ERROR_HTTP:
        title = _("The model server answered with an error");
        break;
      case AGENT_ERROR_PROVIDER:
        title = _("The model reported an error");
        break;
      case AGENT_ERROR_PROTOCOL:
        title = partial ? _("The model server’s answer broke off")
                        : _("The model server’s answer could not be understood");
        break;
      case AGENT_ERROR_TIMEOUT:
        title = _("The model server took too long to answer");
        break;
      case AGENT_ERROR_LIMIT:
        title = _("A limit was reached");
        break;
      case AGENT_ERROR_INVALID_ARGUMENT:
        title = _("The settings are not complete");
        self->needs_settings = TRUE;
        break;
      case AGENT_ERROR_STORAGE:
        title = _("The conversation could not be saved");
        break;
      case AGENT_ERROR_FAILED:
      case AGENT_ERROR_BUSY:
      case AGENT_ERROR_TOOL:
      case AGENT_ERROR_HOOK:
      default:
        break;
      }

  self->error = g_error_copy (error);
  self->title = g_strdup (title);
  self->message = message ? g_strdup_printf ("%s\n%s", message, error->message)
                          : g_strdup (error->message);
  return self;
}

/**
 * agent_chat_error_item_get_error:
 * @self: a #AgentChatErrorItem
 *
 * Returns: (transfer none): the error
 */
const GError *
agent_chat_error_item_get_error (AgentChatErrorItem *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_ERROR_ITEM (self), NULL);
  return self->error;
}

const char *
agent_chat_error_item_get_title (AgentChatErrorItem *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_ERROR_ITEM (self), NULL);
  return self->title;
}

const char *
agent_chat_error_item_get_message (AgentChatErrorItem *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_ERROR_ITEM (self), NULL);
  return self->message;
}

/**
 * agent_chat_error_item_get_needs_settings:
 * @self: a #AgentChatErrorItem
 *
 * Returns: whether the fix is likely in the preferences
 */
gboolean
agent_chat_error_item_get_needs_settings (AgentChatErrorItem *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_ERROR_ITEM (self), FALSE);
  return self->needs_settings;
}

/**
 * agent_chat_error_describe_interruption:
 * @error: (nullable): the error that cut an answer short, or %NULL when the
 *   user stopped it
 *
 * Returns: what an answer cut short says of it, in a few words
 */
const char *
agent_chat_error_describe_interruption (const GError *error)
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
