/* agent-context-policy.c — what a session sends of a conversation that
 * outgrew the model's context window
 *
 * The memory keeps every message; a policy changes only the view that a
 * request sends (see docs/design.md, "Long conversations"). The functions
 * at the end are that view, without I/O: agent-turn-context.c runs them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>


#include "agent-enums.h"
#include "core/agent-context-policy-private.h"
#include "messages/agent-message-private.h"

#define DEFAULT_KEEP_TURNS             4
#define DEFAULT_MAX_TOOL_RESULT_LENGTH 2000

/* Sent to the model, not shown to the user: not translated */
#define DEFAULT_SUMMARY_PROMPT \
  "Summarize the conversation above for your own later use: the user's goals and " \
  "requests, the facts, decisions and results established (including what tools " \
  "returned that still matters), and what is still open. Write only the summary, " \
  "as compact as possible while keeping every detail needed to continue."
#define SUMMARY_HEADER "Summary of the earlier conversation:\n\n"

/**
 * AgentContextPolicy:
 *
 * What an [class@Agent.Session] sends of a conversation that no longer
 * fits the model's context window ([property@Agent.Session:context-window]).
 *
 * The memory always keeps every message: a policy changes only what a
 * request sends. When it compacts (before a request whose estimate
 * crosses [property@Agent.Session:context-pressure-threshold] of the
 * window, or once after the server answered
 * %AGENT_ERROR_CONTEXT_LENGTH), it takes the turns before the last
 * [property@Agent.ContextPolicy:keep-turns] (a turn begins with a user
 * message, so a tool call and its result are never parted) and, by its
 * [property@Agent.ContextPolicy:strategy], shortens their tool results,
 * leaves them out, or has the model summarize them into a message that
 * is appended to the memory ([method@Agent.Message.is_summary]) and sent
 * in their place from then on — also after a stored conversation was
 * loaded again. The session's system prompt, and system messages, are
 * always sent. [signal@Agent.Session::compacted] says what was done.
 *
 * Since: 0.1
 */

struct _AgentContextPolicy
{
  GObject               parent_instance;
  char                 *summary_prompt;
  AgentContextStrategy  strategy;
  guint                 keep_turns;
  guint                 max_tool_result_length;
  guint                 auto_compact : 1;
};

enum {
  PROP_0,
  PROP_STRATEGY,
  PROP_KEEP_TURNS,
  PROP_MAX_TOOL_RESULT_LENGTH,
  PROP_AUTO_COMPACT,
  PROP_SUMMARY_PROMPT,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentContextPolicy, agent_context_policy, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
agent_context_policy_finalize (GObject *object)
{
  AgentContextPolicy *self = (AgentContextPolicy *)object;

  g_clear_pointer (&self->summary_prompt, g_free);

  G_OBJECT_CLASS (agent_context_policy_parent_class)->finalize (object);
}

static void
agent_context_policy_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AgentContextPolicy *self = AGENT_CONTEXT_POLICY (object);

