/* agent-gtk-markdown-parser.c
 *
 * Markdown (md4c) to blocks: Pango markup written here, with every piece of
 * the model's text escaped (block quotes with their depth), code blocks,
 * rules and tables (cells of markup); math ($…$, $$…$$) as readable text
 * (agent-gtk-latex.c); task lists with ballot boxes; and the cutting of a text
 * into chunks at blank lines outside code fences, which lets the view parse
 * again only the chunks that changed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <md4c.h>
#include <string.h>

#include "markdown/agent-gtk-markdown-parser-private.h"

typedef struct
{
  gboolean ordered;
  gboolean tight;
  guint    next;
} List;

typedef struct
{
  GPtrArray *blocks;
  GString   *markup;
  GString   *plain;
  GString   *code;
  char      *language;
  GArray    *lists;         /* of List */
  guint      pending_breaks;
  guint      quote_depth;
  guint      cell;
  gboolean   in_code;
  GString   *math;          /* the LaTeX of the math span being read */
  gboolean   in_math;
  Block     *table;         /* the table being read */
  gboolean   in_head;
  gsize      cell_start;    /* where the cell's markup starts */
  gsize      cell_plain_start;
} Parser;

static void
block_free (gpointer data)
{
  Block *block = data;

  g_free (block->text);
  g_free (block->plain);
  g_free (block->language);
  g_clear_pointer (&block->cells, g_ptr_array_unref);
  g_clear_pointer (&block->plain_cells, g_ptr_array_unref);
  g_clear_pointer (&block->aligns, g_array_unref);
  g_free (block);
}

static void
add_block (Parser     *parser,
           BlockKind   kind,
           char       *text,
           char       *plain,
           const char *language)
{
  Block *block = g_new0 (Block, 1);

  block->kind = kind;
  block->text = text;
  block->plain = plain;
  block->language = g_strdup (language);
  block->quote = parser->quote_depth;
  g_ptr_array_add (parser->blocks, block);
}

static void
flush_text (Parser *parser)
{
  while (parser->markup->len > 0 && parser->markup->str[parser->markup->len - 1] == '\n')
    g_string_truncate (parser->markup, parser->markup->len - 1);
  if (parser->markup->len > 0)
    add_block (parser, BLOCK_TEXT,
               g_strdup (parser->markup->str), g_strdup (parser->plain->str), NULL);
  g_string_truncate (parser->markup, 0);
  g_string_truncate (parser->plain, 0);
  parser->pending_breaks = 0;
}

/* Appends markup (and its plain text), after the line breaks still owed. */
static void
emit (Parser     *parser,
      const char *markup,
      const char *plain)
{
  if (parser->markup->len > 0)
    for (guint i = 0; i < parser->pending_breaks; i++)
      {
        g_string_append_c (parser->markup, '\n');
        g_string_append_c (parser->plain, '\n');
      }
  parser->pending_breaks = 0;
  g_string_append (parser->markup, markup);
  if (plain != NULL)
    g_string_append (parser->plain, plain);
}

static void
emit_text (Parser     *parser,
           const char *text,
           gsize       len)
{
  g_autofree char *raw = g_strndup (text, len);
  g_autofree char *escaped = g_markup_escape_text (raw, -1);

  emit (parser, escaped, raw);
}

static void
owe_breaks (Parser *parser,
            guint   n)
{
  parser->pending_breaks = MAX (parser->pending_breaks, n);
}

static gboolean
in_tight_list (Parser *parser)
{
  return parser->lists->len > 0 && g_array_index (parser->lists, List, parser->lists->len - 1).tight;
}

