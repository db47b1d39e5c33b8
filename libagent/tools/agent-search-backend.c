/* agent-search-backend.c — where web_search gets its results
 *
 * The base class, and its three backends: a SearXNG instance's JSON API
 * (keyless, often self-hosted), the Brave Search API (a key sent in the
 * X-Subscription-Token header, never shown) and the Tavily API (a JSON
 * POST, its key as a bearer token). Each is asked with a blocking request
 * from the tool's worker thread, over a SoupSession of its own, with the
 * answer's size bounded; by name with agent_search_backend_new_for_name().
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#include "tools/agent-search-backend-private.h"
#include "tools/agent-html-text-private.h"
#include "wire/agent-wire-util-private.h"
#include "agent-error.h"
#include "agent-error-private.h"
#include "agent-util-private.h"
#include "agent-version.h"

#define SEARCH_TIMEOUT   20
#define MAX_ANSWER_BYTES (1024 * 1024)
#define MAX_ERROR_BYTES  (64 * 1024)

/**
 * AgentSearchBackend:
 *
 * A web search service, which the `web_search` tool
 * ([func@Agent.web_search_tool_new]) asks for results.
 *
 * libagent has three: a SearXNG instance's JSON API
 * ([ctor@Agent.SearchBackend.new_searxng]), keyless and often
 * self-hosted, the Brave Search API
 * ([ctor@Agent.SearchBackend.new_brave]) and the Tavily API
 * ([ctor@Agent.SearchBackend.new_tavily]), whose keys are sent in a header
 * and never shown. [ctor@Agent.SearchBackend.new_for_name] makes one by
 * its name. A C program may subclass it for another service,
 * implementing `search`, which runs in a worker thread.
 *
 * Since: 0.1
 */

typedef struct
{
  char *name;
} AgentSearchBackendPrivate;