  switch (prop_id)
    {
    case PROP_STRATEGY:
      g_value_set_flags (value, self->strategy);
      break;

    case PROP_KEEP_TURNS:
      g_value_set_uint (value, self->keep_turns);
      break;

    case PROP_MAX_TOOL_RESULT_LENGTH:
      g_value_set_uint (value, self->max_tool_result_length);
      break;

    case PROP_AUTO_COMPACT:
      g_value_set_boolean (value, self->auto_compact);
      break;

    case PROP_SUMMARY_PROMPT:
      g_value_set_string (value, agent_context_policy_get_summary_prompt (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_context_policy_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  AgentContextPolicy *self = AGENT_CONTEXT_POLICY (object);

  switch (prop_id)
    {
    case PROP_STRATEGY:
      agent_context_policy_set_strategy (self, g_value_get_flags (value));
      break;

    case PROP_KEEP_TURNS:
      agent_context_policy_set_keep_turns (self, g_value_get_uint (value));
      break;

    case PROP_MAX_TOOL_RESULT_LENGTH:
      agent_context_policy_set_max_tool_result_length (self, g_value_get_uint (value));
      break;

    case PROP_AUTO_COMPACT:
      agent_context_policy_set_auto_compact (self, g_value_get_boolean (value));
      break;

    case PROP_SUMMARY_PROMPT:
      agent_context_policy_set_summary_prompt (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_context_policy_class_init (AgentContextPolicyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = agent_context_policy_finalize;
  object_class->get_property = agent_context_policy_get_property;
  object_class->set_property = agent_context_policy_set_property;

  /**
   * AgentContextPolicy:strategy:
   *
   * What compacting does to the turns before the last
   * [property@Agent.ContextPolicy:keep-turns]: any of shortening their
   * tool results, leaving them out, or summarizing them. With both
   * summarizing and leaving out, summarizing wins.
   *
   * Since: 0.1
   */
  properties[PROP_STRATEGY] =
    g_param_spec_flags ("strategy", NULL, NULL,
                        AGENT_TYPE_CONTEXT_STRATEGY,
                        AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS | AGENT_CONTEXT_STRATEGY_SUMMARIZE,
                        flags | G_PARAM_CONSTRUCT);

  /**
   * AgentContextPolicy:keep-turns:
   *
   * How many of the last turns compacting leaves as they are (at least
   * one: the turn running).
   *
   * Since: 0.1
   */
  properties[PROP_KEEP_TURNS] =
    g_param_spec_uint ("keep-turns", NULL, NULL,
                       1, G_MAXUINT, DEFAULT_KEEP_TURNS, flags);

  /**
   * AgentContextPolicy:max-tool-result-length:
   *
   * The most characters of an older tool result that compacting with
   * %AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS keeps; the result sent says
   * how much was cut.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_TOOL_RESULT_LENGTH] =
    g_param_spec_uint ("max-tool-result-length", NULL, NULL,
                       0, G_MAXUINT, DEFAULT_MAX_TOOL_RESULT_LENGTH, flags);

  /**
   * AgentContextPolicy:auto-compact:
   *
   * Whether the session compacts on its own: before a request whose
   * estimate crosses [property@Agent.Session:context-pressure-threshold]
   * of a known [property@Agent.Session:context-window], and once in a turn
   * after the server refused a request as too long
   * (%AGENT_ERROR_CONTEXT_LENGTH), sending it again compacted. Never more
   * than once per request: a request that still does not fit fails.
   *
   * Since: 0.1
   */
  properties[PROP_AUTO_COMPACT] =
    g_param_spec_boolean ("auto-compact", NULL, NULL, TRUE, flags);

  /**
   * AgentContextPolicy:summary-prompt:
   *
   * The instructions the model gets to summarize older turns, sent
   * after them as a user message. Setting %NULL restores the default.
   *
   * Since: 0.1
   */
  properties[PROP_SUMMARY_PROMPT] =
    g_param_spec_string ("summary-prompt", NULL, NULL, DEFAULT_SUMMARY_PROMPT, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_context_policy_init (AgentContextPolicy *self)
{
  self->keep_turns = DEFAULT_KEEP_TURNS;
  self->max_tool_result_length = DEFAULT_MAX_TOOL_RESULT_LENGTH;
  self->auto_compact = TRUE;
}

/**
 * agent_context_policy_new:
 * @strategy: what compacting does
 *
 * Creates a policy that compacts automatically with @strategy, keeping
 * the last 4 turns as they are.
 *
 * Returns: (transfer full): a new [class@Agent.ContextPolicy]
 *
 * Since: 0.1
 */
AgentContextPolicy *
agent_context_policy_new (AgentContextStrategy strategy)
{
  return g_object_new (AGENT_TYPE_CONTEXT_POLICY, "strategy", strategy, NULL);
}

/**
 * agent_context_policy_get_strategy:
 * @self: a [class@Agent.ContextPolicy]
 *
 * Gets what compacting does.
 *
 * Returns: the strategy
 *
 * Since: 0.1
 */
AgentContextStrategy
agent_context_policy_get_strategy (AgentContextPolicy *self)
{
  g_return_val_if_fail (AGENT_IS_CONTEXT_POLICY (self), 0);
  return self->strategy;
}

/**
 * agent_context_policy_set_strategy:
 * @self: a [class@Agent.ContextPolicy]
 * @strategy: what compacting does
 *
 * Sets [property@Agent.ContextPolicy:strategy].
 *
 * Since: 0.1
 */
void
agent_context_policy_set_strategy (AgentContextPolicy   *self,
                                   AgentContextStrategy  strategy)
{
  g_return_if_fail (AGENT_IS_CONTEXT_POLICY (self));

  if (self->strategy != strategy)
    {
      self->strategy = strategy;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STRATEGY]);
    }
}

/**
 * agent_context_policy_get_keep_turns:
 * @self: a [class@Agent.ContextPolicy]
 *
 * Gets how many of the last turns compacting leaves as they are.
 *
 * Returns: the number of turns kept
 *
 * Since: 0.1
 */
guint
agent_context_policy_get_keep_turns (AgentContextPolicy *self)
{
  g_return_val_if_fail (AGENT_IS_CONTEXT_POLICY (self), DEFAULT_KEEP_TURNS);
  return self->keep_turns;
}

/**
 * agent_context_policy_set_keep_turns:
 * @self: a [class@Agent.ContextPolicy]
 * @keep_turns: the number of last turns to keep, at least 1
 *
 * Sets [property@Agent.ContextPolicy:keep-turns].
 *
 * Since: 0.1
 */
void
agent_context_policy_set_keep_turns (AgentContextPolicy *self,
                                     guint               keep_turns)
{
  g_return_if_fail (AGENT_IS_CONTEXT_POLICY (self));
  g_return_if_fail (keep_turns >= 1);

  if (self->keep_turns != keep_turns)
    {
      self->keep_turns = keep_turns;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KEEP_TURNS]);
    }
}

/**
 * agent_context_policy_get_max_tool_result_length:
 * @self: a [class@Agent.ContextPolicy]
 *
 * Gets the most characters of an older tool result that trimming keeps.
 *
 * Returns: a number of characters
 *
 * Since: 0.1
 */
guint
agent_context_policy_get_max_tool_result_length (AgentContextPolicy *self)
{
  g_return_val_if_fail (AGENT_IS_CONTEXT_POLICY (self), DEFAULT_MAX_TOOL_RESULT_LENGTH);
  return self->max_tool_result_length;
}

/**
 * agent_context_policy_set_max_tool_result_length:
 * @self: a [class@Agent.ContextPolicy]
 * @length: a number of characters
 *
 * Sets [property@Agent.ContextPolicy:max-tool-result-length].
 *
 * Since: 0.1
 */
void
agent_context_policy_set_max_tool_result_length (AgentContextPolicy *self,
                                                 guint               length)
{
  g_return_if_fail (AGENT_IS_CONTEXT_POLICY (self));

  if (self->max_tool_result_length != length)
    {
      self->max_tool_result_length = length;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TOOL_RESULT_LENGTH]);
    }
}

/**
 * agent_context_policy_get_auto_compact:
 * @self: a [class@Agent.ContextPolicy]
 *
 * Checks whether the session compacts on its own.
 *
 * Returns: whether the session compacts on its own
 *
 * Since: 0.1
 */
gboolean
agent_context_policy_get_auto_compact (AgentContextPolicy *self)
{
  g_return_val_if_fail (AGENT_IS_CONTEXT_POLICY (self), FALSE);
  return self->auto_compact;
}

/**
 * agent_context_policy_set_auto_compact:
 * @self: a [class@Agent.ContextPolicy]
 * @auto_compact: whether to compact on its own
 *
 * Sets [property@Agent.ContextPolicy:auto-compact].
 *
 * Since: 0.1
 */
void
agent_context_policy_set_auto_compact (AgentContextPolicy *self,
                                       gboolean            auto_compact)
{
  g_return_if_fail (AGENT_IS_CONTEXT_POLICY (self));

  auto_compact = !!auto_compact;
  if (self->auto_compact != auto_compact)
    {
      self->auto_compact = auto_compact;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AUTO_COMPACT]);
    }
}

