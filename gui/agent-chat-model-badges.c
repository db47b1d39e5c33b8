/* agent-chat-model-badges.c
 *
 * What a model is, in words a person reads: its capabilities as small
 * badges (Tools, Vision, Thinking, Embedding: the ones that change what a
 * chat can do; every model writes text), the line of its details (size,
 * family, parameters, quantization, context length) and when a loaded
 * model unloads. Shared by the Models window and the header's picker.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-model-badges.h"

static const struct
{
  AgentModelCapabilities  capability;
  const char             *name;
  const char             *css;
} badges[] = {
  { AGENT_MODEL_CAPABILITY_TOOLS, N_("Tools"), "tools" },
  { AGENT_MODEL_CAPABILITY_VISION, N_("Vision"), "vision" },
  { AGENT_MODEL_CAPABILITY_THINKING, N_("Thinking"), "thinking" },
  { AGENT_MODEL_CAPABILITY_EMBEDDING, N_("Embedding"), "embedding" },
};

/**
 * agent_chat_model_badges_fill:
 * @box: a box of badges
 * @capabilities: what the model can do
 *
 * Puts a badge in @box for each capability that matters to a chat, and
 * shows @box only when it holds one.
 */
void
agent_chat_model_badges_fill (GtkBox                 *box,
                              AgentModelCapabilities  capabilities)
{
  GtkWidget *child;
  gboolean any = FALSE;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
    gtk_box_remove (box, child);
  for (guint i = 0; i < G_N_ELEMENTS (badges); i++)
    if (capabilities & badges[i].capability)
      {
        GtkWidget *label = gtk_label_new (_(badges[i].name));

        gtk_widget_add_css_class (label, "model-badge");
        gtk_widget_add_css_class (label, badges[i].css);
        gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
        gtk_box_append (box, label);
        any = TRUE;
      }
  gtk_widget_set_visible (GTK_WIDGET (box), any);
}

/**
 * agent_chat_model_capabilities_text:
 * @capabilities: what the model can do
 *
 * Returns: the badges' names in a sentence ("Tools, Vision"), for an
 *   accessible description; an empty string when there is none
 */
char *
agent_chat_model_capabilities_text (AgentModelCapabilities capabilities)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (badges); i++)
    if (capabilities & badges[i].capability)
      {
        if (text->len > 0)
          /* Translators: between two capabilities of a model, "Tools, Vision" */
          g_string_append (text, _(", "));
        g_string_append (text, _(badges[i].name));
      }
  return g_string_free (text, FALSE);
}

/**
 * agent_chat_model_details:
 * @info: a model
 *
 * Returns: its details in one line: "2.0 GB · llama · 3.2B · Q4_K_M ·
 *   131,072-token context", what is known of them
 */
char *
agent_chat_model_details (AgentModelInfo *info)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  const char *strings[] = {
    agent_model_info_get_family (info),
    agent_model_info_get_parameter_size (info),
    agent_model_info_get_quantization (info),
  };
  guint64 context = agent_model_info_get_context_length (info);

  if (agent_model_info_get_size (info) > 0)
    g_ptr_array_add (parts, g_format_size (agent_model_info_get_size (info)));
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    if (strings[i] != NULL && *strings[i] != '\0')
      g_ptr_array_add (parts, g_strdup (strings[i]));
  if (context > 0)
    {
      g_autofree char *tokens = g_strdup_printf ("%'" G_GUINT64_FORMAT, context);

      /* Translators: a model's context window, "131,072‑token context"; the
       * hyphen is U+2011, which a line does not break at */
      g_ptr_array_add (parts, g_strdup_printf (g_dngettext (NULL, "%s‑token context",
                                                            "%s‑token context", context),
                                               tokens));
    }
  g_ptr_array_add (parts, NULL);
  /* Translators: between two details of a model, "2.0 GB · llama" */
  return g_strjoinv (_(" · "), (char **) parts->pdata);
}

/**
 * agent_chat_model_expiry:
 * @expires_at: (nullable): when a loaded model unloads, as the server says
 * @now: the time now
 *
 * Returns: a sentence: "Loaded, unloads in 4 minutes", or that it stays
 */
char *
agent_chat_model_expiry (GDateTime *expires_at,
                         GDateTime *now)
{
  GTimeSpan left;
  gint64 minutes;

  if (expires_at == NULL)
    return g_strdup (_("Loaded"));
  left = g_date_time_difference (expires_at, now);
  /* keep_alive -1 (forever) reads as a date centuries away */
  if (left > G_TIME_SPAN_DAY * 365)
    return g_strdup (_("Loaded, stays loaded"));
  if (left < G_TIME_SPAN_MINUTE)
    return g_strdup (_("Loaded, unloads in less than a minute"));
  minutes = (left + G_TIME_SPAN_MINUTE / 2) / G_TIME_SPAN_MINUTE;
  if (minutes < 120)
    return g_strdup_printf (g_dngettext (NULL, "Loaded, unloads in %d minute",
                                         "Loaded, unloads in %d minutes", minutes),
                            (int) minutes);
  return g_strdup_printf (g_dngettext (NULL, "Loaded, unloads in %d hour",
                                       "Loaded, unloads in %d hours", minutes / 60),
                          (int) (minutes / 60));
}