enum {
  PROP_0,
  PROP_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (AgentSearchBackend, agent_search_backend, G_TYPE_OBJECT)

static void
agent_search_backend_finalize (GObject *object)
{
  AgentSearchBackend *self = AGENT_SEARCH_BACKEND (object);
  AgentSearchBackendPrivate *priv = agent_search_backend_get_instance_private (self);

  g_free (priv->name);

  G_OBJECT_CLASS (agent_search_backend_parent_class)->finalize (object);
}

static void
agent_search_backend_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AgentSearchBackend *self = AGENT_SEARCH_BACKEND (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, agent_search_backend_get_name (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_search_backend_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  AgentSearchBackend *self = AGENT_SEARCH_BACKEND (object);
  AgentSearchBackendPrivate *priv = agent_search_backend_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_NAME:
      priv->name = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_search_backend_class_init (AgentSearchBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agent_search_backend_finalize;
  object_class->get_property = agent_search_backend_get_property;
  object_class->set_property = agent_search_backend_set_property;

  /**
   * AgentSearchBackend:name:
   *
   * The name of the search service, shown in errors: `"SearXNG"`,
   * `"Brave Search"`, `"Tavily"`.
   *
   * Since: 0.1
   */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_search_backend_init (AgentSearchBackend *self)
{
}

/**
 * agent_search_backend_get_name:
 * @self: a [class@Agent.SearchBackend]
 *
 * Gets the name of the search service, as errors show it.
 *
 * Returns: (transfer none) (nullable): the name of the search service
 *
 * Since: 0.1
 */
const char *
agent_search_backend_get_name (AgentSearchBackend *self)
{
  AgentSearchBackendPrivate *priv;

  g_return_val_if_fail (AGENT_IS_SEARCH_BACKEND (self), NULL);

  priv = agent_search_backend_get_instance_private (self);
  return priv->name;
}

/**
 * agent_search_backend_search:
 * @self: a [class@Agent.SearchBackend]
 * @query: what to search for
 * @max_results: how many results at most (1 to 20)
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @error: return location for a [struct@GLib.Error]
 *
 * Searches the web, blocking the calling thread (the `web_search` tool
 * calls it from a worker thread).
 *
 * Returns: (transfer full): a JSON array of objects with `title`, `url`
 *   and `snippet`, or %NULL with @error set
 *
 * Since: 0.1
 */
JsonNode *
agent_search_backend_search (AgentSearchBackend  *self,
                             const char          *query,
                             guint                max_results,
                             GCancellable        *cancellable,
                             GError             **error)
{
  g_return_val_if_fail (AGENT_IS_SEARCH_BACKEND (self), NULL);
  g_return_val_if_fail (query != NULL, NULL);

  return AGENT_SEARCH_BACKEND_GET_CLASS (self)->search (self, query, CLAMP (max_results, 1, 20),
                                                        cancellable, error);
}

/* Checks a base URL given by the caller */
char *
_agent_search_backend_check_base_url (const char  *base_url,
                                      const char  *what,
                                      GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *shown = NULL;
  const char *scheme;

  if (base_url == NULL || base_url[0] == '\0')
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s needs the URL of its server"), what);
      return NULL;
    }

  uri = g_uri_parse (base_url, SOUP_HTTP_URI_FLAGS, NULL);
  scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
  if (uri == NULL || g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0' ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    {
      shown = _agent_url_hide_userinfo (base_url);
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not an http or https URL for %s"), shown, what);
      return NULL;
    }

  return g_strdup (base_url);
}

/* The service's own words in an error answer (Tavily's
 * {"detail": {"error": …}}, {"error": {"message": …}}, {"message": …}),
 * cut short and with @secrets hidden; NULL if it has none */
static char *
error_detail (GBytes             *body,
              const char * const *secrets)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *found = NULL;
  gsize size = 0;
  const char *data = body != NULL ? g_bytes_get_data (body, &size) : NULL;
  JsonNode *node;

  if (data == NULL || size == 0 || !json_parser_load_from_data (parser, data, size, NULL))
    return NULL;

  node = json_parser_get_root (parser);
  for (guint depth = 0; node != NULL && found == NULL && depth < 3; depth++)
    {
      JsonObject *object;
      JsonNode *next = NULL;
      const char * const members[] = { "detail", "error", "message", NULL };

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        {
          found = json_node_get_string (node);
          break;
        }
      if (!JSON_NODE_HOLDS_OBJECT (node))
        break;
      object = json_node_get_object (node);
      for (guint i = 0; members[i] != NULL && next == NULL; i++)
        next = json_object_get_member (object, members[i]);
      node = next;
    }
  if (found == NULL || found[0] == '\0')
    return NULL;

  return agent_excerpt (found, strlen (found), 200, secrets);
}

/* Reads the answer to @message from @stream, @max bytes at most */
static GBytes *
read_answer (AgentSearchBackend  *self,
             GInputStream        *stream,
             gsize                max,
             GCancellable        *cancellable,
             GError             **error)
{
  const char *name = agent_search_backend_get_name (self);
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autoptr(GError) local_error = NULL;

  for (;;)
    {
      gsize old = data->len;
      gssize n;

      g_byte_array_set_size (data, old + 16384);
      n = g_input_stream_read (stream, data->data + old, 16384, cancellable, &local_error);
      if (n < 0)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_propagate_error (error, g_steal_pointer (&local_error));
          else
            g_set_error (error, AGENT_ERROR, AGENT_ERROR_NETWORK,
                         _("Could not read the answer of %s: %s"), name, local_error->message);
          return NULL;
        }
      g_byte_array_set_size (data, old + n);
      if (n == 0)
        break;
      if (data->len > max)
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT,
                       _("The answer of %s is larger than %d bytes"), name, (int) max);
          return NULL;
        }
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&data));
}

/* Sends @message (to @url, shown without its password), bounded in size
 * and time; the answer parsed as JSON. @secret, if any, is kept out of
 * errors; an HTTP error keeps its status
 * ([func@Agent.Error.get_http_status]). */
