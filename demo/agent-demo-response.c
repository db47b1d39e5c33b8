/* agent-demo-response.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A reply as the chat-completions API sends it: one `chat.completion` object, or the
 * `chat.completion.chunk` events of a stream, each a complete `data: {json}\n\n` SSE event.
 */

#include "config.h"

#include <string.h>

#include "agent-demo-response.h"
#include "agent-demo-util.h"

static JsonObject *
make_usage (const DemoReply *reply)
{
  JsonObject *usage = json_object_new ();

  json_object_set_int_member (usage, "prompt_tokens", reply->prompt_tokens);
  json_object_set_int_member (usage, "completion_tokens", reply->completion_tokens);
  json_object_set_int_member (usage, "total_tokens",
                              reply->prompt_tokens + reply->completion_tokens);

  return usage;
}

/* A response with its only choice, @choice (transfer full), or none if %NULL. */
static JsonObject *
make_response (const DemoReply *reply,
               const char      *kind,
               JsonObject      *choice)
{
  JsonObject *response = json_object_new ();
  JsonArray *choices = json_array_new ();

  json_object_set_string_member (response, "id", reply->id);
  json_object_set_string_member (response, "object", kind);
  json_object_set_int_member (response, "created", reply->created);
  json_object_set_string_member (response, "model", reply->model);
  if (choice != NULL)
    json_array_add_object_element (choices, choice);
  json_object_set_array_member (response, "choices", choices);

  return response;
}

static JsonObject *
make_choice (const char *member,
             JsonObject *value,
             const char *finish_reason)
{
  JsonObject *choice = json_object_new ();

  json_object_set_int_member (choice, "index", 0);
  json_object_set_object_member (choice, member, value);
  json_object_set_null_member (choice, "logprobs");
  demo_json_set_string_or_null (choice, "finish_reason", finish_reason);

  return choice;
}

/* One SSE event. @delta is (transfer full); %NULL makes the usage chunk. */
static GBytes *
make_chunk (const DemoReply *reply,
            JsonObject      *delta,
            const char      *finish_reason)
{
  g_autoptr(JsonObject) chunk = NULL;
  g_autofree char *json = NULL;
  char *event;

  chunk = make_response (reply, "chat.completion.chunk",
                         delta ? make_choice ("delta", delta, finish_reason) : NULL);
  if (delta == NULL)
    json_object_set_object_member (chunk, "usage", make_usage (reply));
  else if (reply->include_usage)
    json_object_set_null_member (chunk, "usage");

  json = demo_json_object_to_string (chunk);
  event = g_strdup_printf ("data: %s\n\n", json);

  return g_bytes_new_take (event, strlen (event));
}

static JsonObject *
make_text_delta (const char *role,
                 const char *content)
{
  JsonObject *delta = json_object_new ();

  if (role != NULL)
    json_object_set_string_member (delta, "role", role);
  if (content != NULL)
    json_object_set_string_member (delta, "content", content);

  return delta;
}

/* A tool call: the whole call, or when streaming (@index >= 0) its header (with @id and
 * @name) or a fragment of its arguments (without). */
static JsonObject *
make_tool_call (int         index,
                const char *id,
                const char *name,
                const char *arguments)
{
  JsonObject *call = json_object_new ();
  JsonObject *function = json_object_new ();

  if (index >= 0)
    json_object_set_int_member (call, "index", index);
  if (id != NULL)
    {
      json_object_set_string_member (call, "id", id);
      json_object_set_string_member (call, "type", "function");
      json_object_set_string_member (function, "name", name);
    }
  json_object_set_string_member (function, "arguments", arguments);
  json_object_set_object_member (call, "function", function);

  return call;
}

static JsonObject *
make_tool_delta (guint       index,
                 const char *id,
                 const char *name,
                 const char *arguments,
                 gboolean    first)
{
  JsonObject *delta = make_text_delta (first ? "assistant" : NULL, NULL);
  JsonArray *calls = json_array_new ();

  if (first)
    json_object_set_null_member (delta, "content");
  json_array_add_object_element (calls, make_tool_call (index, id, name, arguments));
  json_object_set_array_member (delta, "tool_calls", calls);

  return delta;
}

