/* agent-cli-settings.c — what the requests ask
 *
 * --temperature, --top-p, --top-k, --seed, --stop (repeatable),
 * --presence-penalty, --frequency-penalty, --tool-choice and
 * --no-parallel-tool-calls set the session's AgentRequestSettings;
 * --provider-option KEY=JSON (repeatable, KEY dotted: options.mirostat=2)
 * merges into the request body; --header NAME=VALUE (repeatable) goes
 * with every request and the model listing (the provider's settings);
 * --no-prompt-cache and --keep-alive are the provider's. A value that is
 * not one of the option's is refused before anything is sent, naming the
 * option; a setting the provider's API does not take fails the first
 * turn, naming the provider and the setting.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "agent-cli-settings.h"

static char *opt_temperature;
static char *opt_top_p;
static char *opt_top_k;
static char *opt_seed;
static char **opt_stop;
static char *opt_presence_penalty;
static char *opt_frequency_penalty;
static char *opt_tool_choice;
static gboolean opt_no_parallel_tool_calls;
static char **opt_provider_options;
static char **opt_headers;
static gboolean opt_no_prompt_cache;
static char *opt_keep_alive;

const GOptionEntry cli_settings_entries[] = {
  { "temperature", 0, 0, G_OPTION_ARG_STRING, &opt_temperature,
    N_("Sample at temperature X (0: the likeliest tokens; default: the server's)"), N_("X") },
  { "top-p", 0, 0, G_OPTION_ARG_STRING, &opt_top_p,
    N_("Sample from the likeliest tokens whose probabilities add up to X, from 0 to 1"),
    N_("X") },
  { "top-k", 0, 0, G_OPTION_ARG_STRING, &opt_top_k,
    N_("Sample from the N likeliest tokens"), N_("N") },
  { "seed", 0, 0, G_OPTION_ARG_STRING, &opt_seed,
    N_("Sample with seed N, for answers that repeat"), N_("N") },
  { "stop", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_stop,
    N_("End the answer where the model writes TEXT (repeatable)"), N_("TEXT") },
  { "presence-penalty", 0, 0, G_OPTION_ARG_STRING, &opt_presence_penalty,
    N_("Make tokens that appeared less likely by X (-2 to 2)"), N_("X") },
  { "frequency-penalty", 0, 0, G_OPTION_ARG_STRING, &opt_frequency_penalty,
    N_("Make tokens less likely by X each time they appeared (-2 to 2)"), N_("X") },
  { "tool-choice", 0, 0, G_OPTION_ARG_STRING, &opt_tool_choice,
    N_("auto: the model decides; none: it calls no tool; required: it calls one; or the name "
       "of the tool it must call"), N_("auto|none|required|NAME") },
  { "no-parallel-tool-calls", 0, 0, G_OPTION_ARG_NONE, &opt_no_parallel_tool_calls,
    N_("Let the model call one tool at a time"), NULL },
  { "provider-option", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_provider_options,
    N_("Merge KEY (dotted for nested members: options.mirostat) with the JSON value into each "
       "request (repeatable)"), N_("KEY=JSON") },
  { "header", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_headers,
    N_("Send the HTTP header NAME with each request (repeatable)"), N_("NAME=VALUE") },
  { "no-prompt-cache", 0, 0, G_OPTION_ARG_NONE, &opt_no_prompt_cache,
    N_("Do not mark the prompt for the provider's cache (Anthropic)"), NULL },
  { "keep-alive", 0, 0, G_OPTION_ARG_STRING, &opt_keep_alive,
    N_("Ollama keeps the model loaded for DURATION after each request (30s, 10m, 1h; -1: "
       "always)"), N_("DURATION") },
  { NULL }
};

/* A finite number from @min to @max */
static gboolean
parse_number (const char  *option,
              const char  *text,
              double       min,
              double       max,
              double      *value,
              GError     **error)
{
  char *end = NULL;

  *value = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (*value) || *value < min || *value > max)
    {
      if (max == G_MAXDOUBLE)
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                     _("%s must be a number, %g or more, not “%s”"), option, min, text);
      else
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                     _("%s must be a number from %g to %g, not “%s”"), option, min, max, text);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_tool_choice (AgentRequestSettings  *settings,
                   GError               **error)
{
  static const struct { const char *name; AgentToolChoice choice; } choices[] = {
    { "auto", AGENT_TOOL_CHOICE_AUTO },
    { "none", AGENT_TOOL_CHOICE_NONE },
    { "required", AGENT_TOOL_CHOICE_REQUIRED },
  };

  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    if (g_str_equal (opt_tool_choice, choices[i].name))
      {
        agent_request_settings_set_tool_choice (settings, choices[i].choice, NULL);
        return TRUE;
      }

  if (*opt_tool_choice == '\0')
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("--tool-choice must be auto, none, required or the name of a tool"));
      return FALSE;
    }
  agent_request_settings_set_tool_choice (settings, AGENT_TOOL_CHOICE_TOOL, opt_tool_choice);
  return TRUE;
}

