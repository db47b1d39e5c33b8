/* agent-provider-settings.c — what every request of a provider asks
 *
 * Four properties of AgentProvider, kept apart from those of
 * agent-provider.c: the settings of its requests (an
 * AgentRequestSettings), Anthropic's prompt caching, and the two of
 * Ollama's model runner: how long it keeps the model loaded, and the
 * largest window it is asked to make.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "core/agent-provider-private.h"

struct _AgentProviderDefaults
{
  AgentRequestSettings *settings;
  char                 *keep_alive;
  guint64               max_context_window;
  gboolean              prompt_cache;
};

enum {
  PROP_SETTINGS,
  PROP_PROMPT_CACHE,
  PROP_KEEP_ALIVE,
  PROP_MAX_CONTEXT_WINDOW,
  N_DEFAULTS_PROPS
};

G_STATIC_ASSERT (N_DEFAULTS_PROPS == AGENT_PROVIDER_N_DEFAULTS_PROPS);

static GParamSpec *properties[N_DEFAULTS_PROPS];
static guint first_prop_id;

AgentProviderDefaults *
_agent_provider_defaults_new (void)
{
  AgentProviderDefaults *defaults = g_new0 (AgentProviderDefaults, 1);

  defaults->settings = agent_request_settings_new ();
  defaults->prompt_cache = TRUE;
  defaults->max_context_window = AGENT_PROVIDER_DEFAULT_MAX_CONTEXT_WINDOW;
  return defaults;
}

void
_agent_provider_defaults_free (AgentProviderDefaults *defaults)
{
  g_clear_object (&defaults->settings);
  g_free (defaults->keep_alive);
  g_free (defaults);
}

void
_agent_provider_class_add_defaults (GObjectClass *object_class,
                                    guint         first_id)
{
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  first_prop_id = first_id;

  /**
   * AgentProvider:settings:
   *
   * What every request of the provider asks (temperature, tool choice,
   * options and headers, …) unless a session or a step asks otherwise:
   * see [class@Agent.RequestSettings]. Its headers also go with the model
   * listings.
   *
   * Since: 0.1
   */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, AGENT_TYPE_REQUEST_SETTINGS,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * AgentProvider:prompt-cache:
   *
   * Whether requests mark what the server may cache, where the API wants
   * it marked: Anthropic's `cache_control`, on the tools, the system prompt
   * and the end of the conversation (the last message, and the one that
   * ended the request before). OpenAI and Gemini cache by themselves;
   * every provider reports what came from the cache in
   * [struct@Agent.Usage].
   *
   * Since: 0.1
   */
  properties[PROP_PROMPT_CACHE] =
    g_param_spec_boolean ("prompt-cache", NULL, NULL, TRUE, flags);

  /**
   * AgentProvider:keep-alive:
   *
   * How long Ollama keeps the model loaded after a request: a duration
   * (`30s`, `10m`, `1h30m`), a number of seconds, 0 to unload it at once, or
   * a negative number to keep it loaded; %NULL for the server's default (5
   * minutes). Sent as `keep_alive`; the other APIs have no such setting,
   * and refuse it (%AGENT_ERROR_INVALID_ARGUMENT).
   *
   * Since: 0.1
   */
  properties[PROP_KEEP_ALIVE] =
    g_param_spec_string ("keep-alive", NULL, NULL, NULL, flags);

  /**
   * AgentProvider:max-context-window:
   *
   * The largest context window, in tokens, that a server which makes it
   * per request is asked for, or 0 for no limit: Ollama loads a model with
   * the window a request asks (`options.num_ctx`), and its memory grows
   * with it (the KV cache of an 8-billion-parameter model takes about
   * 128 KiB a token: 2 GiB for 16 k tokens, 16 GiB for 128 k).
   *
   * With Ollama, [method@Agent.Provider.fetch_context_window_async] answers
   * the model's trained window capped by this; a request sends the
   * session's [property@Agent.Session:context-window] as `num_ctx`, or this
   * when the session does not know its window. The default, 16384, is
   * four times Ollama's own default, and fits a laptop.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_CONTEXT_WINDOW] =
    g_param_spec_uint64 ("max-context-window", NULL, NULL, 0, G_MAXUINT64,
                         AGENT_PROVIDER_DEFAULT_MAX_CONTEXT_WINDOW, flags);

  for (guint i = 0; i < N_DEFAULTS_PROPS; i++)
    g_object_class_install_property (object_class, first_prop_id + i, properties[i]);
}

gboolean
_agent_provider_get_defaults_property (AgentProvider *self,
                                       guint          prop_id,
                                       GValue        *value)
{
  AgentProviderDefaults *defaults = _agent_provider_get_defaults (self);

  switch (prop_id - first_prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, defaults->settings);
      return TRUE;

    case PROP_PROMPT_CACHE:
      g_value_set_boolean (value, defaults->prompt_cache);
      return TRUE;

    case PROP_KEEP_ALIVE:
      g_value_set_string (value, defaults->keep_alive);
      return TRUE;

    case PROP_MAX_CONTEXT_WINDOW:
      g_value_set_uint64 (value, defaults->max_context_window);
      return TRUE;

    default:
      return FALSE;
    }
}

gboolean
_agent_provider_set_defaults_property (AgentProvider *self,
                                       guint          prop_id,
                                       const GValue  *value)
{
  g_autoptr(GError) error = NULL;

  switch (prop_id - first_prop_id)
    {
    case PROP_PROMPT_CACHE:
      agent_provider_set_prompt_cache (self, g_value_get_boolean (value));
      return TRUE;

    case PROP_KEEP_ALIVE:
      if (!agent_provider_set_keep_alive (self, g_value_get_string (value), &error))
        g_critical ("%s", error->message);
      return TRUE;

    case PROP_MAX_CONTEXT_WINDOW:
      agent_provider_set_max_context_window (self, g_value_get_uint64 (value));
      return TRUE;

    default:
      return FALSE;
    }
}

/**
 * agent_provider_get_settings:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:settings], to change: what every request
 * of the provider asks.
 *
 * Returns: (transfer none): the provider's request settings
 *
 * Since: 0.1
 */
