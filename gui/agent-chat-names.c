/* agent-chat-names.c
 *
 * What people read of the providers and built-in tools, where the library
 * has names for programs ("openai-responses", "read_file") and, for tools,
 * descriptions written for the model. Names the app does not know show as
 * they are.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

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
