/* agent-json-read.cpp — a C view of simdjson's DOM
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <cmath>
#include <cstring>
#include <new>

#include <simdjson.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"

using simdjson::dom::element;
using simdjson::dom::element_type;

static_assert (sizeof (element) <= sizeof (AgentJson), "AgentJson is too small");
static_assert (std::is_trivially_copyable<element>::value, "dom::element must be copyable");
static_assert (2 * sizeof (simdjson::dom::object::iterator) <= sizeof (((AgentJsonIter *)0)->opaque),
               "AgentJsonIter is too small");
static_assert (2 * sizeof (simdjson::dom::array::iterator) <= sizeof (((AgentJsonIter *)0)->opaque),
               "AgentJsonIter is too small");
static_assert (std::is_trivially_copyable<simdjson::dom::object::iterator>::value, "");
static_assert (std::is_trivially_copyable<simdjson::dom::array::iterator>::value, "");

/* Buffers grown past this are given back after the document is read. */
#define KEEP_CAPACITY (1024 * 1024)

/* simdjson counts the document as a level: AGENT_JSON_MAX_DEPTH arrays and
 * objects inside each other, and no more, need one more. */
#define SIMDJSON_DEPTH (AGENT_JSON_MAX_DEPTH + 1)

struct _AgentJsonParser
{
  simdjson::dom::parser  parser;
  char                  *buffer;     /* a copy of the text, padded as simdjson needs */
  size_t                 buffer_size;
};

static inline element
to_element (const AgentJson *value)
{
  element e;

  memcpy (static_cast<void *> (&e), value->opaque, sizeof e);
  return e;
}

static inline AgentJson
from_element (const element &e)
{
  AgentJson value = { { 0, 0 } };

  memcpy (value.opaque, static_cast<const void *> (&e), sizeof e);
  return value;
}

static inline bool
is_absent (const AgentJson *value)
{
  return value->opaque[0] == 0 && value->opaque[1] == 0;
}

static const AgentJson absent = { { 0, 0 } };

extern "C" const char *
agent_json_library_version (void)
{
  return "simdjson " G_STRINGIFY (SIMDJSON_VERSION);
}

extern "C" AgentJsonParser *
agent_json_parser_new (void)
{
  AgentJsonParser *self = new AgentJsonParser ();
  simdjson::error_code code = self->parser.allocate (4096, SIMDJSON_DEPTH);

  /* Out of memory: the next parse allocates (and fails) again */
  (void) code;
  return self;
}

extern "C" void
agent_json_parser_free (AgentJsonParser *self)
{
  if (self == nullptr)
    return;

  g_free (self->buffer);
  delete self;
}

static bool
parse_copy (AgentJsonParser *self,
            const char      *text,
            size_t           len,
            element         *root,
            simdjson::error_code *code)
{
  if (self->buffer_size < len + simdjson::SIMDJSON_PADDING)
    {
      g_free (self->buffer);
      self->buffer_size = MAX (len + simdjson::SIMDJSON_PADDING, 4096);
      self->buffer = (char *) g_malloc (self->buffer_size);
    }

  memcpy (self->buffer, text, len);
  memset (self->buffer + len, 0, simdjson::SIMDJSON_PADDING);

  *code = self->parser.parse (self->buffer, len, false).get (*root);
  return *code == simdjson::SUCCESS;
}

/* Unpaired surrogate escapes and escaped NULs become \uFFFD; escapes are
 * six bytes either way, so this works in place. */
