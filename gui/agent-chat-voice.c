/* agent-chat-voice.c
 *
 * What the microphone (agent-chat-voice-recorder.c) and the voices played
 * (agent-chat-voice-player.c) share: GStreamer, started at the first use,
 * and their source and sink: autoaudiosrc and autoaudiosink (PipeWire or
 * PulseAudio), or for tests a GStreamer description in
 * $AGENT_CHAT_AUDIO_SOURCE ("filesrc location=x.wav ! wavparse") and
 * $AGENT_CHAT_AUDIO_SINK ("filesink location=out.raw"); and the provider
 * of an audio server, with its key.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-voice.h"

/* Starts GStreamer once; FALSE with @error when it cannot */
gboolean
agent_chat_voice_init (GError **error)
{
  static gsize done;
  static GError *init_error;

  if (g_once_init_enter (&done))
    {
      if (!gst_init_check (NULL, NULL, &init_error))
        g_prefix_error_literal (&init_error, _("Audio is not available: "));
      g_once_init_leave (&done, 1);
    }
  if (init_error != NULL)
    {
      g_propagate_error (error, g_error_copy (init_error));
      return FALSE;
    }
  return TRUE;
}

/* The element named by @variable, a GStreamer description (testing hook), or
 * else @fallback: a bin whose unlinked pad is its own */
GstElement *
agent_chat_voice_make_element (const char  *variable,
                               const char  *fallback,
                               GError     **error)
{
  const char *description = g_getenv (variable);
  g_autoptr(GError) local_error = NULL;
  GstElement *element;

  if (description == NULL || *description == '\0')
    description = fallback;
  element = gst_parse_bin_from_description (description, TRUE, &local_error);
  if (element == NULL)
    {
      /* TRANSLATORS: %s is a GStreamer pipeline description, then the reason */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Cannot make the audio element “%s”: %s"),
                   description, local_error->message);
      return NULL;
    }
  return element;
}

/* The error of an ERROR message of a pipeline's bus, prefixed with @what */
GError *
agent_chat_voice_bus_error (GstMessage *message,
                            const char *what)
{
  g_autoptr(GError) gst_error = NULL;
  g_autofree char *debug = NULL;

  gst_message_parse_error (message, &gst_error, &debug);
  if (debug != NULL)
    g_debug ("GStreamer: %s", debug);
  /* TRANSLATORS: the first %s says what failed ("The microphone …"), the second why */
  return g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: %s"), what,
                      gst_error ? gst_error->message : _("unknown error"));
}

static void
on_key_looked_up (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentProvider) provider = NULL;
  g_autofree char *key = NULL;
  AgentChatKeySource source;

  key = agent_chat_secret_store_lookup_finish (AGENT_CHAT_SECRET_STORE (object), result, &source,
                                               &error);
  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  provider = agent_provider_new ("openai", &error);
  if (provider == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  agent_provider_set_base_url (provider, g_task_get_task_data (task));
  if (key != NULL && *key != '\0')
    agent_provider_set_api_key (provider, key);
  g_task_return_pointer (task, g_steal_pointer (&provider), g_object_unref);
}

/**
 * agent_chat_voice_provider_async:
 * @secrets: where the key is
 * @base_url: the audio server's base URL (OpenAI's API)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the provider
 * @user_data: for @callback
 *
 * Makes an `openai` provider for an audio server, with its key from the
 * keyring (the server's, as a model server's: per provider and base URL).
 */
void
agent_chat_voice_provider_async (AgentChatSecretStore *secrets,
                                 const char           *base_url,
                                 GCancellable         *cancellable,
                                 GAsyncReadyCallback   callback,
                                 gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AGENT_CHAT_IS_SECRET_STORE (secrets));
  g_return_if_fail (base_url != NULL);

  task = g_task_new (secrets, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_chat_voice_provider_async);
  g_task_set_task_data (task, g_strdup (base_url), g_free);
  agent_chat_secret_store_lookup_async (secrets, "openai", base_url, cancellable,
                                        on_key_looked_up, g_steal_pointer (&task));
}

AgentProvider *
agent_chat_voice_provider_finish (AgentChatSecretStore  *secrets,
                                  GAsyncResult          *result,
                                  GError               **error)
{
  g_return_val_if_fail (g_task_is_valid (result, secrets), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_chat_voice_provider_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
