/* agent-provider-settings.c — the request's settings, as each API names them
 *
 *   setting            OpenAI chat        Responses    Anthropic                  Gemini ¹
 *   temperature        temperature 0–2    temperature  temperature 0–1            temperature 0–2
 *   top-p              top_p              top_p        top_p                      topP
 *   top-k              —                  —            top_k                      topK
 *   seed               seed               —            —                          seed (32 bits)
 *   stop               stop               —            stop_sequences             stopSequences ≤ 5
 *   presence-penalty   presence_penalty   —            —                          presencePenalty
 *   frequency-penalty  frequency_penalty  —            —                          frequencyPenalty
 *   tool-choice        tool_choice        tool_choice  tool_choice                toolConfig
 *   parallel off       parallel_tool_calls (both)      disable_parallel_tool_use  —
 *
 * ¹ in generationConfig. Ollama takes the sampling settings in options,
 * by OpenAI chat's names (and top_k); of the tool choices only none (its
 * tools are not sent), and no parallel switch.
 *
 * (— : refused before sending.) docs/settings.md has the whole table, with
 * the shapes of tool choice.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "json/agent-json-private.h"
#include "providers/agent-provider-settings-private.h"
#include "tools/agent-tool.h"

/* What an API takes, and within which bounds */
typedef struct
{
  const char        *name;             /* for errors: "OpenAI", … */
  AgentSettingFlags  takes;
  double             max_temperature;  /* 0: no bound */
  double             penalty_bound;    /* penalties in [-bound, bound]; 0: no bound */
  guint              max_stop;         /* 0: no bound */
  gboolean           seed_32bit;
} Api;

#define SAMPLING_ALL (AGENT_SETTING_TEMPERATURE | AGENT_SETTING_TOP_P | AGENT_SETTING_TOP_K | \
                      AGENT_SETTING_SEED | AGENT_SETTING_STOP | AGENT_SETTING_PRESENCE_PENALTY | \
                      AGENT_SETTING_FREQUENCY_PENALTY)
#define ALWAYS       (AGENT_SETTING_TOOL_CHOICE | AGENT_SETTING_PARALLEL_TOOL_CALLS | \
                      AGENT_SETTING_PROVIDER_OPTIONS | AGENT_SETTING_HEADERS)

static const Api openai_chat = {
  "OpenAI", (SAMPLING_ALL & ~AGENT_SETTING_TOP_K) | ALWAYS, 2, 2, 0, FALSE,
};
static const Api openai_responses = {
  "OpenAI Responses", AGENT_SETTING_TEMPERATURE | AGENT_SETTING_TOP_P | ALWAYS, 2, 0, 0, FALSE,
};
static const Api anthropic = {
  "Anthropic", AGENT_SETTING_TEMPERATURE | AGENT_SETTING_TOP_P | AGENT_SETTING_TOP_K |
  AGENT_SETTING_STOP | ALWAYS, 1, 0, 0, FALSE,
};
static const Api gemini = {
  "Gemini", SAMPLING_ALL | ALWAYS, 2, 2, 5, TRUE,
};
static const Api ollama = {
  "Ollama", SAMPLING_ALL | ALWAYS, 0, 0, 0, FALSE,
};

static const struct {
  AgentSettingFlags  flag;
  const char        *name;
} setting_names[] = {
  { AGENT_SETTING_TEMPERATURE, "temperature" },
  { AGENT_SETTING_TOP_P, "top-p" },
  { AGENT_SETTING_TOP_K, "top-k" },
  { AGENT_SETTING_SEED, "seed" },
  { AGENT_SETTING_STOP, "stop" },
  { AGENT_SETTING_PRESENCE_PENALTY, "presence-penalty" },
  { AGENT_SETTING_FREQUENCY_PENALTY, "frequency-penalty" },
};

static gboolean
out_of_range (const Api   *api,
              const char  *setting,
              double       min,
              double       max,
              double       value,
              GError     **error)
{
  if (value >= min && value <= max)
    return FALSE;

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("The %s provider takes %s from %g to %g, not %g"),
               api->name, setting, min, max, value);
  return TRUE;
}

/* Every setting of @request is one @api takes, within its bounds; and
 * only Ollama has a keep-alive */
