/* test-calculator.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <locale.h>
#include <string.h>

#include "agent.h"

/* Everything goes through the public API: a tool, a call, an invocation. */

static char *
run_tool (AgentTool  *tool,
          const char *arguments,
          gboolean   *is_error)
{
  g_autoptr(AgentToolCall) call = NULL;
  g_autoptr(AgentToolInvocation) invocation = NULL;
  char *result;

  call = agent_tool_call_new ("call_1", "calculator", arguments);
  invocation = agent_tool_invocation_new (tool, call, NULL);
  g_assert_false (agent_tool_invocation_is_completed (invocation));

  agent_tool_invoke (tool, invocation);

  /* No main loop iteration: the calculator answers at once. */
  g_assert_true (agent_tool_invocation_is_completed (invocation));
  result = agent_tool_invocation_dup_result (invocation, is_error);
  g_assert_nonnull (result);

  g_assert_finalize_object (g_steal_pointer (&invocation));
  g_assert_finalize_object (g_steal_pointer (&call));

  return result;
}

static char *
evaluate (const char *expression,
          gboolean   *is_error)
{
  g_autoptr(AgentTool) tool = agent_calculator_tool_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *arguments = NULL;
  JsonObject *object = json_object_new ();
  char *result;

  json_object_set_string_member (object, "expression", expression);
  json_node_take_object (node, object);
  arguments = json_to_string (node, FALSE);

  result = run_tool (tool, arguments, is_error);
  g_assert_finalize_object (g_steal_pointer (&tool));

  return result;
}

#define assert_value(expression, expected) \
  assert_value_at (__FILE__, __LINE__, G_STRFUNC, expression, expected)
#define assert_error(expression, fragment) \
  assert_error_at (__FILE__, __LINE__, G_STRFUNC, expression, fragment)
#define assert_error_prefix(expression, prefix) \
  assert_error_prefix_at (__FILE__, __LINE__, G_STRFUNC, expression, prefix)

static void
assert_value_at (const char *file,
                 int         line,
                 const char *func,
                 const char *expression,
                 const char *expected)
{
  gboolean is_error = TRUE;
  g_autofree char *result = evaluate (expression, &is_error);

  if (is_error || g_strcmp0 (result, expected) != 0)
    {
      g_autofree char *message =
        g_strdup_printf ("\"%s\" gave %s\"%s\", expected \"%s\"",
                         expression, is_error ? "the error " : "", result, expected);

      g_assertion_message (G_LOG_DOMAIN, file, line, func, message);
    }
}

static void
assert_error_at (const char *file,
                 int         line,
                 const char *func,
                 const char *expression,
                 const char *fragment)
{
  gboolean is_error = FALSE;
  g_autofree char *result = evaluate (expression, &is_error);

  if (!is_error || strstr (result, fragment) == NULL)
    {
      g_autofree char *message =
        g_strdup_printf ("\"%s\" gave %s\"%s\", expected an error containing \"%s\"",
                         expression, is_error ? "the error " : "the result ", result, fragment);

      g_assertion_message (G_LOG_DOMAIN, file, line, func, message);
    }
}

static void
assert_error_prefix_at (const char *file,
                        int         line,
                        const char *func,
                        const char *expression,
                        const char *prefix)
{
  gboolean is_error = FALSE;
  g_autofree char *result = evaluate (expression, &is_error);

  if (!is_error || !g_str_has_prefix (result, prefix))
    {
      g_autofree char *message =
        g_strdup_printf ("\"%s\" gave %s\"%s\", expected an error starting with \"%s\"",
                         expression, is_error ? "the error " : "the result ", result, prefix);

      g_assertion_message (G_LOG_DOMAIN, file, line, func, message);
    }
}

static char *
repeat (const char *text,
        guint       count)
{
  GString *str = g_string_new (NULL);

  for (guint i = 0; i < count; i++)
    g_string_append (str, text);

  return g_string_free (str, FALSE);
}

static char *
nested_parentheses (guint depth)
{
  g_autofree char *open = repeat ("(", depth);
  g_autofree char *close = repeat (")", depth);

  return g_strconcat (open, "1+1", close, NULL);
}

