/* agent-chat-preferences-voice.c
 *
 * Preferences › Voice: the transcription server that dictation sends to
 * (its base URL, model and API key) and whether dictated text is sent at
 * once; the speech server that reads answers aloud (base URL, model,
 * voice and key), or, with none, the local voice's language. The servers
 * speak OpenAI's audio API (docs/voice.md). A URL is saved when applied
 * (its button, Enter), never while typed; a key goes to the keyring
 * (per provider "openai" and base URL, as a model server's), when applied.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <agent.h>
#include <glib/gi18n.h>

#include "agent-chat-preferences-voice.h"

struct _AgentChatPreferencesVoice
{
  AdwPreferencesPage    parent_instance;

  GSettings            *settings;
  AgentChatSecretStore *secrets;
  GtkWidget            *transcription_url_row;
  GtkWidget            *transcription_key_row;
  GtkWidget            *speech_url_row;
  GtkWidget            *speech_key_row;
};

G_DEFINE_FINAL_TYPE (AgentChatPreferencesVoice, agent_chat_preferences_voice,
                     ADW_TYPE_PREFERENCES_PAGE)

static GtkWidget *
add_entry (AdwPreferencesGroup *group,
           const char          *title,
           gboolean             password)
{
  GtkWidget *row = password ? adw_password_entry_row_new () : adw_entry_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_group_add (group, row);
  return row;
}

/* A URL row: shows the setting, saves it when applied */
static void
on_url_applied (GtkEditable *row,
                gpointer     user_data)
{
  AgentChatPreferencesVoice *self = user_data;
  const char *key = g_object_get_data (G_OBJECT (row), "agent-chat-setting");
  g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (row)));

  g_settings_set_string (self->settings, key, url);
}

static GtkWidget *
add_url (AgentChatPreferencesVoice *self,
         AdwPreferencesGroup       *group,
         const char                *title,
         const char                *key)
{
  GtkWidget *row = add_entry (group, title, FALSE);
  g_autofree char *url = g_settings_get_string (self->settings, key);

  gtk_editable_set_text (GTK_EDITABLE (row), url);
  adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (row), TRUE);
  g_object_set_data (G_OBJECT (row), "agent-chat-setting", (gpointer) key);
  g_signal_connect_object (row, "apply", G_CALLBACK (on_url_applied), self, 0);
  return row;
}

static GtkWidget *
add_setting (AgentChatPreferencesVoice *self,
             AdwPreferencesGroup       *group,
             const char                *title,
             const char                *key)
{
  GtkWidget *row = add_entry (group, title, FALSE);

  g_settings_bind (self->settings, key, row, "text", G_SETTINGS_BIND_DEFAULT);
  return row;
}

/* A key row: stored for the URL of its server when applied */
static void
on_key_applied (GtkEditable *row,
                gpointer     user_data)
{
  AgentChatPreferencesVoice *self = user_data;
  GtkEditable *url_row = g_object_get_data (G_OBJECT (row), "agent-chat-url-row");
  g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (url_row)));

  if (*url == '\0')
    return;
  agent_chat_secret_store_set_key (self->secrets, "openai", url, gtk_editable_get_text (row));
  gtk_editable_set_text (row, "");
}

static GtkWidget *
add_key (AgentChatPreferencesVoice *self,
         AdwPreferencesGroup       *group,
         GtkWidget                 *url_row)
{
  GtkWidget *row = add_entry (group, _("API Key"), TRUE);

  adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (row), TRUE);
  g_object_set_data (G_OBJECT (row), "agent-chat-url-row", url_row);
  g_signal_connect_object (row, "apply", G_CALLBACK (on_key_applied), self, 0);
  return row;
}

static void
agent_chat_preferences_voice_dispose (GObject *object)
{
  AgentChatPreferencesVoice *self = AGENT_CHAT_PREFERENCES_VOICE (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->secrets);

  G_OBJECT_CLASS (agent_chat_preferences_voice_parent_class)->dispose (object);
}

static void
agent_chat_preferences_voice_class_init (AgentChatPreferencesVoiceClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = agent_chat_preferences_voice_dispose;
}

static void
agent_chat_preferences_voice_init (AgentChatPreferencesVoice *self)
{
}

/**
 * agent_chat_preferences_voice_new:
 * @settings: the app's settings
 * @secrets: where the servers' keys go
 *
 * Returns: (transfer floating): the Voice page of Preferences
 */
AdwPreferencesPage *
agent_chat_preferences_voice_new (GSettings            *settings,
                                  AgentChatSecretStore *secrets)
{
  AgentChatPreferencesVoice *self;
  AdwPreferencesGroup *group;
  GtkWidget *row, *toggle;

  self = g_object_new (AGENT_CHAT_TYPE_PREFERENCES_VOICE,
                       "title", _("Voice"),
                       "icon-name", "audio-input-microphone-symbolic",
                       "name", "voice",
                       NULL);
  self->settings = g_object_ref (settings);
  self->secrets = g_object_ref (secrets);

  group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (group, _("Dictation"));
  adw_preferences_group_set_description (group,
    _("The microphone beside Send records what you say; a transcription server with "
      "OpenAI’s API (OpenAI, Groq, whisper.cpp, speaches, LocalAI) turns it into text"));
  self->transcription_url_row = add_url (self, group, _("Transcription Server URL"),
                                         "transcription-base-url");
  add_setting (self, group, _("Transcription Model"), "transcription-model");
  self->transcription_key_row = add_key (self, group, self->transcription_url_row);
  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Send at Once"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               _("Send the message as soon as it is transcribed, without "
                                 "reading it over"));
  toggle = gtk_switch_new ();
  gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggle);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);
  g_settings_bind (settings, "dictation-send-at-once", toggle, "active", G_SETTINGS_BIND_DEFAULT);
  adw_preferences_group_add (group, row);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (self), group);

  group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (group, _("Read Aloud"));
  adw_preferences_group_set_description (group,
    _("Answers are read by the local voice, unless a speech server with OpenAI’s API is set"));
  self->speech_url_row = add_url (self, group, _("Speech Server URL"), "speech-base-url");
  add_setting (self, group, _("Speech Model"), "speech-model");
  add_setting (self, group, _("Speech Voice"), "speech-voice");
  self->speech_key_row = add_key (self, group, self->speech_url_row);
  row = add_setting (self, group, _("Local Voice Language"), "local-voice");
  gtk_widget_set_sensitive (row, agent_local_voice_get_available ());
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (self), group);

  return ADW_PREFERENCES_PAGE (self);
}