static gboolean
check_settings (const Api           *api,
                const AgentRequest  *request,
                GError             **error)
{
  AgentRequestSettings *settings = request->settings;
  guint n_stop;

  if (api != &ollama && agent_provider_get_keep_alive (request->provider) != NULL)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The %s provider cannot send %s: its API has no such setting (a server "
                     "that takes one anyway can be given it in provider-options)"),
                   api->name, "keep-alive");
      return FALSE;
    }
  if (settings == NULL)
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (setting_names); i++)
    if (_agent_request_settings_has (settings, setting_names[i].flag) &&
        (api->takes & setting_names[i].flag) == 0)
      {
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                     _("The %s provider cannot send %s: its API has no such setting (a server "
                       "that takes one anyway can be given it in provider-options)"),
                     api->name, setting_names[i].name);
        return FALSE;
      }

  if (api->max_temperature > 0 && _agent_request_settings_has (settings, AGENT_SETTING_TEMPERATURE) &&
      out_of_range (api, "temperature", 0, api->max_temperature, settings->temperature, error))
    return FALSE;

  if (api->penalty_bound > 0 &&
      ((_agent_request_settings_has (settings, AGENT_SETTING_PRESENCE_PENALTY) &&
        out_of_range (api, "presence-penalty", -api->penalty_bound, api->penalty_bound,
                      settings->presence_penalty, error)) ||
       (_agent_request_settings_has (settings, AGENT_SETTING_FREQUENCY_PENALTY) &&
        out_of_range (api, "frequency-penalty", -api->penalty_bound, api->penalty_bound,
                      settings->frequency_penalty, error))))
    return FALSE;

  n_stop = settings->stop != NULL ? g_strv_length (settings->stop) : 0;
  if (api->max_stop > 0 && n_stop > api->max_stop)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The %s provider takes at most %u stop sequences, not %u"),
                   api->name, api->max_stop, n_stop);
      return FALSE;
    }

  if (api->seed_32bit && _agent_request_settings_has (settings, AGENT_SETTING_SEED) &&
      (settings->seed < G_MININT32 || settings->seed > G_MAXINT32))
    {
      g_autofree char *seed = g_strdup_printf ("%" G_GINT64_FORMAT, settings->seed);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The %s provider takes a seed from %d to %d, not %s"),
                   api->name, G_MININT32, G_MAXINT32, seed);
      return FALSE;
    }

  return TRUE;
}

static guint
n_tools (const AgentRequest *request)
{
  return request->tools != NULL ? g_list_model_get_n_items (request->tools) : 0;
}

static const char *
choice_name (AgentToolChoice choice)
{
  static const char * const names[] = { "default", "auto", "none", "required", "tool" };

  return choice < G_N_ELEMENTS (names) ? names[choice] : "?";
}

/* The tool choice asks for something the request can give: a tool it
 * offers, tools at all when one is required */
static gboolean
check_tool_choice (const AgentRequest  *request,
                   GError             **error)
{
  AgentRequestSettings *settings = request->settings;
  guint n = n_tools (request);

  if (!_agent_request_settings_has (settings, AGENT_SETTING_TOOL_CHOICE))
    return TRUE;

  if ((settings->tool_choice == AGENT_TOOL_CHOICE_REQUIRED ||
       settings->tool_choice == AGENT_TOOL_CHOICE_TOOL) && n == 0)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("tool-choice “%s” needs tools, and the request offers none"),
                   settings->tool_choice == AGENT_TOOL_CHOICE_TOOL && settings->tool_choice_name
                     ? settings->tool_choice_name : choice_name (settings->tool_choice));
      return FALSE;
    }

  if (settings->tool_choice == AGENT_TOOL_CHOICE_TOOL)
    {
      if (settings->tool_choice_name == NULL || *settings->tool_choice_name == '\0')
        {
          g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                               _("tool-choice asks for a tool, and names none"));
          return FALSE;
        }
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(AgentTool) tool = g_list_model_get_item (request->tools, i);

          if (g_strcmp0 (agent_tool_get_name (tool), settings->tool_choice_name) == 0)
            return TRUE;
        }
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("tool-choice names the tool “%s”, which the request does not offer"),
                   settings->tool_choice_name);
      return FALSE;
    }

  return TRUE;
}

/* Sampling, the members the OpenAI APIs and Anthropic share the names of */

static void
add_seed (cJSON      *object,
          const char *name,
          gint64      seed)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, seed);

  /* Written as it is: a double would round 64-bit seeds */
  cJSON_AddItemToObject (object, name, cJSON_CreateRaw (text));
}

static cJSON *
stop_array (AgentRequestSettings *settings)
{
  return cJSON_CreateStringArray ((const char * const *) settings->stop,
                                  g_strv_length (settings->stop));
}

