/* agent-chat-context-meter.c
 *
 * How much of the model's context window the conversation uses: a small
 * level bar and "12 k / 128 k" beside the composer, "Context: 12,400 of
 * 128,000 tokens used" in words for the tooltip and screen readers. It
 * turns to a warning style past the session's pressure threshold (where a
 * policy that compacts on its own compacts), and to an error style past
 * the window itself, where the next request is likely refused. With the
 * window unknown, it shows only the tokens used; with nothing used yet,
 * nothing.
 *
 * The numbers are the session's: context-used, the estimate of the next
 * request (images and documents as the provider bills them), updated
 * before each request, a few times a second while an answer streams, and
 * when a turn ends; a conversation shown anew is estimated at once
 * (agent_session_estimate_context_used()). When any of it is an estimate
 * rather than the server's count (context-estimated), the meter says
 * "about" ("~12 k").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-context-meter.h"

struct _AgentChatContextMeter
{
  GtkWidget     parent_instance;

  GtkLevelBar  *level_bar;
  GtkLabel     *label;

  AgentSession *session;
  char         *description;  /* the tooltip and name given last */
  gint64        used;
  guint64       window;
  guint         warning : 1;
  guint         over : 1;       /* more than the window */
};

enum {
  PROP_0,
  PROP_SESSION,
  PROP_USED,
  PROP_WINDOW,
  PROP_WARNING,
  PROP_OVER,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentChatContextMeter, agent_chat_context_meter, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

/**
 * agent_chat_context_meter_format_tokens:
 * @tokens: a number of tokens
 *
 * Returns: (transfer full): @tokens, short: "850", "12 k", "1.2 M"
 */
char *
agent_chat_context_meter_format_tokens (gint64 tokens)
{
  if (tokens < 1000)
    return g_strdup_printf ("%" G_GINT64_FORMAT, MAX (tokens, 0));
  if (tokens < 10000)
    /* TRANSLATORS: thousands of tokens, short, with one decimal */
    return g_strdup_printf (_("%.1f k"), tokens / 1000.0);
  if (tokens < 1000000)
    /* TRANSLATORS: thousands of tokens, short */
    return g_strdup_printf (_("%d k"), (int) (tokens / 1000));
  /* TRANSLATORS: millions of tokens, short, with one decimal */
  return g_strdup_printf (_("%.1f M"), tokens / 1000000.0);
}

static void
set_style (AgentChatContextMeter *self,
           const char            *name,
           gboolean               on)
{
  if (on)
    gtk_widget_add_css_class (GTK_WIDGET (self), name);
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), name);
}