static void
test_tool_properties (void)
{
  AgentTool *tool = agent_calculator_tool_new ();
  JsonObject *schema;
  JsonObject *properties;
  JsonObject *expression;
  JsonArray *required;
  JsonNode *parameters;

  g_assert_true (AGENT_IS_TOOL (tool));
  g_assert_cmpstr (agent_tool_get_name (tool), ==, "calculator");
  g_assert_nonnull (strstr (agent_tool_get_description (tool), "arithmetic expression"));

  parameters = agent_tool_get_parameters (tool);
  g_assert_nonnull (parameters);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (parameters));
  schema = json_node_get_object (parameters);
  g_assert_cmpstr (json_object_get_string_member (schema, "type"), ==, "object");

  properties = json_object_get_object_member (schema, "properties");
  g_assert_nonnull (properties);
  g_assert_cmpuint (json_object_get_size (properties), ==, 1);
  expression = json_object_get_object_member (properties, "expression");
  g_assert_nonnull (expression);
  g_assert_cmpstr (json_object_get_string_member (expression, "type"), ==, "string");
  g_assert_cmpstr (json_object_get_string_member (expression, "description"), !=, "");

  required = json_object_get_array_member (schema, "required");
  g_assert_nonnull (required);
  g_assert_cmpuint (json_array_get_length (required), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (required, 0), ==, "expression");

  g_assert_finalize_object (tool);
}

static void
test_tool_builtin (void)
{
  g_autoptr(GError) error = NULL;
  const char * const *names = agent_builtin_tool_list_names ();
  g_autofree char *result = NULL;
  gboolean is_error = TRUE;
  AgentTool *tool;

  g_assert_true (g_strv_contains (names, "calculator"));

  tool = agent_builtin_tool_new ("calculator", &error);
  g_assert_no_error (error);
  g_assert_true (AGENT_IS_TOOL (tool));
  g_assert_cmpstr (agent_tool_get_name (tool), ==, "calculator");

  result = run_tool (tool, "{\"expression\":\"2+2\"}", &is_error);
  g_assert_false (is_error);
  g_assert_cmpstr (result, ==, "4");

  g_assert_finalize_object (tool);
}

static void
test_operators (void)
{
  assert_value ("2+3", "5");
  assert_value ("2-3", "-1");
  assert_value ("2*3", "6");
  assert_value ("7/2", "3.5");
  assert_value ("1/3", "0.3333333333333333");
  assert_value ("7%3", "1");
  assert_value ("-7%3", "-1");
  assert_value ("7%-3", "1");
  assert_value ("5.5%2", "1.5");
  assert_value ("2^10", "1024");
  assert_value ("2^0.5", "1.4142135623730951");
  assert_value ("2^-1", "0.5");
  assert_value ("0^0", "1");
  assert_value ("(-2)^3", "-8");
  assert_value ("2**3", "8");
  assert_value ("2**3**2", "512");
  assert_value ("42", "42");
}

static void
test_precedence (void)
{
  assert_value ("2+3*4", "14");
  assert_value ("2*3+4", "10");
  assert_value ("(2+3)*4", "20");
  assert_value ("10-4/2", "8");
  assert_value ("2+10%4", "4");
  assert_value ("2*3^2", "18");
  assert_value ("3^2*2", "18");
  assert_value ("2+3^2", "11");
  assert_value ("-2^2", "-4");
  assert_value ("(-2)^2", "4");
  assert_value ("2^-2", "0.25");
  assert_value ("-2^-2", "-0.25");
  assert_value ("1+2*3-4/2", "5");
  assert_value ("2*3%4", "2");
}

static void
test_associativity (void)
{
  assert_value ("2^3^2", "512");
  assert_value ("(2^3)^2", "64");
  assert_value ("10-4-3", "3");
  assert_value ("100/10/5", "2");
  assert_value ("2*3/4", "1.5");
  assert_value ("17%10%4", "3");
  assert_value ("1-2+3", "2");
  assert_value ("2^2^-1", "1.4142135623730951");
}

