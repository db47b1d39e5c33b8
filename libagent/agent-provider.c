/* agent-provider.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "agent-json.h"
#include "agent-provider-private.h"
#include "agent-util-private.h"
#include "agent-version.h"

/* Connections libsoup may open at once, to one host or in all */
#define SOUP_MAX_CONNECTIONS 1024

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
 * Since: 0.1
 */

struct _AgentProvider
{
  GObject                     parent_instance;
  const AgentProviderBackend *backend;
  char                       *base_url;
  char                       *model;
  char                       *api_key;
  SoupSession                *soup_session;

  /* Request slots: at most max_concurrent requests at once (0: no limit);
   * the others wait in line. Sessions of several threads may share a
   * provider, hence the lock. */
  GMutex                      slots_mutex;
  GQueue                      waiting;       /* of GTask */
  guint                       max_concurrent;
  guint                       active;

  guint                       max_tokens;
  AgentReasoningEffort        reasoning_effort;

  double                      connect_timeout;
  double                      first_byte_timeout;
  double                      idle_timeout;
  guint                       max_retries;
  guint64                     max_response_size;
  char                       *tls_ca_file;
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
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentProvider, agent_provider, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static const AgentProviderBackend *backends[] = {
  &agent_openai_chat_backend,
  &agent_openai_responses_backend,
  &agent_anthropic_backend,
  &agent_ollama_backend,
  &agent_gemini_backend,
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

  g_clear_object (&self->soup_session);

  G_OBJECT_CLASS (agent_provider_parent_class)->dispose (object);
}

static void
agent_provider_finalize (GObject *object)
{
  AgentProvider *self = (AgentProvider *)object;

  g_assert (g_queue_is_empty (&self->waiting));
  g_mutex_clear (&self->slots_mutex);
  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->tls_ca_file, g_free);
  if (self->api_key != NULL)
    {
      memset (self->api_key, 0, strlen (self->api_key));
      g_clear_pointer (&self->api_key, g_free);
    }

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
      g_value_set_double (value, self->connect_timeout);
      break;

    case PROP_FIRST_BYTE_TIMEOUT:
      g_value_set_double (value, self->first_byte_timeout);
      break;

    case PROP_IDLE_TIMEOUT:
      g_value_set_double (value, self->idle_timeout);
      break;

    case PROP_MAX_RETRIES:
      g_value_set_uint (value, self->max_retries);
      break;

    case PROP_MAX_RESPONSE_SIZE:
      g_value_set_uint64 (value, self->max_response_size);
      break;