static void
update (AgentChatContextMeter *self)
{
  g_autofree char *used_text = NULL;
  g_autofree char *used_words = NULL;
  g_autofree char *label = NULL;
  g_autofree char *description = NULL;
  gint64 used = -1;
  guint64 window = 0;
  gboolean warning = FALSE;
  gboolean over = FALSE;
  gboolean estimated = FALSE;

  if (self->session != NULL)
    {
      window = agent_session_get_context_window (self->session);
      used = agent_session_get_context_used (self->session);
      estimated = agent_session_get_context_estimated (self->session);
      over = window > 0 && used > 0 && (guint64) used > window;
      warning = !over && window > 0 && used >= 0 &&
                (double) used >= agent_session_get_context_pressure_threshold (self->session) *
                                 (double) window;
    }

  gtk_widget_set_visible (GTK_WIDGET (self), used >= 0);
  gtk_widget_set_visible (GTK_WIDGET (self->level_bar), window > 0);
  used_text = agent_chat_context_meter_format_tokens (used);
  if (estimated)
    {
      char *about = g_strdup_printf (/* TRANSLATORS: an estimate of tokens, short: "~12 k" */
                                     _("~%s"), used_text);

      g_free (used_text);
      used_text = about;
    }
  used_words = g_strdup_printf ("%'" G_GINT64_FORMAT, MAX (used, 0));
  if (window > 0)
    {
      g_autofree char *window_text = NULL;
      g_autofree char *window_words = NULL;

      window_text = agent_chat_context_meter_format_tokens ((gint64) MIN (window, G_MAXINT64));
      window_words = g_strdup_printf ("%'" G_GUINT64_FORMAT, window);
      /* TRANSLATORS: tokens used of the model's context window, short: "12 k / 128 k" */
      label = g_strdup_printf (_("%s / %s"), used_text, window_text);
      if (over)
        /* TRANSLATORS: the tooltip and screen-reader name of the context meter
         * when the conversation is larger than the model's window */
        description = g_strdup_printf (estimated ? _("Context: about %s of %s tokens used, more "
                                                     "than the model takes")
                                                 : _("Context: %s of %s tokens used, more than "
                                                     "the model takes"),
                                       used_words, window_words);
      else
        /* TRANSLATORS: the tooltip and screen-reader name of the context meter:
         * "Context: 12,400 of 128,000 tokens used"; "about" when it is an estimate */
        description = g_strdup_printf (estimated ? _("Context: about %s of %s tokens used")
                                                 : _("Context: %s of %s tokens used"),
                                       used_words, window_words);
      gtk_level_bar_set_value (self->level_bar,
                               MIN ((double) MAX (used, 0) / (double) window, 1.0));
    }
  else
    {
      /* TRANSLATORS: tokens used, the model's context window unknown, short: "12 k tokens" */
      label = g_strdup_printf (_("%s tokens"), used_text);
      /* TRANSLATORS: the tooltip and screen-reader name of the context meter, the
       * model's context window unknown: "Context: 12,400 tokens used"; "about" when it
       * is an estimate */
      description = g_strdup_printf (estimated ? _("Context: about %s tokens used")
                                               : _("Context: %s tokens used"),
                                     used_words);
    }
  gtk_label_set_label (self->label, label);
  /* The session notes the estimate a few times a second while an answer
   * streams, often with the same numbers: a tooltip set on a visible
   * widget costs GTK 4.8 a query of the pointer (an X round trip), and
   * screen readers hear each change. Only a change is given. (The
   * description holds every number the values do.) */
  if (g_strcmp0 (description, self->description) != 0)
    {
      gtk_widget_set_tooltip_text (GTK_WIDGET (self), description);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, description,
                                      GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, 0.0,
                                      GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, (double) window,
                                      GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, (double) MAX (used, 0),
                                      -1);
      g_free (self->description);
      self->description = g_steal_pointer (&description);
    }
  set_style (self, "warning", warning);
  set_style (self, "error", over);

  g_object_freeze_notify (G_OBJECT (self));
  if (self->used != used)
    {
      self->used = used;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_USED]);
    }
  if (self->window != window)
    {
      self->window = window;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WINDOW]);
    }
  if (self->warning != warning)
    {
      self->warning = warning;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WARNING]);
    }
  if (self->over != over)
    {
      self->over = over;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OVER]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* Another conversation shown: its size, before its next request */
static void
on_memory_changed (AgentChatContextMeter *self)
{
  agent_session_estimate_context_used (self->session);
  update (self);
}

AgentSession *
agent_chat_context_meter_get_session (AgentChatContextMeter *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONTEXT_METER (self), NULL);

  return self->session;
}

/**
 * agent_chat_context_meter_set_session:
 * @self: a #AgentChatContextMeter
 * @session: (nullable): the session whose conversation is measured
 *
 * A session set anew keeps its estimate when it has one (the window made
 * it for the conversation it shows), and is estimated from its memory
 * else.
 */
void
agent_chat_context_meter_set_session (AgentChatContextMeter *self,
                                      AgentSession          *session)
{
  g_return_if_fail (AGENT_CHAT_IS_CONTEXT_METER (self));

  if (self->session == session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    {
      g_signal_connect_swapped (session, "notify::context-used", G_CALLBACK (update), self);
      g_signal_connect_swapped (session, "notify::context-estimated", G_CALLBACK (update), self);
      g_signal_connect_swapped (session, "notify::memory", G_CALLBACK (on_memory_changed), self);
      g_signal_connect_swapped (session, "notify::context-window", G_CALLBACK (update), self);
      g_signal_connect_swapped (session, "notify::context-pressure-threshold",
                                G_CALLBACK (update), self);
      g_signal_connect_swapped (session, "context-pressure", G_CALLBACK (update), self);
      if (agent_session_get_context_used (session) < 0)
        agent_session_estimate_context_used (session);
    }
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

gint64
agent_chat_context_meter_get_used (AgentChatContextMeter *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONTEXT_METER (self), -1);

  return self->used;
}

guint64
agent_chat_context_meter_get_window (AgentChatContextMeter *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONTEXT_METER (self), 0);

  return self->window;
}