typedef struct
{
  const char *temperature;
  const char *top_p;
  const char *top_k;
  const char *seed;
  const char *stop;
  const char *presence_penalty;
  const char *frequency_penalty;
} Names;

static void
add_sampling (cJSON                *object,
              AgentRequestSettings *settings,
              const Names          *names)
{
  if (_agent_request_settings_has (settings, AGENT_SETTING_TEMPERATURE))
    cJSON_AddNumberToObject (object, names->temperature, settings->temperature);
  if (_agent_request_settings_has (settings, AGENT_SETTING_TOP_P))
    cJSON_AddNumberToObject (object, names->top_p, settings->top_p);
  if (_agent_request_settings_has (settings, AGENT_SETTING_TOP_K))
    cJSON_AddNumberToObject (object, names->top_k, settings->top_k);
  if (_agent_request_settings_has (settings, AGENT_SETTING_SEED))
    add_seed (object, names->seed, settings->seed);
  if (_agent_request_settings_has (settings, AGENT_SETTING_STOP))
    cJSON_AddItemToObject (object, names->stop, stop_array (settings));
  if (_agent_request_settings_has (settings, AGENT_SETTING_PRESENCE_PENALTY))
    cJSON_AddNumberToObject (object, names->presence_penalty, settings->presence_penalty);
  if (_agent_request_settings_has (settings, AGENT_SETTING_FREQUENCY_PENALTY))
    cJSON_AddNumberToObject (object, names->frequency_penalty, settings->frequency_penalty);
}

static const Names snake_names = {
  "temperature", "top_p", "top_k", "seed", "stop", "presence_penalty", "frequency_penalty",
};

/* OpenAI: "auto", "none", "required", or the named function in @named's
 * shape (chat: {type, function: {name}}; Responses: {type, name}). The
 * API refuses a choice, and parallel_tool_calls, without tools. */
static gboolean
add_openai_tools (cJSON               *root,
                  const AgentRequest  *request,
                  gboolean             nested,
                  GError             **error)
{
  AgentRequestSettings *settings = request->settings;

  if (!check_tool_choice (request, error))
    return FALSE;
  if (n_tools (request) == 0)
    return TRUE;

  if (_agent_request_settings_has (settings, AGENT_SETTING_TOOL_CHOICE))
    {
      if (settings->tool_choice == AGENT_TOOL_CHOICE_TOOL)
        {
          cJSON *choice = cJSON_AddObjectToObject (root, "tool_choice");

          cJSON_AddStringToObject (choice, "type", "function");
          if (nested)
            cJSON_AddStringToObject (cJSON_AddObjectToObject (choice, "function"), "name",
                                     settings->tool_choice_name);
          else
            cJSON_AddStringToObject (choice, "name", settings->tool_choice_name);
        }
      else
        cJSON_AddStringToObject (root, "tool_choice", choice_name (settings->tool_choice));
    }
  if (_agent_request_settings_has (settings, AGENT_SETTING_PARALLEL_TOOL_CALLS))
    cJSON_AddBoolToObject (root, "parallel_tool_calls", settings->parallel_tool_calls);
  return TRUE;
}

gboolean
_agent_settings_add_openai_chat (cJSON               *root,
                                 const AgentRequest  *request,
                                 GError             **error)
{
  if (!check_settings (&openai_chat, request, error))
    return FALSE;

  add_sampling (root, request->settings, &snake_names);
  return add_openai_tools (root, request, TRUE, error);
}

gboolean
_agent_settings_add_openai_responses (cJSON               *root,
                                      const AgentRequest  *request,
                                      GError             **error)
{
  if (!check_settings (&openai_responses, request, error))
    return FALSE;

  add_sampling (root, request->settings, &snake_names);
  return add_openai_tools (root, request, FALSE, error);
}

/* Anthropic: {type: auto | any | tool (with name) | none}, with
 * disable_parallel_tool_use in any but none. Extended thinking takes no
 * temperature, no top_k, a top_p of 0.95 or more, and no forced tool. With
 * an output schema the structured output's tool_choice stands (it forces
 * a tool already): only "required" agrees with it. */
