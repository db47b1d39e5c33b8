/* agent-chat-title.c
 *
 * A short title for a conversation, written by the model after its first
 * answer: one small request (the question and the answer, cut short, no
 * tools, a few tokens), its answer cleaned to one line of at most 60
 * characters without quotes or Markdown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "agent-chat-title.h"

/* What of the question and the answer is sent, at most, in characters */
#define EXCERPT 800
#define MAX_TITLE 60

static char *
cut (const char *text)
{
  if (text == NULL)
    return g_strdup ("");
  if (g_utf8_strlen (text, -1) <= EXCERPT)
    return g_strdup (text);
  return g_utf8_substring (text, 0, EXCERPT);
}

/**
 * agent_chat_title_clean:
 * @text: what the model answered
 *
 * Returns: (transfer full) (nullable): a title: the first line that says
 *   something, without quotes, Markdown marks or a final full stop, at most
 *   60 characters (cut after a word); %NULL when nothing is left
 */
char *
agent_chat_title_clean (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  g_autofree char *line = NULL;
  gsize len;

  for (guint i = 0; lines[i] != NULL && line == NULL; i++)
    {
      g_autofree char *candidate = g_strstrip (g_strdup (lines[i]));
      const char *p = candidate;

      /* "Title:", "#", "**" and quotes around */
      while (*p == '#' || *p == '*' || *p == '"' || *p == '\'' || *p == '`' || *p == ' ')
        p++;
      if (g_ascii_strncasecmp (p, "title:", 6) == 0)
        p += 6;
      while (*p == ' ' || *p == '"' || *p == '*')
        p++;
      if (*p != '\0')
        line = g_strdup (p);
    }
  if (line == NULL)
    return NULL;
  if (g_str_has_prefix (line, "“"))
    memmove (line, line + strlen ("“"), strlen (line) - strlen ("“") + 1);
  len = strlen (line);
  while (len > 0 && strchr ("\"'*`.“”", line[len - 1]) != NULL)
    line[--len] = '\0';
  if (g_str_has_suffix (line, "”"))
    line[strlen (line) - strlen ("”")] = '\0';
  g_strstrip (line);
  if (!g_utf8_validate (line, -1, NULL) || *line == '\0')
    return NULL;
  if (g_utf8_strlen (line, -1) > MAX_TITLE)
    {
      g_autofree char *short_line = g_utf8_substring (line, 0, MAX_TITLE - 1);
      char *space = strrchr (short_line, ' ');

      if (space != NULL && space > short_line)
        *space = '\0';
      return g_strconcat (g_strchomp (short_line), "…", NULL);
    }
  return g_steal_pointer (&line);
}

static void
on_sent (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AgentMessage) message = agent_session_send_finish (AGENT_SESSION (object), result,
                                                               &error);
  char *title;

  if (message == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if ((title = agent_chat_title_clean (agent_message_get_content (message))) == NULL)
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               "The model wrote no title");
      return;
    }
  g_task_return_pointer (task, title, g_free);
}

/**
 * agent_chat_title_generate_async:
 * @provider: a provider set up for the server (URL, model, key)
 * @prompt: the conversation's first question
 * @answer: its answer
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the title
 * @user_data: for @callback
 *
 * Asks the model for a short title, in one small request.
 */
void
agent_chat_title_generate_async (AgentProvider       *provider,
                                 const char          *prompt,
                                 const char          *answer,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (provider, cancellable, callback, user_data);
  g_autoptr(AgentSession) session = agent_session_new (provider);
  g_autofree char *question = cut (prompt);
  g_autofree char *reply = cut (answer);
  g_autofree char *text = NULL;

  g_task_set_source_tag (task, agent_chat_title_generate_async);
  g_task_set_task_data (task, g_object_ref (session), g_object_unref);
  agent_provider_set_max_tokens (provider, 32);
  agent_session_set_max_steps (session, 1);
  /* Written for the model, not shown: not translated */
  agent_session_set_system_prompt (session,
                                   "Write a title of at most six words for the conversation "
                                   "below, in its language. Answer with the title alone, without "
                                   "quotes.");
  text = g_strdup_printf ("Question:\n%s\n\nAnswer:\n%s", question, reply);
  agent_session_send_async (session, text, cancellable, on_sent, g_steal_pointer (&task));
}

/**
 * agent_chat_title_generate_finish:
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the title
 */
char *
agent_chat_title_generate_finish (GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_chat_title_generate_async,
                        NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