static int
enter_block (MD_BLOCKTYPE type,
             void        *detail,
             void        *user_data)
{
  Parser *parser = user_data;

  switch (type)
    {
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      {
        List list = { 0, };

        list.ordered = type == MD_BLOCK_OL;
        list.tight = list.ordered ? ((MD_BLOCK_OL_DETAIL *)detail)->is_tight
                                  : ((MD_BLOCK_UL_DETAIL *)detail)->is_tight;
        list.next = list.ordered ? ((MD_BLOCK_OL_DETAIL *)detail)->start : 0;
        g_array_append_val (parser->lists, list);
        owe_breaks (parser, 1);
        break;
      }

    case MD_BLOCK_LI:
      {
        List *list = &g_array_index (parser->lists, List, parser->lists->len - 1);
        MD_BLOCK_LI_DETAIL *li = detail;
        g_autoptr(GString) prefix = g_string_new (NULL);

        owe_breaks (parser, 1);
        for (guint i = 1; i < parser->lists->len; i++)
          g_string_append (prefix, "    ");
        /* A task shows its box in place of the bullet */
        if (li->is_task)
          g_string_append (prefix, li->task_mark == ' ' ? "☐  " : "☑  ");
        else if (list->ordered)
          g_string_append_printf (prefix, "%u. ", list->next++);
        else
          g_string_append (prefix, "•  ");
        emit (parser, prefix->str, prefix->str);
        break;
      }

    case MD_BLOCK_H:
      {
        static const char * const sizes[] = { "x-large", "large", "medium" };
        guint level = MIN (MAX (((MD_BLOCK_H_DETAIL *)detail)->level, 1), 3);
        g_autofree char *open = g_strdup_printf ("<span size=\"%s\" weight=\"bold\">",
                                                 sizes[level - 1]);

        emit (parser, open, "");
        break;
      }

    case MD_BLOCK_CODE:
      {
        MD_BLOCK_CODE_DETAIL *code = detail;

        flush_text (parser);
        parser->in_code = TRUE;
        g_string_truncate (parser->code, 0);
        g_clear_pointer (&parser->language, g_free);
        if (code->lang.size > 0)
          parser->language = g_strndup (code->lang.text, code->lang.size);
        break;
      }

    case MD_BLOCK_HR:
      flush_text (parser);
      add_block (parser, BLOCK_RULE, NULL, NULL, NULL);
      break;

    case MD_BLOCK_QUOTE:
      flush_text (parser);
      parser->quote_depth++;
      break;

    case MD_BLOCK_TABLE:
      flush_text (parser);
      parser->table = g_new0 (Block, 1);
      parser->table->kind = BLOCK_TABLE;
      parser->table->cells = g_ptr_array_new_with_free_func (g_free);
      parser->table->plain_cells = g_ptr_array_new_with_free_func (g_free);
      parser->table->aligns = g_array_new (FALSE, TRUE, sizeof (int));
      parser->table->n_columns = ((MD_BLOCK_TABLE_DETAIL *) detail)->col_count;
      g_array_set_size (parser->table->aligns, parser->table->n_columns);
      break;

    case MD_BLOCK_THEAD:
      parser->in_head = TRUE;
      break;

    case MD_BLOCK_TR:
      parser->cell = 0;
      if (parser->table != NULL && parser->in_head)
        parser->table->n_header_rows++;
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      if (parser->table != NULL && parser->cell < parser->table->n_columns)
        {
          MD_ALIGN align = ((MD_BLOCK_TD_DETAIL *) detail)->align;

          g_array_index (parser->table->aligns, int, parser->cell) =
            align == MD_ALIGN_CENTER ? 1 : align == MD_ALIGN_RIGHT ? 2 : 0;
        }
      parser->cell++;
      parser->pending_breaks = 0;
      parser->cell_start = parser->markup->len;
      parser->cell_plain_start = parser->plain->len;
      break;

    case MD_BLOCK_DOC:
    case MD_BLOCK_HTML:
    case MD_BLOCK_P:
    case MD_BLOCK_TBODY:
    default:
      break;
    }

  return 0;
}