static void
test_unary (void)
{
  assert_value ("-3", "-3");
  assert_value ("+3", "3");
  assert_value ("-(2+3)", "-5");
  assert_value ("2*-3", "-6");
  assert_value ("2/-4", "-0.5");
  assert_value ("2--3", "5");
  assert_value ("2+-3", "-1");
  assert_value ("2-+3", "-1");
  assert_value ("--2", "2");
  assert_value ("---2", "-2");
  assert_value ("- - 2", "2");
  assert_value ("+-+2", "-2");
  assert_value ("-(-(-1))", "-1");
  assert_value ("(-3)*(-3)", "9");
  assert_value ("-3^2", "-9");
  assert_value ("2^-3^2", "0.001953125");
  assert_value ("-2%3", "-2");
}

static void
test_decimals (void)
{
  assert_value ("1.5", "1.5");
  assert_value (".5", "0.5");
  assert_value ("2.", "2");
  assert_value ("2.+.5", "2.5");
  assert_value ("0.25*4", "1");
  assert_value ("007", "7");
  assert_value ("1.50", "1.5");
  assert_value ("1e3", "1000");
  assert_value ("1E3", "1000");
  assert_value ("2.5e-3", "0.0025");
  assert_value ("1e+2", "100");
  assert_value (".5e1", "5");
  assert_value ("3.14159", "3.14159");
  assert_value ("123456789.125", "123456789.125");
}

static void
test_whitespace (void)
{
  assert_value (" 2 + 3 ", "5");
  assert_value ("\t2\n*\r3 ", "6");
  assert_value ("( 2 + 3 ) * ( 4 - 1 )", "15");
  assert_value ("- 2 ^ 2", "-4");
  assert_value ("2 ^ 3 ^ 2", "512");
  assert_value ("2 ** 3", "8");
}

static void
test_parentheses (void)
{
  assert_value ("(1)", "1");
  assert_value ("((((1))))", "1");
  assert_value ("((2+3)*(4-(1+1)))", "10");
  assert_value ("(2*(3+(4*(5+6))))", "94");
  assert_value ("((1.5+.5)^(1+1))^0.5", "2");
  assert_value ("(((-1)))", "-1");
}

static void
test_format_shortest (void)
{
  assert_value ("7*2", "14");
  assert_value ("3/2", "1.5");
  assert_value ("0.1", "0.1");
  assert_value ("0.1+0.2", "0.30000000000000004");
  assert_value ("1-4", "-3");
  assert_value ("14.0", "14");
  assert_value ("1/4", "0.25");
  assert_value ("2/3", "0.6666666666666666");
  assert_value ("100", "100");
  assert_value ("1200", "1200");
  assert_value ("2^53", "9007199254740992");
  assert_value ("2^53+1", "9007199254740992");
  assert_value ("0.000001", "0.000001");
  assert_value ("123.456", "123.456");
  assert_value ("-0.5", "-0.5");
}

static void
test_format_negative_zero (void)
{
  assert_value ("-0", "0");
  assert_value ("0*-1", "0");
  assert_value ("-0.0", "0");
  assert_value ("-4%2", "0");
  assert_value ("-(1-1)", "0");
  assert_value ("0/-5", "0");
}

static void
test_format_exponent (void)
{
  assert_value ("10^20", "100000000000000000000");
  assert_value ("10^21", "1e+21");
  assert_value ("1.5*10^22", "1.5e+22");
  assert_value ("-10^21", "-1e+21");
  assert_value ("2^70", "1.1805916207174113e+21");
  assert_value ("1e-7", "1e-7");
  assert_value ("1.5e-7", "1.5e-7");
  assert_value ("-1e-7", "-1e-7");
  assert_value ("1e-6", "0.000001");
  assert_value ("1e308", "1e+308");
  assert_value ("5e-324", "5e-324");
  assert_value ("1e-400", "0");
}

