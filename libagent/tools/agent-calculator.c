/* agent-calculator.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tools/agent-builtin-tools.h"
#include "tools/agent-tool-invocation.h"

/* The built-in "calculator" tool: a small recursive-descent evaluator.
 *
 *   sum     := product (("+" | "-") product)*
 *   product := signed (("*" | "/" | "%") signed)*
 *   signed  := ("+" | "-")* power
 *   power   := primary (("^" | "**") signed)?
 *   primary := number | "(" sum ")"
 *   number  := digits ["." [digits]] [exponent] | "." digits [exponent]
 *
 * "^" binds tightest and is right-associative (2^3^2 = 512); a sign binds
 * looser than "^" (-2^2 = -4) but tighter than "*" (2*-3 = -6). "%" is the
 * floating remainder, with the sign of the dividend.
 *
 * Numbers are read and written in the C locale whatever the user's locale.
 * A result is written with the fewest significant digits that read back as
 * the same double, in plain decimal notation when its decimal exponent is
 * between -7 and 21 (exclusive) and in exponent notation otherwise
 * ("1e+21", "1.5e-7"), the way JavaScript writes numbers.
 *
 * Syntax errors win over arithmetic ones: after a division by zero the
 * parser goes on, so that "1/0 +" reports the missing operand.
 */

#define CALC_MAX_LENGTH  4096  /* characters */
#define CALC_MAX_NESTING 255   /* parentheses and exponents, nested */

typedef struct
{
  const char *text;
  const char *pos;
  guint       nesting;
  char       *syntax_error;
  char       *math_error;
} Calc;

static gboolean parse_sum    (Calc   *self,
                              double *value);
static gboolean parse_signed (Calc   *self,
                              double *value);

static void
skip_space (Calc *self)
{
  while (g_ascii_isspace (*self->pos))
    self->pos++;
}

static guint
position_of (Calc       *self,
             const char *p)
{
  return (guint)g_utf8_pointer_to_offset (self->text, p) + 1;
}

/* The character at the cursor, printable, for an error message. */
static char *
dup_current_char (Calc *self)
{
  gunichar c = g_utf8_get_char (self->pos);

  if (g_unichar_isprint (c))
    return g_strndup (self->pos, g_utf8_next_char (self->pos) - self->pos);

  return g_strdup_printf ("U+%04X", c);
}

static gboolean
fail_syntax (Calc *self,
             char *message)
{
  g_assert (self->syntax_error == NULL);

  self->syntax_error = message;
  return FALSE;
}

static gboolean
fail_expected_operand (Calc *self)
{
  g_autofree char *c = NULL;

  if (*self->pos == '\0')
    return fail_syntax (self,
                        g_strdup (_("Unexpected end of expression: expected a number or “(”")));

  c = dup_current_char (self);
  return fail_syntax (self,
                      g_strdup_printf (_("Syntax error at position %u: unexpected “%s”, "
                                         "expected a number or “(”"),
                                       position_of (self, self->pos), c));
}

static gboolean
fail_too_deep (Calc *self)
{
  return fail_syntax (self,
                      g_strdup_printf (_("The expression is nested too deeply (at most %u "
                                         "levels of parentheses and exponents)"),
                                       CALC_MAX_NESTING));
}

/* Records the first arithmetic error; parsing goes on with a NaN. */
static double
fail_math (Calc       *self,
           const char *message)
{
  if (self->math_error == NULL)
    self->math_error = g_strdup (message);

  return NAN;
}

static double
check_finite (Calc   *self,
              double  value)
{
  if (!isfinite (value))
    return fail_math (self, _("The result is not a finite number"));

  return value;
}

