/* agent-openai-chat-scan.c — the usual chunk, read in one scan
 *
 * Each function below reads one part of a chunk the way the DOM decoder
 * of agent-openai-chat.c reads it, and lists the changes it would make, in
 * its order. Where that decoder's reading would depend on more than the
 * scan sees (a duplicate key whose first occurrence wins, a value of an
 * unusual kind), the scan fails and the DOM decoder reads the event.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "json/agent-json-scan-private.h"
#include "providers/agent-openai-chat-scan-private.h"

/* Whether the key @name (@len bytes) is the literal @literal */
#define KEY_IS(name, len, literal) \
  ((len) == sizeof (literal) - 1 && memcmp ((name), (literal), sizeof (literal) - 1) == 0)

/* A buffer grown past this is given back after the event. */
#define KEEP_SCRATCH (1024 * 1024)
/* A chunk longer than this is no template: they are for the small ones
 * that come by the thousand. */
#define MAX_TEMPLATE (16 * 1024)

/* The last chunks read whole, as templates for the next: in a stream
 * they differ, nearly always, only in the text of their one delta (text,
 * reasoning or a tool call's arguments). Such a chunk is read by comparing
 * the rest with its template, and the delta's text only. There are a few:
 * fragments of parallel tool calls, or choices (n > 1), may alternate. */
#define N_TEMPLATES 4

typedef struct
{
  GString *text;         /* the chunk */
  GString *scratch;      /* the strings taken from it */
  GArray  *changes;      /* AgentOpenaiChange: what it made */
  gsize    slot_start;   /* where its delta's string begins (its quote) */
  gsize    slot_end;     /* and ends (past its closing quote) */
  guint    slot_change;  /* the change that has its text; G_MAXUINT: no template */
  guint64  used;         /* when it was last read or matched */
} Template;

struct _AgentOpenaiChatScan
{
  Template  templates[N_TEMPLATES];
  guint64   clock;
  GString  *slot_text;    /* the delta's text of a chunk read with a template */
  guint     n_templated;  /* for tests: the chunks read so */

  /* The template matched or written last (during a scan: the one whose
   * changes it lists); the strings taken that a delta could be (up to two
   * counted), and where the last one was */
  Template   *current;
  guint       n_slots;
  const char *slot_taken;
  gsize       slot_taken_start;
  gsize       slot_taken_end;
};

/* The state of one choice's delta as the DOM decoder keeps it */
typedef struct
{
  const char *reasoning;
  gsize       reasoning_len;
  gboolean    reasoning_content;  /* the reasoning came as reasoning_content */
} Delta;

AgentOpenaiChatScan *
_agent_openai_chat_scan_new (void)
{
  AgentOpenaiChatScan *self = g_new0 (AgentOpenaiChatScan, 1);

  for (guint i = 0; i < N_TEMPLATES; i++)
    {
      self->templates[i].text = g_string_new (NULL);
      self->templates[i].scratch = g_string_sized_new (512);
      self->templates[i].changes = g_array_sized_new (FALSE, FALSE, sizeof (AgentOpenaiChange), 8);
      self->templates[i].slot_change = G_MAXUINT;
    }
  self->slot_text = g_string_new (NULL);
  return self;
}

void
_agent_openai_chat_scan_free (AgentOpenaiChatScan *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < N_TEMPLATES; i++)
    {
      g_string_free (self->templates[i].text, TRUE);
      g_string_free (self->templates[i].scratch, TRUE);
      g_array_unref (self->templates[i].changes);
    }
  g_string_free (self->slot_text, TRUE);
  g_free (self);
}

/* @buffer, given back to the allocator if a large event grew it and
 * this one is small */
static void
shrink_buffer (GString **buffer,
               gsize     len)
{
  if ((*buffer)->allocated_len > KEEP_SCRATCH && len < KEEP_SCRATCH / 2)
    {
      g_string_free (*buffer, TRUE);
      *buffer = g_string_sized_new (512);
    }
}

