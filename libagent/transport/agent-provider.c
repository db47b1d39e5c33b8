/* agent-provider.c — AgentProvider: its surface
 *
 * All of the class's surface is here: its properties (one properties[]
 * array, notified by pspec), their getters and setters, as libsoup keeps
 * SoupSession's in soup-session.c. The behaviour lives around
 * agent-provider-private.h: the HTTP side (agent-provider-http.c), the
 * request slots (agent-provider-slots.c), the model list
 * (agent-provider-models.c) and the keep-alive syntax
 * (agent-provider-settings.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "transport/agent-provider-private.h"
#include "agent-util-private.h"

/**
 * AgentProvider:
 *
 * A model server: which API it speaks, where it is, which model to use
 * and the key to use it with.
 *
 * ```c
 * g_autoptr(AgentProvider) provider = agent_provider_new ("openai", &error);
 *
 * agent_provider_set_base_url (provider, "http://127.0.0.1:8080/v1");
 * agent_provider_set_model (provider, "qwen2.5-7b-instruct");
 * ```
 *
 * The `openai` provider speaks the OpenAI chat-completions API, which OpenAI
 * and most other servers offer: llama.cpp's server, vLLM, Ollama's `/v1`,
 * LM Studio, OpenRouter, Groq, Mistral, DeepSeek, …
 *
 * The API key is write-only: it is sent to the server and nowhere else, and
 * it is removed from any error message the server echoes it in.
 *
 * A provider may be shared by several sessions; its HTTP connections are
 * reused between requests. It opens up to 1024 connections at once, one
 * per streaming answer; [property@Provider:max-concurrent-requests] sets a
 * lower limit, queuing the requests beyond it in order.
 *
 * Every request and listing holds the provider until it ends. Disposing
 * the provider while they run (`g_object_run_dispose()`, what a binding's
 * explicit dispose does) ends them all — model listings, turns streaming
 * an answer, turns waiting for a request slot — each with
 * %G_IO_ERROR_CANCELLED, as a cancelled turn ends. The provider keeps its
 * settings: a request made later starts afresh.
 *
 * Since: 0.1
 */

struct _AgentProvider
{
  GObject                     parent_instance;
  const AgentProviderBackend *backend;
  char                       *base_url;
  char                       *model;
  AgentProviderHttp          *http;    /* agent-provider-http.c */
  AgentProviderSlots         *slots;   /* agent-provider-slots.c */
  AgentRequestSettings       *settings;
  char                       *keep_alive;
  guint64                     max_context_window;
  gboolean                    prompt_cache;

  guint                       max_tokens;
  AgentReasoningEffort        reasoning_effort;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_DISPLAY_NAME,
  PROP_BASE_URL,
  PROP_MODEL,
  PROP_API_KEY,
  PROP_HAS_API_KEY,
  PROP_MAX_CONCURRENT_REQUESTS,
  PROP_MAX_TOKENS,
  PROP_REASONING_EFFORT,
  PROP_CONNECT_TIMEOUT,
  PROP_FIRST_BYTE_TIMEOUT,
  PROP_IDLE_TIMEOUT,
  PROP_MAX_RETRIES,
  PROP_MAX_RESPONSE_SIZE,
  PROP_TLS_CA_FILE,
  PROP_SETTINGS,
  PROP_PROMPT_CACHE,
  PROP_KEEP_ALIVE,
  PROP_MAX_CONTEXT_WINDOW,
  N_PROPS
};

#define DEFAULT_MAX_CONTEXT_WINDOW 16384

G_DEFINE_FINAL_TYPE (AgentProvider, agent_provider, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static const AgentProviderBackend *backends[] = {
  &agent_openai_chat_backend,
  &agent_openai_responses_backend,
  &agent_anthropic_backend,
  &agent_ollama_backend,
  &agent_gemini_backend,
  &agent_desktop_backend,
};

/* Other names under which users know a backend. */
static const struct {
  const char *alias;
  const char *name;
} aliases[] = {
  { "openai-chat", "openai" },
  { "openai-compatible", "openai" },
  { "responses", "openai-responses" },
  { "claude", "anthropic" },
  { "google", "gemini" },
};

static const AgentProviderBackend *
lookup_backend (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_str_equal (name, aliases[i].alias))
      name = aliases[i].name;

  for (guint i = 0; i < G_N_ELEMENTS (backends); i++)
    if (g_str_equal (name, backends[i]->name))
      return backends[i];

  return NULL;
}