static void
replace_unrepresentable_escapes (char   *text,
                                 size_t  len)
{
  char *end = text + len;

  for (char *p = text; p < end; p++)
    {
      unsigned unit;
      unsigned low;

      if (*p != '\\')
        continue;

      if (end - p < 6 || p[1] != 'u' ||
          !g_ascii_isxdigit (p[2]) || !g_ascii_isxdigit (p[3]) ||
          !g_ascii_isxdigit (p[4]) || !g_ascii_isxdigit (p[5]))
        {
          p++;  /* another escape: skip the escaped character */
          continue;
        }

      unit = (g_ascii_xdigit_value (p[2]) << 12) | (g_ascii_xdigit_value (p[3]) << 8) |
             (g_ascii_xdigit_value (p[4]) << 4) | g_ascii_xdigit_value (p[5]);

      if (unit >= 0xD800 && unit <= 0xDBFF && end - p >= 12 && p[6] == '\\' && p[7] == 'u' &&
          g_ascii_isxdigit (p[8]) && g_ascii_isxdigit (p[9]) &&
          g_ascii_isxdigit (p[10]) && g_ascii_isxdigit (p[11]))
        {
          low = (g_ascii_xdigit_value (p[8]) << 12) | (g_ascii_xdigit_value (p[9]) << 8) |
                (g_ascii_xdigit_value (p[10]) << 4) | g_ascii_xdigit_value (p[11]);
          if (low >= 0xDC00 && low <= 0xDFFF)
            {
              p += 11;  /* a proper pair */
              continue;
            }
        }

      if (unit == 0 || (unit >= 0xD800 && unit <= 0xDFFF))
        memcpy (p, "\\uFFFD", 6);
      p += 5;
    }
}

/* A number token of @len bytes at @token that simdjson cannot hold, as
 * it is put instead: beyond a double's range (1e999) it becomes null
 * (what a browser's JSON.stringify writes for the Infinity JSON.parse
 * makes of it), an integer beyond 64 bits the nearest double. NULL when
 * the number is fine, or no number. */
static char *
representable_number (const char *token,
                      size_t      len)
{
  g_autofree char *copy = g_strndup (token, len);
  char *end = NULL;
  double value = g_ascii_strtod (copy, &end);
  bool is_integer = strspn (copy + (copy[0] == '-'), "0123456789") == len - (copy[0] == '-');

  if (end != copy + len)
    return NULL;

  if (std::isinf (value))
    return g_strdup ("null");

  if (is_integer &&
      !g_ascii_string_to_signed (copy, 10, G_MININT64, G_MAXINT64, NULL, NULL) &&
      !g_ascii_string_to_unsigned (copy, 10, 0, G_MAXUINT64, NULL, NULL))
    {
      char shown[G_ASCII_DTOSTR_BUF_SIZE];

      /* Beyond 2^64, so written with an exponent: a double to simdjson */
      return g_strdup (g_ascii_formatd (shown, sizeof shown, "%.17g", value));
    }

  return NULL;
}

/* @text with the numbers simdjson cannot hold replaced (see
 * representable_number()); strings are left as they are. */
static char *
replace_unrepresentable_numbers (const char *text,
                                 size_t      len)
{
  GString *out = g_string_sized_new (len + 16);
  bool in_string = false;
  size_t i = 0;

  while (i < len)
    {
      char c = text[i];

      if (in_string || c == '"')
        {
          g_string_append_c (out, c);
          if (in_string && c == '\\' && i + 1 < len)
            g_string_append_c (out, text[++i]);
          else if (c == '"')
            in_string = !in_string;
          i++;
          continue;
        }

      if (c == '-' || g_ascii_isdigit (c))
        {
          size_t start = i++;
          g_autofree char *replacement = NULL;

          while (i < len && (g_ascii_isdigit (text[i]) || strchr (".eE+-", text[i]) != nullptr))
            i++;
          replacement = representable_number (text + start, i - start);
          if (replacement != nullptr)
            g_string_append (out, replacement);
          else
            g_string_append_len (out, text + start, i - start);
          continue;
        }

      g_string_append_c (out, c);
      i++;
    }

  return g_string_free (out, FALSE);
}