static AgentOpenaiChange *
add_change (AgentOpenaiChatScan   *self,
            AgentOpenaiChangeKind  kind,
            const char            *text,
            gsize                  len)
{
  AgentOpenaiChange change = { kind, 0, text, len, NULL, NULL, NULL };

  g_array_append_val (self->current->changes, change);
  return &g_array_index (self->current->changes, AgentOpenaiChange, self->current->changes->len - 1);
}

/* The string at the scan if there is one (*text set), else the value
 * skipped (*text left as it was). FALSE if the scan failed. */
static gboolean
take_string (AgentJsonScan  *scan,
             const char    **text,
             gsize          *len)
{
  gsize ignored;

  if (agent_json_scan_peek (scan) != AGENT_JSON_STRING)
    return agent_json_scan_skip (scan);

  *text = agent_json_scan_string (scan, len ? len : &ignored);
  return *text != NULL;
}

/* The string at the scan, which holds a delta's text: noted as the
 * template's slot (see the struct) */
static const char *
take_slot (AgentOpenaiChatScan *self,
           AgentJsonScan       *scan,
           gsize               *len)
{
  gsize start;
  const char *text;

  if (agent_json_scan_peek (scan) != AGENT_JSON_STRING)
    return NULL;
  start = agent_json_scan_offset (scan);
  text = agent_json_scan_string (scan, len);

  self->n_slots = MIN (self->n_slots + 1, 2);
  self->slot_taken = text;
  self->slot_taken_start = start;
  self->slot_taken_end = agent_json_scan_offset (scan);
  return text;
}

/* A key that may come once: the DOM decoder takes the first of two */
static inline gboolean
first_time (AgentJsonScan *scan,
            gboolean      *seen)
{
  if (*seen)
    return agent_json_scan_fail (scan);
  *seen = TRUE;
  return TRUE;
}

/* {"name": …, "arguments": "…"} */
static gboolean
scan_function (AgentOpenaiChatScan *self,
               AgentJsonScan       *scan,
               AgentOpenaiChange   *call)
{
  gboolean has_name = FALSE;
  gboolean has_arguments = FALSE;
  const char *key;
  gsize key_len;

  if (!agent_json_scan_object (scan))
    return FALSE;

  while (agent_json_scan_member (scan, &key, &key_len))
    {
      if (KEY_IS (key, key_len, "name"))
        {
          if (!first_time (scan, &has_name) || !take_string (scan, &call->name, NULL))
            return FALSE;
        }
      else if (KEY_IS (key, key_len, "arguments"))
        {
          AgentJsonKind kind = agent_json_scan_peek (scan);

          /* Arguments as JSON rather than a string: the DOM decoder's */
          if (!first_time (scan, &has_arguments) ||
              kind == AGENT_JSON_OBJECT || kind == AGENT_JSON_ARRAY)
            return agent_json_scan_fail (scan);
          if (kind == AGENT_JSON_STRING ? (call->text = take_slot (self, scan, &call->len)) == NULL
                                        : !agent_json_scan_skip (scan))
            return FALSE;
        }
      else if (!agent_json_scan_skip (scan))
        return FALSE;
    }

  return !agent_json_scan_failed (scan);
}

