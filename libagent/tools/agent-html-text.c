/* agent-html-text.c — HTML to readable Markdown, for fetch_url
 *
 * libxml2's HTML parser (the one browsers' error recovery resembles most
 * in this stack) builds the tree; this file walks it and writes what a
 * reader sees: headings, paragraphs, lists, links with absolute URLs,
 * code and preformatted blocks. Scripts, styles, navigation, footers,
 * asides and forms are dropped, and <main> or <article> is preferred to
 * the whole <body> when the page has one.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>

#include "tools/agent-html-text-private.h"

typedef struct
{
  GString    *out;
  const char *base_url;
  guint       pending_break;   /* newlines owed before the next text */
  gboolean    pending_space;
  guint       list_depth;
  guint       quote_depth;
  guint       in_pre;
} Writer;

static gboolean
is_element (xmlNode    *node,
            const char *name)
{
  return node->type == XML_ELEMENT_NODE &&
         g_ascii_strcasecmp ((const char *)node->name, name) == 0;
}

static gboolean
is_one_of (xmlNode            *node,
           const char * const *names)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (is_element (node, names[i]))
      return TRUE;
  return FALSE;
}

static const char * const dropped[] = {
  "script", "style", "noscript", "nav", "footer", "aside", "form", "head", "template",
  "iframe", "svg", "object", "button", "select", "textarea", NULL
};

static const char * const blocks[] = {
  "p", "div", "section", "article", "main", "header", "table", "tr", "dl", "dt", "dd",
  "figure", "figcaption", "address", "details", "summary", "hr", "body", NULL
};

static void
request_break (Writer *w,
               guint   n)
{
  w->pending_break = MAX (w->pending_break, n);
  w->pending_space = FALSE;
}

/* Ends the current line as owed and starts the next with the prefix of
 * the quotes it is in. */
static void
flush_break (Writer *w)
{
  guint have = 0;

  if (w->pending_break == 0)
    return;

  while (w->out->len > 0 && w->out->str[w->out->len - 1] == ' ')
    g_string_truncate (w->out, w->out->len - 1);

  if (w->out->len > 0)
    {
      for (gsize i = w->out->len; i > 0 && w->out->str[i - 1] == '\n'; i--)
        have++;
      for (; have < w->pending_break; have++)
        {
          g_string_append_c (w->out, '\n');
          for (guint q = 0; q < w->quote_depth && have + 1 < w->pending_break; q++)
            g_string_append (w->out, ">");
        }
      for (guint q = 0; q < w->quote_depth; q++)
        g_string_append (w->out, "> ");
    }
  w->pending_break = 0;
  w->pending_space = FALSE;
}

static gboolean
at_line_start (Writer *w)
{
  return w->out->len == 0 || w->out->str[w->out->len - 1] == '\n' ||
         g_str_has_suffix (w->out->str, "> ");
}

static void
write_raw (Writer     *w,
           const char *text)
{
  flush_break (w);
  if (w->pending_space && !at_line_start (w))
    g_string_append_c (w->out, ' ');
  w->pending_space = FALSE;
  g_string_append (w->out, text);
}

/* Text outside <pre>: each run of white space is one space. */
static void
write_text (Writer     *w,
            const char *text)
{
  const char *p = text;

  while (*p != '\0')
    {
      const char *start;

      if (g_ascii_isspace (*p))
        {
          while (g_ascii_isspace (*p))
            p++;
          w->pending_space = TRUE;
          continue;
        }

      start = p;
      while (*p != '\0' && !g_ascii_isspace (*p))
        p++;
      flush_break (w);
      if (w->pending_space && !at_line_start (w))
        g_string_append_c (w->out, ' ');
      w->pending_space = FALSE;
      g_string_append_len (w->out, start, p - start);
    }
}

static char *
node_text (xmlNode *node)
{
  xmlChar *content = xmlNodeGetContent (node);
  char *text = g_strdup (content != NULL ? (const char *)content : "");

  xmlFree (content);
  return text;
}