extern "C" gboolean
agent_json_parser_parse (AgentJsonParser  *self,
                         const char       *text,
                         gsize             len,
                         AgentJson        *root,
                         GError          **error)
{
  g_autofree char *valid = NULL;
  g_autofree char *numbers = NULL;
  simdjson::error_code code;
  element e;

  *root = absent;

  if (self->buffer_size > KEEP_CAPACITY && len + simdjson::SIMDJSON_PADDING < KEEP_CAPACITY)
    {
      /* A huge event came before: give its memory back. */
      g_clear_pointer (&self->buffer, g_free);
      self->buffer_size = 0;
      if (self->parser.capacity () > KEEP_CAPACITY)
        {
          simdjson::error_code ignored = self->parser.allocate (KEEP_CAPACITY, SIMDJSON_DEPTH);

          (void) ignored;  /* on failure the parser keeps its larger buffers */
        }
    }

  if (!parse_copy (self, text, len, &e, &code) &&
      (code == simdjson::UTF8_ERROR || code == simdjson::STRING_ERROR))
    {
      /* Valid JSON that simdjson refuses, or text that is nearly JSON but
       * for its encoding: repair it as a browser would, and try again. */
      valid = g_utf8_make_valid (text, len);
      len = strlen (valid);
      text = valid;

      replace_unrepresentable_escapes (valid, len);
      parse_copy (self, text, len, &e, &code);
    }

  if (code == simdjson::NUMBER_ERROR)
    {
      /* Valid JSON with a number simdjson cannot hold, in any field (one
       * nobody reads, often): the same, for numbers */
      numbers = replace_unrepresentable_numbers (text, len);
      parse_copy (self, numbers, strlen (numbers), &e, &code);
    }

  if (code == simdjson::DEPTH_ERROR)
    {
      /* The same error as every other reader's, with the byte */
      if (_agent_json_check_depth (text, len, error))
        _agent_json_set_too_deep (error, 0);
      return FALSE;
    }

  if (code != simdjson::SUCCESS)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                   _("Invalid JSON: %s"), simdjson::error_message (code));
      return FALSE;
    }

  *root = from_element (e);
  return TRUE;
}

extern "C" AgentJsonKind
agent_json_kind (const AgentJson *value)
{
  if (is_absent (value))
    return AGENT_JSON_ABSENT;

  switch (to_element (value).type ())
    {
    case element_type::NULL_VALUE:
      return AGENT_JSON_NULL;
    case element_type::BOOL:
      return AGENT_JSON_BOOLEAN;
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE:
      return AGENT_JSON_NUMBER;
    case element_type::STRING:
      return AGENT_JSON_STRING;
    case element_type::ARRAY:
      return AGENT_JSON_ARRAY;
    case element_type::OBJECT:
      return AGENT_JSON_OBJECT;
    default:
      return AGENT_JSON_ABSENT;
    }
}

extern "C" AgentJson
agent_json_member (const AgentJson *object,
                   const char      *name)
{
  simdjson::dom::object o;
  element e;

  if (is_absent (object) || to_element (object).get (o) != simdjson::SUCCESS)
    return absent;
  if (o.at_key (name).get (e) != simdjson::SUCCESS)
    return absent;

  return from_element (e);
}

extern "C" const char *
agent_json_string (const AgentJson *value,
                   gsize           *len)
{
  element e;

  if (is_absent (value) || !(e = to_element (value)).is_string ())
    {
      if (len != nullptr)
        *len = 0;
      return nullptr;
    }

  if (len != nullptr)
    *len = e.get_string_length ().value_unsafe ();
  return e.get_c_str ().value_unsafe ();
}