    case PROP_TLS_CA_FILE:
      g_value_set_string (value, self->tls_ca_file);
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
   * [class@Agent.Metrics].
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
   * or after the server's `Retry-After` (up to 60 s). Never once text has
   * streamed, and never after 400, 401, 403, 404 or 422.
   */
  properties[PROP_MAX_RETRIES] =
    g_param_spec_uint ("max-retries", NULL, NULL,
                       0, 100, 2,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProvider:max-response-size:
   *
   * The most bytes one answer's body may have; beyond it the answer fails
   * with %AGENT_ERROR_PROTOCOL (what streamed is kept).
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

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_provider_init (AgentProvider *self)
{
  self->backend = backends[0];
  self->connect_timeout = 30;
  self->first_byte_timeout = 600;
  self->idle_timeout = 300;
  self->max_retries = 2;
  self->max_response_size = 64 * 1024 * 1024;
  g_mutex_init (&self->slots_mutex);
  g_queue_init (&self->waiting);
}

/**
 * agent_provider_new:
 * @name: the API to speak, one of [func@Agent.Provider.list_names]
 * @error: return location for a #GError
 *
 * Creates a provider for the API called @name, with its default base URL
 * and model.
 *
 * Returns: (transfer full): a new #AgentProvider, or %NULL with
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
    "openai", "openai-responses", "anthropic", "ollama", "gemini", NULL
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == G_N_ELEMENTS (backends) + 1);

  return names;
}

/**
 * agent_provider_get_name:
 * @self: a #AgentProvider
 *
 * Returns: the name of the API the provider speaks
 */
const char *
agent_provider_get_name (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->backend->name;
}

/**
 * agent_provider_get_display_name:
 * @self: a #AgentProvider
 *
 * Returns: a name for the API to show people
 */
const char *
agent_provider_get_display_name (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return g_dgettext (GETTEXT_PACKAGE, self->backend->display_name);
}

/**
 * agent_provider_get_base_url:
 * @self: a #AgentProvider
 *
 * Returns: the base URL requests go to
 */
const char *
agent_provider_get_base_url (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->base_url ? self->base_url : self->backend->default_base_url;
}

/**
 * agent_provider_set_base_url:
 * @self: a #AgentProvider
 * @base_url: (nullable): the base URL, or %NULL for the default
 *
 * Sets the URL the API's paths are relative to. A trailing `/` is ignored.
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
 * @self: a #AgentProvider
 *
 * Returns: the base URL of the API's own service
 */
const char *
agent_provider_get_default_base_url (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->backend->default_base_url;
}

/**
 * agent_provider_get_api_key_variable:
 * @self: a #AgentProvider
 *
 * Gets the name of the environment variable that, by convention, holds
 * this API's key (`OPENAI_API_KEY`, …). libagent never reads it by itself;
 * applications may.
 *
 * Returns: (nullable): the name of the variable
 */
const char *
agent_provider_get_api_key_variable (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->backend->api_key_variable;
}

/**
 * agent_provider_get_model:
 * @self: a #AgentProvider
 *
 * Returns: (nullable): the model to ask for
 */
const char *
agent_provider_get_model (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->model ? self->model : self->backend->default_model;
}

/**
 * agent_provider_set_model:
 * @self: a #AgentProvider
 * @model: (nullable): the model, or %NULL for the provider's default
 *
 * Sets the model to ask for.
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
 * agent_provider_set_api_key:
 * @self: a #AgentProvider
 * @api_key: (nullable): the key, or %NULL for none
 *
 * Sets the API key. Without one, no key header is sent (as local servers
 * expect).
 */
void
agent_provider_set_api_key (AgentProvider *self,
                            const char    *api_key)
{
  gboolean had_key;

  g_return_if_fail (AGENT_IS_PROVIDER (self));

  had_key = self->api_key != NULL;

  if (api_key != NULL && api_key[0] == '\0')
    api_key = NULL;

  if (self->api_key != NULL)
    {
      memset (self->api_key, 0, strlen (self->api_key));
      g_clear_pointer (&self->api_key, g_free);
    }
  self->api_key = g_strdup (api_key);

  if (had_key != (self->api_key != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_API_KEY]);
}

/**
 * agent_provider_get_has_api_key:
 * @self: a #AgentProvider
 *
 * Returns: whether an API key is set
 */
gboolean
agent_provider_get_has_api_key (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), FALSE);
  return self->api_key != NULL;
}

/**
 * agent_provider_get_max_concurrent_requests:
 * @self: a #AgentProvider
 *
 * Returns: the most requests open at once, or 0 for no limit
 *
 * Since: 0.1
 */
guint
agent_provider_get_max_concurrent_requests (AgentProvider *self)
{
  guint max_concurrent;

  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);

  g_mutex_lock (&self->slots_mutex);
  max_concurrent = self->max_concurrent;
  g_mutex_unlock (&self->slots_mutex);

  return max_concurrent;
}

static gboolean
slot_is_free (AgentProvider *self)
{
  return self->max_concurrent == 0 || self->active < self->max_concurrent;
}

/* Gives free slots to the requests waiting for one, in order. Called with
 * the lock held; returns the tasks to complete once it is released. */
static GList *
take_waiting (AgentProvider *self)
{
  GList *ready = NULL;

  while (!g_queue_is_empty (&self->waiting) && slot_is_free (self))
    {
      self->active++;
      ready = g_list_prepend (ready, g_queue_pop_head (&self->waiting));
    }

  return g_list_reverse (ready);
}

/* A request waiting for a slot: a source on its task's context watches
 * its cancellable (a source rather than g_cancellable_connect(), whose
 * handler would hold the task, which holds the cancellable: a cycle). */
typedef struct
{
  GSource *cancel_source;
} Waiter;

static void
waiter_free (gpointer data)
{
  Waiter *waiter = data;

  if (waiter->cancel_source != NULL)
    {
      g_source_destroy (waiter->cancel_source);
      g_source_unref (waiter->cancel_source);
    }
  g_free (waiter);
}

static void
complete_waiting (GList *ready)
{
  for (GList *l = ready; l; l = l->next)
    {
      g_autoptr(GTask) task = l->data;
      Waiter *waiter = g_task_get_task_data (task);

      if (waiter->cancel_source != NULL)
        g_source_destroy (waiter->cancel_source);
      g_task_return_boolean (task, TRUE);
    }
  g_list_free (ready);
}