static void
test_format_locale (void)
{
  static const char * const comma_locales[] = {
    "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "nl_NL.UTF-8", "de_DE",
  };
  g_autofree char *saved = g_strdup (setlocale (LC_NUMERIC, NULL));
  const char *found = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (comma_locales) && found == NULL; i++)
    {
      if (setlocale (LC_NUMERIC, comma_locales[i]) != NULL &&
          g_str_equal (localeconv ()->decimal_point, ","))
        found = comma_locales[i];
    }

  if (found == NULL)
    {
      setlocale (LC_NUMERIC, saved);
      g_test_skip ("No locale with a decimal comma is installed");
      return;
    }

  g_test_message ("Using LC_NUMERIC=%s", found);

  assert_value ("1.5*2", "3");
  assert_value ("3/2", "1.5");
  assert_value ("0.1+0.2", "0.30000000000000004");
  assert_value (".5+2.", "2.5");
  assert_value ("2.5e-3", "0.0025");
  assert_value ("1.5e-7", "1.5e-7");
  assert_value ("-1.25", "-1.25");
  assert_error ("1,5", "position 2");

  setlocale (LC_NUMERIC, saved);
}

static void
test_error_division_by_zero (void)
{
  assert_error_prefix ("1/0", "Division by zero");
  assert_error_prefix ("1/(2-2)", "Division by zero");
  assert_error_prefix ("0/0", "Division by zero");
  assert_error_prefix ("1/-0", "Division by zero");
  assert_error_prefix ("1/0*0", "Division by zero");
  assert_error_prefix ("0^-1", "Division by zero");
}

static void
test_error_modulo_by_zero (void)
{
  assert_error_prefix ("5%0", "Modulo by zero");
  assert_error_prefix ("5%(1-1)", "Modulo by zero");
  assert_error_prefix ("5.5%0.0", "Modulo by zero");
}

static void
test_error_syntax (void)
{
  assert_error_prefix ("2+3)", "Syntax error at position 4: unexpected “)”");
  assert_error_prefix ("(2+3))", "Syntax error at position 6: unexpected “)”");
  assert_error_prefix (")", "Syntax error at position 1: unexpected “)”");
  assert_error_prefix ("2 3", "Syntax error at position 3: unexpected “3”");
  assert_error_prefix ("2+*3", "Syntax error at position 3: unexpected “*”");
  assert_error_prefix ("*2", "Syntax error at position 1: unexpected “*”");
  assert_error_prefix ("()", "Syntax error at position 2: unexpected “)”");
  assert_error_prefix ("2(3)", "Syntax error at position 2: unexpected “(”");
  assert_error_prefix ("(1 2)", "Syntax error at position 4: unexpected “2”");
  assert_error_prefix ("1.2.3", "Syntax error at position 4: unexpected “.”");
  assert_error_prefix ("2+.", "Syntax error at position 3: unexpected “.”");
  assert_error_prefix ("1e", "Syntax error at position 2: unexpected “e”");
  assert_error_prefix ("1e+", "Syntax error at position 2: unexpected “e”");
  assert_error_prefix ("abc", "Syntax error at position 1: unexpected “a”");
  assert_error_prefix ("2^^3", "Syntax error at position 3: unexpected “^”");
  assert_error_prefix ("0x10", "Syntax error at position 2: unexpected “x”");
  assert_error_prefix ("inf", "Syntax error at position 1: unexpected “i”");
  assert_error_prefix ("nan", "Syntax error at position 1: unexpected “n”");
  assert_error_prefix ("1,000", "Syntax error at position 2: unexpected “,”");
  assert_error_prefix ("2 = 2", "Syntax error at position 3: unexpected “=”");
  assert_error_prefix ("2 * * 3", "Syntax error at position 5: unexpected “*”");
  /* Positions count characters, not bytes. */
  assert_error_prefix ("3×4", "Syntax error at position 2: unexpected “×”");
  assert_error_prefix ("“1”", "Syntax error at position 1: unexpected ““”");
  assert_error_prefix ("1\x01", "Syntax error at position 2: unexpected “U+0001”");
  /* A syntax error wins over an arithmetic one found before it. */
  assert_error_prefix ("1/0+)", "Syntax error at position 5");
  assert_error_prefix ("(1/0", "Unexpected end of expression");
}

static void
test_error_end_of_expression (void)
{
  assert_error_prefix ("2+", "Unexpected end of expression");
  assert_error_prefix ("2*", "Unexpected end of expression");
  assert_error_prefix ("-", "Unexpected end of expression");
  assert_error_prefix ("2^", "Unexpected end of expression");
  assert_error_prefix ("2 + ( ", "Unexpected end of expression");
  assert_error_prefix ("(2+3", "Unexpected end of expression");
  assert_error ("(2+3", "missing “)”");
  assert_error ("1+((2+3)", "“(” at position 3");
}

