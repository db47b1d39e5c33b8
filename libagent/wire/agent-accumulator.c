/* agent-accumulator.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "wire/agent-accumulator-private.h"
#include "agent-error.h"
#include "messages/agent-message-private.h"
#include "messages/agent-tool-call-private.h"

#define RETIRED_KEY G_MININT64

typedef struct
{
  gint64         key;
  AgentToolCall *call;   /* owned by the message's list of calls */
} CallSlot;

struct _AgentAccumulator
{
  const AgentAccumulatorListener *listener;
  gpointer                        user_data;
  AgentMessage                   *message;
  GArray                         *slots;   /* CallSlot, in order of first appearance */
  guint                           last_slot;
  GError                         *error;   /* a bound was exceeded */
};

static const AgentAccumulatorListener no_listener;

AgentAccumulator *
agent_accumulator_new (const AgentAccumulatorListener *listener,
                       gpointer                        user_data)
{
  AgentAccumulator *self = g_new0 (AgentAccumulator, 1);

  self->listener = listener ? listener : &no_listener;
  self->user_data = user_data;
  self->message = _agent_message_new_streaming ();
  self->slots = g_array_new (FALSE, FALSE, sizeof (CallSlot));

  return self;
}

void
agent_accumulator_free (AgentAccumulator *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->message);
  g_clear_error (&self->error);
  g_array_unref (self->slots);
  g_free (self);
}

AgentMessage *
agent_accumulator_get_message (AgentAccumulator *self)
{
  return self->message;
}

/* Servers are supposed to send UTF-8, and JSON strings must be; a broken
 * server can still split a character across deltas or send Latin-1. What
 * reaches the message and the signals is always valid UTF-8 (invalid bytes
 * become U+FFFD), as a browser's decoder would do. */
typedef void (*DeltaFunc) (gpointer user_data, const char *text, gsize len);

static void
append_valid (AgentAccumulator  *self,
              GString          **field,
              DeltaFunc          notify,
              const char        *text,
              gsize              len)
{
  g_autofree char *valid = NULL;

  if G_UNLIKELY (!g_utf8_validate_len (text, len, NULL))
    {
      valid = g_utf8_make_valid (text, len);
      text = valid;
      len = strlen (valid);
    }

  _agent_message_append (field, text, len);

  if (notify != NULL && len > 0)
    notify (self->user_data, text, len);
}

void
agent_accumulator_append_text (AgentAccumulator *self,
                               const char       *text,
                               gsize             len)
{
  append_valid (self, &self->message->content, self->listener->text_delta, text, len);
}

/* The text that follows is another piece of the answer (a message item,
 * a text block): see agent_message_get_content_breaks(). */
void
agent_accumulator_break_text (AgentAccumulator *self)
{
  _agent_message_add_content_break (self->message);
}

void
agent_accumulator_append_reasoning (AgentAccumulator *self,
                                    const char       *text,
                                    gsize             len)
{
  append_valid (self, &self->message->reasoning, self->listener->reasoning_delta, text, len);
}

void
agent_accumulator_append_refusal (AgentAccumulator *self,
                                  const char       *text,
                                  gsize             len)
{
  append_valid (self, &self->message->refusal, self->listener->refusal_delta, text, len);
}

static inline CallSlot *
find_slot (AgentAccumulator *self,
           gint64            key)
{
  CallSlot *slots = (CallSlot *)(gpointer)self->slots->data;

  /* Fragments of one call usually come in a row. */
  if (self->last_slot < self->slots->len && slots[self->last_slot].key == key)
    return &slots[self->last_slot];

  for (guint i = 0; i < self->slots->len; i++)
    {
      if (slots[i].key == key)
        {
          self->last_slot = i;
          return &slots[i];
        }
    }

  return NULL;
}

AgentToolCall *
agent_accumulator_lookup_tool_call (AgentAccumulator *self,
                                    gint64            key)
{
  CallSlot *slot = find_slot (self, key);

  return slot ? slot->call : NULL;
}

static CallSlot *
add_slot (AgentAccumulator *self,
          gint64            key)
{
  CallSlot slot;

  slot.key = key;
  slot.call = _agent_tool_call_new_streaming (self->slots->len);
  g_list_store_append (self->message->tool_calls, slot.call);
  g_object_unref (slot.call);
  g_array_append_val (self->slots, slot);
  self->last_slot = self->slots->len - 1;

  return &g_array_index (self->slots, CallSlot, self->last_slot);
}

