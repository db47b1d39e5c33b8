/* agent-cli-context.c — --context-window, --compact, --compact-strategy,
 * --keep-turns: what agent-cli sends of a conversation that outgrew the
 * model's context window, and the `compacted` event
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-cli-context.h"

/* The strategy's nicks, "trim-tool-results,summarize" */
static char *
strategy_to_string (AgentContextStrategy strategy)
{
  GFlagsClass *klass = g_type_class_ref (AGENT_TYPE_CONTEXT_STRATEGY);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < klass->n_values; i++)
    if (klass->values[i].value != 0 && (strategy & klass->values[i].value) != 0)
      {
        if (text->len > 0)
          g_string_append_c (text, ',');
        g_string_append (text, klass->values[i].value_nick);
      }

  g_type_class_unref (klass);
  return g_string_free (text, FALSE);
}

static gboolean
strategy_from_string (const char            *text,
                      AgentContextStrategy  *strategy,
                      GError               **error)
{
  GFlagsClass *klass = g_type_class_ref (AGENT_TYPE_CONTEXT_STRATEGY);
  g_auto(GStrv) names = g_strsplit (text, ",", -1);
  gboolean ok = TRUE;

  *strategy = 0;
  for (guint i = 0; ok && names[i] != NULL; i++)
    {
      GFlagsValue *value = g_flags_get_value_by_nick (klass, g_strstrip (names[i]));

      if (value == NULL || value->value == 0)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("--compact-strategy takes summarize, keep-last or trim-tool-results "
                         "(separated by commas), not “%s”"),
                       names[i]);
          ok = FALSE;
        }
      else
        *strategy |= value->value;
    }

  g_type_class_unref (klass);
  return ok;
}

static void
compacted_cb (AgentSession         *session,
              AgentContextStrategy  strategy,
              guint                 start,
              guint                 end,
              gint64                tokens_before,
              gint64                tokens_after,
              AgentMessage         *summary,
              CliOutput            *output)
{
  g_autofree char *text = strategy_to_string (strategy);

  cli_output_compacted (output, text, start, end, tokens_before, tokens_after, summary);
}

/* A summary streams as an answer does, but is not the answer: a notice
 * when it starts, instead of its text */
static void
summary_delta_cb (AgentSession *session,
                  AgentMessage *message,
                  const char   *delta,
                  CliOutput    *output)
{
  if (!agent_message_is_summary (message) ||
      g_object_get_data (G_OBJECT (message), "agent-cli-announced") != NULL)
    return;

  g_object_set_data (G_OBJECT (message), "agent-cli-announced", GINT_TO_POINTER (TRUE));
  cli_output_notice (output, _("Summarizing the earlier conversation to make room…"));
}

static void
fetched_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask **answer = user_data;

  *answer = g_object_ref (G_TASK (result));
}

/* --context-window auto: as the server's model list says, if it does; a
 * failure leaves it unknown (a refusal that names the limit sets it) */
static guint64
fetch_context_window (AgentSession *session,
                      CliOutput    *output)
{
  AgentProvider *provider = agent_session_get_provider (session);
  g_autoptr(GTask) answer = NULL;
  g_autoptr(GError) error = NULL;
  gint64 tokens;

  agent_provider_fetch_context_window_async (provider, NULL, NULL, fetched_cb, &answer);
  while (answer == NULL)
    g_main_context_iteration (NULL, TRUE);

  tokens = agent_provider_fetch_context_window_finish (provider, G_ASYNC_RESULT (answer), &error);
  if (tokens <= 0)
    {
      g_autofree char *text = NULL;

      text = g_strdup_printf (_("The server does not say how large the model's context window "
                                "is%s%s"),
                              error ? ": " : "", error ? error->message : "");
      cli_output_notice (output, text);
      return 0;
    }

  return tokens;
}

gboolean
cli_context_setup (AgentSession  *session,
                   CliOutput     *output,
                   const char    *window,
                   const char    *compact,
                   const char    *strategy_text,
                   int            keep_turns,
                   GError       **error)
{
  g_autoptr(AgentContextPolicy) policy = NULL;
  AgentContextStrategy strategy = AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS |
                                  AGENT_CONTEXT_STRATEGY_SUMMARIZE;
  guint64 tokens = 0;

  if (window != NULL && !g_str_equal (window, "auto") &&
      !g_ascii_string_to_unsigned (window, 10, 1, G_MAXINT64, &tokens, NULL))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("--context-window takes a number of tokens or auto, not “%s”"), window);
      return FALSE;
    }

  if (compact != NULL && !g_str_equal (compact, "auto") && !g_str_equal (compact, "off"))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("--compact takes auto or off, not “%s”"), compact);
      return FALSE;
    }

  if (strategy_text != NULL && !strategy_from_string (strategy_text, &strategy, error))
    return FALSE;

  if (keep_turns < 0)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("--keep-turns must be at least 1, not %d"), keep_turns);
      return FALSE;
    }

  if (window != NULL && g_str_equal (window, "auto"))
    tokens = fetch_context_window (session, output);
  if (tokens > 0)
    agent_session_set_context_window (session, tokens);

  if (compact == NULL || g_str_equal (compact, "off"))
    return TRUE;

  policy = agent_context_policy_new (strategy);
  if (keep_turns > 0)
    agent_context_policy_set_keep_turns (policy, keep_turns);
  agent_session_set_context_policy (session, policy);

  g_signal_connect (session, "compacted", G_CALLBACK (compacted_cb), output);
  g_signal_connect (session, "text-delta", G_CALLBACK (summary_delta_cb), output);

  return TRUE;
}
