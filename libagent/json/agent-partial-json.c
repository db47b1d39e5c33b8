/* agent-partial-json.c — a tolerant reader of JSON that is still arriving
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "json/agent-partial-json-private.h"

/**
 * AgentPartialJson:
 *
 * Reads JSON as it streams in, and shows at any moment the value read so
 * far.
 *
 * Feed it the text in pieces of any size ([method@Agent.PartialJson.feed]);
 * [method@Agent.PartialJson.get_value] is then the document as if the
 * strings, arrays and objects still open were closed: after `{"dates": [{"day": 1`
 * it is `{"dates": [{}]}`, after `{"name": "Ad` it is `{"name": "Ad"}`.
 *
 * The value only ever grows towards the final document: a number or a
 * literal (`true`, `false`, `null`) appears once it is whole (`12` at the
 * end of the text may still become `123`, `tru` is not yet anything), a
 * member once its name and the start of its value arrived, and an escape
 * sequence or a character split between pieces once it is complete. Each
 * value is therefore a prefix of the final one: strings are prefixes of
 * their final text, arrays hold the final elements (the last maybe still
 * growing), objects a subset of the final members. The one exception is a
 * member named twice in an object: the second replaces the first, as
 * `JSON.parse()` and json-glib read it.
 *
 * This is how [signal@Agent.Session::object-delta] shows an answer that
 * follows a schema as it arrives, and how a view can show a tool call's
 * arguments while they stream ([func@Agent.json_parse_partial] on
 * [method@Agent.ToolCall.get_arguments]).
 *
 * Arrays and objects nested more than [const@Agent.JSON_MAX_DEPTH] deep
 * are an error, as for every reader of libagent: the value keeps the
 * levels above.
 *
 * Whitespace around the document and a Markdown code fence (```` ```json ````
 * on a line of its own before it, ```` ``` ```` after it) are skipped, as
 * some models wrap JSON in one. Anything else that is not JSON is an error
 * naming the byte where it was found; the value read before it stays.
 *
 * A string longer than a kilobyte grows in steps (each a 256th of its
 * length), so that showing a very long one costs time in proportion to
 * its length.
 *
 * The value is the reader's own and changes as text is fed: copy it (or
 * serialize it) to keep it.
 *
 * Since: 0.1
 */

G_DEFINE_BOXED_TYPE (AgentPartialJson, agent_partial_json,
                     agent_partial_json_ref, agent_partial_json_unref)

static void
frame_clear (gpointer data)
{
  Frame *frame = data;

  g_clear_pointer (&frame->key, g_free);
  g_clear_pointer (&frame->segment, g_free);
}

static void
partial_json_init (AgentPartialJson *self)
{
  self->frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  g_array_set_clear_func (self->frames, frame_clear);
  self->buffer = g_string_sized_new (64);
  self->expect = EXPECT_VALUE;
  self->lex = LEX_NONE;
}

static void
partial_json_clear (AgentPartialJson *self)
{
  g_clear_pointer (&self->root, json_node_unref);
  g_clear_pointer (&self->frames, g_array_unref);
  if (self->buffer != NULL)
    g_string_free (g_steal_pointer (&self->buffer), TRUE);
  g_clear_error (&self->error);
  _agent_partial_json_clear_changes (self);
  self->string_node = NULL;
  self->offset = 0;
  self->synced = 0;
  self->code_unit = 0;
  self->high_surrogate = 0;
  self->n_digits = 0;
  self->n_replaced = 0;
  self->string_is_key = FALSE;
}

/**
 * agent_partial_json_new:
 *
 * Creates a reader with nothing read yet.
 *
 * Returns: (transfer full): a new [struct@Agent.PartialJson]
 *
 * Since: 0.1
 */
AgentPartialJson *
agent_partial_json_new (void)
{
  AgentPartialJson *self = g_atomic_rc_box_new0 (AgentPartialJson);

  partial_json_init (self);
  return self;
}

/**
 * agent_partial_json_ref:
 * @self: a [struct@Agent.PartialJson]
 *
 * Takes a reference to @self.
 *
 * Returns: (transfer full): @self, with one more reference
 *
 * Since: 0.1
 */