static int
leave_block (MD_BLOCKTYPE type,
             void        *detail,
             void        *user_data)
{
  Parser *parser = user_data;

  switch (type)
    {
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      g_array_set_size (parser->lists, parser->lists->len - 1);
      owe_breaks (parser, parser->lists->len > 0 ? 1 : 2);
      break;

    case MD_BLOCK_LI:
      owe_breaks (parser, 1);
      break;

    case MD_BLOCK_H:
      emit (parser, "</span>", "");
      owe_breaks (parser, 2);
      break;

    case MD_BLOCK_CODE:
      parser->in_code = FALSE;
      if (parser->code->len > 0 && parser->code->str[parser->code->len - 1] == '\n')
        g_string_truncate (parser->code, parser->code->len - 1);
      add_block (parser, BLOCK_CODE, g_strdup (parser->code->str), NULL, parser->language);
      break;

    case MD_BLOCK_QUOTE:
      flush_text (parser);
      parser->quote_depth--;
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      if (parser->table != NULL)
        {
          g_ptr_array_add (parser->table->cells,
                           g_strdup (parser->markup->str + parser->cell_start));
          g_ptr_array_add (parser->table->plain_cells,
                           g_strdup (parser->plain->str + parser->cell_plain_start));
          g_string_truncate (parser->markup, parser->cell_start);
          g_string_truncate (parser->plain, parser->cell_plain_start);
        }
      parser->pending_breaks = 0;
      break;

    case MD_BLOCK_TR:
      /* A short row gets empty cells */
      while (parser->table != NULL && parser->cell++ < parser->table->n_columns)
        {
          g_ptr_array_add (parser->table->cells, g_strdup (""));
          g_ptr_array_add (parser->table->plain_cells, g_strdup (""));
        }
      break;

    case MD_BLOCK_THEAD:
      parser->in_head = FALSE;
      break;

    case MD_BLOCK_TABLE:
      if (parser->table != NULL)
        {
          parser->table->quote = parser->quote_depth;
          g_ptr_array_add (parser->blocks, parser->table);
          parser->table = NULL;
        }
      break;

    case MD_BLOCK_P:
    case MD_BLOCK_HTML:
      owe_breaks (parser, in_tight_list (parser) ? 1 : 2);
      break;

    case MD_BLOCK_DOC:
    case MD_BLOCK_HR:
    case MD_BLOCK_TBODY:
    default:
      break;
    }

  return 0;
}

/* The Pango tag of a simple span, or NULL */
static const char *
span_tag (MD_SPANTYPE type)
{
  switch (type)
    {
    case MD_SPAN_EM:
      return "i";
    case MD_SPAN_STRONG:
      return "b";
    case MD_SPAN_CODE:
      return "tt";
    case MD_SPAN_DEL:
      return "s";
    case MD_SPAN_U:
      return "u";
    case MD_SPAN_A:
    case MD_SPAN_IMG:
    case MD_SPAN_WIKILINK:
    default:
      return NULL;
    }
}

static int
enter_span (MD_SPANTYPE type,
            void       *detail,
            void       *user_data)
{
  Parser *parser = user_data;
  const char *tag = span_tag (type);

  if (tag != NULL)
    {
      g_autofree char *open = g_strdup_printf ("<%s>", tag);

      emit (parser, open, "");
    }
  else if (type == MD_SPAN_A)
    {
      MD_SPAN_A_DETAIL *a = detail;
      g_autofree char *href = g_strndup (a->href.text, a->href.size);
      g_autofree char *escaped = g_markup_escape_text (href, -1);
      g_autofree char *open = g_strdup_printf ("<a href=\"%s\">", escaped);

      emit (parser, open, "");
    }
  else if (type == MD_SPAN_IMG)
    emit (parser, "[", "[");
  else if (type == MD_SPAN_LATEXMATH || type == MD_SPAN_LATEXMATH_DISPLAY)
    {
      parser->in_math = TRUE;
      g_string_truncate (parser->math, 0);
    }

  return 0;
}

