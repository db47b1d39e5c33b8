/* agent-chat-names.c
 *
 * What people read of the providers and built-in tools, where the library
 * has names for programs ("openai-responses", "read_file") and, for tools,
 * descriptions written for the model. Names the app does not know show as
 * they are. And a server's host and port, as its URL's short name.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "agent-chat-names.h"

typedef struct
{
  const char *name;
  const char *title;
  const char *summary;
} Name;

static const Name providers[] = {
  /* Translators: the kind of model server; llama.cpp, vLLM and most others speak it */
  { "openai", N_("OpenAI or Compatible"), NULL },
  { "openai-responses", N_("OpenAI Responses"), NULL },
  { "anthropic", N_("Anthropic"), NULL },
  { "ollama", N_("Ollama"), NULL },
  { "gemini", N_("Google Gemini"), NULL },
};

static const Name tools[] = {
  { "calculator", N_("Calculator"), N_("Works out arithmetic exactly") },
  { "read_file", N_("Read Files"), N_("Reads a file you name; asks you each time") },
  { "fetch_url", N_("Fetch Web Pages"), N_("Reads a web page as text; asks you each time") },
};

static const Name *
lookup (const Name *names,
        gsize       n_names,
        const char *name)
{
  for (gsize i = 0; i < n_names; i++)
    if (g_strcmp0 (names[i].name, name) == 0)
      return &names[i];
  return NULL;
}

/**
 * agent_chat_provider_title:
 * @name: a provider's name, as agent_provider_new() takes it
 *
 * Returns: (transfer none): what to call it, translated
 */
const char *
agent_chat_provider_title (const char *name)
{
  const Name *found = lookup (providers, G_N_ELEMENTS (providers), name);

  return found != NULL ? _(found->title) : name;
}

/**
 * agent_chat_tool_title:
 * @name: a built-in tool's name
 *
 * Returns: (transfer none): what to call it, translated
 */
const char *
agent_chat_tool_title (const char *name)
{
  const Name *found = lookup (tools, G_N_ELEMENTS (tools), name);

  return found != NULL ? _(found->title) : name;
}

/**
 * agent_chat_tool_summary:
 * @name: a built-in tool's name
 *
 * Returns: (transfer none) (nullable): what it does, for people, translated
 */
const char *
agent_chat_tool_summary (const char *name)
{
  const Name *found = lookup (tools, G_N_ELEMENTS (tools), name);

  return found != NULL ? _(found->summary) : NULL;
}

/**
 * agent_chat_dup_host_port:
 * @url: (nullable): a server's URL
 *
 * Returns: (transfer full) (nullable): the host of @url, with its port when
 *   @url names one ("127.0.0.1:11434", "[::1]:8080"), or %NULL when @url has
 *   no host
 */
char *
agent_chat_dup_host_port (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *host = uri != NULL ? g_uri_get_host (uri) : NULL;
  g_autofree char *bracketed = NULL;

  if (host == NULL || *host == '\0')
    return NULL;
  if (strchr (host, ':') != NULL)  /* IPv6 */
    host = bracketed = g_strdup_printf ("[%s]", host);
  if (g_uri_get_port (uri) != -1)
    return g_strdup_printf ("%s:%d", host, g_uri_get_port (uri));
  return g_strdup (host);
}