gboolean
agent_chat_context_meter_get_warning (AgentChatContextMeter *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONTEXT_METER (self), FALSE);

  return self->warning;
}

gboolean
agent_chat_context_meter_get_over (AgentChatContextMeter *self)
{
  g_return_val_if_fail (AGENT_CHAT_IS_CONTEXT_METER (self), FALSE);

  return self->over;
}

static void
agent_chat_context_meter_dispose (GObject *object)
{
  AgentChatContextMeter *self = AGENT_CHAT_CONTEXT_METER (object);

  agent_chat_context_meter_set_session (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_CONTEXT_METER);

  G_OBJECT_CLASS (agent_chat_context_meter_parent_class)->dispose (object);
}

static void
agent_chat_context_meter_finalize (GObject *object)
{
  AgentChatContextMeter *self = AGENT_CHAT_CONTEXT_METER (object);

  g_free (self->description);

  G_OBJECT_CLASS (agent_chat_context_meter_parent_class)->finalize (object);
}

static void
agent_chat_context_meter_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  AgentChatContextMeter *self = AGENT_CHAT_CONTEXT_METER (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_USED:
      g_value_set_int64 (value, self->used);
      break;
    case PROP_WINDOW:
      g_value_set_uint64 (value, self->window);
      break;
    case PROP_WARNING:
      g_value_set_boolean (value, self->warning);
      break;
    case PROP_OVER:
      g_value_set_boolean (value, self->over);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_context_meter_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  AgentChatContextMeter *self = AGENT_CHAT_CONTEXT_METER (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      agent_chat_context_meter_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_chat_context_meter_class_init (AgentChatContextMeterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags read_only = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = agent_chat_context_meter_dispose;
  object_class->finalize = agent_chat_context_meter_finalize;
  object_class->get_property = agent_chat_context_meter_get_property;
  object_class->set_property = agent_chat_context_meter_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, AGENT_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The tokens shown as used, -1 when none (the meter is hidden) */
  properties[PROP_USED] =
    g_param_spec_int64 ("used", NULL, NULL, -1, G_MAXINT64, -1, read_only);
  /* The window shown, 0 when unknown */
  properties[PROP_WINDOW] =
    g_param_spec_uint64 ("window", NULL, NULL, 0, G_MAXUINT64, 0, read_only);
  /* Past the session's pressure threshold, within the window: the warning
   * style */
  properties[PROP_WARNING] =
    g_param_spec_boolean ("warning", NULL, NULL, FALSE, read_only);
  /* Past the window: the error style */
  properties[PROP_OVER] =
    g_param_spec_boolean ("over", NULL, NULL, FALSE, read_only);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-context-meter.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatContextMeter, level_bar);
  gtk_widget_class_bind_template_child (widget_class, AgentChatContextMeter, label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "contextmeter");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_METER);
}

static void
agent_chat_context_meter_init (AgentChatContextMeter *self)
{
  self->used = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                              6);
  /* Low is good here: one color, warning only past the threshold, error
   * past the window */
  gtk_level_bar_remove_offset_value (self->level_bar, GTK_LEVEL_BAR_OFFSET_LOW);
  gtk_level_bar_remove_offset_value (self->level_bar, GTK_LEVEL_BAR_OFFSET_HIGH);
  gtk_level_bar_remove_offset_value (self->level_bar, GTK_LEVEL_BAR_OFFSET_FULL);
  /* The meter's name says it all, in words: its parts are not read again */
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->level_bar),
                               GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->label), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
}

GtkWidget *
agent_chat_context_meter_new (void)
{
  return g_object_new (AGENT_CHAT_TYPE_CONTEXT_METER, NULL);
}
