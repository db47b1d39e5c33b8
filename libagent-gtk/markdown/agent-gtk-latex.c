/* agent-gtk-latex.c
 *
 * Math a model writes in LaTeX ($x^2 + \frac{a}{b}$), shown readably without
 * a TeX engine: commands become their Unicode symbols (\alpha α, \leq ≤,
 * \sum ∑), superscripts and subscripts their small forms where Unicode has
 * them (x² , aₙ) or ^(…) where it has not, fractions a/b, roots √x, and
 * \text{…}, \mathbf{…} and the like their text. A command this file does
 * not know shows its name.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <string.h>

#include "markdown/agent-gtk-markdown-parser-private.h"

static const struct { const char *name; const char *text; } symbols[] = {
  { "alpha", "α" }, { "beta", "β" }, { "gamma", "γ" }, { "delta", "δ" }, { "epsilon", "ε" },
  { "varepsilon", "ε" }, { "zeta", "ζ" }, { "eta", "η" }, { "theta", "θ" }, { "iota", "ι" },
  { "kappa", "κ" }, { "lambda", "λ" }, { "mu", "μ" }, { "nu", "ν" }, { "xi", "ξ" },
  { "pi", "π" }, { "rho", "ρ" }, { "sigma", "σ" }, { "tau", "τ" }, { "upsilon", "υ" },
  { "phi", "φ" }, { "varphi", "φ" }, { "chi", "χ" }, { "psi", "ψ" }, { "omega", "ω" },
  { "Gamma", "Γ" }, { "Delta", "Δ" }, { "Theta", "Θ" }, { "Lambda", "Λ" }, { "Xi", "Ξ" },
  { "Pi", "Π" }, { "Sigma", "Σ" }, { "Phi", "Φ" }, { "Psi", "Ψ" }, { "Omega", "Ω" },
  { "times", "×" }, { "cdot", "·" }, { "div", "÷" }, { "pm", "±" }, { "mp", "∓" },
  { "leq", "≤" }, { "le", "≤" }, { "geq", "≥" }, { "ge", "≥" }, { "neq", "≠" }, { "ne", "≠" },
  { "approx", "≈" }, { "equiv", "≡" }, { "sim", "∼" }, { "propto", "∝" }, { "infty", "∞" },
  { "sum", "∑" }, { "prod", "∏" }, { "int", "∫" }, { "oint", "∮" }, { "partial", "∂" },
  { "nabla", "∇" }, { "to", "→" }, { "rightarrow", "→" }, { "leftarrow", "←" },
  { "Rightarrow", "⇒" }, { "Leftarrow", "⇐" }, { "iff", "⇔" }, { "Leftrightarrow", "⇔" },
  { "mapsto", "↦" }, { "in", "∈" }, { "notin", "∉" }, { "subset", "⊂" }, { "subseteq", "⊆" },
  { "supset", "⊃" }, { "cup", "∪" }, { "cap", "∩" }, { "emptyset", "∅" }, { "forall", "∀" },
  { "exists", "∃" }, { "neg", "¬" }, { "land", "∧" }, { "lor", "∨" }, { "ldots", "…" },
  { "cdots", "⋯" }, { "dots", "…" }, { "circ", "∘" }, { "deg", "°" }, { "angle", "∠" },
  { "perp", "⊥" }, { "parallel", "∥" }, { "hbar", "ℏ" }, { "ell", "ℓ" }, { "Re", "ℜ" },
  { "Im", "ℑ" }, { "aleph", "ℵ" }, { "langle", "⟨" }, { "rangle", "⟩" }, { "lfloor", "⌊" },
  { "rfloor", "⌋" }, { "lceil", "⌈" }, { "rceil", "⌉" }, { "mid", "∣" }, { "star", "⋆" },
  { ",", " " }, { ";", " " }, { ":", " " }, { "!", "" }, { "quad", "  " }, { "qquad", "    " },
  { "{", "{" }, { "}", "}" }, { "%", "%" }, { "$", "$" }, { "_", "_" }, { "&", "&" },
  { "#", "#" }, { "\\", " " }, { "left", "" }, { "right", "" }, { "displaystyle", "" },
  { "limits", "" }, { "sin", "sin" }, { "cos", "cos" }, { "tan", "tan" }, { "log", "log" },
  { "ln", "ln" }, { "exp", "exp" }, { "lim", "lim" }, { "max", "max" }, { "min", "min" },
};

/* Commands whose argument is shown as it is (NULL-terminated: a strv) */
static const char * const text_commands[] = {
  "text", "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "operatorname", "textbf",
  "textit", "boldsymbol", "mathbb", "mathcal", "vec", "hat", "bar", "overline", "tilde",
  "dot", "ddot", "underline", NULL,
};

/* Combining marks of the accents */
static const struct { const char *name; const char *mark; } accents[] = {
  { "vec", "\xe2\x83\x97" }, { "hat", "\xcc\x82" }, { "bar", "\xcc\x84" },
  { "overline", "\xcc\x85" }, { "tilde", "\xcc\x83" }, { "dot", "\xcc\x87" },
  { "ddot", "\xcc\x88" },
};

