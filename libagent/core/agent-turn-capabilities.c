/* agent-turn-capabilities.c — what a turn sends as the model can take it
 *
 * Ollama says what each model can do (/api/show's "capabilities":
 * completion, tools, vision, thinking, …) and refuses a request that asks
 * for more: "… does not support tools", "… does not support thinking", or
 * it drops the images of a model without vision without a word. So for
 * the ollama provider, before the first request of a turn that sends
 * images, tools or a reasoning effort, the model's capabilities are asked
 * for, once per base URL and model (cached on the provider), and:
 *
 * - a user message with images for a model without vision is refused
 *   before it is kept or sent, naming the model;
 * - a model without tools is run without them, and the session's
 *   ::notice says so, once a turn;
 * - a model without thinking gets no `think` switch (agent-ollama.c); a
 *   thinking model gets it as the reasoning effort says.
 *
 * A server that does not answer, or answers without capabilities (older
 * Ollama), leaves them unknown and the turn as it was. A model that is not
 * installed fails the turn before anything is sent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "core/agent-model-request-private.h"
#include "core/agent-turn-private.h"
#include "models/agent-models-private.h"

/* A known answer, even of no capabilities, is cached with this bit */
#define KNOWN (1u << 31)

static GQuark
cache_quark (void)
{
  return g_quark_from_static_string ("agent-model-capabilities");
}

/* base URL + "\n" + model → capabilities | KNOWN */
static GHashTable *
get_cache (AgentProvider *provider)
{
  GHashTable *cache = g_object_get_qdata (G_OBJECT (provider), cache_quark ());

  if (cache == NULL)
    {
      cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_object_set_qdata_full (G_OBJECT (provider), cache_quark (), cache,
                               (GDestroyNotify) g_hash_table_unref);
    }
  return cache;
}

static char *
cache_key (AgentProvider *provider,
           const char    *model)
{
  return g_strconcat (agent_provider_get_base_url (provider), "\n", model, NULL);
}

void
_agent_session_class_add_notice (GObjectClass *object_class,
                                 guint        *notice_signal)
{
  /**
   * AgentSession::notice:
   * @self: the session
   * @code: what it is about, a stable name: `no-tools` (the model cannot
   *   call tools: the turn runs without them)
   * @message: the same in words, for the user
   *
   * Emitted when the session changes what it sends to suit the model, for
   * the application to tell the user.
   *
   * Since: 0.1
   */
  *notice_signal =
    g_signal_new ("notice",
                  G_TYPE_FROM_CLASS (object_class),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
}

/* The turn waiting for the answer */
typedef struct
{
  AgentTurn    *turn;
  char         *text;
  AgentMessage *message;
  char         *key;
} Check;

static void
check_free (Check *check)
{
  g_free (check->text);
  g_clear_object (&check->message);
  g_free (check->key);
  g_free (check);
}

static gboolean
has_images (AgentMessage *message)
{
  guint n = message != NULL ? agent_message_get_n_attachments (message) : 0;

  for (guint i = 0; i < n; i++)
    if (agent_content_part_get_kind (agent_message_get_attachment (message, i)) ==
        AGENT_CONTENT_PART_KIND_IMAGE)
      return TRUE;
  return FALSE;
}

static void
start (AgentTurn    *turn,
       const char   *text,
       AgentMessage *message)
{
  const char *model = agent_provider_get_model (turn->session->provider);

  if ((turn->capabilities & KNOWN) && !(turn->capabilities & AGENT_MODEL_CAPABILITY_VISION) &&
      has_images (message))
    {
      /* Translators: %s is a model's name */
      _agent_turn_fail (turn, g_error_new (AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                                           _("Model “%s” cannot see images: send the message "
                                             "without them, or choose a model with vision"),
                                           model));
      return;
    }
  _agent_turn_start (turn, text, message);
}

static void
shown_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Check *check = user_data;
  AgentTurn *turn = check->turn;
  g_autoptr(AgentJsonParser) parser = agent_json_parser_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  AgentJson root;

  bytes = _agent_model_request_finish (AGENT_PROVIDER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (error, AGENT_ERROR, AGENT_ERROR_MODEL_NOT_FOUND))
    {
      _agent_turn_fail (turn, g_steal_pointer (&error));
      check_free (check);
      return;
    }
  if (bytes != NULL &&
      agent_json_parser_parse (parser, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                               &root, NULL))
    {
      AgentJson capabilities = agent_json_member (&root, "capabilities");

      /* Without the member (older servers) nothing is known */
      if (agent_json_is (&capabilities, AGENT_JSON_ARRAY))
        {
          turn->capabilities = _agent_model_capabilities_from_json (&capabilities) | KNOWN;
          g_hash_table_insert (get_cache (turn->session->provider), g_steal_pointer (&check->key),
                               GUINT_TO_POINTER (turn->capabilities));
        }
    }
  else if (error != NULL)
    g_debug ("The capabilities of the model are unknown: %s", error->message);

  start (turn, check->text, check->message);
  check_free (check);
}

void
_agent_turn_check_model (AgentTurn    *turn,
                         const char   *text,
                         AgentMessage *message)
{
  AgentProvider *provider = turn->session->provider;
  const char *model = agent_provider_get_model (provider);
  g_autoptr(cJSON) body = NULL;
  g_autofree char *printed = NULL;
  g_autofree char *key = NULL;
  gpointer cached;
  Check *check;

  /* Asked only when it matters: images, tools, a thinking switch */
  if (!g_str_equal (_agent_provider_get_backend (provider)->name, "ollama") || model == NULL ||
      (!has_images (message) &&
       g_list_model_get_n_items (G_LIST_MODEL (turn->session->tools)) == 0 &&
       agent_provider_get_reasoning_effort (provider) == AGENT_REASONING_EFFORT_DEFAULT))
    {
      _agent_turn_start (turn, text, message);
      return;
    }

  key = cache_key (provider, model);
  if (g_hash_table_lookup_extended (get_cache (provider), key, NULL, &cached))
    {
      turn->capabilities = GPOINTER_TO_UINT (cached);
      start (turn, text, message);
      return;
    }

  check = g_new0 (Check, 1);
  check->turn = turn;
  check->text = g_strdup (text);
  check->message = message != NULL ? g_object_ref (message) : NULL;
  check->key = g_steal_pointer (&key);
  body = cJSON_CreateObject ();
  cJSON_AddStringToObject (body, "model", model);
  /* Without the tokenizer's arrays (the default; said, for the tests'
   * scripted servers to tell this question from others) */
  cJSON_AddFalseToObject (body, "verbose");
  printed = cJSON_PrintUnformatted (body);
  _agent_model_request_async (provider, SOUP_METHOD_POST, "/api/show", printed, model, NULL, NULL,
                              turn->cancellable, shown_cb, check);
}

void
_agent_turn_gate_request (AgentTurn    *turn,
                          AgentRequest *request)
{
  if (!(turn->capabilities & KNOWN))
    return;
  request->capabilities = turn->capabilities;

  if (!(turn->capabilities & AGENT_MODEL_CAPABILITY_TOOLS) && request->tools != NULL &&
      g_list_model_get_n_items (request->tools) > 0)
    {
      request->tools = NULL;
      if (!turn->told_no_tools)
        {
          /* Translators: %s is a model's name */
          g_autofree char *text = g_strdup_printf (_("Model “%s” cannot call tools: it answers "
                                                     "without them"), request->model);

          turn->told_no_tools = TRUE;
          _agent_session_emit (turn->session, AGENT_SESSION_NOTICE, "no-tools", text);
        }
    }
}