extern "C" gboolean
agent_json_int (const AgentJson *value,
                gint64          *out)
{
  element e;
  double d;

  if (is_absent (value))
    return FALSE;

  e = to_element (value);
  switch (e.type ())
    {
    case element_type::INT64:
      *out = e.get_int64 ().value_unsafe ();
      return TRUE;
    case element_type::UINT64:
      *out = (gint64) MIN (e.get_uint64 ().value_unsafe (), (uint64_t) G_MAXINT64);
      return TRUE;
    case element_type::DOUBLE:
      d = e.get_double ().value_unsafe ();
      if (d >= (double) G_MININT64 && d <= (double) G_MAXINT64)
        {
          *out = (gint64) d;
          return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

extern "C" gboolean
agent_json_double (const AgentJson *value,
                   double          *out)
{
  if (is_absent (value))
    return FALSE;
  return to_element (value).get_double ().get (*out) == simdjson::SUCCESS;
}

extern "C" gboolean
agent_json_boolean (const AgentJson *value)
{
  bool b = false;

  if (is_absent (value))
    return FALSE;
  return to_element (value).get_bool ().get (b) == simdjson::SUCCESS && b;
}

extern "C" void
agent_json_iter_init (AgentJsonIter   *iter,
                      const AgentJson *container)
{
  simdjson::dom::object o;
  simdjson::dom::array a;

  memset (iter, 0, sizeof *iter);

  if (is_absent (container))
    return;

  if (to_element (container).get (o) == simdjson::SUCCESS)
    {
      simdjson::dom::object::iterator range[2] = { o.begin (), o.end () };

      memcpy (iter->opaque, static_cast<const void *> (range), sizeof range);
      iter->is_object = TRUE;
    }
  else if (to_element (container).get (a) == simdjson::SUCCESS)
    {
      simdjson::dom::array::iterator range[2] = { a.begin (), a.end () };

      memcpy (iter->opaque, static_cast<const void *> (range), sizeof range);
    }
}

/* The key of an object member, or none for an array element. */
static inline void
iter_key (const simdjson::dom::object::iterator &it,
          const char                           **name,
          gsize                                 *name_len)
{
  if (name != nullptr)
    *name = it.key_c_str ();
  if (name_len != nullptr)
    *name_len = it.key_length ();
}

static inline void
iter_key (const simdjson::dom::array::iterator &,
          const char                          **name,
          gsize                                *name_len)
{
  if (name != nullptr)
    *name = nullptr;
  if (name_len != nullptr)
    *name_len = 0;
}

static inline element
iter_value (const simdjson::dom::object::iterator &it)
{
  return it.value ();
}

static inline element
iter_value (const simdjson::dom::array::iterator &it)
{
  return *it;
}

template <typename Iterator>
static gboolean
iter_next (AgentJsonIter  *iter,
           const char    **name,
           gsize          *name_len,
           AgentJson      *value)
{
  Iterator range[2];

  memcpy (static_cast<void *> (range), iter->opaque, sizeof range);
  if (range[0] == range[1])
    return FALSE;

  iter_key (range[0], name, name_len);
  *value = from_element (iter_value (range[0]));
  ++range[0];
  memcpy (iter->opaque, static_cast<const void *> (range), sizeof range);

  return TRUE;
}

extern "C" gboolean
agent_json_iter_next (AgentJsonIter  *iter,
                      const char    **name,
                      gsize          *name_len,
                      AgentJson      *value)
{
  if (iter->opaque[0] == 0)
    return FALSE;  /* not a container */

  if (iter->is_object)
    return iter_next<simdjson::dom::object::iterator> (iter, name, name_len, value);
  return iter_next<simdjson::dom::array::iterator> (iter, name, name_len, value);
}

static JsonNode *
element_to_node (const element &e)
{
  JsonNode *node;

  switch (e.type ())
    {
    case element_type::OBJECT:
      {
        JsonObject *object = json_object_new ();
        simdjson::dom::object o = e.get_object ().value_unsafe ();

        for (auto field : o)
          {
            std::string key (field.key);

            json_object_set_member (object, key.c_str (), element_to_node (field.value));
          }
        node = json_node_new (JSON_NODE_OBJECT);
        json_node_take_object (node, object);
        return node;
      }

    case element_type::ARRAY:
      {
        JsonArray *array = json_array_new ();
        simdjson::dom::array a = e.get_array ().value_unsafe ();

        for (element child : a)
          json_array_add_element (array, element_to_node (child));
        node = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (node, array);
        return node;
      }

    case element_type::STRING:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (node, e.get_c_str ().value_unsafe ());
      return node;

    case element_type::INT64:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_int (node, e.get_int64 ().value_unsafe ());
      return node;

    case element_type::UINT64:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_double (node, (double) e.get_uint64 ().value_unsafe ());
      return node;

    case element_type::DOUBLE:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_double (node, e.get_double ().value_unsafe ());
      return node;

    case element_type::BOOL:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, e.get_bool ().value_unsafe ());
      return node;

    case element_type::NULL_VALUE:
    default:
      return json_node_new (JSON_NODE_NULL);
    }
}

extern "C" JsonNode *
agent_json_to_node (const AgentJson *value)
{
  if (is_absent (value))
    return json_node_new (JSON_NODE_NULL);
  return element_to_node (to_element (value));
}

extern "C" char *
agent_json_serialize (const AgentJson *value)
{
  std::string text;

  if (is_absent (value))
    return g_strdup ("null");

  text = simdjson::minify (to_element (value));
  return g_strndup (text.data (), text.size ());
}