static const char superscript_from[] = "0123456789+-=()nitabcdekmoprsxyT";
static const char * const superscripts[] = {
  "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹", "⁺", "⁻", "⁼", "⁽", "⁾", "ⁿ", "ⁱ", "ᵗ",
  "ᵃ", "ᵇ", "ᶜ", "ᵈ", "ᵉ", "ᵏ", "ᵐ", "ᵒ", "ᵖ", "ʳ", "ˢ", "ˣ", "ʸ", "ᵀ",
};
static const char subscript_from[] = "0123456789+-=()aeijknoxmpts";
static const char * const subscripts[] = {
  "₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉", "₊", "₋", "₌", "₍", "₎", "ₐ", "ₑ", "ᵢ",
  "ⱼ", "ₖ", "ₙ", "ₒ", "ₓ", "ₘ", "ₚ", "ₜ", "ₛ",
};

static char *convert (const char **p,
                      gboolean     group);

/* The next argument: a {group}, a command, or one character */
static char *
argument (const char **p)
{
  while (**p == ' ')
    (*p)++;
  if (**p == '\0')
    return g_strdup ("");
  if (**p == '{')
    {
      (*p)++;
      return convert (p, TRUE);
    }
  if (**p == '\\')
    {
      const char *start = *p;
      g_autofree char *one = NULL;

      (*p)++;
      if (g_ascii_isalpha (**p))
        while (g_ascii_isalpha (**p))
          (*p)++;
      else if (**p != '\0')
        (*p)++;
      one = g_strndup (start, *p - start);
      {
        const char *q = one;

        return convert (&q, FALSE);
      }
    }
  {
    const char *start = *p;

    *p = g_utf8_next_char (*p);
    return g_strndup (start, *p - start);
  }
}

/* @text in small forms, or NULL when one has none */
static char *
small_forms (const char         *text,
             const char         *from,
             const char * const *forms)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (const char *c = text; *c != '\0'; c++)
    {
      const char *found = strchr (from, *c);

      if (*c == ' ' || found == NULL)
        return NULL;
      g_string_append (out, forms[found - from]);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Whether @text reads as one thing (no parentheses needed around it) */
static gboolean
is_simple (const char *text)
{
  return strpbrk (text, " +-*/=<>,") == NULL;
}

static void
append_script (GString    *out,
               const char *text,
               gboolean    super)
{
  g_autofree char *small = small_forms (text, super ? superscript_from : subscript_from,
                                        super ? superscripts : subscripts);

  if (small != NULL)
    g_string_append (out, small);
  else if (is_simple (text))
    g_string_append_printf (out, "%s%s", super ? "^" : "_", text);
  else
    g_string_append_printf (out, "%s(%s)", super ? "^" : "_", text);
}

static void
command (const char **p,
         GString     *out)
{
  const char *start = *p;
  g_autofree char *name = NULL;

  if (g_ascii_isalpha (**p))
    while (g_ascii_isalpha (**p))
      (*p)++;
  else if (**p != '\0')
    (*p)++;
  name = g_strndup (start, *p - start);

  if (g_str_equal (name, "frac") || g_str_equal (name, "dfrac") || g_str_equal (name, "tfrac"))
    {
      g_autofree char *top = argument (p);
      g_autofree char *bottom = argument (p);

      g_string_append_printf (out, is_simple (top) ? "%s" : "(%s)", top);
      g_string_append (out, "/");
      g_string_append_printf (out, is_simple (bottom) ? "%s" : "(%s)", bottom);
      return;
    }
  if (g_str_equal (name, "sqrt"))
    {
      g_autofree char *root = argument (p);

      g_string_append_printf (out, is_simple (root) ? "√%s" : "√(%s)", root);
      return;
    }
  if (g_strv_contains (text_commands, name))
    {
      g_autofree char *inside = argument (p);

      g_string_append (out, inside);
      for (guint i = 0; i < G_N_ELEMENTS (accents); i++)
        if (g_str_equal (accents[i].name, name) && g_utf8_strlen (inside, -1) == 1)
          g_string_append (out, accents[i].mark);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    if (g_str_equal (symbols[i].name, name))
      {
        g_string_append (out, symbols[i].text);
        return;
      }
  g_string_append (out, name);
}

static char *
convert (const char **p,
         gboolean     group)
{
  g_autoptr(GString) out = g_string_new (NULL);

  while (**p != '\0')
    {
      char c = **p;

      if (c == '}' && group)
        {
          (*p)++;
          break;
        }
      if (c == '\\')
        {
          (*p)++;
          command (p, out);
        }
      else if (c == '^' || c == '_')
        {
          g_autofree char *script = NULL;

          (*p)++;
          script = argument (p);
          append_script (out, script, c == '^');
        }
      else if (c == '{')
        {
          g_autofree char *inside = NULL;

          (*p)++;
          inside = convert (p, TRUE);
          g_string_append (out, inside);
        }
      else if (c == '}' || c == '&')
        (*p)++;
      else
        {
          const char *next = g_utf8_next_char (*p);

          g_string_append_len (out, *p, next - *p);
          *p = next;
        }
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * _agent_gtk_latex_to_text:
 * @latex: LaTeX math, as between $…$
 *
 * Returns: (transfer full): the math as plain Unicode text
 */
char *
_agent_gtk_latex_to_text (const char *latex)
{
  g_autofree char *valid = g_utf8_make_valid (latex ? latex : "", -1);
  const char *p = valid;
  g_autofree char *text = convert (&p, FALSE);

  return g_strdup (g_strstrip (text));
}