static void
test_error_empty (void)
{
  assert_error_prefix ("", "The expression is empty");
  assert_error_prefix ("   ", "The expression is empty");
  assert_error_prefix ("\t\n", "The expression is empty");
}

static void
test_error_not_finite (void)
{
  assert_error_prefix ("10^400", "The result is not a finite number");
  assert_error_prefix ("1e308*10", "The result is not a finite number");
  assert_error_prefix ("-1e308-1e308", "The result is not a finite number");
  assert_error_prefix ("(-8)^(1/3)", "The result is not a finite number");
  assert_error_prefix ("1/10^400", "The result is not a finite number");
  assert_error ("1e400", "too large");
  assert_error ("1e400", "position 1");
  assert_error ("2+1e999", "position 3");
}

static void
test_error_depth (void)
{
  g_autofree char *ok = nested_parentheses (255);
  g_autofree char *too_deep = nested_parentheses (256);
  g_autofree char *very_deep = nested_parentheses (10000);
  g_autofree char *open_only = repeat ("(", 10000);
  g_autofree char *signs = repeat ("-", 3000);
  g_autofree char *signs_2 = g_strconcat (signs, "2", NULL);
  g_autofree char *powers = repeat ("1^", 1000);
  g_autofree char *powers_1 = g_strconcat (powers, "1", NULL);
  g_autofree char *short_powers = repeat ("1^", 255);
  g_autofree char *short_powers_1 = g_strconcat (short_powers, "1", NULL);

  assert_value (ok, "2");
  assert_error_prefix (too_deep, "The expression is nested too deeply");
  assert_error (very_deep, "too long");
  assert_error (open_only, "too long");
  /* Signs are read in a loop, they do not nest. */
  assert_value (signs_2, "2");
  assert_value (short_powers_1, "1");
  assert_error_prefix (powers_1, "The expression is nested too deeply");

  /* Within the length limit, deep nesting is still refused. */
  g_clear_pointer (&open_only, g_free);
  open_only = repeat ("(", 4000);
  assert_error_prefix (open_only, "The expression is nested too deeply");
}

static void
test_error_length (void)
{
  g_autofree char *ones = repeat ("1+", 2048);
  g_autofree char *at_limit = g_strconcat (ones, "0", NULL);   /* 4097 characters */
  g_autofree char *spaces = repeat (" ", 4095);
  g_autofree char *padded = g_strconcat (spaces, "1", NULL);   /* 4096 characters */
  g_autofree char *wide = repeat ("×", 4097);

  assert_error_prefix (at_limit, "The expression is too long");
  assert_value (padded, "1");
  assert_error_prefix (wide, "The expression is too long");

  /* The limit counts characters, not bytes: 3000 × are 6000 bytes. */
  g_clear_pointer (&wide, g_free);
  wide = repeat ("×", 3000);
  assert_error_prefix (wide, "Syntax error at position 1");
}

static void
test_arguments_missing (void)
{
  g_autoptr(AgentTool) tool = agent_calculator_tool_new ();
  static const char * const cases[] = {
    "{}",
    "",
    "   ",
    "{\"expr\":\"1+1\"}",
    "{\"Expression\":\"1+1\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean is_error = FALSE;
      g_autofree char *result = run_tool (tool, cases[i], &is_error);

      g_assert_true (is_error);
      g_assert_true (g_str_has_prefix (result, "Missing argument “expression”"));
    }

  g_assert_finalize_object (g_steal_pointer (&tool));
}

static void
test_arguments_wrong_type (void)
{
  g_autoptr(AgentTool) tool = agent_calculator_tool_new ();
  static const char * const cases[] = {
    "{\"expression\":4}",
    "{\"expression\":2.5}",
    "{\"expression\":null}",
    "{\"expression\":true}",
    "{\"expression\":[\"1+1\"]}",
    "{\"expression\":{\"value\":\"1+1\"}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean is_error = FALSE;
      g_autofree char *result = run_tool (tool, cases[i], &is_error);

      g_assert_true (is_error);
      g_assert_true (g_str_has_prefix (result, "“expression” must be a string"));
    }

  g_assert_finalize_object (g_steal_pointer (&tool));
}