/* Splits @arguments into fragments of 3 to 8 bytes, in a fixed pattern. */
static GPtrArray *
split_arguments (const char *arguments)
{
  static const guint sizes[] = { 5, 3, 7, 4, 8, 6 };
  GPtrArray *fragments = g_ptr_array_new_with_free_func (g_free);
  gsize length = strlen (arguments);
  gsize position = 0;

  for (guint i = 0; position < length; i++)
    {
      gsize remaining = length - position;
      gsize size = sizes[i % G_N_ELEMENTS (sizes)];

      if (remaining <= 8)
        size = remaining;
      else if (remaining - size < 3)
        size = remaining - 3;

      g_ptr_array_add (fragments, g_strndup (arguments + position, size));
      position += size;
    }

  return fragments;
}

/* The SSE events of @reply, one #GBytes each, ending with `data: [DONE]`. */
GPtrArray *
demo_response_build_events (const DemoReply *reply)
{
  static const char done[] = "data: [DONE]\n\n";
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  const char *finish_reason;

  if (reply->calls == NULL)
    {
      const char *p = reply->text;

      g_ptr_array_add (events, make_chunk (reply, make_text_delta ("assistant", ""), NULL));
      while (*p != '\0')
        {
          const char *start = p;
          g_autofree char *word = NULL;

          while (*p != '\0' && !g_ascii_isspace (*p))
            p++;
          while (g_ascii_isspace (*p))
            p++;

          word = g_strndup (start, p - start);
          g_ptr_array_add (events, make_chunk (reply, make_text_delta (NULL, word), NULL));
        }
      finish_reason = "stop";
    }
  else
    {
      g_autoptr(GPtrArray) steps = g_ptr_array_new_with_free_func (
        (GDestroyNotify) g_ptr_array_unref);
      DemoToolCall *first = g_ptr_array_index (reply->calls, 0);
      guint n_steps = 0;

      /* Call 0's header goes out with the role. Then the calls take turns, one chunk each,
       * every call sending its header (NULL below) and then its argument fragments, so that
       * parallel calls interleave: args 0, header 1, args 0, args 1, args 0, args 1, … */
      g_ptr_array_add (events, make_chunk (reply, make_tool_delta (0, first->id, first->name, "", TRUE), NULL));

      for (guint i = 0; i < reply->calls->len; i++)
        {
          DemoToolCall *call = g_ptr_array_index (reply->calls, i);
          GPtrArray *mine = split_arguments (call->arguments);

          if (i > 0)
            g_ptr_array_insert (mine, 0, NULL);
          n_steps = MAX (n_steps, mine->len);
          g_ptr_array_add (steps, mine);
        }

      for (guint step = 0; step < n_steps; step++)
        {
          for (guint i = 0; i < reply->calls->len; i++)
            {
              GPtrArray *mine = g_ptr_array_index (steps, i);
              DemoToolCall *call = g_ptr_array_index (reply->calls, i);
              const char *fragment;

              if (step >= mine->len)
                continue;

              fragment = g_ptr_array_index (mine, step);
              g_ptr_array_add (events,
                               make_chunk (reply,
                                           make_tool_delta (i, fragment ? NULL : call->id,
                                                            call->name, fragment ? fragment : "",
                                                            FALSE),
                                           NULL));
            }
        }
      finish_reason = "tool_calls";
    }

  g_ptr_array_add (events, make_chunk (reply, make_text_delta (NULL, NULL), finish_reason));
  if (reply->include_usage)
    g_ptr_array_add (events, make_chunk (reply, NULL, NULL));
  g_ptr_array_add (events, g_bytes_new_static (done, strlen (done)));

  return events;
}

/* @reply as one `chat.completion` object. */
JsonObject *
demo_response_build_completion (const DemoReply *reply)
{
  JsonObject *message = json_object_new ();
  JsonObject *completion;

  json_object_set_string_member (message, "role", "assistant");
  demo_json_set_string_or_null (message, "content", reply->text);
  json_object_set_null_member (message, "refusal");

  if (reply->calls != NULL)
    {
      JsonArray *calls = json_array_new ();

      for (guint i = 0; i < reply->calls->len; i++)
        {
          DemoToolCall *call = g_ptr_array_index (reply->calls, i);

          json_array_add_object_element (calls, make_tool_call (-1, call->id, call->name, call->arguments));
        }
      json_object_set_array_member (message, "tool_calls", calls);
    }

  completion = make_response (reply, "chat.completion",
                              make_choice ("message", message,
                                           reply->calls ? "tool_calls" : "stop"));
  json_object_set_object_member (completion, "usage", make_usage (reply));

  return completion;
}
