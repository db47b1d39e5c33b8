/* agent-usage.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "json/agent-json-private.h"
#include "messages/agent-usage-private.h"

/**
 * AgentUsage:
 *
 * How many tokens a request (or a whole turn) used.
 *
 * The prompt's tokens count all it sent, those read from the provider's
 * prompt cache ([method@Agent.Usage.get_cached_tokens]) and those written
 * to it ([method@Agent.Usage.get_cache_creation_tokens]) included, for
 * every provider: Anthropic's `input_tokens` leave both out, and are added
 * to them here.
 *
 * An `AgentUsage` is immutable. Besides the counts every provider reports,
 * it keeps the provider's own usage object ([method@Agent.Usage.get_raw]) for
 * the fields only that provider has (costs, timings, …).
 *
 * Since: 0.1
 */

struct _AgentUsage
{
  gint64    prompt_tokens;
  gint64    completion_tokens;
  gint64    total_tokens;
  gint64    reasoning_tokens;
  gint64    cached_tokens;
  gint64    cache_creation_tokens;
  JsonNode *raw;
  guint     has_cached : 1;          /* the provider reported each */
  guint     has_cache_creation : 1;
};

G_DEFINE_BOXED_TYPE (AgentUsage, agent_usage, agent_usage_ref, agent_usage_unref)

/**
 * agent_usage_new:
 * @prompt_tokens: tokens in the request
 * @completion_tokens: tokens in the answer
 * @total_tokens: all tokens, or -1 to use the sum of the other two
 *
 * Creates a usage record.
 *
 * Returns: (transfer full): a new [struct@Agent.Usage]
 *
 * Since: 0.1
 */
AgentUsage *
agent_usage_new (gint64 prompt_tokens,
                 gint64 completion_tokens,
                 gint64 total_tokens)
{
  AgentUsage *self = g_atomic_rc_box_new0 (AgentUsage);

  self->prompt_tokens = MAX (prompt_tokens, 0);
  self->completion_tokens = MAX (completion_tokens, 0);
  self->total_tokens = total_tokens >= 0 ? total_tokens
                                         : self->prompt_tokens + self->completion_tokens;
  return self;
}

static gint64
member_int (JsonObject *object,
            const char *name)
{
  JsonNode *node;

  if (object == NULL || !(node = json_object_get_member (object, name)))
    return 0;
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType type = json_node_get_value_type (node);

      if (type == G_TYPE_INT64)
        return MAX (json_node_get_int (node), 0);
      if (type == G_TYPE_DOUBLE)
        {
          double value = json_node_get_double (node);

          /* 2^63 is the first double past a gint64: the cast of a larger
           * one is undefined */
          if (!(value > 0))
            return 0;
          return value >= 9223372036854775808.0 ? G_MAXINT64 : (gint64) value;
        }
    }
  return 0;
}

/* A count plus a count, at most G_MAXINT64 (both are not negative) */
static gint64
add_counts (gint64 a,
            gint64 b)
{
  return a > G_MAXINT64 - b ? G_MAXINT64 : a + b;
}

/* Whether the count @path (a member, or DETAILS.MEMBER) is in @object */
static gboolean
has_count (JsonObject *object,
           const char *details,
           const char *name)
{
  JsonNode *node;

  if (details != NULL)
    {
      node = json_object_get_member (object, details);
      object = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
    }
  node = object != NULL ? json_object_get_member (object, name) : NULL;
  return node != NULL && JSON_NODE_HOLDS_VALUE (node);
}