/* KEY=JSON: KEY dotted, every member named; the value JSON */
static gboolean
add_provider_option (AgentRequestSettings  *settings,
                     const char            *text,
                     GError               **error)
{
  const char *equals = strchr (text, '=');
  g_autofree char *key = equals ? g_strndup (text, equals - text) : NULL;
  g_autoptr(GError) json_error = NULL;
  g_autoptr(JsonNode) value = NULL;

  if (key == NULL || *key == '\0' || key[0] == '.' || g_str_has_suffix (key, ".") ||
      strstr (key, "..") != NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("--provider-option must be KEY=JSON, the KEY's members separated by dots "
                     "(options.mirostat=2), not “%s”"),
                   text);
      return FALSE;
    }

  if ((value = json_from_string (equals + 1, &json_error)) == NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("--provider-option %s: “%s” is not JSON (%s; a string needs quotes: "
                     "%s='\"text\"')"),
                   key, equals + 1, json_error ? json_error->message : _("empty"), key);
      return FALSE;
    }

  agent_request_settings_set_provider_option (settings, key, value);
  return TRUE;
}

/* NAME=VALUE: NAME an HTTP header's */
static gboolean
add_header (AgentRequestSettings  *settings,
            const char            *text,
            GError               **error)
{
  const char *equals = strchr (text, '=');
  g_autofree char *name = equals ? g_strstrip (g_strndup (text, equals - text)) : NULL;

  if (name == NULL || *name == '\0' || strpbrk (name, " \t:\r\n") != NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("--header must be NAME=VALUE, NAME the header's (X-Title=Agent), not “%s”"),
                   text);
      return FALSE;
    }

  agent_request_settings_set_header (settings, name, equals + 1);
  return TRUE;
}

/**
 * cli_settings_apply:
 * @session: the session, its provider set up
 * @error: where a value refused goes
 *
 * Applies the options: to the session's settings, and the headers, prompt
 * caching and keep-alive to its provider.
 *
 * Returns: %FALSE with @error naming the option whose value is refused
 */
gboolean
cli_settings_apply (AgentSession  *session,
                    GError       **error)
{
  AgentProvider *provider = agent_session_get_provider (session);
  AgentRequestSettings *settings = agent_session_get_settings (session);
  double number;

  if (opt_temperature != NULL)
    {
      if (!parse_number ("--temperature", opt_temperature, 0, G_MAXDOUBLE, &number, error))
        return FALSE;
      agent_request_settings_set_temperature (settings, number);
    }
  if (opt_top_p != NULL)
    {
      if (!parse_number ("--top-p", opt_top_p, 0, 1, &number, error))
        return FALSE;
      agent_request_settings_set_top_p (settings, number);
    }
  if (opt_top_k != NULL)
    {
      guint64 top_k;

      if (!g_ascii_string_to_unsigned (opt_top_k, 10, 1, G_MAXINT, &top_k, NULL))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("--top-k must be a whole number from 1 to %d, not “%s”"),
                       G_MAXINT, opt_top_k);
          return FALSE;
        }
      agent_request_settings_set_top_k (settings, top_k);
    }
  if (opt_seed != NULL)
    {
      gint64 seed;

      if (!g_ascii_string_to_signed (opt_seed, 10, G_MININT64, G_MAXINT64, &seed, NULL))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("--seed must be a whole number, not “%s”"), opt_seed);
          return FALSE;
        }
      agent_request_settings_set_seed (settings, seed);
    }
  for (guint i = 0; opt_stop != NULL && opt_stop[i] != NULL; i++)
    if (*opt_stop[i] == '\0' || !g_utf8_validate (opt_stop[i], -1, NULL))
      {
        g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                             _("--stop must be a text of at least one character"));
        return FALSE;
      }
  if (opt_stop != NULL)
    agent_request_settings_set_stop (settings, (const char * const *) opt_stop);
  if (opt_presence_penalty != NULL)
    {
      if (!parse_number ("--presence-penalty", opt_presence_penalty, -2, 2, &number, error))
        return FALSE;
      agent_request_settings_set_presence_penalty (settings, number);
    }
  if (opt_frequency_penalty != NULL)
    {
      if (!parse_number ("--frequency-penalty", opt_frequency_penalty, -2, 2, &number, error))
        return FALSE;
      agent_request_settings_set_frequency_penalty (settings, number);
    }
  if (opt_tool_choice != NULL && !parse_tool_choice (settings, error))
    return FALSE;
  if (opt_no_parallel_tool_calls)
    agent_request_settings_set_parallel_tool_calls (settings, FALSE);
  for (guint i = 0; opt_provider_options != NULL && opt_provider_options[i] != NULL; i++)
    if (!add_provider_option (settings, opt_provider_options[i], error))
      return FALSE;

  for (guint i = 0; opt_headers != NULL && opt_headers[i] != NULL; i++)
    if (!add_header (agent_provider_get_settings (provider), opt_headers[i], error))
      return FALSE;
  if (opt_no_prompt_cache)
    agent_provider_set_prompt_cache (provider, FALSE);
  if (opt_keep_alive != NULL && !agent_provider_set_keep_alive (provider, opt_keep_alive, error))
    {
      g_prefix_error (error, "--keep-alive: ");
      return FALSE;
    }

  return TRUE;
}