AgentRequestSettings *
agent_provider_get_settings (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return _agent_provider_get_defaults (self)->settings;
}

/**
 * agent_provider_get_prompt_cache:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:prompt-cache].
 *
 * Returns: whether requests mark what the server may cache
 *
 * Since: 0.1
 */
gboolean
agent_provider_get_prompt_cache (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), TRUE);
  return _agent_provider_get_defaults (self)->prompt_cache;
}

/**
 * agent_provider_set_prompt_cache:
 * @self: a [class@Agent.Provider]
 * @prompt_cache: whether requests mark what the server may cache
 *
 * Sets [property@Agent.Provider:prompt-cache].
 *
 * Since: 0.1
 */
void
agent_provider_set_prompt_cache (AgentProvider *self,
                                 gboolean       prompt_cache)
{
  AgentProviderDefaults *defaults;

  g_return_if_fail (AGENT_IS_PROVIDER (self));

  defaults = _agent_provider_get_defaults (self);
  prompt_cache = !!prompt_cache;
  if (defaults->prompt_cache != prompt_cache)
    {
      defaults->prompt_cache = prompt_cache;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROMPT_CACHE]);
    }
}

/* A Go duration, as Ollama reads keep_alive: [-+]? (number unit)+, number
 * a decimal with an optional fraction, unit ns, us, µs, ms, s, m or h; or
 * "0" */
static gboolean
is_go_duration (const char *text)
{
  static const char * const units[] = { "ns", "us", "µs", "ms", "s", "m", "h" };
  const char *p = text;

  if (*p == '-' || *p == '+')
    p++;
  if (strcmp (p, "0") == 0)
    return TRUE;
  if (*p == '\0')
    return FALSE;

  while (*p != '\0')
    {
      gboolean digits = FALSE;
      gsize longest = 0;

      while (g_ascii_isdigit (*p))
        p++, digits = TRUE;
      if (*p == '.')
        for (p++; g_ascii_isdigit (*p); p++)
          digits = TRUE;
      if (!digits)
        return FALSE;

      /* The longest unit that fits: "ms" before "m" */
      for (guint i = 0; i < G_N_ELEMENTS (units); i++)
        if (g_str_has_prefix (p, units[i]) && strlen (units[i]) > longest)
          longest = strlen (units[i]);
      if (longest == 0)
        return FALSE;
      p += longest;
    }
  return TRUE;
}