static gboolean
parse_number (Calc   *self,
              double *value)
{
  const char *begin = self->pos;
  const char *p = begin;
  g_autofree char *text = NULL;

  while (g_ascii_isdigit (*p))
    p++;
  if (*p == '.')
    {
      p++;
      while (g_ascii_isdigit (*p))
        p++;
    }

  /* An exponent only when digits follow; "2e" leaves the "e" unexpected. */
  if (*p == 'e' || *p == 'E')
    {
      const char *q = p + 1;

      if (*q == '+' || *q == '-')
        q++;
      if (g_ascii_isdigit (*q))
        {
          while (g_ascii_isdigit (*q))
            q++;
          p = q;
        }
    }

  /* A copy, so that g_ascii_strtod() cannot read further ("0x1", "1e5" cut short). */
  text = g_strndup (begin, p - begin);
  *value = g_ascii_strtod (text, NULL);
  self->pos = p;

  if (!isfinite (*value))
    {
      g_autofree char *message =
        g_strdup_printf (_("The number at position %u is too large"), position_of (self, begin));

      *value = fail_math (self, message);
    }

  return TRUE;
}

static gboolean
parse_primary (Calc   *self,
               double *value)
{
  g_autofree char *c_text = NULL;
  const char *open;
  char c;

  skip_space (self);
  c = *self->pos;

  if (g_ascii_isdigit (c) || (c == '.' && g_ascii_isdigit (self->pos[1])))
    return parse_number (self, value);

  if (c != '(')
    return fail_expected_operand (self);

  open = self->pos++;

  if (self->nesting >= CALC_MAX_NESTING)
    return fail_too_deep (self);

  self->nesting++;
  if (!parse_sum (self, value))
    return FALSE;
  self->nesting--;

  skip_space (self);

  if (*self->pos == ')')
    {
      self->pos++;
      return TRUE;
    }

  if (*self->pos == '\0')
    return fail_syntax (self,
                        g_strdup_printf (_("Unexpected end of expression: missing “)” for "
                                           "the “(” at position %u"),
                                         position_of (self, open)));

  c_text = dup_current_char (self);
  return fail_syntax (self,
                      g_strdup_printf (_("Syntax error at position %u: unexpected “%s”, "
                                         "expected an operator or “)”"),
                                       position_of (self, self->pos), c_text));
}

static gboolean
parse_power (Calc   *self,
             double *value)
{
  double base;
  double exponent;

  if (!parse_primary (self, &base))
    return FALSE;

  skip_space (self);

  if (self->pos[0] == '^')
    self->pos += 1;
  else if (self->pos[0] == '*' && self->pos[1] == '*')
    self->pos += 2;
  else
    {
      *value = base;
      return TRUE;
    }

  if (self->nesting >= CALC_MAX_NESTING)
    return fail_too_deep (self);

  /* Right-associative: the exponent is itself a (signed) power. */
  self->nesting++;
  if (!parse_signed (self, &exponent))
    return FALSE;
  self->nesting--;

  if (base == 0 && exponent < 0)
    *value = fail_math (self, _("Division by zero (zero raised to a negative power)"));
  else if (base < 0 && exponent != floor (exponent))
    *value = fail_math (self, _("The result is not a finite number (a negative number raised "
                                "to a fractional power is not a real number)"));
  else
    *value = check_finite (self, pow (base, exponent));

  return TRUE;
}

static gboolean
parse_signed (Calc   *self,
              double *value)
{
  gboolean negate = FALSE;

  /* A loop, not recursion: "----2" costs no stack. */
  for (;;)
    {
      skip_space (self);

      if (*self->pos == '-')
        negate = !negate;
      else if (*self->pos != '+')
        break;

      self->pos++;
    }

  if (!parse_power (self, value))
    return FALSE;

  if (negate)
    *value = -*value;

  return TRUE;
}

static gboolean
parse_product (Calc   *self,
               double *value)
{
  if (!parse_signed (self, value))
    return FALSE;

  for (;;)
    {
      double rhs;
      char op;

      skip_space (self);
      op = *self->pos;

      if (op != '*' && op != '/' && op != '%')
        return TRUE;

      self->pos++;

      if (!parse_signed (self, &rhs))
        return FALSE;

      switch (op)
        {
        case '*':
          *value = check_finite (self, *value * rhs);
          break;

        case '/':
          if (rhs == 0)
            *value = fail_math (self, _("Division by zero"));
          else
            *value = check_finite (self, *value / rhs);
          break;

        case '%':
          if (rhs == 0)
            *value = fail_math (self, _("Modulo by zero"));
          else
            *value = check_finite (self, fmod (*value, rhs));
          break;

        default:
          g_assert_not_reached ();
        }
    }
}