gboolean
_agent_settings_add_anthropic (cJSON               *root,
                               const AgentRequest  *request,
                               gboolean             thinking,
                               GError             **error)
{
  static const Names names = {
    "temperature", "top_p", "top_k", NULL, "stop_sequences", NULL, NULL,
  };
  AgentRequestSettings *settings = request->settings;
  cJSON *choice = cJSON_GetObjectItemCaseSensitive (root, "tool_choice");
  gboolean has_choice = _agent_request_settings_has (settings, AGENT_SETTING_TOOL_CHOICE);
  AgentToolChoice tool_choice = has_choice ? settings->tool_choice : AGENT_TOOL_CHOICE_DEFAULT;

  if (!check_settings (&anthropic, request, error))
    return FALSE;

  if (thinking)
    {
      const char *refused = NULL;

      if (_agent_request_settings_has (settings, AGENT_SETTING_TEMPERATURE))
        refused = "temperature";
      else if (_agent_request_settings_has (settings, AGENT_SETTING_TOP_K))
        refused = "top-k";
      else if (tool_choice == AGENT_TOOL_CHOICE_REQUIRED || tool_choice == AGENT_TOOL_CHOICE_TOOL)
        refused = "tool-choice";
      if (refused != NULL)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("The Anthropic provider cannot send %s with extended thinking "
                         "(reasoning-effort): the API refuses it"),
                       refused);
          return FALSE;
        }
      if (_agent_request_settings_has (settings, AGENT_SETTING_TOP_P) &&
          out_of_range (&anthropic, _("top-p with extended thinking"), 0.95, 1,
                        settings->top_p, error))
        return FALSE;
    }

  add_sampling (root, settings, &names);

  if (choice != NULL && tool_choice != AGENT_TOOL_CHOICE_DEFAULT &&
      tool_choice != AGENT_TOOL_CHOICE_AUTO && tool_choice != AGENT_TOOL_CHOICE_REQUIRED)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("The Anthropic provider answers with an output schema by calling a tool: "
                     "tool-choice “%s” cannot be sent with it"),
                   choice_name (tool_choice));
      return FALSE;
    }
  if (!check_tool_choice (request, error))
    return FALSE;
  if (n_tools (request) == 0 && choice == NULL)
    return TRUE;

  if (choice == NULL && has_choice)
    {
      static const char * const types[] = { NULL, "auto", "none", "any", "tool" };

      choice = cJSON_AddObjectToObject (root, "tool_choice");
      cJSON_AddStringToObject (choice, "type", types[tool_choice]);
      if (tool_choice == AGENT_TOOL_CHOICE_TOOL)
        cJSON_AddStringToObject (choice, "name", settings->tool_choice_name);
    }

  if (_agent_request_settings_has (settings, AGENT_SETTING_PARALLEL_TOOL_CALLS) &&
      !settings->parallel_tool_calls && tool_choice != AGENT_TOOL_CHOICE_NONE)
    {
      if (choice == NULL)
        {
          choice = cJSON_AddObjectToObject (root, "tool_choice");
          cJSON_AddStringToObject (choice, "type", "auto");
        }
      cJSON_AddTrueToObject (choice, "disable_parallel_tool_use");
    }
  return TRUE;
}

/* An API without a switch for parallel calls makes them: asking for them
 * asks nothing, asking for none cannot be sent */
static gboolean
check_parallel_calls (const Api             *api,
                      AgentRequestSettings  *settings,
                      GError               **error)
{
  if (!_agent_request_settings_has (settings, AGENT_SETTING_PARALLEL_TOOL_CALLS) ||
      settings->parallel_tool_calls)
    return TRUE;

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("The %s provider cannot turn parallel-tool-calls off: its API has no such "
                 "setting"),
               api->name);
  return FALSE;
}

/* Gemini: generationConfig, and toolConfig.functionCallingConfig: mode
 * AUTO, NONE or ANY, with allowedFunctionNames for a named tool */
gboolean
_agent_settings_add_gemini (cJSON               *root,
                            cJSON               *config,
                            const AgentRequest  *request,
                            GError             **error)
{
  static const Names names = {
    "temperature", "topP", "topK", "seed", "stopSequences", "presencePenalty", "frequencyPenalty",
  };
  static const char * const modes[] = { NULL, "AUTO", "NONE", "ANY", "ANY" };
  AgentRequestSettings *settings = request->settings;
  cJSON *calling;

  if (!check_settings (&gemini, request, error) ||
      !check_parallel_calls (&gemini, settings, error) ||
      !check_tool_choice (request, error))
    return FALSE;

  add_sampling (config, settings, &names);

  if (!_agent_request_settings_has (settings, AGENT_SETTING_TOOL_CHOICE) || n_tools (request) == 0)
    return TRUE;

  calling = cJSON_AddObjectToObject (cJSON_AddObjectToObject (root, "toolConfig"),
                                     "functionCallingConfig");
  cJSON_AddStringToObject (calling, "mode", modes[settings->tool_choice]);
  if (settings->tool_choice == AGENT_TOOL_CHOICE_TOOL)
    cJSON_AddItemToArray (cJSON_AddArrayToObject (calling, "allowedFunctionNames"),
                          cJSON_CreateString (settings->tool_choice_name));
  return TRUE;
}