static void
agent_provider_dispose (GObject *object)
{
  AgentProvider *self = (AgentProvider *)object;

  _agent_provider_http_dispose (self->http);

  G_OBJECT_CLASS (agent_provider_parent_class)->dispose (object);
}

static void
agent_provider_finalize (GObject *object)
{
  AgentProvider *self = (AgentProvider *)object;

  g_clear_pointer (&self->slots, _agent_provider_slots_free);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->keep_alive, g_free);
  g_clear_pointer (&self->http, _agent_provider_http_free);
  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->model, g_free);

  G_OBJECT_CLASS (agent_provider_parent_class)->finalize (object);
}

static void
agent_provider_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  AgentProvider *self = AGENT_PROVIDER (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, agent_provider_get_name (self));
      break;

    case PROP_DISPLAY_NAME:
      g_value_set_string (value, agent_provider_get_display_name (self));
      break;

    case PROP_BASE_URL:
      g_value_set_string (value, agent_provider_get_base_url (self));
      break;

    case PROP_MODEL:
      g_value_set_string (value, agent_provider_get_model (self));
      break;

    case PROP_HAS_API_KEY:
      g_value_set_boolean (value, agent_provider_get_has_api_key (self));
      break;

    case PROP_MAX_CONCURRENT_REQUESTS:
      g_value_set_uint (value, agent_provider_get_max_concurrent_requests (self));
      break;

    case PROP_MAX_TOKENS:
      g_value_set_uint (value, self->max_tokens);
      break;

    case PROP_REASONING_EFFORT:
      g_value_set_enum (value, self->reasoning_effort);
      break;

    case PROP_CONNECT_TIMEOUT:
      g_value_set_double (value, agent_provider_get_connect_timeout (self));
      break;

    case PROP_FIRST_BYTE_TIMEOUT:
      g_value_set_double (value, agent_provider_get_first_byte_timeout (self));
      break;

    case PROP_IDLE_TIMEOUT:
      g_value_set_double (value, agent_provider_get_idle_timeout (self));
      break;

    case PROP_MAX_RETRIES:
      g_value_set_uint (value, agent_provider_get_max_retries (self));
      break;

    case PROP_MAX_RESPONSE_SIZE:
      g_value_set_uint64 (value, agent_provider_get_max_response_size (self));
      break;

    case PROP_TLS_CA_FILE:
      g_value_set_string (value, agent_provider_get_tls_ca_file (self));
      break;

    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    case PROP_PROMPT_CACHE:
      g_value_set_boolean (value, self->prompt_cache);
      break;

    case PROP_KEEP_ALIVE:
      g_value_set_string (value, self->keep_alive);
      break;

    case PROP_MAX_CONTEXT_WINDOW:
      g_value_set_uint64 (value, self->max_context_window);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_provider_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  AgentProvider *self = AGENT_PROVIDER (object);

  switch (prop_id)
    {
    case PROP_NAME:
      {
        const char *name = g_value_get_string (value);

        self->backend = lookup_backend (name ? name : "openai");
        if (self->backend == NULL)
          {
            g_critical ("Unknown provider “%s”; using “openai”", name);
            self->backend = backends[0];
          }
      }
      break;

    case PROP_BASE_URL:
      agent_provider_set_base_url (self, g_value_get_string (value));
      break;

    case PROP_MODEL:
      agent_provider_set_model (self, g_value_get_string (value));
      break;

    case PROP_API_KEY:
      agent_provider_set_api_key (self, g_value_get_string (value));
      break;

    case PROP_MAX_CONCURRENT_REQUESTS:
      agent_provider_set_max_concurrent_requests (self, g_value_get_uint (value));
      break;

    case PROP_MAX_TOKENS:
      agent_provider_set_max_tokens (self, g_value_get_uint (value));
      break;

    case PROP_REASONING_EFFORT:
      agent_provider_set_reasoning_effort (self, g_value_get_enum (value));
      break;

    case PROP_CONNECT_TIMEOUT:
      agent_provider_set_connect_timeout (self, g_value_get_double (value));
      break;

    case PROP_FIRST_BYTE_TIMEOUT:
      agent_provider_set_first_byte_timeout (self, g_value_get_double (value));
      break;

    case PROP_IDLE_TIMEOUT:
      agent_provider_set_idle_timeout (self, g_value_get_double (value));
      break;

    case PROP_MAX_RETRIES:
      agent_provider_set_max_retries (self, g_value_get_uint (value));
      break;

    case PROP_MAX_RESPONSE_SIZE:
      agent_provider_set_max_response_size (self, g_value_get_uint64 (value));
      break;

    case PROP_TLS_CA_FILE:
      agent_provider_set_tls_ca_file (self, g_value_get_string (value));
      break;

    case PROP_PROMPT_CACHE:
      agent_provider_set_prompt_cache (self, g_value_get_boolean (value));
      break;

    case PROP_KEEP_ALIVE:
      {
        g_autoptr(GError) error = NULL;

        if (!agent_provider_set_keep_alive (self, g_value_get_string (value), &error))
          g_critical ("%s", error->message);
      }
      break;

    case PROP_MAX_CONTEXT_WINDOW:
      agent_provider_set_max_context_window (self, g_value_get_uint64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_provider_class_init (AgentProviderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_provider_dispose;
  object_class->finalize = agent_provider_finalize;
  object_class->get_property = agent_provider_get_property;
  object_class->set_property = agent_provider_set_property;

  /**
   * AgentProvider:name:
   *
   * The API the provider speaks, one of [func@Agent.Provider.list_names].
   */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         "openai",
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:display-name:
   *
   * A name for the API to show people.
   */
  properties[PROP_DISPLAY_NAME] =
    g_param_spec_string ("display-name", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:base-url:
   *
   * The URL the API's paths are relative to, such as
   * `https://api.openai.com/v1`. %NULL (or an empty string) restores the
   * provider's default.
   */
  properties[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:model:
   *
   * The model to ask for.
   */
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:api-key:
   *
   * The API key. It is sent the way the provider's API wants it: as a
   * bearer token (`Authorization`), or in `x-api-key` (Anthropic) or
   * `x-goog-api-key` (Gemini). Write-only.
   */
  properties[PROP_API_KEY] =
    g_param_spec_string ("api-key", NULL, NULL,
                         NULL,
                         (G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:has-api-key:
   *
   * Whether an API key is set.
   */
  properties[PROP_HAS_API_KEY] =
    g_param_spec_boolean ("has-api-key", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:max-concurrent-requests:
   *
   * The most requests the provider's sessions may have open at once, or 0
   * for no limit. The requests beyond it wait their turn (cancellably), in
   * the order they came; the time they waited is in their
   * [struct@Agent.Metrics].
   */
  properties[PROP_MAX_CONCURRENT_REQUESTS] =
    g_param_spec_uint ("max-concurrent-requests", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:max-tokens:
   *
   * The most tokens an answer may have, or 0 for the provider's default
   * (APIs that require a value, like Anthropic's, get a sensible one).
   */
  properties[PROP_MAX_TOKENS] =
    g_param_spec_uint ("max-tokens", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:reasoning-effort:
   *
   * How much a reasoning model should think; %AGENT_REASONING_EFFORT_DEFAULT
   * sends nothing.
   */
  properties[PROP_REASONING_EFFORT] =
    g_param_spec_enum ("reasoning-effort", NULL, NULL,
                       AGENT_TYPE_REASONING_EFFORT,
                       AGENT_REASONING_EFFORT_DEFAULT,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:connect-timeout:
   *
   * The most seconds to get a connection to the server (TLS included), or
   * 0 for no limit. Reaching it is %AGENT_ERROR_TIMEOUT (and retried, see
   * [property@Agent.Provider:max-retries]).
   */
  properties[PROP_CONNECT_TIMEOUT] =
    g_param_spec_double ("connect-timeout", NULL, NULL,
                         0, AGENT_MAX_TIMEOUT_SECONDS, 30,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:first-byte-timeout:
   *
   * The most seconds between sending a request and the first byte of the
   * answer (the server may think long over a long prompt), or 0 for no
   * limit.
   */
  properties[PROP_FIRST_BYTE_TIMEOUT] =
    g_param_spec_double ("first-byte-timeout", NULL, NULL,
                         0, AGENT_MAX_TIMEOUT_SECONDS, 600,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:idle-timeout:
   *
   * The most seconds without a byte in the middle of an answer, or 0 for no
   * limit.
   */
  properties[PROP_IDLE_TIMEOUT] =
    g_param_spec_double ("idle-timeout", NULL, NULL,
                         0, AGENT_MAX_TIMEOUT_SECONDS, 300,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:max-retries:
   *
   * How many times a request is tried again after a connection error, a
   * connect timeout, or an HTTP 408, 409, 429 or 5xx, before any of the
   * answer reached the application: with exponential backoff and jitter,
   * or after the server's `Retry-After` (up to 60 s; a server asking for
   * less than 25 ms, 50 ms, 100 ms… up to 1 s by attempt waits that long,
   * so that `Retry-After: 0` cannot take the backoff away). Never once
   * text has streamed, and never after 400, 401, 403, 404 or 422.
   *
   * Requests of the provider share its kept-alive connections. A request
   * that fails on a reused connection before any of the answer arrived
   * (the server closed it meanwhile) is sent again at once on a new
   * connection; that is not counted here, nor announced by
   * [signal@Agent.Session::retry].
   */
  properties[PROP_MAX_RETRIES] =
    g_param_spec_uint ("max-retries", NULL, NULL,
                       0, 100, 2,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:max-response-size:
   *
   * The most bytes one answer's body may have; beyond it the answer fails
   * with %AGENT_ERROR_LIMIT (what streamed is kept).
   */
  properties[PROP_MAX_RESPONSE_SIZE] =
    g_param_spec_uint64 ("max-response-size", NULL, NULL,
                         1, G_MAXUINT64, 64 * 1024 * 1024,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:tls-ca-file:
   *
   * A PEM file of certificate authorities to trust instead of the system's
   * (for a server with a private CA), or %NULL. Certificates are always
   * verified.
   */
  properties[PROP_TLS_CA_FILE] =
    g_param_spec_string ("tls-ca-file", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

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
    g_param_spec_object ("settings", NULL, NULL,
                         AGENT_TYPE_REQUEST_SETTINGS,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

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
    g_param_spec_boolean ("prompt-cache", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

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
    g_param_spec_string ("keep-alive", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

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
    g_param_spec_uint64 ("max-context-window", NULL, NULL,
                         0, G_MAXUINT64, DEFAULT_MAX_CONTEXT_WINDOW,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_provider_init (AgentProvider *self)
{
  self->backend = backends[0];
  self->http = _agent_provider_http_new ();
  self->slots = _agent_provider_slots_new ();
  self->settings = agent_request_settings_new ();
  self->prompt_cache = TRUE;
  self->max_context_window = DEFAULT_MAX_CONTEXT_WINDOW;
}

/**
 * agent_provider_new:
 * @name: the API to speak, one of [func@Agent.Provider.list_names]
 * @error: return location for a [struct@GLib.Error]
 *
 * Creates a provider for the API called @name, with its default base URL
 * and model.
 *
 * `desktop` is not an HTTP API but the desktop assistant service on the
 * session bus (`io.github.libagent.Assistant`): the models the user set up
 * there, with no key in the application. Its model is the name of one of
 * the service's profiles (%NULL for its default), and each request of a
 * turn is run by the service while the session runs its own tools.
 *
 * Returns: (transfer full): a new [class@Agent.Provider], or %NULL with
 *   %AGENT_ERROR_INVALID_ARGUMENT if no API has that name
 *
 * Since: 0.1
 */
AgentProvider *
agent_provider_new (const char  *name,
                    GError     **error)
{
  g_return_val_if_fail (name != NULL, NULL);

  if (lookup_backend (name) == NULL)
    {
      g_autofree char *known = g_strjoinv (", ", (char **)agent_provider_list_names ());

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Unknown provider “%s” (known providers: %s)"), name, known);
      return NULL;
    }

  return g_object_new (AGENT_TYPE_PROVIDER, "name", name, NULL);
}

/**
 * agent_provider_list_names:
 *
 * Lists the APIs libagent speaks.
 *
 * Returns: (transfer none) (array zero-terminated=1): the provider names
 *
 * Since: 0.1
 */
const char * const *
agent_provider_list_names (void)
{
  static const char * const names[] = {
    "openai", "openai-responses", "anthropic", "ollama", "gemini", "desktop", NULL
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == G_N_ELEMENTS (backends) + 1);

  return names;
}

/**
 * agent_provider_get_name:
 * @self: a [class@Agent.Provider]
 *
 * Gets the name of the API the provider speaks, one of
 * [func@Agent.Provider.list_names] (`openai`, `anthropic`, …): the name it
 * was created with, or the one an alias stands for (`claude` gives
 * `anthropic`). [property@Agent.Provider:name].
 *
 * Returns: (transfer none): the name of the API, owned by the provider
 *
 * Since: 0.1
 */
const char *
agent_provider_get_name (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->backend->name;
}

/**
 * agent_provider_get_display_name:
 * @self: a [class@Agent.Provider]
 *
 * Gets a name for the API to show people, such as “Anthropic Messages”,
 * translated. [property@Agent.Provider:display-name].
 *
 * Returns: (transfer none): the name to show, owned by the provider
 *
 * Since: 0.1
 */
const char *
agent_provider_get_display_name (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return g_dgettext (GETTEXT_PACKAGE, self->backend->stream.display_name);
}

/**
 * agent_provider_get_base_url:
 * @self: a [class@Agent.Provider]
 *
 * Gets the URL the API's paths are relative to: the one set with
 * [method@Agent.Provider.set_base_url], without a trailing `/`, or the API's
 * own service ([method@Agent.Provider.get_default_base_url]) when none was.
 * It may carry user information (`http://user:password@host/`), which is a
 * secret: do not show it as it is.
 *
 * Returns: (transfer none): the base URL, owned by the provider; valid until
 *   it changes
 *
 * Since: 0.1
 */
const char *
agent_provider_get_base_url (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->base_url ? self->base_url : self->backend->default_base_url;
}

/**
 * agent_provider_set_base_url:
 * @self: a [class@Agent.Provider]
 * @base_url: (nullable): the base URL, such as `http://127.0.0.1:8080/v1`, or
 *   %NULL (or an empty string) for the API's own service
 *
 * Sets the URL the API's paths are relative to (`/chat/completions`, …):
 * that of a local server or of another service speaking the same API. A
 * trailing `/` is ignored. The API key goes to this URL's host only.
 * [property@Agent.Provider:base-url].
 *
 * Since: 0.1
 */
void
agent_provider_set_base_url (AgentProvider *self,
                             const char    *base_url)
{
  g_autofree char *normalized = NULL;

  g_return_if_fail (AGENT_IS_PROVIDER (self));

  if (base_url != NULL && base_url[0] != '\0')
    {
      gsize len = strlen (base_url);

      while (len > 0 && base_url[len - 1] == '/')
        len--;
      normalized = g_strndup (base_url, len);
    }

  if (g_strcmp0 (normalized, self->base_url) != 0)
    {
      g_free (self->base_url);
      self->base_url = g_steal_pointer (&normalized);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASE_URL]);
    }
}

/**
 * agent_provider_get_default_base_url:
 * @self: a [class@Agent.Provider]
 *
 * Gets the base URL of the API's own service (`https://api.openai.com/v1`,
 * `http://localhost:11434` for Ollama, …): where requests go when no base
 * URL is set.
 *
 * Returns: (transfer none): the default base URL, a static string
 *
 * Since: 0.1
 */
const char *
agent_provider_get_default_base_url (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->backend->default_base_url;
}

/**
 * agent_provider_get_api_key_variable:
 * @self: a [class@Agent.Provider]
 *
 * Gets the name of the environment variable that, by convention, holds
 * this API's key (`OPENAI_API_KEY`, …). libagent never reads it by itself;
 * applications may.
 *
 * Returns: (nullable) (transfer none): the name of the variable, a static
 *   string, or %NULL for an API without one
 *
 * Since: 0.1
 */
const char *
agent_provider_get_api_key_variable (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->backend->api_key_variable;
}

/**
 * agent_provider_get_model:
 * @self: a [class@Agent.Provider]
 *
 * Gets the model requests ask for: the one set with
 * [method@Agent.Provider.set_model], or the API's default (such as
 * `gpt-4o-mini`) when none was. [property@Agent.Provider:model].
 *
 * Returns: (nullable) (transfer none): the model, owned by the provider and
 *   valid until it changes; %NULL only for an API without a default
 *
 * Since: 0.1
 */
const char *
agent_provider_get_model (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->model ? self->model : self->backend->default_model;
}

/**
 * agent_provider_set_model:
 * @self: a [class@Agent.Provider]
 * @model: (nullable): the model, as the API names it (see
 *   [method@Agent.Provider.list_models_async]), or %NULL (or an empty
 *   string) for the API's default
 *
 * Sets the model requests ask for, from the next request on.
 * [property@Agent.Provider:model].
 *
 * Since: 0.1
 */
void
agent_provider_set_model (AgentProvider *self,
                          const char    *model)
{
  g_return_if_fail (AGENT_IS_PROVIDER (self));

  if (model != NULL && model[0] == '\0')
    model = NULL;

  if (g_strcmp0 (model, self->model) != 0)
    {
      g_free (self->model);
      self->model = g_strdup (model);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
    }
}

/**
 * agent_provider_get_max_tokens:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:max-tokens]: the most tokens an answer may
 * have.
 *
 * Returns: the limit, or 0 for the API's default
 *
 * Since: 0.1
 */
guint
agent_provider_get_max_tokens (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return self->max_tokens;
}

/**
 * agent_provider_set_max_tokens:
 * @self: a [class@Agent.Provider]
 * @max_tokens: the most tokens an answer may have, or 0 for the default
 *
 * Sets [property@Agent.Provider:max-tokens].
 *
 * Since: 0.1
 */
void
agent_provider_set_max_tokens (AgentProvider *self,
                               guint          max_tokens)
{
  g_return_if_fail (AGENT_IS_PROVIDER (self));

  if (self->max_tokens != max_tokens)
    {
      self->max_tokens = max_tokens;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TOKENS]);
    }
}

/**
 * agent_provider_get_reasoning_effort:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:reasoning-effort]: how much a reasoning model
 * is asked to think.
 *
 * Returns: the effort; %AGENT_REASONING_EFFORT_DEFAULT when none is asked for
 *
 * Since: 0.1
 */
AgentReasoningEffort
agent_provider_get_reasoning_effort (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), AGENT_REASONING_EFFORT_DEFAULT);
  return self->reasoning_effort;
}

/**
 * agent_provider_set_reasoning_effort:
 * @self: a [class@Agent.Provider]
 * @effort: how much a reasoning model should think
 *
 * Sets [property@Agent.Provider:reasoning-effort].
 *
 * Since: 0.1
 */
void
agent_provider_set_reasoning_effort (AgentProvider        *self,
                                     AgentReasoningEffort  effort)
{
  g_return_if_fail (AGENT_IS_PROVIDER (self));

  if (self->reasoning_effort != effort)
    {
      self->reasoning_effort = effort;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REASONING_EFFORT]);
    }
}

/**
 * agent_provider_set_api_key:
 * @self: a [class@Agent.Provider]
 * @api_key: (nullable): the key, or %NULL for none
 *
 * Sets the API key, sent the way the API wants it (see
 * [property@Agent.Provider:api-key]) to the base URL's host only, and removed
 * from every error message and log. Without one, no key header is sent (as
 * local servers expect). Spaces and line breaks around the key (as a file or
 * a copy leaves them) are dropped; a key with a control character inside
 * makes requests fail with %AGENT_ERROR_INVALID_ARGUMENT. The key cannot be
 * read back: [method@Agent.Provider.get_has_api_key] says whether there is
 * one. Keep keys in the keyring: see `agent_secret_lookup_api_key_async()`
 * (in builds with the keyring, `AGENT_HAS_KEYRING`).
 *
 * Since: 0.1
 */
void
agent_provider_set_api_key (AgentProvider *self,
                            const char    *api_key)
{
  g_return_if_fail (AGENT_IS_PROVIDER (self));

  if (_agent_provider_http_set_api_key (self->http, api_key))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_API_KEY]);
}


/**
 * agent_provider_get_has_api_key:
 * @self: a [class@Agent.Provider]
 *
 * Gets whether an API key is set ([property@Agent.Provider:has-api-key]); the
 * key itself cannot be read back.
 *
 * Returns: %TRUE if requests carry a key
 *
 * Since: 0.1
 */
gboolean
agent_provider_get_has_api_key (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), FALSE);
  return self->http->api_key != NULL;
}


/**
 * agent_provider_get_connect_timeout:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:connect-timeout]: the most seconds a request
 * may take to connect to the server (TLS included) and send its headers.
 *
 * Returns: the limit in seconds, or 0 for none
 *
 * Since: 0.1
 */
double
agent_provider_get_connect_timeout (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return self->http->connect_timeout;
}


/**
 * agent_provider_set_connect_timeout:
 * @self: a [class@Agent.Provider]
 * @seconds: the most seconds to connect, or 0 for no limit
 *
 * Sets [property@Agent.Provider:connect-timeout].
 *
 * Since: 0.1
 */
void
agent_provider_set_connect_timeout (AgentProvider *self,
                                   double         seconds)
{
  g_return_if_fail (AGENT_IS_PROVIDER (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (seconds));

  if (self->http->connect_timeout != seconds)
    {
      self->http->connect_timeout = seconds;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONNECT_TIMEOUT]);
    }
}


/**
 * agent_provider_get_first_byte_timeout:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:first-byte-timeout]: the most seconds between
 * sending a request and the first byte of the answer.
 *
 * Returns: the limit in seconds, or 0 for none
 *
 * Since: 0.1
 */
double
agent_provider_get_first_byte_timeout (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return self->http->first_byte_timeout;
}


/**
 * agent_provider_set_first_byte_timeout:
 * @self: a [class@Agent.Provider]
 * @seconds: the most seconds to the first byte, or 0 for no limit
 *
 * Sets [property@Agent.Provider:first-byte-timeout].
 *
 * Since: 0.1
 */
void
agent_provider_set_first_byte_timeout (AgentProvider *self,
                                      double         seconds)
{
  g_return_if_fail (AGENT_IS_PROVIDER (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (seconds));

  if (self->http->first_byte_timeout != seconds)
    {
      self->http->first_byte_timeout = seconds;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FIRST_BYTE_TIMEOUT]);
    }
}


/**
 * agent_provider_get_idle_timeout:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:idle-timeout]: the most seconds an answer may
 * go without a byte once it started.
 *
 * Returns: the limit in seconds, or 0 for none
 *
 * Since: 0.1
 */
double
agent_provider_get_idle_timeout (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return self->http->idle_timeout;
}


/**
 * agent_provider_set_idle_timeout:
 * @self: a [class@Agent.Provider]
 * @seconds: the most seconds without a byte mid-answer, or 0 for no limit
 *
 * Sets [property@Agent.Provider:idle-timeout].
 *
 * Since: 0.1
 */
void
agent_provider_set_idle_timeout (AgentProvider *self,
                                double         seconds)
{
  g_return_if_fail (AGENT_IS_PROVIDER (self));
  g_return_if_fail (AGENT_IS_VALID_TIMEOUT (seconds));

  if (self->http->idle_timeout != seconds)
    {
      self->http->idle_timeout = seconds;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IDLE_TIMEOUT]);
    }
}


/**
 * agent_provider_get_max_retries:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:max-retries]: how many times a request that
 * failed before any of its answer arrived is tried again.
 *
 * Returns: the number of retries; 0 tries once
 *
 * Since: 0.1
 */
guint
agent_provider_get_max_retries (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return self->http->max_retries;
}


/**
 * agent_provider_set_max_retries:
 * @self: a [class@Agent.Provider]
 * @max_retries: how many times a failed request is tried again
 *
 * Sets [property@Agent.Provider:max-retries].
 *
 * Since: 0.1
 */
void
agent_provider_set_max_retries (AgentProvider *self,
                               guint          max_retries)
{
  g_return_if_fail (AGENT_IS_PROVIDER (self));

  if (self->http->max_retries != max_retries)
    {
      self->http->max_retries = max_retries;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_RETRIES]);
    }
}


/**
 * agent_provider_get_max_response_size:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:max-response-size]: the most bytes the body
 * of one answer may have.
 *
 * Returns: the limit in bytes
 *
 * Since: 0.1
 */
guint64
agent_provider_get_max_response_size (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return self->http->max_response_size;
}


/**
 * agent_provider_set_max_response_size:
 * @self: a [class@Agent.Provider]
 * @max_response_size: the most bytes one answer may have
 *
 * Sets [property@Agent.Provider:max-response-size].
 *
 * Since: 0.1
 */
void
agent_provider_set_max_response_size (AgentProvider *self,
                                     guint64        max_response_size)
{
  g_return_if_fail (AGENT_IS_PROVIDER (self));
  g_return_if_fail (max_response_size > 0);

  if (self->http->max_response_size != max_response_size)
    {
      self->http->max_response_size = max_response_size;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_RESPONSE_SIZE]);
    }
}


/**
 * agent_provider_get_tls_ca_file:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:tls-ca-file]: the PEM file of certificate
 * authorities trusted instead of the system's.
 *
 * Returns: (nullable) (type filename) (transfer none): the file, owned by the
 *   provider, or %NULL when the system's authorities are trusted
 *
 * Since: 0.1
 */
const char *
agent_provider_get_tls_ca_file (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->http->tls_ca_file;
}


/**
 * agent_provider_set_tls_ca_file:
 * @self: a [class@Agent.Provider]
 * @path: (nullable) (type filename): a PEM file of certificate authorities,
 *   or %NULL for the system's
 *
 * Sets [property@Agent.Provider:tls-ca-file]. The file is read when the
 * next request starts; if it cannot be read, requests fail saying so.
 *
 * Since: 0.1
 */
void
agent_provider_set_tls_ca_file (AgentProvider *self,
                                const char    *path)
{
  g_return_if_fail (AGENT_IS_PROVIDER (self));

  if (g_strcmp0 (self->http->tls_ca_file, path) == 0)
    return;

  g_free (self->http->tls_ca_file);
  self->http->tls_ca_file = g_strdup (path);
  /* The next request gets a session with the new trust */
  g_clear_object (&self->http->soup_session);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TLS_CA_FILE]);
}


