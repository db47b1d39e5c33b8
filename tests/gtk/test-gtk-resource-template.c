/* test-gtk-resource-template.c
 *
 * The resource picker's URI templates (agent-gtk-resource-picker.c): the
 * variables a template asks for, each once and in order, and its
 * expansion as RFC 6570 says (its section 3.2 examples for the operators
 * MCP servers use), undefined or empty variables left out, and values
 * escaped but where the operator keeps reserved characters.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-gtk-resource-picker-private.h"

static void
test_variables (void)
{
  static const struct {
    const char *uri_template;
    const char *variables;  /* joined by "," */
  } cases[] = {
    { "demo://resource/dynamic/text/{resourceId}", "resourceId" },
    { "file:///{+path}{?q,lang}{&q}", "path,q,lang" },
    { "repo://{owner}/{repo}/{/parts*}{.ext:3}", "owner,repo,parts,ext" },
    { "fixed://no/variables", "" },
    { "broken://{unclosed", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(GStrv) variables = _agent_gtk_resource_template_variables (cases[i].uri_template);
      g_autofree char *joined = g_strjoinv (",", variables);

      g_assert_cmpstr (joined, ==, cases[i].variables);
    }
}

static void
test_expand (void)
{
  static const struct {
    const char *uri_template;
    const char *expected;
  } cases[] = {
    { "demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/text/3" },
    { "{var}", "value" },
    { "{hello}", "Hello%20World%21" },
    { "{+hello}", "Hello%20World!" },
    { "{+path}/here", "/foo/bar/here" },
    { "{path}/here", "%2Ffoo%2Fbar/here" },
    { "X{#var}", "X#value" },
    { "X{.x,y}", "X.1024.768" },
    { "{/var,x}/here", "/value/1024/here" },
    { "{;x,y}", ";x=1024;y=768" },
    { "{?x,y}", "?x=1024&y=768" },
    { "?fixed=yes{&x}", "?fixed=yes&x=1024" },
    { "{?x,undef,empty,y}", "?x=1024&y=768" },
    { "{undef}", "" },
    { "no/variables", "no/variables" },
    { "broken/{x", "broken/{x" },
  };
  g_autoptr(GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);

  g_hash_table_insert (values, (gpointer) "resourceId", (gpointer) "3");
  g_hash_table_insert (values, (gpointer) "var", (gpointer) "value");
  g_hash_table_insert (values, (gpointer) "hello", (gpointer) "Hello World!");
  g_hash_table_insert (values, (gpointer) "path", (gpointer) "/foo/bar");
  g_hash_table_insert (values, (gpointer) "x", (gpointer) "1024");
  g_hash_table_insert (values, (gpointer) "y", (gpointer) "768");
  g_hash_table_insert (values, (gpointer) "empty", (gpointer) "");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *uri = _agent_gtk_resource_template_expand (cases[i].uri_template, values);

      g_test_message ("%s", cases[i].uri_template);
      g_assert_cmpstr (uri, ==, cases[i].expected);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/resource-template/variables", test_variables);
  g_test_add_func ("/resource-template/expand", test_expand);

  return g_test_run ();
}