/* Math, as text: on a line of its own when displayed */
static void
emit_math (Parser   *parser,
           gboolean  display)
{
  g_autofree char *text = _agent_gtk_latex_to_text (parser->math->str);
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  g_autofree char *markup = g_strdup_printf (display ? "<span size=\"large\">%s</span>"
                                                     : "<span font_family=\"serif\">%s</span>",
                                             escaped);

  parser->in_math = FALSE;
  if (display)
    owe_breaks (parser, 1);
  emit (parser, markup, text);
  if (display)
    owe_breaks (parser, 1);
}

static int
leave_span (MD_SPANTYPE type,
            void       *detail,
            void       *user_data)
{
  Parser *parser = user_data;
  const char *tag = type == MD_SPAN_A ? "a" : span_tag (type);

  if (type == MD_SPAN_LATEXMATH || type == MD_SPAN_LATEXMATH_DISPLAY)
    emit_math (parser, type == MD_SPAN_LATEXMATH_DISPLAY);
  else if (tag != NULL)
    {
      g_autofree char *close = g_strdup_printf ("</%s>", tag);

      emit (parser, close, "");
    }
  else if (type == MD_SPAN_IMG)
    emit (parser, "]", "]");

  return 0;
}

/* The few entities a model writes; anything else stays as it was written. */
static void
emit_entity (Parser     *parser,
             const char *text,
             gsize       len)
{
  static const struct { const char *name; const char *value; } named[] = {
    { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
    { "&apos;", "'" }, { "&nbsp;", "\xc2\xa0" }, { "&copy;", "©" }, { "&mdash;", "—" },
    { "&ndash;", "–" }, { "&hellip;", "…" },
  };
  gunichar c = 0;

  if (len > 3 && text[1] == '#')
    {
      gboolean hex = text[2] == 'x' || text[2] == 'X';
      g_autofree char *digits = g_strndup (text + (hex ? 3 : 2), len - (hex ? 4 : 3));

      c = (gunichar) g_ascii_strtoull (digits, NULL, hex ? 16 : 10);
    }
  if (c != 0 && g_unichar_validate (c))
    {
      char utf8[7] = { 0, };

      g_unichar_to_utf8 (c, utf8);
      emit_text (parser, utf8, strlen (utf8));
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (named); i++)
    if (strlen (named[i].name) == len && strncmp (named[i].name, text, len) == 0)
      {
        emit_text (parser, named[i].value, strlen (named[i].value));
        return;
      }
  emit_text (parser, text, len);
}

static int
on_text (MD_TEXTTYPE    type,
         const MD_CHAR *text,
         MD_SIZE        size,
         void          *user_data)
{
  Parser *parser = user_data;

  if (parser->in_math)
    {
      g_string_append_len (parser->math, text, size);
      return 0;
    }
  if (parser->in_code)
    {
      if (type == MD_TEXT_NULLCHAR)
        g_string_append (parser->code, "\xef\xbf\xbd");
      else
        g_string_append_len (parser->code, text, size);
      return 0;
    }

  switch (type)
    {
    case MD_TEXT_NULLCHAR:
      emit_text (parser, "\xef\xbf\xbd", 3);
      break;
    case MD_TEXT_BR:
      emit (parser, "\n", "\n");
      break;
    case MD_TEXT_SOFTBR:
      emit (parser, " ", " ");
      break;
    case MD_TEXT_ENTITY:
      emit_entity (parser, text, size);
      break;
    case MD_TEXT_NORMAL:
    case MD_TEXT_CODE:
    case MD_TEXT_HTML:
    case MD_TEXT_LATEXMATH:
    default:
      emit_text (parser, text, size);
      break;
    }

  return 0;
}

/* Parses one chunk of Markdown into blocks. */
GPtrArray *
_agent_gtk_markdown_parse_blocks (const char *text,
              gsize       len)
{
  static const MD_PARSER md_parser = {
    .abi_version = 0,
    .flags = MD_DIALECT_GITHUB | MD_FLAG_NOHTML | MD_FLAG_LATEXMATHSPANS,
    .enter_block = enter_block,
    .leave_block = leave_block,
    .enter_span = enter_span,
    .leave_span = leave_span,
    .text = on_text,
  };
  Parser parser = { 0, };

  parser.blocks = g_ptr_array_new_with_free_func (block_free);
  parser.markup = g_string_new (NULL);
  parser.plain = g_string_new (NULL);
  parser.code = g_string_new (NULL);
  parser.lists = g_array_new (FALSE, TRUE, sizeof (List));
  parser.math = g_string_new (NULL);

  md_parse (text, (MD_SIZE) len, &md_parser, &parser);
  if (parser.in_code)
    leave_block (MD_BLOCK_CODE, NULL, &parser);
  flush_text (&parser);

  g_string_free (parser.markup, TRUE);
  g_string_free (parser.plain, TRUE);
  g_string_free (parser.code, TRUE);
  g_array_unref (parser.lists);
  g_string_free (parser.math, TRUE);
  g_clear_pointer (&parser.table, block_free);
  g_free (parser.language);

  return parser.blocks;
}

/* Chunks: cut at blank lines that are outside code fences and are followed
 * by a line that does not continue the block above (not indented). */

static guint
line_indent (const char *line,
             const char *end)
{
  guint indent = 0;

  for (; line < end && (*line == ' ' || *line == '\t'); line++)
    indent += *line == '\t' ? 4 : 1;
  return indent;
}

static guint
fence_length (const char *line,
              const char *end,
              char        fence_char)
{
  guint n = 0;

  while (line + n < end && line[n] == fence_char)
    n++;
  return n;
}

/* @ends_in_fence (nullable): set to whether @text ends inside a code
 * fence, its closing fence not there (yet) */
GArray *
_agent_gtk_markdown_split_chunks (const char *text,
                                  gboolean   *ends_in_fence)
{
  GArray *cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
  const char *line = text;
  gssize candidate = -1;
  gboolean in_fence = FALSE;
  char fence_char = 0;
  guint fence_len = 0;

  while (*line != '\0')
    {
      const char *end = strchr (line, '\n');
      const char *next;
      const char *content;
      guint indent;

      if (end == NULL)
        end = line + strlen (line);
      next = *end == '\n' ? end + 1 : end;
      indent = line_indent (line, end);
      content = line;
      while (content < end && (*content == ' ' || *content == '\t'))
        content++;

      if (in_fence)
        {
          guint n = fence_length (content, end, fence_char);

          if (indent < 4 && n >= fence_len && line_indent (content + n, end) == (guint) (end - content - n))
            in_fence = FALSE;
        }
      else if (content == end)
        {
          if (line != text)
            candidate = next - text;
        }
      else
        {
          if (candidate >= 0 && indent == 0)
            g_array_append_val (cuts, candidate);
          candidate = -1;
          if (indent < 4 && (*content == '`' || *content == '~'))
            {
              guint n = fence_length (content, end, *content);

              if (n >= 3)
                {
                  in_fence = TRUE;
                  fence_char = *content;
                  fence_len = n;
                }
            }
        }

      line = next;
    }

  if (ends_in_fence != NULL)
    *ends_in_fence = in_fence;
  return cuts;
}


/**
 * _agent_gtk_markdown_markup_is_valid:
 * @markup: markup the parser wrote
 *
 * Whether @markup is well formed (Pango itself does not know GtkLabel's
 * <a>): a label that refuses it shows the plain text instead.
 */
gboolean
_agent_gtk_markdown_markup_is_valid (const char *markup)
{
  static const GMarkupParser parser = { NULL, };
  g_autoptr(GMarkupParseContext) context = g_markup_parse_context_new (&parser, 0, NULL, NULL);

  return g_markup_parse_context_parse (context, "<markup>", -1, NULL) &&
         g_markup_parse_context_parse (context, markup, -1, NULL) &&
         g_markup_parse_context_parse (context, "</markup>", -1, NULL) &&
         g_markup_parse_context_end_parse (context, NULL);
}