/**
 * agent_provider_set_max_concurrent_requests:
 * @self: a #AgentProvider
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
  GList *ready;
  gboolean changed;

  g_return_if_fail (AGENT_IS_PROVIDER (self));

  g_mutex_lock (&self->slots_mutex);
  changed = self->max_concurrent != max_concurrent_requests;
  self->max_concurrent = max_concurrent_requests;
  ready = take_waiting (self);
  g_mutex_unlock (&self->slots_mutex);

  complete_waiting (ready);

  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_CONCURRENT_REQUESTS]);
}

static gboolean
waiter_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  GTask *task = user_data;
  AgentProvider *self = g_task_get_source_object (task);
  gboolean was_waiting;

  g_mutex_lock (&self->slots_mutex);
  was_waiting = g_queue_remove (&self->waiting, task);
  g_mutex_unlock (&self->slots_mutex);

  if (was_waiting)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("Cancelled while waiting for a free request slot"));
      g_object_unref (task);  /* the queue's */
    }

  return G_SOURCE_REMOVE;
}

/* Waits for a request slot; _agent_provider_release() gives it back. */
void
_agent_provider_acquire_async (AgentProvider       *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Waiter *waiter;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _agent_provider_acquire_async);
  /* Once the slot is given, it is the caller's, even if it was cancelled
   * meanwhile: the caller releases it. */
  g_task_set_check_cancellable (task, FALSE);
  waiter = g_new0 (Waiter, 1);
  g_task_set_task_data (task, waiter, waiter_free);

  g_mutex_lock (&self->slots_mutex);
  if (g_queue_is_empty (&self->waiting) && slot_is_free (self))
    {
      self->active++;
      g_mutex_unlock (&self->slots_mutex);
      g_task_return_boolean (task, TRUE);
      return;
    }
  g_queue_push_tail (&self->waiting, g_object_ref (task));
  g_mutex_unlock (&self->slots_mutex);

  if (cancellable != NULL)
    {
      waiter->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (waiter->cancel_source, G_SOURCE_FUNC (waiter_cancelled_cb),
                             g_object_ref (task), g_object_unref);
      g_source_set_static_name (waiter->cancel_source, "[agent-provider-slot-wait]");
      g_source_attach (waiter->cancel_source, g_task_get_context (task));
    }
}

gboolean
_agent_provider_acquire_finish (AgentProvider  *self,
                                GAsyncResult   *result,
                                GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
_agent_provider_release (AgentProvider *self)
{
  GList *ready;

  g_mutex_lock (&self->slots_mutex);
  g_assert (self->active > 0);
  self->active--;
  ready = take_waiting (self);
  g_mutex_unlock (&self->slots_mutex);

  complete_waiting (ready);
}

/**
 * agent_provider_get_max_tokens:
 * @self: a #AgentProvider
 *
 * Returns: the most tokens an answer may have, or 0 for the default
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
 * @self: a #AgentProvider
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
 * @self: a #AgentProvider
 *
 * Returns: how much a reasoning model should think
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
 * @self: a #AgentProvider
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
 * agent_provider_get_connect_timeout:
 * @self: a #AgentProvider
 *
 * Returns: the most seconds to connect, or 0 for no limit
 *
 * Since: 0.1
 */
double
agent_provider_get_connect_timeout (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return self->connect_timeout;
}

/**
 * agent_provider_set_connect_timeout:
 * @self: a #AgentProvider
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

  if (self->connect_timeout != seconds)
    {
      self->connect_timeout = seconds;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONNECT_TIMEOUT]);
    }
}

/**
 * agent_provider_get_first_byte_timeout:
 * @self: a #AgentProvider
 *
 * Returns: the most seconds to the first byte, or 0 for no limit
 *
 * Since: 0.1
 */
double
agent_provider_get_first_byte_timeout (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return self->first_byte_timeout;
}

/**
 * agent_provider_set_first_byte_timeout:
 * @self: a #AgentProvider
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

  if (self->first_byte_timeout != seconds)
    {
      self->first_byte_timeout = seconds;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FIRST_BYTE_TIMEOUT]);
    }
}

/**
 * agent_provider_get_idle_timeout:
 * @self: a #AgentProvider
 *
 * Returns: the most seconds without a byte mid-answer, or 0 for no limit
 *
 * Since: 0.1
 */
double
agent_provider_get_idle_timeout (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return self->idle_timeout;
}

/**
 * agent_provider_set_idle_timeout:
 * @self: a #AgentProvider
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

  if (self->idle_timeout != seconds)
    {
      self->idle_timeout = seconds;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IDLE_TIMEOUT]);
    }
}

/**
 * agent_provider_get_max_retries:
 * @self: a #AgentProvider
 *
 * Returns: how many times a failed request is tried again
 *
 * Since: 0.1
 */
guint
agent_provider_get_max_retries (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return self->max_retries;
}

/**
 * agent_provider_set_max_retries:
 * @self: a #AgentProvider
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

  if (self->max_retries != max_retries)
    {
      self->max_retries = max_retries;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_RETRIES]);
    }
}

/**
 * agent_provider_get_max_response_size:
 * @self: a #AgentProvider
 *
 * Returns: the most bytes one answer may have
 *
 * Since: 0.1
 */
guint64
agent_provider_get_max_response_size (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), 0);
  return self->max_response_size;
}