AgentPartialJson *
agent_partial_json_ref (AgentPartialJson *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

/**
 * agent_partial_json_unref:
 * @self: (transfer full): a [struct@Agent.PartialJson]
 *
 * Drops a reference; the last one frees the reader and its value.
 *
 * Since: 0.1
 */
void
agent_partial_json_unref (AgentPartialJson *self)
{
  g_return_if_fail (self != NULL);

  g_atomic_rc_box_release_full (self, (GDestroyNotify) partial_json_clear);
}

/**
 * agent_partial_json_reset:
 * @self: a [struct@Agent.PartialJson]
 *
 * Forgets what was read, to read a new document. The revision keeps
 * counting.
 *
 * Since: 0.1
 */
void
agent_partial_json_reset (AgentPartialJson *self)
{
  gboolean tracking;
  guint revision;

  g_return_if_fail (self != NULL);

  revision = self->revision;
  tracking = self->tracking;
  partial_json_clear (self);
  partial_json_init (self);
  self->revision = revision + 1;
  if (tracking)
    _agent_partial_json_track_changes (self);
}

gboolean
_agent_partial_json_fail (AgentPartialJson *self,
                          gsize             at,
                          const char       *what)
{
  if (self->error == NULL)
    self->error = g_error_new (JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                               _("Invalid JSON at byte %lu: %s"),
                               (gulong) (self->offset + at), what);
  return FALSE;
}

static gboolean
fail_char (AgentPartialJson *self,
           gsize             at,
           guchar            c)
{
  g_autofree char *what = NULL;

  if (c >= 0x20 && c < 0x7f)
    what = g_strdup_printf (_("unexpected “%c”"), c);
  else
    what = g_strdup_printf (_("unexpected byte 0x%02x"), c);

  return _agent_partial_json_fail (self, at, what);
}

static inline Frame *
top_frame (AgentPartialJson *self)
{
  if (self->frames->len == 0)
    return NULL;
  return &g_array_index (self->frames, Frame, self->frames->len - 1);
}

/* Puts @node (taken) where the document expects its next value */
static gboolean
attach (AgentPartialJson *self,
        JsonNode         *node,
        gsize             at)
{
  Frame *frame = top_frame (self);
  gboolean container = JSON_NODE_HOLDS_OBJECT (node) || JSON_NODE_HOLDS_ARRAY (node);
  g_autofree char *segment = NULL;

  /* Not even in the value: no deeper than any other reader's */
  if (container && self->frames->len >= AGENT_JSON_MAX_DEPTH)
    {
      json_node_unref (node);
      if (self->error == NULL)
        _agent_json_set_too_deep (&self->error, self->offset + at);
      return FALSE;
    }

  /* Sealed by someone it was given to (object-delta's handlers) */
  if (frame != NULL && json_node_is_immutable (frame->node))
    {
      _agent_partial_json_unseal (self);
      frame = top_frame (self);
    }

  segment = _agent_partial_json_segment (self);
  _agent_partial_json_note_attach (self, node);

  if (frame == NULL)
    self->root = node;
  else if (JSON_NODE_HOLDS_OBJECT (frame->node))
    {
      if (json_object_has_member (json_node_get_object (frame->node), frame->key))
        self->n_replaced++;
      json_object_set_member (json_node_get_object (frame->node), frame->key, node);
    }
  else
    json_array_add_element (json_node_get_array (frame->node), node);

  if (frame != NULL)
    g_clear_pointer (&frame->key, g_free);
  self->revision++;

  if (node == self->string_node)
    {
      g_free (self->string_segment);
      self->string_segment = g_steal_pointer (&segment);
      self->string_batch = self->batch;
      self->string_change_batch = G_MAXUINT;
    }

  if (container)
    {
      Frame child = { node, NULL, g_steal_pointer (&segment), self->batch, G_MAXUINT, 0 };

      g_array_append_val (self->frames, child);
      self->expect = JSON_NODE_HOLDS_OBJECT (node) ? EXPECT_FIRST_KEY_OR_END
                                                   : EXPECT_FIRST_VALUE_OR_END;
    }
  else
    {
      self->expect = self->frames->len == 0 ? EXPECT_NOTHING : EXPECT_NEXT;
    }

  return TRUE;
}

static void
close_container (AgentPartialJson *self)
{
  g_array_set_size (self->frames, self->frames->len - 1);
  self->expect = self->frames->len == 0 ? EXPECT_NOTHING : EXPECT_NEXT;
}

static gboolean
end_string (AgentPartialJson *self,
            gsize             at)
{
  _agent_partial_json_flush_high_surrogate (self);
  self->lex = LEX_NONE;

  if (self->string_is_key)
    {
      Frame *frame = top_frame (self);

      _agent_partial_json_validate (self, 0, TRUE);
      g_free (frame->key);
      frame->key = g_strndup (self->buffer->str, self->buffer->len);
      self->expect = EXPECT_COLON;
      return TRUE;
    }

  _agent_partial_json_sync_string (self, TRUE);
  self->string_node = NULL;
  return TRUE;
}

static gboolean
start_string (AgentPartialJson *self,
              gboolean          is_key,
              gsize             at)
{
  g_string_truncate (self->buffer, 0);
  self->synced = 0;
  self->high_surrogate = 0;
  self->string_is_key = is_key;
  self->lex = LEX_STRING;

  if (!is_key)
    {
      JsonNode *node = json_node_new (JSON_NODE_VALUE);

      json_node_set_string (node, "");
      self->string_node = node;
      return attach (self, node, at);
    }

  return TRUE;
}

/* Numbers and literals */

static gboolean
is_number (const char *text,
           gsize       len,
           gboolean   *integer)
{
  gsize i = 0;

  *integer = TRUE;
  if (i < len && text[i] == '-')
    i++;
  if (i >= len || !g_ascii_isdigit (text[i]))
    return FALSE;
  if (text[i] == '0')
    i++;
  else
    while (i < len && g_ascii_isdigit (text[i]))
      i++;

  if (i < len && text[i] == '.')
    {
      *integer = FALSE;
      if (++i >= len || !g_ascii_isdigit (text[i]))
        return FALSE;
      while (i < len && g_ascii_isdigit (text[i]))
        i++;
    }

  if (i < len && (text[i] == 'e' || text[i] == 'E'))
    {
      *integer = FALSE;
      i++;
      if (i < len && (text[i] == '+' || text[i] == '-'))
        i++;
      if (i >= len || !g_ascii_isdigit (text[i]))
        return FALSE;
      while (i < len && g_ascii_isdigit (text[i]))
        i++;
    }

  return i == len;
}

static gboolean
end_number (AgentPartialJson *self,
            gsize             at)
{
  const char *text = self->buffer->str;
  JsonNode *node;
  gboolean integer;
  gint64 integer_value = 0;
  double double_value = 0;

  self->lex = LEX_NONE;

  if (!is_number (text, self->buffer->len, &integer))
    {
      g_autofree char *what = g_strdup_printf (_("“%s” is not a number"), text);

      return _agent_partial_json_fail (self, at, what);
    }

  if (integer)
    {
      errno = 0;
      integer_value = g_ascii_strtoll (text, NULL, 10);
      integer = errno == 0;
    }
  if (!integer)
    {
      double_value = g_ascii_strtod (text, NULL);
      /* JSON has no infinity to write it back as */
      if (!isfinite (double_value))
        {
          g_autofree char *what = g_strdup_printf (_("the number %s is too large"), text);

          return _agent_partial_json_fail (self, at, what);
        }
    }

  node = json_node_new (JSON_NODE_VALUE);
  if (integer)
    json_node_set_int (node, integer_value);
  else
    json_node_set_double (node, double_value);

  return attach (self, node, at);
}

static const char * const literals[] = { "true", "false", "null" };

/* Returns FALSE on an error; the literal is attached once whole */
static gboolean
add_literal_char (AgentPartialJson *self,
                  guchar            c,
                  gsize             at)
{
  const char *literal = NULL;
  JsonNode *node;

  g_string_append_c (self->buffer, c);
  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    if (g_str_has_prefix (literals[i], self->buffer->str))
      literal = literals[i];

  if (literal == NULL)
    {
      g_autofree char *what = g_strdup_printf (_("“%s” is not a value"), self->buffer->str);

      return _agent_partial_json_fail (self, at, what);
    }

  if (strlen (literal) != self->buffer->len)
    return TRUE;

  self->lex = LEX_NONE;
  if (literal[0] == 'n')
    {
      node = json_node_new (JSON_NODE_NULL);
    }
  else
    {
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, literal[0] == 't');
    }

  return attach (self, node, at);
}