/**
 * _agent_keep_alive_is_seconds:
 *
 * Whether @text (a valid keep-alive) is a number of seconds, sent as a
 * JSON number: Ollama reads a string as a Go duration, which wants a unit.
 */
gboolean
_agent_keep_alive_is_seconds (const char *text)
{
  const char *p = text;
  gboolean digits = FALSE;

  if (*p == '-' || *p == '+')
    p++;
  while (g_ascii_isdigit (*p))
    p++, digits = TRUE;
  if (*p == '.')
    for (p++; g_ascii_isdigit (*p); p++)
      digits = TRUE;
  return digits && *p == '\0';
}

/**
 * agent_provider_get_keep_alive:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:keep-alive].
 *
 * Returns: (nullable): how long Ollama keeps the model loaded, as it was
 *   set, or %NULL for the server's default
 *
 * Since: 0.1
 */
const char *
agent_provider_get_keep_alive (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return _agent_provider_get_defaults (self)->keep_alive;
}

/**
 * agent_provider_set_keep_alive:
 * @self: a [class@Agent.Provider]
 * @duration: (nullable): a duration (`30s`, `10m`, `1h30m`, `-1h`), a
 *   number of seconds (`0`, `3600`, `-1`), or %NULL (or an empty string)
 *   for the server's default
 * @error: return location for a [struct@GLib.Error]
 *
 * Sets [property@Agent.Provider:keep-alive].
 *
 * Returns: %TRUE, or %FALSE with %AGENT_ERROR_INVALID_ARGUMENT if
 *   @duration is neither a duration nor a number (it is then not changed)
 *
 * Since: 0.1
 */
gboolean
agent_provider_set_keep_alive (AgentProvider  *self,
                               const char     *duration,
                               GError        **error)
{
  AgentProviderDefaults *defaults;

  g_return_val_if_fail (AGENT_IS_PROVIDER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (duration != NULL && *duration == '\0')
    duration = NULL;
  if (duration != NULL && !is_go_duration (duration) && !_agent_keep_alive_is_seconds (duration))
    {
      g_autofree char *shown = g_strescape (duration, NULL);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("keep-alive must be a duration such as 30s, 10m or 1h30m, or a number "
                     "of seconds (-1: keep the model loaded), not “%s”"),
                   shown);
      return FALSE;
    }

  defaults = _agent_provider_get_defaults (self);
  if (g_strcmp0 (defaults->keep_alive, duration) != 0)
    {
      g_free (defaults->keep_alive);
      defaults->keep_alive = g_strdup (duration);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KEEP_ALIVE]);
    }
  return TRUE;
}

/**
 * agent_provider_get_max_context_window:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:max-context-window].
 *
 * Returns: the largest window asked of a server that sizes it per
 *   request, in tokens, or 0 for no limit
 *
 * Since: 0.1
 */
guint64
agent_provider_get_max_context_window (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return _agent_provider_get_defaults (self)->max_context_window;
}

/**
 * agent_provider_set_max_context_window:
 * @self: a [class@Agent.Provider]
 * @tokens: the largest window, or 0 for no limit
 *
 * Sets [property@Agent.Provider:max-context-window].
 *
 * Since: 0.1
 */
void
agent_provider_set_max_context_window (AgentProvider *self,
                                       guint64        tokens)
{
  AgentProviderDefaults *defaults;

  g_return_if_fail (AGENT_IS_PROVIDER (self));

  defaults = _agent_provider_get_defaults (self);
  if (defaults->max_context_window != tokens)
    {
      defaults->max_context_window = tokens;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_CONTEXT_WINDOW]);
    }
}
