/* agent-gtk-answer-info.c — when an answer was made, by which model, its
 * tokens and its time, from what the message keeps (and the store with
 * it): its creation time, the model the server named, the usage it
 * reported, the metrics of the step that wrote it
 *
 * Short, for the row's actions on hover and focus: "14:03 · gpt-4o · 1,234
 * tokens · 3.2 s". In words, for its tooltip and screen readers:
 * "Answered today at 14:03 by gpt-4o: 1,234 tokens (12,000 in the
 * request), in 3.2 s". What is not known is left out.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>

#include "agent-gtk-answer-info-private.h"

/* When: the time of day today, the day and time this year, the date and
 * time before */
static char *
format_when (GDateTime *created,
             GDateTime *now)
{
  g_autoptr(GDateTime) local = g_date_time_to_local (created);
  g_autoptr(GDateTime) local_now = g_date_time_to_local (now);

  if (g_date_time_get_year (local) == g_date_time_get_year (local_now) &&
      g_date_time_get_day_of_year (local) == g_date_time_get_day_of_year (local_now))
    /* TRANSLATORS: when an answer was made, today: a strftime() format */
    return g_date_time_format (local, _("%H:%M"));
  if (g_date_time_get_year (local) == g_date_time_get_year (local_now))
    /* TRANSLATORS: when an answer was made, this year: a strftime() format */
    return g_date_time_format (local, _("%b %-d, %H:%M"));
  /* TRANSLATORS: when an answer was made, an earlier year: a strftime() format */
  return g_date_time_format (local, _("%b %-d %Y, %H:%M"));
}

/* A duration in µs: "850 ms", "3.2 s", "2 min 5 s" */
static char *
format_duration (gint64 usec)
{
  if (usec < G_USEC_PER_SEC)
    /* TRANSLATORS: a duration in milliseconds */
    return g_strdup_printf (_("%d ms"), (int) (usec / 1000));
  if (usec < 60 * G_USEC_PER_SEC)
    /* TRANSLATORS: a duration in seconds, with one decimal */
    return g_strdup_printf (_("%.1f s"), usec / (double) G_USEC_PER_SEC);
  /* TRANSLATORS: a duration in minutes and seconds */
  return g_strdup_printf (_("%d min %d s"), (int) (usec / (60 * G_USEC_PER_SEC)),
                          (int) (usec / G_USEC_PER_SEC % 60));
}

static gboolean
has_info (AgentMessage *message)
{
  return agent_message_get_role (message) == AGENT_MESSAGE_ROLE_ASSISTANT &&
         agent_message_get_state (message) != AGENT_MESSAGE_STATE_STREAMING &&
         !agent_message_is_summary (message);
}

/* A number with the locale's thousands separators */
static char *
format_count (gint64 n)
{
  return g_strdup_printf ("%'" G_GINT64_FORMAT, n);
}

static gint64
output_tokens (AgentMessage *message)
{
  AgentUsage *usage = agent_message_get_usage (message);

  return usage != NULL ? agent_usage_get_completion_tokens (usage) : -1;
}

static gint64
duration (AgentMessage *message)
{
  AgentMetrics *metrics = agent_message_get_metrics (message);

  return metrics != NULL ? agent_metrics_get_duration (metrics) : -1;
}

char *
_agent_gtk_answer_info_dup_short (AgentMessage *message,
                                  GDateTime    *now)
{
  g_autoptr(GPtrArray) pieces = g_ptr_array_new_with_free_func (g_free);
  GDateTime *created = agent_message_get_created (message);
  const char *model = agent_message_get_model (message);
  gint64 tokens = output_tokens (message);
  gint64 usec = duration (message);

  if (!has_info (message))
    return NULL;
  if (created != NULL)
    g_ptr_array_add (pieces, format_when (created, now));
  if (model != NULL && *model != '\0')
    g_ptr_array_add (pieces, g_strdup (model));
  if (tokens >= 0)
    {
      g_autofree char *count = format_count (tokens);

      g_ptr_array_add (pieces,
                       /* TRANSLATORS: the tokens of an answer, short: "1,234 tokens" */
                       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s token", "%s tokens",
                                                     tokens),
                                        count));
    }
  if (usec >= 0)
    g_ptr_array_add (pieces, format_duration (usec));
  if (pieces->len == 0)
    return NULL;

  g_ptr_array_add (pieces, NULL);
  /* The pieces, joined by a middle dot */
  return g_strjoinv (" · ", (char **) pieces->pdata);
}

char *
_agent_gtk_answer_info_dup_long (AgentMessage *message,
                                 GDateTime    *now)
{
  GDateTime *created = agent_message_get_created (message);
  const char *model = agent_message_get_model (message);
  AgentUsage *usage = agent_message_get_usage (message);
  gint64 tokens = output_tokens (message);
  gint64 usec = duration (message);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *when = NULL;

  if (!has_info (message))
    return NULL;

  when = created != NULL ? format_when (created, now) : NULL;
  if (when != NULL && model != NULL && *model != '\0')
    /* TRANSLATORS: when an answer was made, and by which model */
    g_string_append_printf (text, _("Answered %s by %s"), when, model);
  else if (when != NULL)
    /* TRANSLATORS: when an answer was made */
    g_string_append_printf (text, _("Answered %s"), when);
  else if (model != NULL && *model != '\0')
    /* TRANSLATORS: the model that made an answer */
    g_string_append_printf (text, _("Answered by %s"), model);

  if (tokens >= 0)
    {
      gint64 prompt = agent_usage_get_prompt_tokens (usage);
      g_autofree char *answer_count = format_count (tokens);
      g_autofree char *prompt_count = format_count (prompt);
      g_autofree char *count = NULL;

      if (prompt > 0)
        /* TRANSLATORS: the tokens an answer took, then those of the request it answered */
        count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s token (%s in the request)",
                                              "%s tokens (%s in the request)", tokens),
                                 answer_count, prompt_count);
      else
        /* TRANSLATORS: the tokens an answer took */
        count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s token", "%s tokens", tokens),
                                 answer_count);
      if (text->len > 0)
        g_string_append (text, ": ");
      g_string_append (text, count);
    }
  if (usec >= 0)
    {
      g_autofree char *took = format_duration (usec);

      if (text->len > 0)
        g_string_append (text, tokens >= 0 ? ", " : ": ");
      /* TRANSLATORS: how long an answer took to write */
      g_string_append_printf (text, _("in %s"), took);
    }
  if (text->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&text), FALSE);
}