static void
test_arguments_extra (void)
{
  g_autoptr(AgentTool) tool = agent_calculator_tool_new ();
  gboolean is_error = TRUE;
  g_autofree char *result = NULL;

  result = run_tool (tool, "{\"expression\":\"6*7\",\"precision\":3}", &is_error);
  g_assert_false (is_error);
  g_assert_cmpstr (result, ==, "42");

  /* JSON escapes are decoded before the expression is read. */
  g_clear_pointer (&result, g_free);
  result = run_tool (tool, "{\"expression\":\"\\u0032\\t+\\n2\"}", &is_error);
  g_assert_false (is_error);
  g_assert_cmpstr (result, ==, "4");

  g_assert_finalize_object (g_steal_pointer (&tool));
}

static void
notify_completed_cb (GObject    *object,
                     GParamSpec *pspec,
                     gpointer    user_data)
{
  guint *count = user_data;

  (*count)++;
}

static void
test_arguments_invalid_json (void)
{
  g_autoptr(AgentTool) tool = agent_calculator_tool_new ();
  static const char * const cases[] = {
    "{not json",
    "[\"2+2\"]",
    "\"2+2\"",
    "{\"expression\":\"2+2\"",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AgentToolCall) call = agent_tool_call_new ("call_1", "calculator", cases[i]);
      g_autoptr(AgentToolInvocation) invocation = agent_tool_invocation_new (tool, call, NULL);
      g_autofree char *before = NULL;
      g_autofree char *after = NULL;
      gboolean is_error = FALSE;

      /* Completed with an error before the tool ever runs. */
      g_assert_true (agent_tool_invocation_is_completed (invocation));
      before = agent_tool_invocation_dup_result (invocation, &is_error);
      g_assert_true (is_error);
      g_assert_nonnull (strstr (before, "calculator"));

      /* The tool must not run: had it run, it would complete the invocation
       * a second time, which is a critical (fatal in tests), and the result
       * would no longer be the parse error. */
      agent_tool_invoke (tool, invocation);

      is_error = FALSE;
      after = agent_tool_invocation_dup_result (invocation, &is_error);
      g_assert_true (is_error);
      g_assert_cmpstr (after, ==, before);

      g_assert_finalize_object (g_steal_pointer (&invocation));
      g_assert_finalize_object (g_steal_pointer (&call));
    }

  g_assert_finalize_object (g_steal_pointer (&tool));
}

static void
test_invoke_synchronous (void)
{
  AgentTool *tool = agent_calculator_tool_new ();
  AgentToolCall *call = agent_tool_call_new ("call_1", "calculator",
                                             "{\"expression\":\"2+2\"}");
  AgentToolInvocation *invocation = agent_tool_invocation_new (tool, call, NULL);
  g_autofree char *result = NULL;
  g_autofree char *again = NULL;
  gboolean is_error = TRUE;
  guint notified = 0;

  g_assert_true (agent_tool_invocation_get_tool (invocation) == tool);
  g_assert_true (agent_tool_invocation_get_tool_call (invocation) == call);
  g_assert_false (agent_tool_invocation_is_completed (invocation));
  g_assert_null (agent_tool_invocation_dup_result (invocation, NULL));

  g_signal_connect (invocation, "notify::completed",
                    G_CALLBACK (notify_completed_cb), &notified);

  agent_tool_invoke (tool, invocation);

  /* Completed, and notified, before agent_tool_invoke() returned: no main
   * loop iteration was needed. */
  g_assert_true (agent_tool_invocation_is_completed (invocation));
  g_assert_cmpuint (notified, ==, 1);
  result = agent_tool_invocation_dup_result (invocation, &is_error);
  g_assert_false (is_error);
  g_assert_cmpstr (result, ==, "4");

  /* Nothing is pending on the main context. */
  g_assert_false (g_main_context_pending (NULL));

  /* A second invoke is ignored. */
  agent_tool_invoke (tool, invocation);
  g_assert_cmpuint (notified, ==, 1);
  again = agent_tool_invocation_dup_result (invocation, NULL);
  g_assert_cmpstr (again, ==, "4");

  g_assert_finalize_object (invocation);
  g_assert_finalize_object (call);
  g_assert_finalize_object (tool);
}

