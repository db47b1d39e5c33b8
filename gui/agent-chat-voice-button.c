/* agent-chat-voice-button.c
 *
 * Dictation: the microphone button beside Send. A click records (the
 * level and the time show beside it), a second click stops, and what was
 * said goes to the transcription server of Preferences › Voice
 * (AgentTranscription); the text lands in the message field to be read
 * over, or is sent at once when "Send at Once" is on. Escape, anywhere in
 * the window, cancels the recording or the transcription and drops what
 * was recorded. The recording stays in memory (agent-chat-voice-recorder.c)
 * and is dropped once transcribed. Without a transcription server the
 * button is insensitive, and its tooltip says why. Errors show as toasts
 * (::show-toast). Held down (a long press), it records until released.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-voice.h"
#include "agent-chat-voice-button.h"
#include "agent-chat-voice-recorder.h"

#define MAX_SECONDS 600

typedef enum
{
  STATE_IDLE,
  STATE_RECORDING,
  STATE_TRANSCRIBING,
} State;

struct _AgentChatVoiceButton
{
  GtkWidget               parent_instance;

  GtkWidget              *indicator;
  GtkWidget              *level_bar;
  GtkWidget              *time_label;
  GtkWidget              *spinner;
  GtkWidget              *button;

  GSettings              *settings;
  AgentChatSecretStore   *secrets;
  AgentGtkComposer       *composer;  /* a weak pointer: it holds the button */
  AgentChatVoiceRecorder *recorder;
  GCancellable           *cancellable;  /* the transcription */
  GBytes                 *audio;        /* recorded, until the provider is had */
  gint64                  started;
  guint                   tick;
  guint                   hold;  /* a press that may become a hold */
  State                   state;
  guint                   updating : 1;
};

enum {
  SHOW_TOAST,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (AgentChatVoiceButton, agent_chat_voice_button, GTK_TYPE_WIDGET)

static guint signals[N_SIGNALS];

static void
show_message (AgentChatVoiceButton *self,
              const char           *text)
{
  g_autoptr(AdwToast) toast = adw_toast_new (text);

  g_signal_emit (self, signals[SHOW_TOAST], 0, toast);
}

static void
show_error (AgentChatVoiceButton *self,
            const char           *what,
            const GError         *error)
{
  g_autofree char *text = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  /* TRANSLATORS: a toast: the first %s says what failed, the second why */
  text = g_strdup_printf (_("%s: %s"), what, error->message);
  show_message (self, text);
}


/* The button's name (what it does) and tooltip (what it does, or why it cannot) */
static void
set_label (AgentChatVoiceButton *self,
           const char           *label,
           const char           *tooltip)
{
  gtk_widget_set_tooltip_text (self->button, tooltip ? tooltip : label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  label, -1);
}

/* The button's look, name and sensitivity for the state and the settings */
static void
update (AgentChatVoiceButton *self)
{
  g_autofree char *url = g_settings_get_string (self->settings, "transcription-base-url");
  gboolean configured = *g_strstrip (url) != '\0';

  self->updating = TRUE;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->button),
                                self->state == STATE_RECORDING);
  self->updating = FALSE;
  gtk_widget_set_visible (self->indicator, self->state == STATE_RECORDING);
  gtk_widget_set_visible (self->spinner, self->state == STATE_TRANSCRIBING);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), self->state == STATE_TRANSCRIBING);
  gtk_widget_set_sensitive (self->button, configured && self->state != STATE_TRANSCRIBING);
  if (self->state == STATE_RECORDING)
    {
      gtk_widget_add_css_class (self->button, "destructive-action");
      gtk_widget_remove_css_class (self->button, "flat");
      set_label (self, _("Stop Recording"), NULL);
    }
  else
    {
      gtk_widget_remove_css_class (self->button, "destructive-action");
      gtk_widget_add_css_class (self->button, "flat");
      if (self->state == STATE_TRANSCRIBING)
        set_label (self, _("Dictate"), _("Transcribing…"));
      else if (!configured)
        set_label (self, _("Dictate"),
                   _("Dictation needs a transcription server: set one in Preferences › Voice"));
      else
        set_label (self, _("Dictate"), NULL);
    }
}

static void
update_time (AgentChatVoiceButton *self)
{
  gint64 seconds = (g_get_monotonic_time () - self->started) / G_USEC_PER_SEC;
  g_autofree char *text = g_strdup_printf ("%d:%02d", (int) (seconds / 60), (int) (seconds % 60));
  g_autofree char *status = NULL;

  gtk_label_set_text (GTK_LABEL (self->time_label), text);
  /* TRANSLATORS: the recording indicator, to a screen reader; %s is the time, as 0:07 */
  status = g_strdup_printf (_("Recording, %s"), text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->indicator),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, status, -1);
}

static void stop (AgentChatVoiceButton *self);