/**
 * agent_context_policy_get_summary_prompt:
 * @self: a [class@Agent.ContextPolicy]
 *
 * Gets the instructions the model gets to summarize older turns.
 *
 * Returns: the instructions
 *
 * Since: 0.1
 */
const char *
agent_context_policy_get_summary_prompt (AgentContextPolicy *self)
{
  g_return_val_if_fail (AGENT_IS_CONTEXT_POLICY (self), NULL);
  return self->summary_prompt ? self->summary_prompt : DEFAULT_SUMMARY_PROMPT;
}

/**
 * agent_context_policy_set_summary_prompt:
 * @self: a [class@Agent.ContextPolicy]
 * @prompt: (nullable): the instructions, or %NULL for the default
 *
 * Sets [property@Agent.ContextPolicy:summary-prompt].
 *
 * Since: 0.1
 */
void
agent_context_policy_set_summary_prompt (AgentContextPolicy *self,
                                         const char         *prompt)
{
  g_return_if_fail (AGENT_IS_CONTEXT_POLICY (self));

  if (prompt != NULL && strcmp (prompt, DEFAULT_SUMMARY_PROMPT) == 0)
    prompt = NULL;
  if (g_strcmp0 (self->summary_prompt, prompt) != 0)
    {
      g_free (self->summary_prompt);
      self->summary_prompt = g_strdup (prompt);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUMMARY_PROMPT]);
    }
}