/* [{"index": 0, "id": …, "type": "function", "function": {…}}, …] */
static gboolean
scan_tool_calls (AgentOpenaiChatScan *self,
                 AgentJsonScan       *scan)
{
  gint64 position = 0;

  if (!agent_json_scan_array (scan))
    return FALSE;

  while (agent_json_scan_element (scan))
    {
      AgentOpenaiChange call = { AGENT_OPENAI_CHANGE_TOOL_CALL, position++, NULL, 0, NULL, NULL, NULL };
      gboolean has_index = FALSE;
      gboolean has_function = FALSE;
      gboolean has_id = FALSE;
      gboolean has_type = FALSE;
      const char *key;
      gsize key_len;

      if (agent_json_scan_peek (scan) != AGENT_JSON_OBJECT || !agent_json_scan_object (scan))
        return agent_json_scan_fail (scan);

      while (agent_json_scan_member (scan, &key, &key_len))
        {
          gboolean ok;

          if (KEY_IS (key, key_len, "index"))
            /* Without an index, or a null one, the position is the key */
            ok = first_time (scan, &has_index) &&
                 (agent_json_scan_peek (scan) == AGENT_JSON_NULL ? agent_json_scan_skip (scan)
                                                                 : agent_json_scan_int (scan, &call.number));
          else if (KEY_IS (key, key_len, "function"))
            ok = first_time (scan, &has_function) &&
                 (agent_json_scan_peek (scan) == AGENT_JSON_OBJECT ? scan_function (self, scan, &call)
                                                                   : agent_json_scan_skip (scan));
          else if (KEY_IS (key, key_len, "id"))
            ok = first_time (scan, &has_id) && take_string (scan, &call.id, NULL);
          else if (KEY_IS (key, key_len, "type"))
            ok = first_time (scan, &has_type) && take_string (scan, &call.type, NULL);
          else
            ok = agent_json_scan_skip (scan);

          if (!ok)
            return FALSE;
        }

      if (agent_json_scan_failed (scan))
        return FALSE;
      g_array_append_val (self->current->changes, call);
    }

  return !agent_json_scan_failed (scan);
}

/* {"content": "…"}, {"reasoning_content": "…"}, {"tool_calls": […]}, … */
static gboolean
scan_delta (AgentOpenaiChatScan *self,
            AgentJsonScan       *scan,
            Delta               *delta)
{
  const char *key;
  gsize key_len;

  if (!agent_json_scan_object (scan))
    return FALSE;

  while (agent_json_scan_member (scan, &key, &key_len))
    {
      AgentJsonKind kind = agent_json_scan_peek (scan);
      const char *text;
      gsize len;
      gboolean ok = TRUE;

      if (kind == AGENT_JSON_STRING &&
          (KEY_IS (key, key_len, "content") || KEY_IS (key, key_len, "refusal")))
        {
          ok = (text = take_slot (self, scan, &len)) != NULL;
          if (ok)
            add_change (self, key[0] == 'c' ? AGENT_OPENAI_CHANGE_TEXT : AGENT_OPENAI_CHANGE_REFUSAL,
                        text, len);
        }
      else if (kind == AGENT_JSON_STRING &&
               (KEY_IS (key, key_len, "reasoning_content") ||
                (KEY_IS (key, key_len, "reasoning") && !delta->reasoning_content)))
        {
          /* Under either name; a server that sends both sends the same
           * text twice */
          ok = (text = take_slot (self, scan, &len)) != NULL;
          delta->reasoning = text;
          delta->reasoning_len = len;
          delta->reasoning_content = key_len > strlen ("reasoning");
        }
      else if (kind == AGENT_JSON_ARRAY && KEY_IS (key, key_len, "tool_calls"))
        ok = scan_tool_calls (self, scan);
      else if ((kind == AGENT_JSON_OBJECT && KEY_IS (key, key_len, "tool_calls")) ||
               (kind == AGENT_JSON_ARRAY && KEY_IS (key, key_len, "content")))
        ok = agent_json_scan_fail (scan);  /* the DOM decoder's */
      else
        ok = agent_json_scan_skip (scan);

      if (!ok)
        return FALSE;
    }

  return !agent_json_scan_failed (scan);
}

