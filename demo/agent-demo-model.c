/* agent-demo-model.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The "model": no language model at all, but a few fixed rules that tests can rely on.
 * Tool results are answered from the calls they answer; arithmetic in the last user message
 * becomes calls of the `calculator` tool (and "read FILE" a call of `read_file`, when offered), one per separate expression; anything else gets a
 * greeting. The replies are protocol data, in English whatever the locale.
 */

#include "config.h"

#include <string.h>

#include "agent-demo-model.h"
#include "agent-demo-util.h"

#define MAX_EXPRESSIONS  4
#define MAX_QUOTE_CHARS  60

static void
demo_tool_call_free (DemoToolCall *call)
{
  g_free (call->id);
  g_free (call->name);
  g_free (call->arguments);
  g_free (call);
}

void
demo_reply_clear (DemoReply *reply)
{
  g_clear_pointer (&reply->id, g_free);
  g_clear_pointer (&reply->model, g_free);
  g_clear_pointer (&reply->text, g_free);
  g_clear_pointer (&reply->calls, g_ptr_array_unref);
}

/* Text */

/* A short, single-line excerpt of @text for quoting back to the user. */
static char *
make_quote (const char *text,
            guint       max_chars)
{
  g_autofree char *flat = g_utf8_make_valid (text, -1);

  g_strdelimit (flat, "\r\n\t", ' ');
  g_strstrip (flat);

  if (g_utf8_strlen (flat, -1) > max_chars)
    {
      *g_utf8_offset_to_pointer (flat, max_chars) = '\0';
      g_strchomp (flat);
      return g_strconcat (flat, "…", NULL);
    }

  return g_steal_pointer (&flat);
}

static gboolean
is_operator (char c)
{
  return c != '\0' && strchr ("+-*/^%", c) != NULL;
}

static gboolean
is_expression_char (char c)
{
  return g_ascii_isdigit (c) || (c != '\0' && strchr (" .()", c) != NULL) || is_operator (c);
}

/* An operator with an operand on either side: "2+2", "(1 + 2) * 3", "4 - -1". */
static gboolean
has_binary_operator (const char *expr)
{
  for (const char *p = expr + 1; *p != '\0'; p++)
    {
      const char *before = p - 1;
      const char *after = p + 1;

      if (!is_operator (*p))
        continue;

      while (before > expr && *before == ' ')
        before--;
      while (*after == ' ')
        after++;

      if ((g_ascii_isdigit (*before) || *before == ')' || *before == '.') &&
          (g_ascii_isdigit (*after) || *after == '(' || *after == '.' || *after == '-'))
        return TRUE;
    }

  return FALSE;
}

/* Trims a run of expression characters down to a plausible expression, or returns NULL. */
static char *
clean_expression (const char *start,
                  const char *end)
{
  gboolean changed = TRUE;
  g_autofree char *expr = NULL;

  while (changed)
    {
      int opens = 0;
      int closes = 0;

      changed = FALSE;

      while (start < end && (*start == ' ' || *start == ')' || *start == '.' ||
                             (is_operator (*start) && *start != '-')))
        {
          start++;
          changed = TRUE;
        }
      while (end > start && (end[-1] == ' ' || end[-1] == '(' || end[-1] == '.' ||
                             is_operator (end[-1])))
        {
          end--;
          changed = TRUE;
        }

      for (const char *p = start; p < end; p++)
        {
          opens += *p == '(';
          closes += *p == ')';
        }

      if (closes > opens && end > start && end[-1] == ')')
        {
          end--;
          changed = TRUE;
        }
      else if (opens > closes && start < end && *start == '(')
        {
          start++;
          changed = TRUE;
        }
    }

  expr = g_strndup (start, end - start);

  if (strpbrk (expr, "0123456789") == NULL || !has_binary_operator (expr))
    return NULL;

  return g_steal_pointer (&expr);
}

/* Each separate arithmetic expression in @text ("What is 2+2 and 3*7?" has two). */
static GPtrArray *
find_expressions (const char *text)
{
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  const char *p = text;

  while (*p != '\0' && found->len < MAX_EXPRESSIONS)
    {
      const char *start;
      char *expr;

      if (!is_expression_char (*p))
        {
          p++;
          continue;
        }

      for (start = p; is_expression_char (*p); p++)
        ;

      if ((expr = clean_expression (start, p)))
        g_ptr_array_add (found, expr);
    }

  return found;
}