JsonNode *
_agent_search_backend_send_json (AgentSearchBackend  *self,
                                 SoupMessage         *message,
                                 const char          *url,
                                 const char          *secret,
                                 GCancellable        *cancellable,
                                 GError             **error)
{
  const char *name = agent_search_backend_get_name (self);
  const char * const secrets[] = { secret, NULL };
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *shown = _agent_url_hide_userinfo (url);
  guint status;

  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept",
                                "application/json");
  session = soup_session_new_with_options ("user-agent", "libagent/" AGENT_VERSION_S,
                                           "timeout", SEARCH_TIMEOUT,
                                           NULL);
  stream = soup_session_send (session, message, cancellable, &local_error);
  if (stream == NULL)
    {
      g_autofree char *reason = NULL;

      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      reason = agent_redact (local_error->message, secrets);
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_NETWORK,
                   _("Could not reach %s at %s: %s"), name, shown, reason);
      return NULL;
    }

  status = soup_message_get_status (message);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_autoptr(GBytes) answer = read_answer (self, stream, MAX_ERROR_BYTES, cancellable, NULL);
      g_autofree char *detail = error_detail (answer, secrets);
      g_autofree char *text = NULL;
      GError *failure;

      if (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
        text = g_strdup_printf (_("%s refused the API key (HTTP %u)"), name, status);
      else if (status == 429)   /* Too Many Requests */
        text = g_strdup_printf (_("%s takes no more searches for now (HTTP %u, too many "
                                  "requests)"), name, status);
      else
        text = g_strdup_printf (_("Searching with %s at %s failed: HTTP %u"), name, shown, status);
      if (detail != NULL)
        {
          char *with_detail = g_strconcat (text, ": ", detail, NULL);

          g_free (text);
          text = with_detail;
        }
      failure = g_error_new_literal (AGENT_ERROR,
                                     status == SOUP_STATUS_UNAUTHORIZED ||
                                     status == SOUP_STATUS_FORBIDDEN
                                     ? AGENT_ERROR_AUTHENTICATION : AGENT_ERROR_HTTP,
                                     text);
      _agent_error_set_http_status (failure, status);
      g_propagate_error (error, failure);
      return NULL;
    }

  body = read_answer (self, stream, MAX_ANSWER_BYTES, cancellable, error);
  if (body == NULL)
    return NULL;

  if (!json_parser_load_from_data (parser, g_bytes_get_data (body, NULL), g_bytes_get_size (body),
                                   &local_error))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                   _("%s did not answer with JSON: %s"), name, local_error->message);
      return NULL;
    }

  return json_parser_steal_root (parser);
}

/* GET @base_url with @params appended; @key_header carries @secret */
static JsonNode *
get_json (AgentSearchBackend  *self,
          const char          *base_url,
          GHashTable          *params,
          const char          *key_header,
          const char          *secret,
          GCancellable        *cancellable,
          GError             **error)
{
  g_autoptr(SoupMessage) message = NULL;
  g_autofree char *encoded = soup_form_encode_hash (params);
  g_autofree char *url = NULL;

  url = g_strconcat (base_url, strchr (base_url, '?') != NULL ? "&" : "?", encoded, NULL);
  message = soup_message_new ("GET", url);
  if (message == NULL)
    {
      g_autofree char *shown = _agent_url_hide_userinfo (base_url);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("Could not search with %s: “%s” is not a valid URL"),
                   agent_search_backend_get_name (self), shown);
      return NULL;
    }
  if (key_header != NULL && secret != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message), key_header,
                                  secret);

  return _agent_search_backend_send_json (self, message, base_url, secret, cancellable, error);
}

static const char *
string_member (JsonObject *object,
               const char *member,
               const char *fallback)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return fallback;

  return json_node_get_string (node);
}