#define N_THREADS 4
#define N_ROUNDS  200

static gpointer
invoke_thread (gpointer data)
{
  AgentTool *tool = data;
  GMainContext *context = g_main_context_new ();

  /* Each thread owns the context its invocations report to, so that the
   * completion is delivered at once rather than queued to another thread. */
  g_main_context_push_thread_default (context);

  for (guint i = 0; i < N_ROUNDS; i++)
    {
      g_autofree char *arguments =
        g_strdup_printf ("{\"expression\":\"(%u + 0.5) * 2 - 1\"}", i);
      g_autofree char *expected = g_strdup_printf ("%u", 2 * i);
      g_autoptr(AgentToolCall) call = agent_tool_call_new ("call_1", "calculator", arguments);
      g_autoptr(AgentToolInvocation) invocation = agent_tool_invocation_new (tool, call, NULL);
      g_autofree char *result = NULL;
      gboolean is_error = TRUE;

      agent_tool_invoke (tool, invocation);
      g_assert_true (agent_tool_invocation_is_completed (invocation));

      result = agent_tool_invocation_dup_result (invocation, &is_error);
      g_assert_false (is_error);
      g_assert_cmpstr (result, ==, expected);

      g_assert_finalize_object (g_steal_pointer (&invocation));
      g_assert_finalize_object (g_steal_pointer (&call));
    }

  g_assert_false (g_main_context_pending (context));
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);

  return NULL;
}

static void
test_invoke_threads (void)
{
  AgentTool *tool = agent_calculator_tool_new ();
  GThread *threads[N_THREADS];

  /* One tool shared by several threads, each with its own invocations. */
  for (guint i = 0; i < N_THREADS; i++)
    threads[i] = g_thread_new ("calculator", invoke_thread, tool);

  for (guint i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);

  g_assert_finalize_object (tool);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/calculator/tool/properties", test_tool_properties);
  g_test_add_func ("/calculator/tool/builtin", test_tool_builtin);
  g_test_add_func ("/calculator/eval/operators", test_operators);
  g_test_add_func ("/calculator/eval/precedence", test_precedence);
  g_test_add_func ("/calculator/eval/associativity", test_associativity);
  g_test_add_func ("/calculator/eval/unary", test_unary);
  g_test_add_func ("/calculator/eval/decimals", test_decimals);
  g_test_add_func ("/calculator/eval/whitespace", test_whitespace);
  g_test_add_func ("/calculator/eval/parentheses", test_parentheses);
  g_test_add_func ("/calculator/format/shortest", test_format_shortest);
  g_test_add_func ("/calculator/format/negative-zero", test_format_negative_zero);
  g_test_add_func ("/calculator/format/exponent", test_format_exponent);
  g_test_add_func ("/calculator/format/locale", test_format_locale);
  g_test_add_func ("/calculator/error/division-by-zero", test_error_division_by_zero);
  g_test_add_func ("/calculator/error/modulo-by-zero", test_error_modulo_by_zero);
  g_test_add_func ("/calculator/error/syntax", test_error_syntax);
  g_test_add_func ("/calculator/error/end-of-expression", test_error_end_of_expression);
  g_test_add_func ("/calculator/error/empty", test_error_empty);
  g_test_add_func ("/calculator/error/not-finite", test_error_not_finite);
  g_test_add_func ("/calculator/error/depth", test_error_depth);
  g_test_add_func ("/calculator/error/length", test_error_length);
  g_test_add_func ("/calculator/arguments/missing", test_arguments_missing);
  g_test_add_func ("/calculator/arguments/wrong-type", test_arguments_wrong_type);
  g_test_add_func ("/calculator/arguments/extra", test_arguments_extra);
  g_test_add_func ("/calculator/arguments/invalid-json", test_arguments_invalid_json);
  g_test_add_func ("/calculator/invoke/synchronous", test_invoke_synchronous);
  g_test_add_func ("/calculator/invoke/threads", test_invoke_threads);

  return g_test_run ();
}