/* Answers */

static char *
node_to_display (JsonNode *node)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  double value;

  if (demo_json_is_string (node))
    return g_strdup (json_node_get_string (node));
  if (!demo_json_holds_value (node, G_TYPE_DOUBLE))
    return json_to_string (node, FALSE);

  value = json_node_get_double (node);
  if (ABS (value) < 1e15 && value == (gint64) value)
    return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) value);
  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.12g", value));
}

/* Reads a tool's output: either a value (returns TRUE) or an error message (returns FALSE). */
static gboolean
read_tool_output (const char  *content,
                  char       **value,
                  char       **error_message)
{
  static const char * const error_words[] = {
    "error", "invalid", "fail", "cannot", "can't", "unable", "division by zero", "undefined",
  };
  g_autofree char *text = g_strstrip (g_strdup (content));
  g_autoptr(JsonNode) root = demo_json_parse (text, -1, NULL);
  g_autofree char *lower = NULL;

  if (root != NULL)
    {
      if (demo_json_holds (root, JSON_NODE_OBJECT))
        {
          JsonObject *object = json_node_get_object (root);
          static const char * const keys[] = { "result", "value", "answer", "output" };

          if (!demo_json_is_null (json_object_get_member (object, "error")))
            {
              *error_message = node_to_display (json_object_get_member (object, "error"));
              return FALSE;
            }

          for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
            {
              if (json_object_has_member (object, keys[i]))
                {
                  *value = node_to_display (json_object_get_member (object, keys[i]));
                  return TRUE;
                }
            }
        }
      else if (demo_json_holds (root, JSON_NODE_VALUE))
        {
          g_free (text);
          text = node_to_display (root);
        }
    }

  if (text[0] == '\0')
    {
      *error_message = g_strdup ("it returned nothing");
      return FALSE;
    }

  lower = g_ascii_strdown (text, -1);
  for (guint i = 0; i < G_N_ELEMENTS (error_words); i++)
    {
      if (strstr (lower, error_words[i]) != NULL)
        {
          gsize skip = g_str_has_prefix (lower, "error:") ? strlen ("error:") : 0;

          *error_message = g_strstrip (g_strdup (text + skip));
          return FALSE;
        }
    }

  *value = g_steal_pointer (&text);
  return TRUE;
}

static char *
answer_tool_results (GPtrArray *results)
{
  g_autoptr(GPtrArray) sentences = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) computed = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < results->len; i++)
    {
      const DemoToolResult *result = g_ptr_array_index (results, i);
      g_autoptr(JsonNode) arguments = NULL;
      g_autofree char *expression = NULL;
      g_autofree char *value = NULL;
      g_autofree char *message = NULL;

      if (!g_str_equal (result->name, "calculator"))
        {
          g_autofree char *quote = make_quote (result->content, MAX_QUOTE_CHARS);

          if (quote[0] == '\0')
            g_ptr_array_add (sentences, g_strdup_printf ("The `%s` tool returned nothing.",
                                                         result->name));
          else
            g_ptr_array_add (sentences, g_strdup_printf ("The `%s` tool returned: “%s”.",
                                                         result->name, quote));
          continue;
        }

      arguments = demo_json_parse (result->arguments, -1, NULL);
      if (demo_json_holds (arguments, JSON_NODE_OBJECT))
        expression = g_strdup (demo_json_get_string (json_node_get_object (arguments),
                                                     "expression"));
      if (expression == NULL)
        expression = make_quote (result->arguments, MAX_QUOTE_CHARS);

      if (read_tool_output (result->content, &value, &message))
        g_ptr_array_add (computed, g_strdup_printf ("%s is %s", expression, value));
      else
        g_ptr_array_add (sentences,
                         g_strdup_printf ("I'm sorry, but the calculator could not evaluate "
                                          "`%s`: %s%s",
                                          expression[0] ? expression : "(no expression)",
                                          message[0] ? message : "it reported an error",
                                          g_str_has_suffix (message, ".") ? "" : "."));
    }

  /* "The result of 2+2 is 4, and the result of 3*7 is 21." */
  if (computed->len > 0)
    {
      GString *sentence = g_string_new ("The result of ");

      for (guint i = 0; i < computed->len; i++)
        {
          if (i > 0)
            g_string_append (sentence, i + 1 == computed->len ? ", and the result of "
                                                               : ", the result of ");
          g_string_append (sentence, g_ptr_array_index (computed, i));
        }
      g_string_append_c (sentence, '.');
      g_ptr_array_insert (sentences, 0, g_string_free (sentence, FALSE));
    }

  g_ptr_array_add (sentences, NULL);
  return g_strjoinv (" ", (char **) sentences->pdata);
}