/* Picks title, url and snippet out of each object of @results. */
JsonNode *
_agent_search_backend_collect_results (JsonArray  *results,
                                       const char *snippet_member,
                                       guint       max_results)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint n = 0;

  json_builder_begin_array (builder);
  for (guint i = 0; results != NULL && i < json_array_get_length (results) && n < max_results;
       i++)
    {
      JsonNode *node = json_array_get_element (results, i);
      JsonObject *result;
      const char *title, *url, *snippet;
      g_autofree char *snippet_text = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      result = json_node_get_object (node);
      title = string_member (result, "title", "");
      url = string_member (result, "url", NULL);
      snippet = string_member (result, snippet_member, "");
      if (url == NULL)
        continue;

      /* Snippets come with <strong> around the words searched for, and entities */
      snippet_text = _agent_html_to_markdown (snippet, strlen (snippet), "UTF-8", NULL, NULL);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, title);
      json_builder_set_member_name (builder, "url");
      json_builder_add_string_value (builder, url);
      json_builder_set_member_name (builder, "snippet");
      json_builder_add_string_value (builder, snippet_text);
      json_builder_end_object (builder);
      n++;
    }
  json_builder_end_array (builder);

  return json_builder_get_root (builder);
}

JsonArray *
_agent_search_backend_get_array (JsonNode   *root,
                                 const char *outer,
                                 const char *member)
{
  JsonObject *object;
  JsonNode *node;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  object = json_node_get_object (root);
  if (outer != NULL)
    {
      node = json_object_get_member (object, outer);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        return NULL;
      object = json_node_get_object (node);
    }
  node = json_object_get_member (object, member);
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

/* SearXNG */

#define AGENT_TYPE_SEARXNG_BACKEND (agent_searxng_backend_get_type ())
G_DECLARE_FINAL_TYPE (AgentSearxngBackend, agent_searxng_backend, AGENT, SEARXNG_BACKEND,
                      AgentSearchBackend)

struct _AgentSearxngBackend
{
  AgentSearchBackend parent_instance;
  char *search_url;
};

G_DEFINE_FINAL_TYPE (AgentSearxngBackend, agent_searxng_backend, AGENT_TYPE_SEARCH_BACKEND)

static JsonNode *
searxng_search (AgentSearchBackend  *backend,
                const char          *query,
                guint                max_results,
                GCancellable        *cancellable,
                GError             **error)
{
  AgentSearxngBackend *self = AGENT_SEARXNG_BACKEND (backend);
  g_autoptr(GHashTable) params = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonNode) root = NULL;
  JsonArray *results;

  g_hash_table_insert (params, (char *) "q", (char *) query);
  g_hash_table_insert (params, (char *) "format", (char *) "json");
  root = get_json (backend, self->search_url, params, NULL, NULL, cancellable, error);
  if (root == NULL)
    return NULL;

  results = _agent_search_backend_get_array (root, NULL, "results");
  if (results == NULL)
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_PROTOCOL,
                           _("SearXNG answered without a “results” array"));
      return NULL;
    }

  return _agent_search_backend_collect_results (results, "content", max_results);
}

static void
agent_searxng_backend_finalize (GObject *object)
{
  g_free (AGENT_SEARXNG_BACKEND (object)->search_url);

  G_OBJECT_CLASS (agent_searxng_backend_parent_class)->finalize (object);
}

static void
agent_searxng_backend_class_init (AgentSearxngBackendClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = agent_searxng_backend_finalize;
  AGENT_SEARCH_BACKEND_CLASS (klass)->search = searxng_search;
}

static void
agent_searxng_backend_init (AgentSearxngBackend *self)
{
}

/**
 * agent_search_backend_new_searxng:
 * @base_url: the URL of a SearXNG instance, such as `"https://searx.example.org"`
 * @error: return location for a [struct@GLib.Error]
 *
 * Creates a backend that asks a SearXNG instance (or any server with its
 * JSON API): `GET {base_url}/search?q=…&format=json`, reading
 * `results[].title`, `url` and `content`. The instance must have the
 * JSON format enabled (`search.formats` in its settings.yml).
 *
 * Returns: (transfer full): a new [class@Agent.SearchBackend], or %NULL
 *   with %AGENT_ERROR_INVALID_ARGUMENT if @base_url is not an http or
 *   https URL
 *
 * Since: 0.1
 */