static gboolean
on_tick (gpointer user_data)
{
  AgentChatVoiceButton *self = user_data;

  update_time (self);
  if (g_get_monotonic_time () - self->started >= (gint64) MAX_SECONDS * G_USEC_PER_SEC)
    {
      self->tick = 0;
      stop (self);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
on_level (AgentChatVoiceButton *self)
{
  gtk_level_bar_set_value (GTK_LEVEL_BAR (self->level_bar),
                           agent_chat_voice_recorder_get_level (self->recorder));
}

static void
set_state (AgentChatVoiceButton *self,
           State                 state)
{
  self->state = state;
  if (state != STATE_RECORDING)
    g_clear_handle_id (&self->tick, g_source_remove);
  update (self);
}

static void
on_recorder_failed (AgentChatVoiceButton *self,
                    const GError         *error)
{
  set_state (self, STATE_IDLE);
  show_error (self, _("Dictation failed"), error);
}

static void
start (AgentChatVoiceButton *self)
{
  g_autoptr(GError) error = NULL;

  if (self->recorder == NULL)
    {
      self->recorder = agent_chat_voice_recorder_new ();
      g_signal_connect_object (self->recorder, "notify::level", G_CALLBACK (on_level), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (self->recorder, "failed", G_CALLBACK (on_recorder_failed), self,
                               G_CONNECT_SWAPPED);
    }
  if (!agent_chat_voice_recorder_start (self->recorder, &error))
    {
      set_state (self, STATE_IDLE);
      show_error (self, _("Dictation failed"), error);
      return;
    }
  self->started = g_get_monotonic_time ();
  gtk_level_bar_set_value (GTK_LEVEL_BAR (self->level_bar), 0.0);
  set_state (self, STATE_RECORDING);
  update_time (self);
  self->tick = g_timeout_add (250, on_tick, self);
}

/* The text goes in the message field, after what is there */
static void
take_text (AgentChatVoiceButton *self,
           const char           *text)
{
  g_autofree char *before = NULL;
  g_autofree char *trimmed = g_strstrip (g_strdup (text));
  g_autofree char *joined = NULL;

  if (self->composer == NULL)
    return;
  if (*trimmed == '\0')
    {
      show_message (self, _("Dictation: nothing was recognized"));
      return;
    }
  before = agent_gtk_composer_dup_text (self->composer);
  g_strchomp (before);
  joined = *before != '\0' ? g_strconcat (before, " ", trimmed, NULL) : g_strdup (trimmed);
  agent_gtk_composer_set_text (self->composer, joined);
  if (g_settings_get_boolean (self->settings, "dictation-send-at-once"))
    agent_gtk_composer_send (self->composer);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

static void
on_transcribed (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(AgentChatVoiceButton) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  text = agent_transcription_transcribe_finish (AGENT_TRANSCRIPTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->cancellable);
  set_state (self, STATE_IDLE);
  if (text == NULL)
    show_error (self, _("Transcription failed"), error);
  else
    take_text (self, text);
}

static void
on_provider (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(AgentChatVoiceButton) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentTranscription) transcription = NULL;
  g_autoptr(GBytes) audio = g_steal_pointer (&self->audio);
  g_autofree char *model = NULL;

  provider = agent_chat_voice_provider_finish (AGENT_CHAT_SECRET_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (provider == NULL)
    {
      g_clear_object (&self->cancellable);
      set_state (self, STATE_IDLE);
      show_error (self, _("Transcription failed"), error);
      return;
    }
  transcription = agent_transcription_new (provider);
  model = g_settings_get_string (self->settings, "transcription-model");
  if (*g_strstrip (model) != '\0')
    agent_transcription_set_model (transcription, model);
  agent_transcription_transcribe_async (transcription, audio, "dictation.wav", self->cancellable,
                                        on_transcribed, g_object_ref (self));
}

/* The recording goes to the transcription server */
static void
stop (AgentChatVoiceButton *self)
{
  g_autofree char *url = g_settings_get_string (self->settings, "transcription-base-url");
  g_autoptr(GBytes) audio = agent_chat_voice_recorder_stop (self->recorder);

  if (audio == NULL)
    {
      set_state (self, STATE_IDLE);
      show_message (self, _("Dictation: nothing was heard"));
      return;
    }
  if (*g_strstrip (url) == '\0')
    {
      set_state (self, STATE_IDLE);
      show_message (self, _("Dictation needs a transcription server: set one in Preferences › Voice"));
      return;
    }
  set_state (self, STATE_TRANSCRIBING);
  g_clear_pointer (&self->audio, g_bytes_unref);
  self->audio = g_steal_pointer (&audio);
  self->cancellable = g_cancellable_new ();
  agent_chat_voice_provider_async (self->secrets, url, self->cancellable, on_provider,
                                   g_object_ref (self));
}

static void
cancel (AgentChatVoiceButton *self)
{
  if (self->recorder != NULL)
    agent_chat_voice_recorder_cancel (self->recorder);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->audio, g_bytes_unref);
  set_state (self, STATE_IDLE);
}

static void
on_toggled (AgentChatVoiceButton *self)
{
  gboolean active = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->button));

  if (self->updating)
    return;
  if (active && self->state == STATE_IDLE)
    start (self);
  else if (!active && self->state == STATE_RECORDING)
    stop (self);
  else
    update (self);
}

/* Press and hold: held for half a second, the button records; its release
 * is the click that stops (GtkButton's own click claims the press, so the
 * press and the release are watched as they come, not by a gesture) */
static gboolean
on_held (gpointer user_data)
{
  AgentChatVoiceButton *self = user_data;

  self->hold = 0;
  if (self->state == STATE_IDLE && gtk_widget_get_sensitive (self->button))
    start (self);
  return G_SOURCE_REMOVE;
}

static gboolean
on_button_event (GtkEventControllerLegacy *controller,
                 GdkEvent                 *event,
                 AgentChatVoiceButton     *self)
{
  GdkEventType type = gdk_event_get_event_type (event);

  if (type == GDK_BUTTON_PRESS && gdk_button_event_get_button (event) == GDK_BUTTON_PRIMARY &&
      self->state == STATE_IDLE)
    {
      g_clear_handle_id (&self->hold, g_source_remove);
      self->hold = g_timeout_add (500, on_held, self);
    }
  else if (type == GDK_BUTTON_RELEASE || type == GDK_TOUCH_END || type == GDK_TOUCH_CANCEL)
    g_clear_handle_id (&self->hold, g_source_remove);
  return GDK_EVENT_PROPAGATE;
}

/* Escape, anywhere in the window, while recording or transcribing */
static gboolean
on_escape (GtkWidget *widget,
           GVariant  *args,
           gpointer   user_data)
{
  AgentChatVoiceButton *self = AGENT_CHAT_VOICE_BUTTON (widget);

  if (self->state == STATE_IDLE)
    return FALSE;
  cancel (self);
  show_message (self, _("Dictation canceled"));
  return TRUE;
}

static void
agent_chat_voice_button_dispose (GObject *object)
{
  AgentChatVoiceButton *self = AGENT_CHAT_VOICE_BUTTON (object);

  g_clear_handle_id (&self->tick, g_source_remove);
  g_clear_handle_id (&self->hold, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->audio, g_bytes_unref);
  if (self->recorder != NULL)
    agent_chat_voice_recorder_cancel (self->recorder);
  g_clear_object (&self->recorder);
  g_clear_weak_pointer (&self->composer);
  g_clear_object (&self->settings);
  g_clear_object (&self->secrets);
  gtk_widget_dispose_template (GTK_WIDGET (object), AGENT_CHAT_TYPE_VOICE_BUTTON);

  G_OBJECT_CLASS (agent_chat_voice_button_parent_class)->dispose (object);
}

static void
agent_chat_voice_button_class_init (AgentChatVoiceButtonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_voice_button_dispose;

  /**
   * AgentChatVoiceButton::show-toast:
   * @self: the button
   * @toast: what to show
   *
   * Dictation failed, or was canceled: the window shows @toast.
   */
  signals[SHOW_TOAST] = g_signal_new ("show-toast", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, ADW_TYPE_TOAST);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-voice-button.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatVoiceButton, indicator);
  gtk_widget_class_bind_template_child (widget_class, AgentChatVoiceButton, level_bar);
  gtk_widget_class_bind_template_child (widget_class, AgentChatVoiceButton, time_label);
  gtk_widget_class_bind_template_child (widget_class, AgentChatVoiceButton, spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentChatVoiceButton, button);
  gtk_widget_class_bind_template_callback (widget_class, on_toggled);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
}