static gboolean
parse_sum (Calc   *self,
           double *value)
{
  if (!parse_product (self, value))
    return FALSE;

  for (;;)
    {
      double rhs;
      char op;

      skip_space (self);
      op = *self->pos;

      if (op != '+' && op != '-')
        return TRUE;

      self->pos++;

      if (!parse_product (self, &rhs))
        return FALSE;

      if (op == '+')
        *value = check_finite (self, *value + rhs);
      else
        *value = check_finite (self, *value - rhs);
    }
}

/* The shortest text that reads back as @value; see the comment at the top. */
static char *
format_number (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  char digits[32];
  GString *str;
  const char *p;
  gboolean negative;
  gint64 exponent;
  guint n_digits = 0;

  g_assert (isfinite (value));

  /* Also turns -0 into "0". */
  if (value == 0)
    return g_strdup ("0");

  for (guint precision = 0; precision <= 17; precision++)
    {
      char format[16];

      g_snprintf (format, sizeof format, "%%.%ue", precision);
      g_ascii_formatd (buffer, sizeof buffer, format, value);

      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }

  /* buffer is now "[-]d[.ddd]e±xx" */
  p = buffer;
  negative = (*p == '-');
  if (negative)
    p++;

  for (; *p != 'e' && *p != '\0'; p++)
    {
      if (g_ascii_isdigit (*p) && n_digits < sizeof digits - 1)
        digits[n_digits++] = *p;
    }
  g_assert (*p == 'e');
  exponent = g_ascii_strtoll (p + 1, NULL, 10);

  while (n_digits > 1 && digits[n_digits - 1] == '0')
    n_digits--;
  digits[n_digits] = '\0';

  str = g_string_new (negative ? "-" : NULL);

  if (exponent >= 21 || exponent <= -7)
    {
      g_string_append_c (str, digits[0]);
      if (n_digits > 1)
        {
          g_string_append_c (str, '.');
          g_string_append (str, digits + 1);
        }
      g_string_append_printf (str, "e%c%" G_GINT64_FORMAT,
                              exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
    }
  else if (exponent >= 0)
    {
      guint n_int = (guint)exponent + 1;

      if (n_digits <= n_int)
        {
          g_string_append (str, digits);
          for (guint i = n_digits; i < n_int; i++)
            g_string_append_c (str, '0');
        }
      else
        {
          g_string_append_len (str, digits, n_int);
          g_string_append_c (str, '.');
          g_string_append (str, digits + n_int);
        }
    }
  else
    {
      g_string_append (str, "0.");
      for (gint64 i = -1; i > exponent; i--)
        g_string_append_c (str, '0');
      g_string_append (str, digits);
    }

  return g_string_free (str, FALSE);
}

/* Returns the formatted result, or NULL with @error_message set. */
static char *
evaluate (const char  *expression,
          char       **error_message)
{
  Calc calc = { expression, expression, 0, NULL, NULL };
  double value = 0;

  if (!g_utf8_validate (expression, -1, NULL))
    {
      *error_message = g_strdup (_("“expression” is not valid UTF-8"));
      return NULL;
    }

  if (g_utf8_strlen (expression, -1) > CALC_MAX_LENGTH)
    {
      *error_message = g_strdup_printf (_("The expression is too long (at most %u characters)"),
                                        CALC_MAX_LENGTH);
      return NULL;
    }

  skip_space (&calc);
  if (*calc.pos == '\0')
    {
      *error_message = g_strdup (_("The expression is empty"));
      return NULL;
    }

  if (parse_sum (&calc, &value))
    {
      skip_space (&calc);

      if (*calc.pos == ')')
        fail_syntax (&calc,
                     g_strdup_printf (_("Syntax error at position %u: unexpected “)” "
                                        "without a matching “(”"),
                                      position_of (&calc, calc.pos)));
      else if (*calc.pos != '\0')
        {
          g_autofree char *c = dup_current_char (&calc);

          fail_syntax (&calc,
                       g_strdup_printf (_("Syntax error at position %u: unexpected “%s”, "
                                          "expected an operator"),
                                        position_of (&calc, calc.pos), c));
        }
    }

  if (calc.syntax_error != NULL)
    {
      *error_message = g_steal_pointer (&calc.syntax_error);
      g_free (calc.math_error);
      return NULL;
    }

  if (calc.math_error != NULL)
    {
      *error_message = g_steal_pointer (&calc.math_error);
      return NULL;
    }

  if (!isfinite (value))
    {
      *error_message = g_strdup (_("The result is not a finite number"));
      return NULL;
    }

  return format_number (value);
}

static gboolean
agent_calculator_invoke (AgentTool           *tool,
                         AgentToolInvocation *invocation,
                         gpointer             user_data,
                         GError             **error)
{
  g_autofree char *error_message = NULL;
  g_autofree char *result = NULL;
  JsonObject *arguments;
  JsonNode *expression;

  arguments = json_node_get_object (agent_tool_invocation_get_arguments (invocation));
  expression = json_object_get_member (arguments, "expression");

  if (expression == NULL)
    {
      agent_tool_invocation_return_error_literal (invocation,
                                                  _("Missing argument “expression”: pass "
                                                    "the arithmetic expression as a string, "
                                                    "for example {\"expression\": \"2+2\"}"));
      return TRUE;
    }

  if (!JSON_NODE_HOLDS_VALUE (expression) ||
      json_node_get_value_type (expression) != G_TYPE_STRING)
    {
      agent_tool_invocation_return_error_literal (invocation,
                                                  _("“expression” must be a string, for "
                                                    "example {\"expression\": \"2+2\"}"));
      return TRUE;
    }

  result = evaluate (json_node_get_string (expression), &error_message);

  if (result == NULL)
    agent_tool_invocation_return_error_literal (invocation, error_message);
  else
    agent_tool_invocation_return_result (invocation, result);

  return TRUE;
}

static JsonNode *
build_parameters (void)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "object");
  json_builder_set_member_name (builder, "properties");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "expression");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "string");
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder,
                                 "The expression to evaluate, for example "
                                 "\"(1.5 + 2) * 3^2 - 10 % 4\". Use . as the decimal "
                                 "separator and no thousands separators.");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "required");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "expression");
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/**
 * agent_calculator_tool_new:
 *
 * Creates the built-in `calculator` tool, which evaluates an arithmetic
 * expression passed as `{"expression": "…"}`.
 *
 * It knows `+`, `-`, `*`, `/`, `%` (the remainder, with the sign of the
 * dividend), `^` (power, right-associative, also spelled `**`), parentheses,
 * unary signs, and decimal numbers such as `1.5`, `.5` or `2e-3`. A sign
 * binds looser than `^`, so `-2^2` is `-4`.
 *
 * The result is the shortest decimal text that reads back as the same
 * double, such as `14`, `0.1` or `0.30000000000000004`; exponent notation
 * (`1e+21`, `1e-7`) is used only for very large and very small numbers.
 * Division by zero, a result that is not a finite number, and malformed
 * expressions are returned as errors that say what went wrong.
 *
 * The tool completes its invocation before [method@Agent.Tool.invoke]
 * returns.
 *
 * Returns: (transfer full): a new [class@Agent.Tool]
 *
 * Since: 0.1
 */
AgentTool *
agent_calculator_tool_new (void)
{
  g_autoptr(JsonNode) parameters = build_parameters ();

  /* The description is for the model, so it is not translated. */
  return agent_tool_new ("calculator",
                         "Evaluates an arithmetic expression and returns the result as a "
                         "number. Supports + - * / % (remainder) and ^ (power), "
                         "parentheses, unary minus and decimal numbers such as 1.5 or 2e-3. "
                         "Use it for any calculation instead of doing arithmetic yourself.",
                         parameters,
                         agent_calculator_invoke,
                         NULL,
                         NULL);
}