/* {"index": 0, "delta": {…}, "logprobs": null, "finish_reason": null} */
static gboolean
scan_choice (AgentOpenaiChatScan *self,
             AgentJsonScan       *scan)
{
  Delta delta = { NULL, 0, FALSE };
  const char *finish_reason = NULL;
  gsize finish_reason_len = 0;
  gboolean has_index = FALSE;
  gboolean has_delta = FALSE;
  gboolean has_finish_reason = FALSE;
  gint64 index = 0;
  guint choice;
  const char *key;
  gsize key_len;

  if (agent_json_scan_peek (scan) != AGENT_JSON_OBJECT || !agent_json_scan_object (scan))
    return agent_json_scan_fail (scan);

  /* Its index may come after its delta: set once the choice is read */
  choice = self->current->changes->len;
  add_change (self, AGENT_OPENAI_CHANGE_CHOICE, NULL, 0);

  while (agent_json_scan_member (scan, &key, &key_len))
    {
      AgentJsonKind kind = agent_json_scan_peek (scan);
      gboolean ok;

      if (KEY_IS (key, key_len, "index"))
        ok = first_time (scan, &has_index) &&
             (kind == AGENT_JSON_NULL ? agent_json_scan_skip (scan) : agent_json_scan_int (scan, &index));
      else if (KEY_IS (key, key_len, "delta"))
        ok = first_time (scan, &has_delta) &&
             (kind == AGENT_JSON_OBJECT ? scan_delta (self, scan, &delta) :
              kind == AGENT_JSON_ARRAY  ? agent_json_scan_fail (scan) :
                                          agent_json_scan_skip (scan));
      else if (KEY_IS (key, key_len, "finish_reason"))
        ok = first_time (scan, &has_finish_reason) &&
             take_string (scan, &finish_reason, &finish_reason_len);
      else
        ok = agent_json_scan_skip (scan);

      if (!ok)
        return FALSE;
    }

  if (agent_json_scan_failed (scan))
    return FALSE;

  g_array_index (self->current->changes, AgentOpenaiChange, choice).number = index;
  if (delta.reasoning != NULL)
    add_change (self, AGENT_OPENAI_CHANGE_REASONING, delta.reasoning, delta.reasoning_len);
  if (finish_reason != NULL && finish_reason_len > 0)
    add_change (self, AGENT_OPENAI_CHANGE_FINISH_REASON, finish_reason, finish_reason_len);

  return TRUE;
}

/* The members of the chunk's object, from the one at the scan */
static gboolean
scan_members (AgentOpenaiChatScan *self,
              AgentJsonScan       *scan)
{
  const char *key;
  gsize key_len;

  while (agent_json_scan_member (scan, &key, &key_len))
    {
      AgentJsonKind kind = agent_json_scan_peek (scan);
      const char *string = NULL;
      gboolean ok = TRUE;

      if (KEY_IS (key, key_len, "choices"))
        {
          if (kind == AGENT_JSON_ARRAY && agent_json_scan_array (scan))
            {
              add_change (self, AGENT_OPENAI_CHANGE_CHOICES, NULL, 0);
              while (ok && agent_json_scan_element (scan))
                ok = scan_choice (self, scan);
            }
          else
            ok = kind == AGENT_JSON_NULL && agent_json_scan_skip (scan);
        }
      else if (KEY_IS (key, key_len, "id") || KEY_IS (key, key_len, "model"))
        {
          ok = take_string (scan, &string, NULL);
          if (ok && string != NULL)
            add_change (self, key[0] == 'i' ? AGENT_OPENAI_CHANGE_RESPONSE_ID
                                            : AGENT_OPENAI_CHANGE_MODEL,
                        string, 0);
        }
      else if (KEY_IS (key, key_len, "x_groq") ||
               (KEY_IS (key, key_len, "usage") && kind == AGENT_JSON_OBJECT) ||
               (KEY_IS (key, key_len, "error") && kind != AGENT_JSON_NULL))
        ok = agent_json_scan_fail (scan);  /* rare: the DOM decoder's */
      else
        ok = agent_json_scan_skip (scan);

      if (!ok)
        return FALSE;
    }

  return agent_json_scan_end (scan);
}

/* Reads @text with @template, if it differs from it only inside the
 * slot: TRUE then, the slot's change holding its text. */