static char *
attribute (xmlNode    *node,
           const char *name)
{
  xmlChar *value = xmlGetProp (node, (const xmlChar *)name);
  char *copy = value != NULL ? g_strdup ((const char *)value) : NULL;

  xmlFree (value);
  return copy;
}

static void walk (Writer  *w,
                  xmlNode *node);

static void
walk_children (Writer  *w,
               xmlNode *node)
{
  for (xmlNode *child = node->children; child != NULL; child = child->next)
    walk (w, child);
}

static char *
absolute_link (Writer     *w,
               const char *href)
{
  g_autofree char *resolved = NULL;

  if (href == NULL || href[0] == '#')
    return NULL;
  if (w->base_url != NULL)
    resolved = g_uri_resolve_relative (w->base_url, href, G_URI_FLAGS_NONE, NULL);
  else
    resolved = g_strdup (href);
  if (resolved == NULL)
    return NULL;

  /* Only links a reader could follow: never javascript: or data: */
  if (!g_str_has_prefix (resolved, "http://") && !g_str_has_prefix (resolved, "https://") &&
      !g_str_has_prefix (resolved, "mailto:"))
    return NULL;

  return g_steal_pointer (&resolved);
}

static void
walk_link (Writer  *w,
           xmlNode *node)
{
  g_autofree char *href = attribute (node, "href");
  g_autofree char *url = absolute_link (w, href);
  gsize start;

  if (url == NULL)
    {
      walk_children (w, node);
      return;
    }

  write_raw (w, "[");
  start = w->out->len;
  walk_children (w, node);
  flush_break (w);
  if (w->out->len == start)
    g_string_append (w->out, url);
  g_string_append_printf (w->out, "](%s)", url);
}

static void
walk_list (Writer  *w,
           xmlNode *node,
           gboolean ordered)
{
  guint number = 1;

  request_break (w, w->list_depth == 0 ? 2 : 1);
  w->list_depth++;
  for (xmlNode *child = node->children; child != NULL; child = child->next)
    {
      if (!is_element (child, "li"))
        {
          walk (w, child);
          continue;
        }

      request_break (w, 1);
      flush_break (w);
      for (guint i = 1; i < w->list_depth; i++)
        g_string_append (w->out, "  ");
      if (ordered)
        g_string_append_printf (w->out, "%u. ", number++);
      else
        g_string_append (w->out, "- ");
      walk_children (w, child);
    }
  w->list_depth--;
  request_break (w, w->list_depth == 0 ? 2 : 1);
}

static void
walk (Writer  *w,
      xmlNode *node)
{
  if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE)
    {
      if (node->content != NULL)
        write_text (w, (const char *)node->content);
      return;
    }
  if (node->type != XML_ELEMENT_NODE)
    return;

  if (is_one_of (node, dropped))
    return;

  if (node->name[0] == 'h' && node->name[1] >= '1' && node->name[1] <= '6' &&
      node->name[2] == '\0')
    {
      request_break (w, 2);
      flush_break (w);
      for (int i = 0; i < node->name[1] - '0'; i++)
        g_string_append_c (w->out, '#');
      g_string_append_c (w->out, ' ');
      walk_children (w, node);
      request_break (w, 2);
    }
  else if (is_element (node, "pre"))
    {
      g_autofree char *text = node_text (node);
      gsize length = strlen (text);

      while (length > 0 && text[length - 1] == '\n')
        text[--length] = '\0';
      request_break (w, 2);
      flush_break (w);
      g_string_append (w->out, "```\n");
      g_string_append (w->out, text);
      g_string_append (w->out, "\n```");
      request_break (w, 2);
    }
  else if (is_element (node, "code") || is_element (node, "kbd") || is_element (node, "samp"))
    {
      g_autofree char *text = node_text (node);

      g_strstrip (text);
      if (text[0] != '\0')
        {
          write_raw (w, "`");
          g_string_append (w->out, text);
          g_string_append_c (w->out, '`');
        }
    }
  else if (is_element (node, "a"))
    walk_link (w, node);
  else if (is_element (node, "ul") || is_element (node, "menu"))
    walk_list (w, node, FALSE);
  else if (is_element (node, "ol"))
    walk_list (w, node, TRUE);
  else if (is_element (node, "br"))
    {
      request_break (w, 1);
    }
  else if (is_element (node, "blockquote"))
    {
      request_break (w, 2);
      w->quote_depth++;
      walk_children (w, node);
      w->quote_depth--;
      request_break (w, 2);
    }
  else if (is_element (node, "strong") || is_element (node, "b"))
    {
      write_raw (w, "**");
      walk_children (w, node);
      g_string_append (w->out, "**");
    }
  else if (is_element (node, "em") || is_element (node, "i"))
    {
      write_raw (w, "*");
      walk_children (w, node);
      g_string_append (w->out, "*");
    }
  else if (is_element (node, "td") || is_element (node, "th"))
    {
      if (node->prev != NULL)
        write_raw (w, "|");
      w->pending_space = TRUE;
      walk_children (w, node);
      w->pending_space = TRUE;
    }
  else if (is_element (node, "li"))
    {
      request_break (w, 1);
      walk_children (w, node);
      request_break (w, 1);
    }
  else if (is_one_of (node, blocks))
    {
      request_break (w, 2);
      walk_children (w, node);
      request_break (w, 2);
    }
  else
    walk_children (w, node);
}