/* The view */

static inline gsize
text_chars (const char *text)
{
  return text != NULL ? strlen (text) : 0;
}

/* The bytes of @message a request carries (as agent-turn.c counts them) */
gsize
_agent_context_message_chars (AgentMessage *message)
{
  gsize size = text_chars (agent_message_get_content (message)) +
               text_chars (agent_message_get_reasoning (message)) +
               text_chars (agent_message_get_refusal (message)) +
               text_chars (agent_message_get_tool_call_id (message)) +
               text_chars (agent_message_get_tool_name (message));
  guint n_calls = agent_message_get_n_tool_calls (message);

  for (guint i = 0; i < n_calls; i++)
    {
      AgentToolCall *call = agent_message_get_tool_call (message, i);

      size += text_chars (agent_tool_call_get_id (call)) +
              text_chars (agent_tool_call_get_name (call)) +
              text_chars (agent_tool_call_get_arguments (call));
    }

  return size;
}

static gint64
chars_to_tokens (gsize chars)
{
  return (gint64) ((chars + AGENT_CONTEXT_CHARS_PER_TOKEN - 1) / AGENT_CONTEXT_CHARS_PER_TOKEN);
}

/* The tokens the API of @images bills for the attachments of @message,
 * sent with images scaled by @scaled (NULL: as they are) */
gint64
_agent_context_message_part_tokens (AgentMessage         *message,
                                    const AgentImageRule *images,
                                    const AgentImageRule *scaled)
{
  guint n = agent_message_get_n_attachments (message);
  gint64 tokens = 0;

  for (guint i = 0; images != NULL && i < n; i++)
    tokens += _agent_content_part_get_tokens (agent_message_get_attachment (message, i),
                                              images, scaled);
  return tokens;
}