/**
 * agent_provider_get_max_concurrent_requests:
 * @self: a [class@Agent.Provider]
 *
 * Gets [property@Agent.Provider:max-concurrent-requests]: the most requests
 * the provider's sessions may have open at once; the others wait their turn.
 *
 * Returns: the limit, or 0 for none
 *
 * Since: 0.1
 */
guint
agent_provider_get_max_concurrent_requests (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return _agent_provider_slots_get_max (self->slots);
}


/**
 * agent_provider_set_max_concurrent_requests:
 * @self: a [class@Agent.Provider]
 * @max_concurrent_requests: the most requests open at once, or 0 for no limit
 *
 * Sets [property@Agent.Provider:max-concurrent-requests]. Raising it lets
 * waiting requests go at once.
 *
 * Since: 0.1
 */
void
agent_provider_set_max_concurrent_requests (AgentProvider *self,
                                            guint          max_concurrent_requests)
{
  g_return_if_fail (AGENT_IS_PROVIDER (self));

  if (_agent_provider_slots_set_max (self->slots, max_concurrent_requests))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_CONCURRENT_REQUESTS]);
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
  return self->settings;
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
  return self->prompt_cache;
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
  g_return_if_fail (AGENT_IS_PROVIDER (self));

  prompt_cache = !!prompt_cache;
  if (self->prompt_cache != prompt_cache)
    {
      self->prompt_cache = prompt_cache;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROMPT_CACHE]);
    }
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
  return self->keep_alive;
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
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (duration != NULL && *duration == '\0')
    duration = NULL;
  if (duration != NULL && !_agent_keep_alive_is_valid (duration))
    {
      g_autofree char *shown = g_strescape (duration, NULL);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("keep-alive must be a duration such as 30s, 10m or 1h30m, or a number "
                     "of seconds (-1: keep the model loaded), not “%s”"),
                   shown);
      return FALSE;
    }

  if (g_strcmp0 (self->keep_alive, duration) != 0)
    {
      g_free (self->keep_alive);
      self->keep_alive = g_strdup (duration);
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
  return self->max_context_window;
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
  g_return_if_fail (AGENT_IS_PROVIDER (self));

  if (self->max_context_window != tokens)
    {
      self->max_context_window = tokens;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_CONTEXT_WINDOW]);
    }
}


/* Private accessors (agent-provider-private.h) */

const AgentProviderBackend *
_agent_provider_get_backend (AgentProvider *self)
{
  return self->backend;
}

AgentProviderHttp *
_agent_provider_get_http (AgentProvider *self)
{
  return self->http;
}

AgentProviderSlots *
_agent_provider_get_slots (AgentProvider *self)
{
  return self->slots;
}