static inline gboolean
is_set (const char *s)
{
  return s != NULL && s[0] != '\0';
}

AgentToolCall *
agent_accumulator_tool_call_delta (AgentAccumulator *self,
                                   gint64            key,
                                   const char       *id,
                                   const char       *name,
                                   const char       *type,
                                   const char       *fragment,
                                   gsize             len)
{
  CallSlot *slot;
  AgentToolCall *call;
  gboolean changed = FALSE;

  if G_UNLIKELY (self->error != NULL)
    return NULL;

  slot = find_slot (self, key);

  /* The same key with a different id is a new call: servers that leave
   * out the index (Mistral) send each call whole at position 0. Servers
   * that repeat the id on every fragment repeat the same one. */
  if (slot != NULL && is_set (id) && is_set (slot->call->id) && !g_str_equal (id, slot->call->id))
    {
      slot->key = RETIRED_KEY;
      slot = NULL;
    }

  if (slot == NULL)
    {
      if (self->slots->len >= AGENT_ACCUMULATOR_MAX_TOOL_CALLS)
        {
          g_set_error (&self->error, AGENT_ERROR, AGENT_ERROR_LIMIT,
                       _("The answer has more than %u tool calls"),
                       AGENT_ACCUMULATOR_MAX_TOOL_CALLS);
          return NULL;
        }
      slot = add_slot (self, key);
      changed = TRUE;
    }

  call = slot->call;

  /* id, name and type arrive once; later repeats are not concatenated, and
   * an empty repeat ("name": "") does not erase what arrived. */
  if (is_set (id) && call->id == NULL)
    {
      _agent_tool_call_set_id (call, id);
      changed = TRUE;
    }
  if (is_set (name) && call->name == NULL)
    {
      _agent_tool_call_set_name (call, name);
      changed = TRUE;
    }
  if (is_set (type) && call->type == NULL)
    _agent_tool_call_set_type (call, type);

  if (len > 0)
    {
      if G_UNLIKELY (call->arguments->len + len > AGENT_ACCUMULATOR_MAX_ARGUMENTS_SIZE)
        {
          g_set_error (&self->error, AGENT_ERROR, AGENT_ERROR_LIMIT,
                       _("The arguments of the tool call “%s” are larger than %u MiB"),
                       call->name ? call->name : "", AGENT_ACCUMULATOR_MAX_ARGUMENTS_SIZE >> 20);
          return NULL;
        }
      _agent_tool_call_append_arguments (call, fragment, len);
      changed = TRUE;
    }

  if (changed && self->listener->tool_call_delta != NULL)
    self->listener->tool_call_delta (self->user_data, call, len > 0 ? fragment : "", len);

  return call;
}

void
agent_accumulator_set_finish_reason (AgentAccumulator *self,
                                     const char       *finish_reason)
{
  _agent_message_set_finish_reason (self->message, finish_reason);
}

gboolean
agent_accumulator_has_finish_reason (AgentAccumulator *self)
{
  return self->message->finish_reason != NULL;
}

void
agent_accumulator_set_usage (AgentAccumulator *self,
                             AgentUsage       *usage)
{
  _agent_message_set_usage (self->message, usage);
}

void
agent_accumulator_set_response_id (AgentAccumulator *self,
                                   const char       *response_id)
{
  if (self->message->response_id == NULL && is_set (response_id))
    _agent_message_set_response_id (self->message, response_id);
}

void
agent_accumulator_set_model (AgentAccumulator *self,
                             const char       *model)
{
  if (self->message->model == NULL && is_set (model))
    _agent_message_set_model (self->message, model);
}

/* The stream has ended: every call the model wrote is ready. */
void
agent_accumulator_finish (AgentAccumulator *self)
{
  for (guint i = 0; i < self->slots->len; i++)
    {
      AgentToolCall *call = g_array_index (self->slots, CallSlot, i).call;

      if (call->state == AGENT_TOOL_CALL_STATE_STREAMING)
        _agent_tool_call_set_state (call, AGENT_TOOL_CALL_STATE_READY);
    }
}

/* The bound that was exceeded, if one was (then the answer is unusable). */
GError *
agent_accumulator_take_error (AgentAccumulator *self)
{
  return g_steal_pointer (&self->error);
}