/* The tokens a request sending @messages would carry: the usage the
 * server reported for the last answer among them (its prompt and its
 * completion), plus the messages after it: their text at 4 bytes a
 * token, their attachments as the API of @images bills them; with no
 * usage, everything (and @system_prompt) that way. An answer before the
 * memory position @since was to a request compacted otherwise: its usage
 * is not taken. *@estimated says whether any of it was estimated rather
 * than counted by the server. */
gint64
_agent_context_estimate (GPtrArray            *messages,
                         GArray               *positions,
                         guint                 since,
                         const char           *system_prompt,
                         const AgentImageRule *images,
                         const AgentImageRule *scaled,
                         gboolean             *estimated)
{
  gsize added = 0;
  gint64 part_tokens = 0;

  for (guint i = messages->len; i > 0; i--)
    {
      AgentMessage *message = g_ptr_array_index (messages, i - 1);
      AgentUsage *usage = agent_message_get_usage (message);

      /* Only an answer to a request sent as the view is now knows its size */
      if (usage != NULL && !agent_message_is_summary (message) &&
          (positions == NULL || g_array_index (positions, guint, i - 1) >= since))
        {
          gint64 prompt = agent_usage_get_prompt_tokens (usage);
          gint64 completion = agent_usage_get_completion_tokens (usage);

          if (prompt > 0)
            {
              if (estimated != NULL)
                *estimated = added > 0 || part_tokens > 0;
              return prompt + MAX (completion, 0) + chars_to_tokens (added) + part_tokens;
            }
        }

      added += _agent_context_message_chars (message);
      part_tokens += _agent_context_message_part_tokens (message, images, scaled);
    }

  if (estimated != NULL)
    *estimated = TRUE;
  return chars_to_tokens (added + text_chars (system_prompt)) + part_tokens;
}

gint64
_agent_context_estimate_chars (gsize chars)
{
  return chars_to_tokens (chars);
}

/* The conversation as sent before any cut: the memory, with its last
 * summary in place of the messages it replaces (system messages among
 * them are kept), and without earlier summaries. @positions gets the
 * memory position of each message; a summary's copy has its start.
 * *@summary_position is where the summary is in memory, or G_MAXUINT. */
void
_agent_context_base (GListModel *memory,
                     GPtrArray  *messages,
                     GArray     *positions,
                     guint      *summary_position)
{
  guint n = g_list_model_get_n_items (memory);
  g_autoptr(AgentMessage) summary = NULL;
  guint summary_at = G_MAXUINT;
  guint start = 0, end = 0;

  for (guint i = n; i > 0 && summary == NULL; i--)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (memory, i - 1);

      if (agent_message_is_summary (message) &&
          agent_message_get_state (message) == AGENT_MESSAGE_STATE_COMPLETE &&
          agent_message_get_summary_end (message) <= i - 1)
        {
          summary = g_steal_pointer (&message);
          summary_at = i - 1;
          start = agent_message_get_summary_start (summary);
          end = agent_message_get_summary_end (summary);
        }
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AgentMessage) message = g_list_model_get_item (memory, i);

      if (summary != NULL && i == start)
        {
          g_autofree char *text = g_strconcat (SUMMARY_HEADER,
                                               agent_message_get_content (summary), NULL);
          AgentMessage *copy = agent_message_new (AGENT_MESSAGE_ROLE_USER, text);

          _agent_message_set_summary (copy, start, end);
          g_ptr_array_add (messages, copy);
          g_array_append_val (positions, start);
        }

      if (agent_message_is_summary (message) || i == summary_at)
        continue;
      if (summary != NULL && i >= start && i < end &&
          agent_message_get_role (message) != AGENT_MESSAGE_ROLE_SYSTEM)
        continue;

      g_ptr_array_add (messages, g_steal_pointer (&message));
      g_array_append_val (positions, i);
    }

  *summary_position = summary_at;

  /* A summary of nothing (start at the end) still goes last */
  if (summary != NULL && start >= n)
    {
      g_autofree char *text = g_strconcat (SUMMARY_HEADER,
                                           agent_message_get_content (summary), NULL);
      AgentMessage *copy = agent_message_new (AGENT_MESSAGE_ROLE_USER, text);

      _agent_message_set_summary (copy, start, end);
      g_ptr_array_add (messages, copy);
      g_array_append_val (positions, start);
    }
}