static void
add_call (DemoModel  *self,
          DemoReply  *reply,
          const char *name,
          const char *member,
          const char *value)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  DemoToolCall *call = g_new0 (DemoToolCall, 1);

  if (reply->calls == NULL)
    reply->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) demo_tool_call_free);

  json_object_set_string_member (arguments, member, value);
  call->id = g_strdup_printf ("call_demo_%u", ++self->next_call);
  call->name = g_strdup (name);
  call->arguments = demo_json_object_to_string (arguments);
  g_ptr_array_add (reply->calls, call);
}

/* "read notes.txt", "Read the file /etc/hostname": the path to read, or NULL. */
static char *
find_file_to_read (const char *text)
{
  g_autoptr(GRegex) regex = g_regex_new ("\\bread\\s+(?:the\\s+)?(?:file\\s+)?[\"“'`]?([^\\s\"”'`?]+)",
                                         G_REGEX_CASELESS, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;

  if (!g_regex_match (regex, text, 0, &match))
    return NULL;

  return g_match_info_fetch (match, 1);
}

static void
answer_user (DemoModel         *self,
             const DemoRequest *request,
             DemoReply         *reply)
{
  const char *user_text = request->last_user_text ? request->last_user_text : "";
  g_autoptr(GPtrArray) expressions = find_expressions (user_text);
  g_autofree char *path = request->offers_read_file ? find_file_to_read (user_text) : NULL;

  if (path != NULL)
    {
      add_call (self, reply, "read_file", "path", path);
    }
  else if (expressions->len > 0 && request->offers_calculator)
    {
      for (guint i = 0; i < expressions->len; i++)
        add_call (self, reply, "calculator", "expression", g_ptr_array_index (expressions, i));
    }
  else if (expressions->len > 0)
    {
      reply->text = g_strdup_printf ("I can see an arithmetic expression in your message "
                                     "(`%s`), but I am only the libagent demo server and "
                                     "cannot do math on my own. With the `calculator` tool "
                                     "enabled, I would compute it with a tool call.",
                                     (const char *) g_ptr_array_index (expressions, 0));
    }
  else
    {
      g_autofree char *quote = make_quote (user_text, MAX_QUOTE_CHARS);
      g_autofree char *echo = quote[0] ? g_strdup_printf ("You said: “%s”. ", quote)
                                       : g_strdup ("");

      reply->text = g_strdup_printf ("Hello! I am the **libagent demo server**, a tiny "
                                     "stand-in for a real language model. %sI don't really "
                                     "understand text, but I can show you how libagent "
                                     "works:\n\n"
                                     "- **Streaming**: this answer arrives word by word.\n"
                                     "- **Tool calling**: enable the `calculator` tool and "
                                     "ask an arithmetic question, such as "
                                     "`What is 17 * 23 + 4?`\n"
                                     "- **Real answers**: configure an OpenAI-compatible "
                                     "model server instead of the demo.\n", echo);
    }
}

/* Fills @reply, which must be cleared, with the model's answer to @request. */
void
demo_model_answer (DemoModel         *self,
                   const DemoRequest *request,
                   DemoReply         *reply)
{
  reply->id = g_strdup_printf ("chatcmpl-demo-%u", ++self->next_completion);
  reply->model = g_strdup (request->model);
  reply->created = g_get_real_time () / G_USEC_PER_SEC;
  reply->include_usage = request->include_usage;
  reply->prompt_tokens = request->prompt_tokens;

  if (request->tool_results->len > 0)
    reply->text = answer_tool_results (request->tool_results);
  else
    answer_user (self, request, reply);

  /* Rough token counts: words, and a few per tool call. */
  if (reply->text != NULL)
    reply->completion_tokens = demo_count_words (reply->text);
  for (guint i = 0; reply->calls != NULL && i < reply->calls->len; i++)
    {
      DemoToolCall *call = g_ptr_array_index (reply->calls, i);

      reply->completion_tokens += demo_count_words (call->arguments) + 3;
    }
}