/* The start of a value: @c is not whitespace */
static gboolean
start_value (AgentPartialJson *self,
             guchar            c,
             gsize             at)
{
  JsonNode *node;

  switch (c)
    {
    case '{':
      node = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (node, json_object_new ());
      return attach (self, node, at);

    case '[':
      node = json_node_new (JSON_NODE_ARRAY);
      json_node_take_array (node, json_array_new ());
      return attach (self, node, at);

    case '"':
      return start_string (self, FALSE, at);

    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      g_string_truncate (self->buffer, 0);
      g_string_append_c (self->buffer, c);
      self->lex = LEX_NUMBER;
      return TRUE;

    case 't': case 'f': case 'n':
      g_string_truncate (self->buffer, 0);
      self->lex = LEX_LITERAL;
      return add_literal_char (self, c, at);

    case '`':
      /* A Markdown fence before the document: skip its line */
      if (self->root == NULL && self->frames->len == 0)
        {
          self->lex = LEX_FENCE;
          return TRUE;
        }
      return fail_char (self, at, c);

    default:
      return fail_char (self, at, c);
    }
}

static inline gboolean
is_space (guchar c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static inline gboolean
is_number_char (guchar c)
{
  return g_ascii_isdigit (c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

/* The character @c outside of a token */
static gboolean
structural (AgentPartialJson *self,
            guchar            c,
            gsize             at)
{
  Frame *frame;

  if (is_space (c))
    return TRUE;

  switch (self->expect)
    {
    case EXPECT_FIRST_VALUE_OR_END:
      if (c == ']')
        {
          close_container (self);
          return TRUE;
        }
      G_GNUC_FALLTHROUGH;
    case EXPECT_VALUE:
      return start_value (self, c, at);

    case EXPECT_FIRST_KEY_OR_END:
      if (c == '}')
        {
          close_container (self);
          return TRUE;
        }
      G_GNUC_FALLTHROUGH;
    case EXPECT_KEY:
      if (c == '"')
        return start_string (self, TRUE, at);
      return fail_char (self, at, c);

    case EXPECT_COLON:
      if (c != ':')
        return fail_char (self, at, c);
      self->expect = EXPECT_VALUE;
      return TRUE;

    case EXPECT_NEXT:
      frame = top_frame (self);
      if (c == ',')
        {
          self->expect = JSON_NODE_HOLDS_OBJECT (frame->node) ? EXPECT_KEY : EXPECT_VALUE;
          return TRUE;
        }
      if ((c == '}' && JSON_NODE_HOLDS_OBJECT (frame->node)) ||
          (c == ']' && JSON_NODE_HOLDS_ARRAY (frame->node)))
        {
          close_container (self);
          return TRUE;
        }
      return fail_char (self, at, c);

    case EXPECT_NOTHING:
      /* The closing fence of a Markdown code block */
      if (c == '`')
        {
          self->lex = LEX_FENCE;
          return TRUE;
        }
      return _agent_partial_json_fail (self, at, _("text after the end of the document"));

    default:
      g_assert_not_reached ();
    }
}

static gboolean
feed (AgentPartialJson *self,
      const guchar     *text,
      gsize             len)
{
  for (gsize i = 0; i < len; i++)
    {
      guchar c = text[i];
      int digit;

      switch (self->lex)
        {
        case LEX_STRING:
          if (c == '"')
            {
              end_string (self, i);
              continue;
            }
          if (c == '\\')
            {
              self->lex = LEX_ESCAPE;
              continue;
            }
          _agent_partial_json_flush_high_surrogate (self);
          if (c == 0)
            {
              g_string_append (self->buffer, "\xef\xbf\xbd");
              continue;
            }
          else
            {
              gsize run = i + 1;

              while (run < len && text[run] != '"' && text[run] != '\\' && text[run] != 0)
                run++;
              g_string_append_len (self->buffer, (const char *) text + i, run - i);
              i = run - 1;
            }
          continue;

        case LEX_ESCAPE:
          if (!_agent_partial_json_escape (self, c, i))
            return FALSE;
          continue;

        case LEX_UNICODE:
          if ((digit = hex_value (c)) < 0)
            return _agent_partial_json_fail (self, i, _("an invalid \\u escape"));
          self->code_unit = self->code_unit * 16 + digit;
          if (++self->n_digits == 4)
            {
              self->lex = LEX_STRING;
              _agent_partial_json_add_code_unit (self, self->code_unit);
            }
          continue;

        case LEX_NUMBER:
          if (is_number_char (c))
            {
              g_string_append_c (self->buffer, c);
              continue;
            }
          if (!end_number (self, i))
            return FALSE;
          break;

        case LEX_LITERAL:
          if (c >= 'a' && c <= 'z')
            {
              if (!add_literal_char (self, c, i))
                return FALSE;
              continue;
            }
          return fail_char (self, i, c);

        case LEX_FENCE:
          if (c == '\n')
            self->lex = LEX_NONE;
          continue;

        case LEX_NONE:
        default:
          break;
        }

      if (!structural (self, c, i))
        return FALSE;
    }

  return TRUE;
}

/**
 * agent_partial_json_feed:
 * @self: a [struct@Agent.PartialJson]
 * @text: (array length=len) (element-type guint8): the next piece of the document
 * @len: the length of @text in bytes, or -1 if it ends with a NUL
 *
 * Reads the next piece. A piece may end anywhere, even inside a character
 * or an escape sequence.
 *
 * Returns: %TRUE, or %FALSE with @error set: %JSON_PARSER_ERROR_INVALID_DATA
 *   if the text is not JSON, %AGENT_ERROR_LIMIT if it nests arrays and
 *   objects more than [const@Agent.JSON_MAX_DEPTH] deep; the value read
 *   before the error stays, and every later call fails the same way
 *
 * Since: 0.1
 */
gboolean
agent_partial_json_feed (AgentPartialJson  *self,
                         const char        *text,
                         gssize             len,
                         GError           **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (text != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (len < 0)
    len = strlen (text);

  if (self->error == NULL)
    {
      feed (self, (const guchar *) text, len);
      self->offset += len;
      if (self->error == NULL && self->string_node != NULL)
        _agent_partial_json_sync_string (self, FALSE);
    }

  if (self->error != NULL)
    {
      if (error != NULL)
        *error = g_error_copy (self->error);
      return FALSE;
    }

  return TRUE;
}

/**
 * agent_partial_json_get_value:
 * @self: a [struct@Agent.PartialJson]
 *
 * The document as far as it was read, with the strings, arrays and
 * objects still open closed. It is the reader's: it changes with the next
 * piece fed (copy it to keep it, see json_node_copy() and
 * json_to_string()).
 *
 * Returns: (transfer none) (nullable): the value, or %NULL before any value began
 *
 * Since: 0.1
 */
JsonNode *
agent_partial_json_get_value (AgentPartialJson *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->root;
}

/**
 * agent_partial_json_get_revision:
 * @self: a [struct@Agent.PartialJson]
 *
 * A number that changes whenever the value does: compare it before and
 * after [method@Agent.PartialJson.feed] to know whether there is anything
 * new to show.
 *
 * Returns: the revision of the value
 *
 * Since: 0.1
 */
guint
agent_partial_json_get_revision (AgentPartialJson *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->revision;
}

/* The document is whole: its value ended (a string at the top is
 * attached when it starts, so the string must have ended too) */
static gboolean
is_whole (AgentPartialJson *self)
{
  return self->expect == EXPECT_NOTHING && (self->lex == LEX_NONE || self->lex == LEX_FENCE);
}

/**
 * agent_partial_json_is_complete:
 * @self: a [struct@Agent.PartialJson]
 *
 * Whether a whole document was read: its last object or array closed,
 * its string ended. A document that is a lone number is whole only when
 * [method@Agent.PartialJson.finish] says the text ended.
 *
 * Returns: %TRUE if the document is whole
 *
 * Since: 0.1
 */
gboolean
agent_partial_json_is_complete (AgentPartialJson *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->error == NULL && is_whole (self);
}

/**
 * agent_partial_json_finish:
 * @self: a [struct@Agent.PartialJson]
 * @error: return location for a #GError
 *
 * Says that the text ended, and returns the document if it is whole.
 *
 * Returns: (transfer full): the document, or %NULL with @error set
 *   (%JSON_PARSER_ERROR_INVALID_DATA) if it was not valid JSON or is
 *   not whole
 *
 * Since: 0.1
 */
JsonNode *
agent_partial_json_finish (AgentPartialJson  *self,
                           GError           **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->error == NULL && self->lex == LEX_NUMBER)
    end_number (self, 0);

  if (self->error == NULL && !is_whole (self))
    {
      const char *what;

      if (self->root == NULL)
        what = _("The text holds no JSON value");
      else if (self->lex == LEX_STRING || self->lex == LEX_ESCAPE || self->lex == LEX_UNICODE)
        what = _("The JSON ends inside a string");
      else
        what = _("The JSON ends before its last object or array is closed");

      self->error = g_error_new_literal (JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA, what);
    }

  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      return NULL;
    }

  return json_node_ref (self->root);
}

/**
 * agent_json_parse_partial:
 * @text: (array length=len) (element-type guint8): the start of a JSON document
 * @len: the length of @text in bytes, or -1 if it ends with a NUL
 *
 * Reads the start of a JSON document as [struct@Agent.PartialJson] would,
 * and returns its value so far: the open strings, arrays and objects
 * closed, an unfinished number or literal at the end left out. Text after
 * an error is ignored. Convenient for a view that shows a tool call's
 * arguments while they stream.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL if no value began
 *
 * Since: 0.1
 */
JsonNode *
agent_json_parse_partial (const char *text,
                          gssize      len)
{
  g_autoptr(AgentPartialJson) reader = agent_partial_json_new ();
  JsonNode *value;

  g_return_val_if_fail (text != NULL || len == 0, NULL);

  agent_partial_json_feed (reader, text, len, NULL);
  value = agent_partial_json_get_value (reader);
  return value != NULL ? json_node_ref (value) : NULL;
}