/* The memory position where the last keep-turns turns of @messages begin
 * (a turn begins with a user message), or 0 if there are not more turns
 * than that. */
guint
_agent_context_policy_boundary (AgentContextPolicy *self,
                                GPtrArray          *messages,
                                GArray             *positions)
{
  guint turns = 0;

  for (guint i = messages->len; i > 0; i--)
    {
      AgentMessage *message = g_ptr_array_index (messages, i - 1);

      if (agent_message_get_role (message) != AGENT_MESSAGE_ROLE_USER ||
          agent_message_is_summary (message))
        continue;

      if (++turns == self->keep_turns)
        {
          /* Anything before it to compact? */
          for (guint j = 0; j < i - 1; j++)
            if (agent_message_get_role (g_ptr_array_index (messages, j)) !=
                AGENT_MESSAGE_ROLE_SYSTEM)
              return g_array_index (positions, guint, i - 1);
          return 0;
        }
    }

  return 0;
}

/* @text cut to at most @max bytes, at a character, saying how much went */
static char *
cut_text (const char *text,
          gsize       max)
{
  gsize len = strlen (text);
  const char *end = text + max;

  while (end > text && (*end & 0xC0) == 0x80)
    end--;

  return g_strdup_printf ("%.*s\n[… %" G_GSIZE_FORMAT " more bytes cut to save context]",
                          (int) (end - text), text, len - (gsize) (end - text));
}

/* Applies the cuts of @strategy (the policy's, or part of it) to the
 * messages before the memory position @boundary, in place. Summaries are
 * not written here (agent-turn-context.c). Returns the bytes taken out; *@n_trimmed and
 * *@n_dropped count what was shortened and left out. */
gsize
_agent_context_policy_apply (AgentContextPolicy   *self,
                             AgentContextStrategy  strategy,
                             GPtrArray            *messages,
                             GArray               *positions,
                             guint                 boundary,
                             guint                *n_trimmed,
                             guint                *n_dropped)
{
  gboolean drop = (strategy & AGENT_CONTEXT_STRATEGY_KEEP_LAST) != 0;
  gboolean trim = (strategy & AGENT_CONTEXT_STRATEGY_TRIM_TOOL_RESULTS) != 0;
  gsize removed = 0;
  guint i = 0;

  *n_trimmed = *n_dropped = 0;

  while (i < messages->len)
    {
      AgentMessage *message = g_ptr_array_index (messages, i);
      guint position = g_array_index (positions, guint, i);
      const char *content = agent_message_get_content (message);

      if (position >= boundary || agent_message_get_role (message) == AGENT_MESSAGE_ROLE_SYSTEM)
        {
          i++;
          continue;
        }

      if (drop)
        {
          removed += _agent_context_message_chars (message);
          g_ptr_array_remove_index (messages, i);
          g_array_remove_index (positions, i);
          (*n_dropped)++;
          continue;
        }

      if (trim && agent_message_get_role (message) == AGENT_MESSAGE_ROLE_TOOL &&
          content != NULL && strlen (content) > self->max_tool_result_length)
        {
          g_autofree char *cut = cut_text (content, self->max_tool_result_length);
          AgentMessage *shorter;

          if (strlen (cut) >= strlen (content))
            {
              i++;
              continue;
            }

          shorter = agent_message_new_tool_result (agent_message_get_tool_call_id (message),
                                                                 agent_message_get_tool_name (message),
                                                                 cut,
                                                                 agent_message_is_error (message));

          removed += strlen (content) - strlen (cut);
          g_ptr_array_index (messages, i) = shorter;
          g_object_unref (message);
          (*n_trimmed)++;
        }

      i++;
    }

  return removed;
}