AgentSearchBackend *
agent_search_backend_new_searxng (const char  *base_url,
                                  GError     **error)
{
  g_autofree char *checked = _agent_search_backend_check_base_url (base_url, "SearXNG", error);
  AgentSearxngBackend *self;
  gsize length;

  if (checked == NULL)
    return NULL;

  length = strlen (checked);
  while (length > 0 && checked[length - 1] == '/')
    checked[--length] = '\0';

  self = g_object_new (AGENT_TYPE_SEARXNG_BACKEND, "name", "SearXNG", NULL);
  self->search_url = g_strconcat (checked, "/search", NULL);

  return AGENT_SEARCH_BACKEND (self);
}

/* Brave Search */

#define AGENT_TYPE_BRAVE_BACKEND (agent_brave_backend_get_type ())
G_DECLARE_FINAL_TYPE (AgentBraveBackend, agent_brave_backend, AGENT, BRAVE_BACKEND,
                      AgentSearchBackend)

struct _AgentBraveBackend
{
  AgentSearchBackend parent_instance;
  char *url;
  char *api_key;
};

G_DEFINE_FINAL_TYPE (AgentBraveBackend, agent_brave_backend, AGENT_TYPE_SEARCH_BACKEND)

static JsonNode *
brave_search (AgentSearchBackend  *backend,
              const char          *query,
              guint                max_results,
              GCancellable        *cancellable,
              GError             **error)
{
  AgentBraveBackend *self = AGENT_BRAVE_BACKEND (backend);
  g_autoptr(GHashTable) params = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *count = g_strdup_printf ("%u", MIN (max_results, 20));
  JsonArray *results;

  g_hash_table_insert (params, (char *) "q", (char *) query);
  g_hash_table_insert (params, (char *) "count", count);
  root = get_json (backend, self->url, params, "X-Subscription-Token", self->api_key,
                   cancellable, error);
  if (root == NULL)
    return NULL;

  /* No "web" member: nothing was found */
  results = _agent_search_backend_get_array (root, "web", "results");

  return _agent_search_backend_collect_results (results, "description", max_results);
}

static void
agent_brave_backend_finalize (GObject *object)
{
  AgentBraveBackend *self = AGENT_BRAVE_BACKEND (object);

  g_free (self->url);
  g_free (self->api_key);

  G_OBJECT_CLASS (agent_brave_backend_parent_class)->finalize (object);
}

static void
agent_brave_backend_class_init (AgentBraveBackendClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = agent_brave_backend_finalize;
  AGENT_SEARCH_BACKEND_CLASS (klass)->search = brave_search;
}

static void
agent_brave_backend_init (AgentBraveBackend *self)
{
}

/**
 * agent_search_backend_new_brave:
 * @api_key: a Brave Search API key
 * @base_url: (nullable): the URL of the web search endpoint, %NULL for
 *   `https://api.search.brave.com/res/v1/web/search`
 * @error: return location for a [struct@GLib.Error]
 *
 * Creates a backend that asks the Brave Search API, sending @api_key in
 * the `X-Subscription-Token` header (never in a log or an error) and
 * reading `web.results[].title`, `url` and `description`.
 *
 * Returns: (transfer full): a new [class@Agent.SearchBackend], or %NULL
 *   with %AGENT_ERROR_INVALID_ARGUMENT if @api_key is empty or @base_url
 *   is not an http or https URL
 *
 * Since: 0.1
 */
AgentSearchBackend *
agent_search_backend_new_brave (const char  *api_key,
                                const char  *base_url,
                                GError     **error)
{
  g_autofree char *checked = NULL;
  AgentBraveBackend *self;

  if (api_key == NULL || api_key[0] == '\0')
    {
      g_set_error_literal (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                           _("Brave Search needs an API key"));
      return NULL;
    }

  checked = _agent_search_backend_check_base_url (base_url != NULL ? base_url : AGENT_BRAVE_URL,
                                                  "Brave Search", error);
  if (checked == NULL)
    return NULL;

  self = g_object_new (AGENT_TYPE_BRAVE_BACKEND, "name", "Brave Search", NULL);
  self->url = g_steal_pointer (&checked);
  self->api_key = g_strdup (api_key);

  return AGENT_SEARCH_BACKEND (self);
}

/* By name */