/**
 * agent_provider_set_max_response_size:
 * @self: a #AgentProvider
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

  if (self->max_response_size != max_response_size)
    {
      self->max_response_size = max_response_size;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_RESPONSE_SIZE]);
    }
}

/**
 * agent_provider_get_tls_ca_file:
 * @self: a #AgentProvider
 *
 * Returns: (nullable): the file of certificate authorities trusted instead
 *   of the system's
 *
 * Since: 0.1
 */
const char *
agent_provider_get_tls_ca_file (AgentProvider *self)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  return self->tls_ca_file;
}

/**
 * agent_provider_set_tls_ca_file:
 * @self: a #AgentProvider
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

  if (g_strcmp0 (self->tls_ca_file, path) == 0)
    return;

  g_free (self->tls_ca_file);
  self->tls_ca_file = g_strdup (path);
  /* The next request gets a session with the new trust */
  g_clear_object (&self->soup_session);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TLS_CA_FILE]);
}

/* Listing models */

#define MAX_MODELS_BODY (8 * 1024 * 1024)

typedef struct
{
  SoupMessage *message;
  GBytes      *body;
} ListModels;

static void
list_models_free (gpointer data)
{
  ListModels *list = data;

  g_clear_object (&list->message);
  g_clear_pointer (&list->body, g_bytes_unref);
  g_free (list);
}

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AgentProvider *self = g_task_get_source_object (task);
  ListModels *list = g_task_get_task_data (task);
  g_autoptr(AgentJsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  const char *data;
  gsize len;
  guint status;
  AgentJson root;
  char **names;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = _agent_provider_redact (self, error->message);

          g_clear_error (&error);
          g_set_error (&error, AGENT_ERROR, AGENT_ERROR_NETWORK,
                       _("Could not reach %s: %s"),
                       g_uri_get_host (soup_message_get_uri (list->message)), message);
        }
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data = g_bytes_get_data (body, &len);
  status = soup_message_get_status (list->message);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_task_return_error (task, _agent_provider_error_from_http (self, status,
                                                                   soup_message_get_reason_phrase (list->message),
                                                                   data, MIN (len, MAX_MODELS_BODY)));
      return;
    }

  parser = agent_json_parser_new ();
  if (len > MAX_MODELS_BODY || !agent_json_parser_parse (parser, data, len, &root, NULL) ||
      !(names = self->backend->parse_models (&root)))
    {
      g_task_return_new_error (task, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                               _("The server's list of models could not be read"));
      return;
    }

  g_task_return_pointer (task, names, (GDestroyNotify) g_strfreev);
}

/**
 * agent_provider_list_models_async:
 * @self: a #AgentProvider
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the list
 * @user_data: data for @callback
 *
 * Asks the server which models it offers (`GET /models`, `/api/tags`, …),
 * for a model picker. Call [method@Agent.Provider.list_models_finish] from
 * @callback.
 *
 * Since: 0.1
 */