static xmlNode *
find_element (xmlNode    *node,
              const char *name)
{
  for (; node != NULL; node = node->next)
    {
      xmlNode *found;

      if (node->type != XML_ELEMENT_NODE)
        continue;
      if (is_element (node, name))
        return node;
      if (is_one_of (node, dropped) && !is_element (node, "head"))
        continue;
      if ((found = find_element (node->children, name)) != NULL)
        return found;
    }
  return NULL;
}

/*
 * _agent_html_to_markdown:
 * @data: the bytes of an HTML document
 * @length: their number
 * @charset: (nullable): the charset the HTTP headers named, or %NULL to
 *   let the parser find it in the document (`<meta charset>`)
 * @base_url: (nullable): the URL the document came from, to make links
 *   absolute
 * @title: (out) (optional) (nullable): the text of its <title>
 *
 * Returns: (transfer full): the readable text of the document as Markdown
 */
char *
_agent_html_to_markdown (const char  *data,
                         gsize        length,
                         const char  *charset,
                         const char  *base_url,
                         char       **title)
{
  static gsize initialized;
  Writer w = { 0 };
  htmlDocPtr doc;
  xmlNode *root, *content = NULL;

  if (g_once_init_enter (&initialized))
    {
      xmlInitParser ();
      g_once_init_leave (&initialized, 1);
    }

  if (title != NULL)
    *title = NULL;

  doc = htmlReadMemory (data, (int) MIN (length, G_MAXINT), base_url, charset,
                        HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                        HTML_PARSE_NONET | HTML_PARSE_NOIMPLIED);
  if (doc == NULL)
    return g_strdup ("");

  root = xmlDocGetRootElement (doc);
  if (root != NULL && title != NULL)
    {
      xmlNode *node = find_element (root, "title");

      if (node != NULL)
        {
          *title = node_text (node);
          g_strstrip (*title);
        }
    }

  if (root != NULL)
    {
      content = find_element (root, "main");
      if (content == NULL)
        content = find_element (root, "article");
      if (content == NULL)
        content = find_element (root, "body");
    }

  w.out = g_string_new (NULL);
  w.base_url = base_url;
  if (content != NULL)
    walk (&w, content);
  else
    for (xmlNode *node = doc->children; node != NULL; node = node->next)
      walk (&w, node);

  while (w.out->len > 0 && g_ascii_isspace (w.out->str[w.out->len - 1]))
    g_string_truncate (w.out, w.out->len - 1);

  xmlFreeDoc (doc);

  return g_string_free (w.out, FALSE);
}
