/* agent-anthropic-cache.c — where Anthropic's cache breakpoints go
 *
 * Anthropic caches a prompt's prefix up to a block marked with
 * `cache_control: {"type": "ephemeral"}` (5 minutes, refreshed by each
 * hit), at most 4 marks a request, in the order tools, system, messages.
 * A request reads the longest cached prefix that ends at one of its marks
 * (or up to 20 blocks before one). The marks, in the order they are
 * placed while marks remain:
 *
 *   1. the last block of the last message: the whole prompt, which the
 *      next request (the next step of a tool loop, the next turn) extends;
 *   2. the last tool: the tools alone, which every conversation shares;
 *   3. the last block of the system prompt: tools and system;
 *   4. the last block of the message that ended the request before (the
 *      user's message, or the tool results, before the last assistant
 *      message): the prefix the request before wrote, which a step whose
 *      tool results add more than 20 blocks would not find otherwise.
 *
 * Marks the body already has (a system prompt given in provider options,
 * with its own) count against the 4. Thinking blocks cannot be marked, nor
 * can empty text; a message of nothing else keeps no mark. A prompt
 * shorter than the model's minimum (1024 or 2048 tokens) is not cached,
 * without an error.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "json/agent-json-private.h"
#include "providers/agent-provider-settings-private.h"

#define MAX_BREAKPOINTS 4

static gboolean
is_marked (cJSON *block)
{
  return cJSON_GetObjectItemCaseSensitive (block, "cache_control") != NULL;
}

static guint
count_marks (cJSON *array)
{
  cJSON *item;
  guint n = 0;

  cJSON_ArrayForEach (item, array)
    {
      cJSON *content = cJSON_GetObjectItemCaseSensitive (item, "content");
      cJSON *block;

      n += is_marked (item);
      if (cJSON_IsArray (content))
        cJSON_ArrayForEach (block, content)
          n += is_marked (block);
    }
  return n;
}

static void
mark (cJSON *block)
{
  cJSON_AddStringToObject (cJSON_AddObjectToObject (block, "cache_control"), "type", "ephemeral");
}

/* The last block of a message that can take a mark, its content turned
 * into blocks if it was a string; NULL if none can */
static cJSON *
markable_block (cJSON *message)
{
  cJSON *content = cJSON_GetObjectItemCaseSensitive (message, "content");
  int n;

  if (cJSON_IsString (content))
    {
      cJSON *blocks;
      cJSON *text;

      if (content->valuestring[0] == '\0')
        return NULL;
      blocks = cJSON_CreateArray ();
      text = cJSON_CreateObject ();
      cJSON_AddStringToObject (text, "type", "text");
      cJSON_AddStringToObject (text, "text", content->valuestring);
      cJSON_AddItemToArray (blocks, text);
      cJSON_ReplaceItemInObjectCaseSensitive (message, "content", blocks);
      return text;
    }

  if (!cJSON_IsArray (content))
    return NULL;

  for (n = cJSON_GetArraySize (content); n > 0; n--)
    {
      cJSON *block = cJSON_GetArrayItem (content, n - 1);
      const char *type = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (block, "type"));
      cJSON *text = cJSON_GetObjectItemCaseSensitive (block, "text");

      if (g_strcmp0 (type, "thinking") == 0 || g_strcmp0 (type, "redacted_thinking") == 0)
        continue;
      if (g_strcmp0 (type, "text") == 0 && (!cJSON_IsString (text) || text->valuestring[0] == '\0'))
        continue;
      return block;
    }
  return NULL;
}

/* The system prompt as blocks (it is a string when libagent wrote it) */
static cJSON *
system_block (cJSON *root)
{
  cJSON *system = cJSON_GetObjectItemCaseSensitive (root, "system");

  if (cJSON_IsString (system))
    {
      cJSON *blocks;
      cJSON *text;

      if (system->valuestring[0] == '\0')
        return NULL;
      blocks = cJSON_CreateArray ();
      text = cJSON_CreateObject ();
      cJSON_AddStringToObject (text, "type", "text");
      cJSON_AddStringToObject (text, "text", system->valuestring);
      cJSON_AddItemToArray (blocks, text);
      cJSON_ReplaceItemInObjectCaseSensitive (root, "system", blocks);
      return text;
    }

  return cJSON_IsArray (system) ? cJSON_GetArrayItem (system, cJSON_GetArraySize (system) - 1)
                                : NULL;
}

/* The message that ended the request before: the last user message
 * before the last assistant message */
static cJSON *
previous_end (cJSON *messages)
{
  int i = cJSON_GetArraySize (messages) - 1;

  while (i >= 0 && g_strcmp0 (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (
                                cJSON_GetArrayItem (messages, i), "role")), "assistant") != 0)
    i--;
  for (i--; i >= 0; i--)
    {
      cJSON *message = cJSON_GetArrayItem (messages, i);

      if (g_strcmp0 (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (message, "role")),
                     "user") == 0)
        return message;
    }
  return NULL;
}

void
_agent_anthropic_add_cache_control (cJSON *root)
{
  cJSON *tools = cJSON_GetObjectItemCaseSensitive (root, "tools");
  cJSON *messages = cJSON_GetObjectItemCaseSensitive (root, "messages");
  cJSON *system = cJSON_GetObjectItemCaseSensitive (root, "system");
  guint used = count_marks (tools) + count_marks (messages) +
               (cJSON_IsArray (system) ? count_marks (system) : 0);
  cJSON *candidates[4];
  int n_messages = cJSON_GetArraySize (messages);

  candidates[0] = n_messages > 0 ? markable_block (cJSON_GetArrayItem (messages, n_messages - 1))
                                 : NULL;
  candidates[1] = cJSON_GetArraySize (tools) > 0
                  ? cJSON_GetArrayItem (tools, cJSON_GetArraySize (tools) - 1) : NULL;
  candidates[2] = system_block (root);
  candidates[3] = n_messages > 1 ? previous_end (messages) : NULL;
  if (candidates[3] != NULL)
    candidates[3] = markable_block (candidates[3]);

  for (guint i = 0; i < G_N_ELEMENTS (candidates) && used < MAX_BREAKPOINTS; i++)
    if (candidates[i] != NULL && !is_marked (candidates[i]))
      {
        mark (candidates[i]);
        used++;
      }
}