static gboolean
scan_with_template (AgentOpenaiChatScan *self,
                    Template            *template,
                    const char          *text,
                    gsize                len)
{
  const char *chunk = template->text->str;
  gsize suffix = template->text->len - template->slot_end;
  AgentOpenaiChange *change;
  AgentJsonScan scan;
  const char *slot;
  gsize slot_len;

  if (template->slot_change == G_MAXUINT ||
      len < template->slot_start + 2 + suffix ||
      memcmp (text, chunk, template->slot_start) != 0 ||
      memcmp (text + len - suffix, chunk + template->slot_end, suffix) != 0)
    return FALSE;

  /* The same before and after: the same chunk, if the slot is a string
   * that ends just where the rest begins */
  shrink_buffer (&self->slot_text, len);
  agent_json_scan_init (&scan, text, len, self->slot_text);
  agent_json_scan_resume_string (&scan, template->slot_start);
  slot = agent_json_scan_string (&scan, &slot_len);
  if (slot == NULL || agent_json_scan_offset (&scan) != len - suffix)
    return FALSE;

  change = &g_array_index (template->changes, AgentOpenaiChange, template->slot_change);
  change->text = slot;
  change->len = slot_len;
  return TRUE;
}

/* After a chunk was read whole into the current template's buffers: it
 * is a template if it has one delta's string. */
static void
keep_template (AgentOpenaiChatScan *self,
               const char          *text,
               gsize                len)
{
  Template *template = self->current;

  template->slot_change = G_MAXUINT;
  if (self->n_slots != 1 || len > MAX_TEMPLATE)
    return;

  for (guint i = 0; i < template->changes->len; i++)
    if (g_array_index (template->changes, AgentOpenaiChange, i).text == self->slot_taken)
      template->slot_change = i;
  if (template->slot_change == G_MAXUINT)
    return;

  g_string_truncate (template->text, 0);
  g_string_append_len (template->text, text, len);
  template->slot_start = self->slot_taken_start;
  template->slot_end = self->slot_taken_end;
}

/* The template a chunk read whole goes to: one that is none, else the
 * one unused the longest */
static Template *
spare_template (AgentOpenaiChatScan *self)
{
  Template *spare = &self->templates[0];

  for (guint i = 0; i < N_TEMPLATES; i++)
    {
      Template *template = &self->templates[i];

      if (template->slot_change == G_MAXUINT)
        return template;
      if (template->used < spare->used)
        spare = template;
    }
  return spare;
}

/* The changes @text makes, in order (*n_changes of them; possibly none),
 * or NULL if it is not a chunk the scan knows. */
const AgentOpenaiChange *
_agent_openai_chat_scan (AgentOpenaiChatScan *self,
                         const char          *text,
                         gsize                len,
                         guint               *n_changes)
{
  Template *template = NULL;
  AgentJsonScan scan;
  gboolean ok;

  self->clock++;

  /* The template that matched last first: most streams have one */
  for (guint i = 0; i < N_TEMPLATES && template == NULL; i++)
    {
      Template *candidate = self->current != NULL ? &self->templates[(self->current - self->templates + i) % N_TEMPLATES]
                                                  : &self->templates[i];

      if (scan_with_template (self, candidate, text, len))
        template = candidate;
    }

  if (template != NULL)
    {
      self->n_templated++;
      self->current = template;
      template->used = self->clock;
      *n_changes = template->changes->len;
      return (const AgentOpenaiChange *) (gpointer) template->changes->data;
    }

  /* Read whole, into a template's buffers */
  template = self->current = spare_template (self);
  template->used = self->clock;
  shrink_buffer (&template->scratch, len);

  g_array_set_size (template->changes, 0);
  self->n_slots = 0;
  agent_json_scan_init (&scan, text, len, template->scratch);
  ok = agent_json_scan_object (&scan) && scan_members (self, &scan);

  if (ok)
    keep_template (self, text, len);
  else
    template->slot_change = G_MAXUINT;

  *n_changes = ok ? self->current->changes->len : 0;
  return ok ? (const AgentOpenaiChange *) (gpointer) self->current->changes->data : NULL;
}

guint
_agent_openai_chat_scan_get_n_templated (AgentOpenaiChatScan *self)
{
  return self->n_templated;
}