static JsonObject *
member_object (JsonObject *object,
               const char *name)
{
  JsonNode *node;

  if (object == NULL || !(node = json_object_get_member (object, name)))
    return NULL;
  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/**
 * agent_usage_new_from_json:
 * @node: a usage object as a provider sent it
 *
 * Reads the token counts from a provider's usage object. The names of the
 * OpenAI chat API (`prompt_tokens`, `completion_tokens`, `total_tokens`,
 * `completion_tokens_details.reasoning_tokens`,
 * `prompt_tokens_details.cached_tokens`), of the Responses API
 * (`input_tokens`, `output_tokens`, `input_tokens_details.cached_tokens`,
 * `output_tokens_details.reasoning_tokens`) and of Anthropic's
 * (`cache_read_input_tokens` and `cache_creation_input_tokens`, added to
 * the prompt's) are understood. @node is kept as the raw usage.
 *
 * Returns: (transfer full) (nullable): a new [struct@Agent.Usage], or %NULL if @node
 *   is not an object
 *
 * Since: 0.1
 */
AgentUsage *
agent_usage_new_from_json (JsonNode *node)
{
  AgentUsage *self;
  JsonObject *object;
  gint64 cache_read;
  gint64 cache_creation;

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  object = json_node_get_object (node);
  self = g_atomic_rc_box_new0 (AgentUsage);
  cache_read = member_int (object, "cache_read_input_tokens");
  cache_creation = member_int (object, "cache_creation_input_tokens");
  self->prompt_tokens = add_counts (add_counts (member_int (object, "prompt_tokens"),
                                                member_int (object, "input_tokens")),
                                    add_counts (cache_read, cache_creation));
  self->completion_tokens = add_counts (member_int (object, "completion_tokens"),
                                        member_int (object, "output_tokens"));
  self->total_tokens = json_object_has_member (object, "total_tokens")
                     ? member_int (object, "total_tokens")
                     : add_counts (self->prompt_tokens, self->completion_tokens);
  self->reasoning_tokens = add_counts (member_int (member_object (object,
                                                                  "completion_tokens_details"),
                                                   "reasoning_tokens"),
                                       member_int (member_object (object, "output_tokens_details"),
                                                   "reasoning_tokens"));
  self->cached_tokens = add_counts (add_counts (member_int (member_object (object,
                                                                          "prompt_tokens_details"),
                                                           "cached_tokens"),
                                                member_int (member_object (object,
                                                                          "input_tokens_details"),
                                                            "cached_tokens")),
                                    cache_read);
  self->has_cached = has_count (object, "prompt_tokens_details", "cached_tokens") ||
                     has_count (object, "input_tokens_details", "cached_tokens") ||
                     has_count (object, NULL, "cache_read_input_tokens");
  self->cache_creation_tokens = cache_creation;
  self->has_cache_creation = has_count (object, NULL, "cache_creation_input_tokens");
  /* A deep copy: sealing a shallow one would seal the caller's object */
  self->raw = _agent_json_node_sealed_copy (node);

  return self;
}

/* @cached_tokens and @cache_creation_tokens are -1 when the provider did
 * not report them */
AgentUsage *
_agent_usage_new_full (gint64    prompt_tokens,
                       gint64    completion_tokens,
                       gint64    total_tokens,
                       gint64    reasoning_tokens,
                       gint64    cached_tokens,
                       gint64    cache_creation_tokens,
                       JsonNode *raw)
{
  AgentUsage *self = agent_usage_new (prompt_tokens, completion_tokens, total_tokens);

  self->reasoning_tokens = MAX (reasoning_tokens, 0);
  self->cached_tokens = MAX (cached_tokens, 0);
  self->has_cached = cached_tokens >= 0;
  self->cache_creation_tokens = MAX (cache_creation_tokens, 0);
  self->has_cache_creation = cache_creation_tokens >= 0;
  self->raw = raw != NULL ? _agent_json_node_sealed_copy (raw) : NULL;

  return self;
}

/* The cache's counts as _agent_usage_new_full() takes them: -1 when the
 * provider did not report them */
gint64
_agent_usage_get_reported_cached_tokens (const AgentUsage *self)
{
  return self->has_cached ? self->cached_tokens : -1;
}

gint64
_agent_usage_get_reported_cache_creation_tokens (const AgentUsage *self)
{
  return self->has_cache_creation ? self->cache_creation_tokens : -1;
}

/**
 * agent_usage_ref:
 * @self: a [struct@Agent.Usage]
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AgentUsage *
agent_usage_ref (AgentUsage *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
agent_usage_clear (gpointer data)
{
  AgentUsage *self = data;

  g_clear_pointer (&self->raw, json_node_unref);
}

/**
 * agent_usage_unref:
 * @self: (transfer full): a [struct@Agent.Usage]
 *
 * Releases a reference on @self; the last one frees it.
 *
 * Since: 0.1
 */
void
agent_usage_unref (AgentUsage *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, agent_usage_clear);
}

/**
 * agent_usage_get_prompt_tokens:
 * @self: a [struct@Agent.Usage]
 *
 * Gets the number of tokens in the request.
 *
 * Returns: the number of tokens in the request
 *
 * Since: 0.1
 */
gint64
agent_usage_get_prompt_tokens (const AgentUsage *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->prompt_tokens;
}

/**
 * agent_usage_get_completion_tokens:
 * @self: a [struct@Agent.Usage]
 *
 * Gets the number of tokens the model generated.
 *
 * Returns: the number of tokens the model generated
 *
 * Since: 0.1
 */
gint64
agent_usage_get_completion_tokens (const AgentUsage *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->completion_tokens;
}

/**
 * agent_usage_get_total_tokens:
 * @self: a [struct@Agent.Usage]
 *
 * Gets the total number of tokens.
 *
 * Returns: the total number of tokens
 *
 * Since: 0.1
 */
gint64
agent_usage_get_total_tokens (const AgentUsage *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->total_tokens;
}