typedef struct
{
  const char *name;
  const char *default_url;
  const char *api_key_variable;
} KnownBackend;

static const KnownBackend known_backends[] = {
  { "searxng", NULL, NULL },
  { "brave", AGENT_BRAVE_URL, "BRAVE_API_KEY" },
  { "tavily", AGENT_TAVILY_URL, "TAVILY_API_KEY" },
};

static const KnownBackend *
find_known (const char *name)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (known_backends); i++)
    if (g_str_equal (known_backends[i].name, name))
      return &known_backends[i];
  return NULL;
}

/**
 * agent_search_backend_list_names:
 *
 * Lists the names of the search services libagent knows, as
 * [ctor@Agent.SearchBackend.new_for_name] takes them: `searxng`, `brave`
 * and `tavily`.
 *
 * Returns: (transfer none) (array zero-terminated=1): the names
 *
 * Since: 0.1
 */
const char * const *
agent_search_backend_list_names (void)
{
  static const char * const names[] = { "searxng", "brave", "tavily", NULL };

  return names;
}

/**
 * agent_search_backend_get_default_url:
 * @name: a name of [func@Agent.SearchBackend.list_names]
 *
 * Gets the URL of the service @name when none is given: where its keyed
 * API is (the URL its key is kept under in the keyring), or %NULL for
 * `searxng`, which has no URL of its own, and for an unknown name.
 *
 * Returns: (transfer none) (nullable): the service's own URL
 *
 * Since: 0.1
 */
const char *
agent_search_backend_get_default_url (const char *name)
{
  const KnownBackend *known = find_known (name);

  return known != NULL ? known->default_url : NULL;
}

/**
 * agent_search_backend_get_api_key_variable:
 * @name: a name of [func@Agent.SearchBackend.list_names]
 *
 * Gets the environment variable that holds the API key of the service
 * @name by convention (`BRAVE_API_KEY`, `TAVILY_API_KEY`), as agent-cli and
 * [method@Agent.Profile.create_search_backend] read it.
 *
 * Returns: (transfer none) (nullable): the variable's name, or %NULL for a
 *   service that needs no key (`searxng`) or an unknown name
 *
 * Since: 0.1
 */
const char *
agent_search_backend_get_api_key_variable (const char *name)
{
  const KnownBackend *known = find_known (name);

  return known != NULL ? known->api_key_variable : NULL;
}

/**
 * agent_search_backend_new_for_name:
 * @name: the service, one of [func@Agent.SearchBackend.list_names]
 * @url: (nullable): for `searxng` the URL of the instance (required), for
 *   the others their endpoint, %NULL for the service's own
 * @api_key: (nullable): the API key, required by `brave` and `tavily`,
 *   ignored by `searxng`
 * @error: return location for a [struct@GLib.Error]
 *
 * Creates the backend of the service @name:
 * [ctor@Agent.SearchBackend.new_searxng],
 * [ctor@Agent.SearchBackend.new_brave] or
 * [ctor@Agent.SearchBackend.new_tavily]. For programs whose users choose
 * the service by name, as agent-cli's `--search-provider` and profiles
 * ([property@Agent.Profile:search-provider]) do.
 *
 * Returns: (transfer full): a new [class@Agent.SearchBackend], or %NULL
 *   with %AGENT_ERROR_INVALID_ARGUMENT for an unknown name, a missing key
 *   or URL, or a URL that is not http or https
 *
 * Since: 0.1
 */
AgentSearchBackend *
agent_search_backend_new_for_name (const char  *name,
                                   const char  *url,
                                   const char  *api_key,
                                   GError     **error)
{
  g_return_val_if_fail (name != NULL, NULL);

  if (g_str_equal (name, "searxng"))
    return agent_search_backend_new_searxng (url, error);
  if (g_str_equal (name, "brave"))
    return agent_search_backend_new_brave (api_key, url, error);
  if (g_str_equal (name, "tavily"))
    return agent_search_backend_new_tavily (api_key, url, error);

  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("Unknown search service “%s” (known: searxng, brave, tavily)"), name);
  return NULL;
}