void
agent_provider_list_models_async (AgentProvider       *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  SoupSession *session;
  ListModels *list;

  g_return_if_fail (AGENT_IS_PROVIDER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_provider_list_models_async);

  if (!(url = _agent_provider_build_url (self, self->backend->models_path, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  list = g_new0 (ListModels, 1);
  list->message = soup_message_new (SOUP_METHOD_GET, url);
  g_task_set_task_data (task, list, list_models_free);
  soup_message_headers_replace (soup_message_get_request_headers (list->message),
                                "Accept", "application/json");
  self->backend->add_headers (self, soup_message_get_request_headers (list->message));

  if (!(session = _agent_provider_get_soup_session (self, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  soup_session_send_and_read_async (session, list->message,
                                    G_PRIORITY_DEFAULT, cancellable,
                                    list_models_cb, g_steal_pointer (&task));
}

/**
 * agent_provider_list_models_finish:
 * @self: a #AgentProvider
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (array zero-terminated=1): the names of the
 *   models, as the API wants them in [property@Agent.Provider:model], or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
char **
agent_provider_list_models_finish (AgentProvider  *self,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (AGENT_IS_PROVIDER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == agent_provider_list_models_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

const AgentProviderBackend *
_agent_provider_get_backend (AgentProvider *self)
{
  return self->backend;
}

/* The HTTP session, made on first use. libsoup's own I/O timeout is off:
 * the step keeps finer ones (connect, first byte, idle). NULL with @error
 * set if the CA file cannot be read. */
SoupSession *
_agent_provider_get_soup_session (AgentProvider  *self,
                                  GError        **error)
{
  g_autoptr(GTlsDatabase) database = NULL;

  if (self->soup_session != NULL)
    return self->soup_session;

  if (self->tls_ca_file != NULL)
    {
      g_autoptr(GError) local_error = NULL;

      database = g_tls_file_database_new (self->tls_ca_file, &local_error);
      if (database == NULL)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("The certificate authorities in “%s” could not be read: %s"),
                       self->tls_ca_file, local_error->message);
          return NULL;
        }
    }

  /* A streamed answer holds its connection for as long as the model
   * writes: libsoup's default of 2 connections per host would queue the
   * third concurrent session behind the first two. max-concurrent-requests
   * is the limit, when one is wanted. */
  self->soup_session = soup_session_new_with_options ("user-agent", "libagent/" AGENT_VERSION_S,
                                                      "timeout", 0,
                                                      "tls-database", database,
                                                      "max-conns", SOUP_MAX_CONNECTIONS,
                                                      "max-conns-per-host", SOUP_MAX_CONNECTIONS,
                                                      NULL);
  return self->soup_session;
}

void
_agent_provider_add_bearer_auth (AgentProvider      *self,
                                 SoupMessageHeaders *headers)
{
  if (self->api_key != NULL)
    {
      g_autofree char *value = g_strconcat ("Bearer ", self->api_key, NULL);

      soup_message_headers_replace (headers, "Authorization", value);
      memset (value, 0, strlen (value));
    }
}

/* The key, when there is one, as the value of the header @name (x-api-key,
 * x-goog-api-key, …) */
void
_agent_provider_add_api_key_header (AgentProvider      *self,
                                    SoupMessageHeaders *headers,
                                    const char         *name)
{
  if (self->api_key != NULL)
    soup_message_headers_replace (headers, name, self->api_key);
}

/* {base-url}{path}, checked to be an http or https URL with a host. */
char *
_agent_provider_build_url (AgentProvider  *self,
                           const char     *path,
                           GError        **error)
{
  g_autofree char *url = g_strconcat (agent_provider_get_base_url (self), path, NULL);
  g_autoptr(GUri) uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);

  if (uri == NULL ||
      (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
       g_strcmp0 (g_uri_get_scheme (uri), "https") != 0) ||
      g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a valid http or https URL"), agent_provider_get_base_url (self));
      return NULL;
    }

  return g_steal_pointer (&url);
}

SoupMessage *
_agent_provider_build_message (AgentProvider       *self,
                               const AgentRequest  *request,
                               GError             **error)
{
  g_autoptr(GBytes) body = NULL;
  g_autofree char *path = NULL;
  g_autofree char *url = NULL;
  SoupMessageHeaders *headers;
  SoupMessage *message;

  path = self->backend->build_path (request);
  if (!(url = _agent_provider_build_url (self, path, error)))
    return NULL;

  if (!(body = self->backend->build_body (request, error)))
    return NULL;

  message = soup_message_new (SOUP_METHOD_POST, url);
  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Accept",
                                self->backend->framing == AGENT_FRAMING_SSE
                                  ? "text/event-stream" : "application/x-ndjson");
  self->backend->add_headers (self, headers);
  soup_message_set_request_body_from_bytes (message, "application/json", body);
  g_object_set_data_full (G_OBJECT (message), "agent-request-body",
                          g_bytes_ref (body), (GDestroyNotify) g_bytes_unref);

  return message;
}

/* The body of a message from _agent_provider_build_message() */
GBytes *
_agent_provider_get_request_body (SoupMessage *message)
{
  return g_bytes_ref (g_object_get_data (G_OBJECT (message), "agent-request-body"));
}

/**
 * _agent_provider_redact:
 *
 * Removes the API key from text that came from a server (some echo it back
 * in error messages). Returns a new string.
 */
char *
_agent_provider_redact (AgentProvider *self,
                        const char    *text)
{
  g_autoptr(GString) string = NULL;

  if (text == NULL)
    return NULL;
  if (self == NULL || self->api_key == NULL || strstr (text, self->api_key) == NULL)
    return g_strdup (text);

  string = g_string_new (text);
  g_string_replace (string, self->api_key, "[redacted]", 0);
  return g_string_free (g_steal_pointer (&string), FALSE);
}

/* Finds the human-readable message in the error shapes providers use:
 * {"error": {"message": …}}, {"error": "…"}, {"message": …}, {"detail": …}. */
static char *
describe_error_json (const AgentJson *root)
{
  AgentJson error = agent_json_member (root, "error");
  const AgentJson *described = root;
  const char *message = NULL;
  const char *code = NULL;

  if (agent_json_is (&error, AGENT_JSON_STRING))
    message = agent_json_string (&error, NULL);
  else if (agent_json_is (&error, AGENT_JSON_OBJECT) &&
           (message = agent_json_member_string (&error, "message", NULL)) != NULL)
    described = &error;

  if (message == NULL)
    message = agent_json_member_string (root, "message", NULL);
  if (message == NULL)
    message = agent_json_member_string (root, "detail", NULL);
  if (message == NULL)
    return NULL;

  /* Its code, or its type (which at the top is just "error"), or status */
  if ((code = agent_json_member_string (described, "code", NULL)) == NULL &&
      ((code = agent_json_member_string (described, "type", NULL)) == NULL ||
       g_str_equal (code, "error")))
    code = agent_json_member_string (described, "status", NULL);

  if (code != NULL && strstr (message, code) == NULL)
    return g_strdup_printf ("%s (%s)", message, code);
  return g_strdup (message);
}

/* An error from a provider's error object; NULL if there is none in it.
 * @self may be NULL (the step redacts what leaves it). */
GError *
_agent_provider_error_from_json_value (AgentProvider   *self,
                                       int              code,
                                       const char      *prefix,
                                       const AgentJson *root)
{
  g_autofree char *described = describe_error_json (root);
  g_autofree char *redacted = NULL;

  if (described == NULL)
    {
      /* No message in it: show the object itself, cut at a character. */
      g_autofree char *text = agent_json_serialize (root);
      g_autofree char *excerpt = g_utf8_substring (text, 0, MIN (g_utf8_strlen (text, -1), 200));

      return g_error_new (AGENT_ERROR, code, "%s: %s", prefix, excerpt);
    }

  redacted = _agent_provider_redact (self, described);
  return g_error_new (AGENT_ERROR, code, "%s: %s", prefix, redacted);
}

/* The same from text; NULL if the text is not JSON with an error message. */
GError *
_agent_provider_error_from_json (AgentProvider *self,
                                 int            code,
                                 const char    *prefix,
                                 const char    *json,
                                 gsize          len)
{
  g_autoptr(AgentJsonParser) parser = agent_json_parser_new ();
  g_autofree char *described = NULL;
  AgentJson root;

  if (!agent_json_parser_parse (parser, json, len, &root, NULL) ||
      !(described = describe_error_json (&root)))
    return NULL;

  return _agent_provider_error_from_json_value (self, code, prefix, &root);
}

GError *
_agent_provider_error_from_http (AgentProvider *self,
                                 guint          status,
                                 const char    *reason,
                                 const char    *body,
                                 gsize          len)
{
  g_autofree char *prefix = NULL;
  int code;
  GError *error;

  code = (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
       ? AGENT_ERROR_AUTHENTICATION : AGENT_ERROR_HTTP;

  if (reason == NULL || reason[0] == '\0')
    reason = soup_status_get_phrase (status);

  /* Translators: the first %u is an HTTP status code, %s its phrase */
  prefix = g_strdup_printf (_("The server answered %u %s"), status, reason ? reason : "");

  if (body != NULL && len > 0 &&
      (error = _agent_provider_error_from_json (self, code, prefix, body, len)))
    return error;

  return g_error_new_literal (AGENT_ERROR, code, prefix);
}