static void
agent_chat_voice_button_init (AgentChatVoiceButton *self)
{
  GtkEventController *shortcuts;
  GtkEventController *hold;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                              6);

  /* Before the message field's own Escape (which stops a turn) */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                     GTK_SHORTCUT_SCOPE_GLOBAL);
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                          gtk_callback_action_new (on_escape, NULL,
                                                                                   NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  hold = gtk_event_controller_legacy_new ();
  gtk_event_controller_set_propagation_phase (hold, GTK_PHASE_CAPTURE);
  g_signal_connect (hold, "event", G_CALLBACK (on_button_event), self);
  gtk_widget_add_controller (self->button, hold);
}

static void
on_settings_changed (AgentChatVoiceButton *self)
{
  update (self);
}

/**
 * agent_chat_voice_button_new:
 * @settings: the app's settings (the transcription server's)
 * @secrets: where the server's key is
 * @composer: the message field the text goes to
 *
 * Returns: (transfer floating): a microphone button for @composer
 */
GtkWidget *
agent_chat_voice_button_new (GSettings            *settings,
                             AgentChatSecretStore *secrets,
                             AgentGtkComposer     *composer)
{
  AgentChatVoiceButton *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (AGENT_CHAT_IS_SECRET_STORE (secrets), NULL);
  g_return_val_if_fail (AGENT_GTK_IS_COMPOSER (composer), NULL);

  self = g_object_new (AGENT_CHAT_TYPE_VOICE_BUTTON, NULL);
  self->settings = g_object_ref (settings);
  self->secrets = g_object_ref (secrets);
  g_set_weak_pointer (&self->composer, composer);
  g_signal_connect_object (settings, "changed::transcription-base-url",
                           G_CALLBACK (on_settings_changed), self, G_CONNECT_SWAPPED);
  update (self);
  return GTK_WIDGET (self);
}