cJSON *
_agent_json_object_member (cJSON      *object,
                           const char *name)
{
  cJSON *member = cJSON_GetObjectItemCaseSensitive (object, name);

  if (cJSON_IsObject (member))
    return member;
  cJSON_DeleteItemFromObjectCaseSensitive (object, name);
  return cJSON_AddObjectToObject (object, name);
}

/* Ollama: the sampling in options; its window (num_ctx) and keep_alive.
 * The API has no tool choice: "none" sends no tools, "auto" is what it
 * does; a required or named tool cannot be asked for. */
gboolean
_agent_settings_add_ollama (cJSON               *root,
                            const AgentRequest  *request,
                            GError             **error)
{
  AgentRequestSettings *settings = request->settings;
  const char *keep_alive = agent_provider_get_keep_alive (request->provider);
  guint64 window = request->context_window;
  cJSON *options;

  if (!check_settings (&ollama, request, error) ||
      !check_parallel_calls (&ollama, settings, error) ||
      !check_tool_choice (request, error))
    return FALSE;

  if (_agent_request_settings_has (settings, AGENT_SETTING_TOOL_CHOICE))
    {
      if (settings->tool_choice == AGENT_TOOL_CHOICE_REQUIRED ||
          settings->tool_choice == AGENT_TOOL_CHOICE_TOOL)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("The Ollama provider cannot make the model call a tool (tool-choice "
                         "“%s”): its API has no tool choice"),
                       choice_name (settings->tool_choice));
          return FALSE;
        }
      if (settings->tool_choice == AGENT_TOOL_CHOICE_NONE)
        cJSON_DeleteItemFromObjectCaseSensitive (root, "tools");
    }

  options = _agent_json_object_member (root, "options");
  add_sampling (options, settings, &snake_names);

  /* The window the session counts with, fixed for the conversation (a
   * change loads the model again); the provider's bound when the session
   * does not know it, which Ollama lowers to the model's own */
  if (window == 0)
    window = agent_provider_get_max_context_window (request->provider);
  if (window > 0)
    cJSON_AddNumberToObject (options, "num_ctx", (double) MIN (window, (guint64) G_MAXINT32));
  if (cJSON_GetArraySize (options) == 0)
    cJSON_DeleteItemFromObjectCaseSensitive (root, "options");

  if (keep_alive != NULL)
    {
      if (_agent_keep_alive_is_seconds (keep_alive))
        cJSON_AddItemToObject (root, "keep_alive", cJSON_CreateRaw (keep_alive));
      else
        cJSON_AddStringToObject (root, "keep_alive", keep_alive);
    }
  return TRUE;
}

/* Provider options */

/* @over merged into @target (an object), as _agent_json_merge() does with
 * JSON nodes */
static void
merge_into (cJSON *target,
            cJSON *over)
{
  cJSON *member;

  cJSON_ArrayForEach (member, over)
    {
      cJSON *existing = cJSON_GetObjectItemCaseSensitive (target, member->string);

      if (cJSON_IsObject (member) && cJSON_IsObject (existing))
        merge_into (existing, member);
      else
        {
          cJSON *copy = cJSON_Duplicate (member, TRUE);

          if (existing != NULL)
            cJSON_ReplaceItemInObjectCaseSensitive (target, member->string, copy);
          else
            cJSON_AddItemToObject (target, member->string, copy);
        }
    }
}

gboolean
_agent_settings_merge_options (cJSON               *root,
                               const AgentRequest  *request,
                               const char          *provider,
                               const char          *conversation,
                               GError             **error)
{
  const char * const reserved[] = { conversation, "tools", "stream", NULL };
  JsonNode *options;
  g_autoptr(cJSON) over = NULL;

  if (!_agent_request_settings_has (request->settings, AGENT_SETTING_PROVIDER_OPTIONS))
    return TRUE;

  options = request->settings->provider_options;
  for (guint i = 0; reserved[i] != NULL; i++)
    if (json_object_has_member (json_node_get_object (options), reserved[i]))
      {
        g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                     _("The provider options of the %s provider cannot set “%s”: libagent "
                       "writes the conversation, its tools and the streaming"),
                     provider, reserved[i]);
        return FALSE;
      }

  over = agent_node_to_cjson (options);
  merge_into (root, over);
  return TRUE;
}