/**
 * agent_usage_get_reasoning_tokens:
 * @self: a [struct@Agent.Usage]
 *
 * Gets how many of the completion tokens were reasoning, or 0 if unknown.
 *
 * Returns: how many of the completion tokens were reasoning, or 0 if unknown
 *
 * Since: 0.1
 */
gint64
agent_usage_get_reasoning_tokens (const AgentUsage *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->reasoning_tokens;
}

/**
 * agent_usage_get_cached_tokens:
 * @self: a [struct@Agent.Usage]
 *
 * Gets how many of the prompt tokens came from the provider's cache, or 0.
 *
 * Returns: how many of the prompt tokens came from the provider's cache, or 0
 *
 * Since: 0.1
 */
gint64
agent_usage_get_cached_tokens (const AgentUsage *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->cached_tokens;
}

/**
 * agent_usage_get_cache_creation_tokens:
 * @self: a [struct@Agent.Usage]
 *
 * Gets how many of the prompt tokens were written to the provider's cache
 * (Anthropic's `cache_creation_input_tokens`), or 0.
 *
 * Returns: how many of the prompt tokens were written to the cache, or 0
 *
 * Since: 0.1
 */
gint64
agent_usage_get_cache_creation_tokens (const AgentUsage *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->cache_creation_tokens;
}

/**
 * agent_usage_get_raw:
 * @self: a [struct@Agent.Usage]
 *
 * Gets the usage object exactly as the provider sent it.
 *
 * Returns: (transfer none) (nullable): the provider's usage object, or %NULL
 *   for usage built by [ctor@Agent.Usage.new] or [method@Agent.Usage.add]
 *
 * Since: 0.1
 */
JsonNode *
agent_usage_get_raw (const AgentUsage *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->raw;
}

/* @part's counts added to @sum's */
static void
add_into (AgentUsage       *sum,
          const AgentUsage *part)
{
  if (part == NULL)
    return;
  sum->prompt_tokens = add_counts (sum->prompt_tokens, part->prompt_tokens);
  sum->completion_tokens = add_counts (sum->completion_tokens, part->completion_tokens);
  sum->total_tokens = add_counts (sum->total_tokens, part->total_tokens);
  sum->reasoning_tokens = add_counts (sum->reasoning_tokens, part->reasoning_tokens);
  sum->cached_tokens = add_counts (sum->cached_tokens, part->cached_tokens);
  sum->cache_creation_tokens = add_counts (sum->cache_creation_tokens,
                                           part->cache_creation_tokens);
  sum->has_cached |= part->has_cached;
  sum->has_cache_creation |= part->has_cache_creation;
}

/**
 * agent_usage_add:
 * @self: (nullable): a [struct@Agent.Usage]
 * @other: (nullable): another [struct@Agent.Usage]
 *
 * Adds two usage records, for example the steps of one turn.
 *
 * Returns: (transfer full): a new [struct@Agent.Usage] with the sums (all zero when
 *   both are %NULL)
 *
 * Since: 0.1
 */
AgentUsage *
agent_usage_add (const AgentUsage *self,
                 const AgentUsage *other)
{
  AgentUsage *sum = g_atomic_rc_box_new0 (AgentUsage);

  add_into (sum, self);
  add_into (sum, other);
  return sum;
}

/**
 * agent_usage_to_json:
 * @self: an [struct@Agent.Usage]
 *
 * Writes the token counts as a JSON object: `prompt-tokens`,
 * `completion-tokens`, `total-tokens`, `reasoning-tokens` when there were
 * any, and `cached-input-tokens` and `cache-creation-input-tokens` (the
 * prompt's tokens read from and written to the provider's cache) when the
 * provider reported them, 0 included. This is the form of agent-cli's `--json` output and of the
 * events of the Python and JavaScript `stream()`.
 *
 * Returns: (transfer full): a new JSON object
 *
 * Since: 0.1
 */
JsonNode *
agent_usage_to_json (const AgentUsage *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "prompt-tokens");
  json_builder_add_int_value (builder, self->prompt_tokens);
  json_builder_set_member_name (builder, "completion-tokens");
  json_builder_add_int_value (builder, self->completion_tokens);
  json_builder_set_member_name (builder, "total-tokens");
  json_builder_add_int_value (builder, self->total_tokens);
  if (self->reasoning_tokens > 0)
    {
      json_builder_set_member_name (builder, "reasoning-tokens");
      json_builder_add_int_value (builder, self->reasoning_tokens);
    }
  if (self->has_cached)
    {
      json_builder_set_member_name (builder, "cached-input-tokens");
      json_builder_add_int_value (builder, self->cached_tokens);
    }
  if (self->has_cache_creation)
    {
      json_builder_set_member_name (builder, "cache-creation-input-tokens");
      json_builder_add_int_value (builder, self->cache_creation_tokens);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
