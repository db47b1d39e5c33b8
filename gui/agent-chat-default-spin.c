/* agent-chat-default-spin.c
 *
 * A spin button for a setting that may be left to a default: its lowest
 * value means "not set", and shows a word ("Default", "Automatic") instead
 * of the number. Typing the word, or clearing the entry, sets it back;
 * the button's "-" reaches it from the first value.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "agent-chat-default-spin.h"

static gboolean
is_unset (GtkSpinButton *spin)
{
  GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (spin);

  return gtk_adjustment_get_value (adjustment) <= gtk_adjustment_get_lower (adjustment);
}

static gboolean
on_output (GtkSpinButton *spin,
           const char    *unset_text)
{
  if (!is_unset (spin))
    return FALSE;
  gtk_editable_set_text (GTK_EDITABLE (spin), unset_text);
  return TRUE;
}

static int
on_input (GtkSpinButton *spin,
          double        *value,
          const char    *unset_text)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  char *end = NULL;

  if (*stripped == '\0' ||
      g_utf8_collate (stripped, unset_text) == 0)
    {
      *value = gtk_adjustment_get_lower (gtk_spin_button_get_adjustment (spin));
      return TRUE;
    }

  /* A number in the C locale or the user's (a decimal comma) */
  *value = g_ascii_strtod (stripped, &end);
  if (end != NULL && *end == ',')
    {
      g_strdelimit (stripped, ",", '.');
      *value = g_ascii_strtod (stripped, &end);
    }
  if (end == stripped || *end != '\0')
    return GTK_INPUT_ERROR;
  return TRUE;
}

/**
 * agent_chat_default_spin_init:
 * @spin: a spin button whose adjustment's lower value means "not set"
 * @unset_text: what it shows then
 */
void
agent_chat_default_spin_init (GtkSpinButton *spin,
                              const char    *unset_text)
{
  gtk_spin_button_set_numeric (spin, FALSE);
  g_signal_connect_data (spin, "output", G_CALLBACK (on_output), g_strdup (unset_text),
                         (GClosureNotify) G_CALLBACK (g_free), 0);
  g_signal_connect_data (spin, "input", G_CALLBACK (on_input), g_strdup (unset_text),
                         (GClosureNotify) G_CALLBACK (g_free), 0);
  if (is_unset (spin))
    gtk_editable_set_text (GTK_EDITABLE (spin), unset_text);
}
