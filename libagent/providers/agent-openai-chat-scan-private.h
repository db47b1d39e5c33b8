/* agent-openai-chat-scan-private.h
 *
 * The usual chat.completion.chunk, read in one scan (agent-openai-chat-scan.c).
 *
 * Nearly every event of a chat-completions stream is one of a few shapes:
 * a delta of text, of reasoning or of a tool call's arguments, with the
 * same id, model and fingerprint each time. A scan reads such an event in
 * one pass (json/agent-json-scan-private.h) and lists what it changes, in
 * the order the DOM decoder of agent-openai-chat.c would make the same
 * changes; the decoder then makes them. Any other event (usage, an error,
 * content as parts, arguments as an object, a duplicate key that matters,
 * text the scan leaves to the DOM reader) is not a chunk the scan knows:
 * it lists nothing, and the decoder reads the event its own way. So the
 * scan is only ever a faster way to the same result.
 *
 * Most chunks are not even scanned whole: one that differs from one of
 * the last few read whole only inside its delta's string is read by
 * comparing the rest and scanning that string (the templates, in
 * agent-openai-chat-scan.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  AGENT_OPENAI_CHANGE_RESPONSE_ID,    /* text */
  AGENT_OPENAI_CHANGE_MODEL,          /* text */
  AGENT_OPENAI_CHANGE_CHOICES,        /* a "choices" array came */
  AGENT_OPENAI_CHANGE_CHOICE,         /* number: the index of the choice the next changes are to */
  AGENT_OPENAI_CHANGE_TEXT,           /* text, len */
  AGENT_OPENAI_CHANGE_REFUSAL,        /* text, len */
  AGENT_OPENAI_CHANGE_REASONING,      /* text, len */
  AGENT_OPENAI_CHANGE_TOOL_CALL,      /* number: the key; id, name, type; text, len: the fragment */
  AGENT_OPENAI_CHANGE_FINISH_REASON,  /* text */
} AgentOpenaiChangeKind;

typedef struct
{
  AgentOpenaiChangeKind kind;
  gint64                number;
  /* NUL-terminated valid UTF-8, or NULL; valid until the next scan */
  const char           *text;
  gsize                 len;
  const char           *id;
  const char           *name;
  const char           *type;
} AgentOpenaiChange;

typedef struct _AgentOpenaiChatScan AgentOpenaiChatScan;

AgentOpenaiChatScan     *_agent_openai_chat_scan_new  (void);
void                     _agent_openai_chat_scan_free (AgentOpenaiChatScan *self);
const AgentOpenaiChange *_agent_openai_chat_scan      (AgentOpenaiChatScan *self,
                                                       const char          *text,
                                                       gsize                len,
                                                       guint               *n_changes);
guint                    _agent_openai_chat_scan_get_n_templated (AgentOpenaiChatScan *self);

G_END_DECLS
