/* agent-provider-private.h
 *
 * A provider differs from another only in how it writes the request and
 * reads the stream. Each one is an AgentProviderBackend in providers/; the
 * accumulator, the loop, limits and errors are shared.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "wire/agent-accumulator-private.h"
#include "json/agent-json-private.h"
#include "transport/agent-provider.h"
#include "transport/agent-request-settings-private.h"
#include "messages/agent-content-part-private.h"
#include "wire/agent-stream-decoder-private.h"

G_BEGIN_DECLS

typedef struct
{
  AgentProvider *provider;
  const char    *model;
  const char    *system_prompt;
  GListModel    *messages;   /* of AgentMessage */
  GListModel    *tools;      /* of AgentTool */
  /* Structured output (AgentSession:output-schema): the answer is to follow
   * this JSON Schema (NULL: prose), under this name (a tool's, for the
   * providers whose backend has output_by_tool) */
  JsonNode      *output_schema;
  const char    *output_name;
  /* What the request asks besides its messages: the provider's, the
   * session's and the step's settings merged (NULL: nothing set) */
  AgentRequestSettings *settings;
  /* The session's context window in tokens (0: unknown), for the APIs
   * whose window each request sizes (Ollama's num_ctx) */
  guint64        context_window;
  /* Images are sent scaled down by this rule (the backend's images, when
   * AgentSession:scale-images is on), or as they are (NULL) */
  const AgentImageRule *scale_images;
  /* What the model can do (AgentModelCapabilities), as its server said
   * (Ollama's /api/show: agent-turn-capabilities.c); 0: unknown */
  guint          capabilities;
} AgentRequest;

typedef struct _AgentProviderBackend AgentProviderBackend;
struct _AgentStep;

struct _AgentProviderBackend
{
  const char   *name;
  const char   *default_base_url;
  const char   *api_key_variable;
  const char   *default_model;

  /* The request body, as bytes of JSON. */
  GBytes   *(*build_body)    (const AgentRequest  *request,
                              GError             **error);
  /* The path below the base URL, e.g. "/chat/completions". */
  char     *(*build_path)    (const AgentRequest  *request);
  /* Adds authentication and provider headers. */
  void      (*add_headers)   (AgentProvider       *provider,
                              SoupMessageHeaders  *headers);

  /* How its answer streams: the display name, framing and event decoder */
  AgentStreamFormat stream;

  /* Structured output comes as the arguments of a forced call of a tool
   * named output_name (Anthropic), not as the answer's text */
  gboolean    output_by_tool;

  /* Whether its API takes @part in a message of @role, and the API's name
   * in the error that says it does not (agent-provider-parts.c): a turn
   * refuses the user's message before keeping it */
  gboolean  (*accepts_part)  (AgentContentPart    *part,
                              AgentMessageRole     role);
  const char *parts_name;
  /* What its API makes of images and documents: the largest image it
   * documents as useful, the tokens it bills */
  const AgentImageRule *images;

  /* Listing models: GET {base}{models_path}; the names in the answer. */
  const char *models_path;
  char     **(*parse_models) (const AgentJson     *root);

  /* A step run elsewhere, not over HTTP (the desktop service's RunStep:
   * transport/agent-step-remote.c): the request written at once, then sent
   * when the step has its slot. NULL for the HTTP APIs. */
  gboolean  (*build_remote)  (struct _AgentStep   *step,
                              const AgentRequest  *request,
                              GError             **error);
  void      (*run_remote)    (struct _AgentStep   *step);
};

/* What agent-provider-http.c and agent-provider-slots.c keep of a provider;
 * the provider owns them. The HTTP settings are the provider's properties
 * (agent-provider.c), the rest agent-provider-http.c's. */
typedef struct _AgentProviderHttp  AgentProviderHttp;
typedef struct _AgentProviderSlots AgentProviderSlots;

struct _AgentProviderHttp
{
  char        *api_key;   /* sent, and redacted; never shown */
  SoupSession *soup_session;
  double       connect_timeout;
  double       first_byte_timeout;
  double       idle_timeout;
  guint        max_retries;
  guint64      max_response_size;
  char        *tls_ca_file;
  GCancellable *cancellable;  /* cancelled by a dispose: see _agent_provider_get_cancellable() */
};

AgentProviderHttp          *_agent_provider_http_new          (void);
void                        _agent_provider_http_dispose      (AgentProviderHttp   *http);
void                        _agent_provider_http_free         (AgentProviderHttp   *http);
gboolean                    _agent_provider_http_set_api_key  (AgentProviderHttp   *http,
                                                               const char          *api_key);
AgentProviderSlots         *_agent_provider_slots_new         (void);
void                        _agent_provider_slots_free        (AgentProviderSlots  *slots);
guint                       _agent_provider_slots_get_max     (AgentProviderSlots  *slots);
gboolean                    _agent_provider_slots_set_max     (AgentProviderSlots  *slots,
                                                               guint                max_concurrent);

/* agent-provider-settings.c: what keep-alive may say */
gboolean                    _agent_keep_alive_is_valid        (const char          *text);
gboolean                    _agent_keep_alive_is_seconds      (const char          *text);

const AgentProviderBackend *_agent_provider_get_backend       (AgentProvider       *self);
/* While a backend builds a request's body on this thread: the request's
 * scale_images (the writers of its parts are reached through callbacks
 * that carry a message, not the request) */
const AgentImageRule       *_agent_provider_get_writing_images (void);
AgentProviderHttp          *_agent_provider_get_http          (AgentProvider       *self);
AgentProviderSlots         *_agent_provider_get_slots         (AgentProvider       *self);
SoupSession                *_agent_provider_get_soup_session  (AgentProvider       *self,
                                                               GError             **error);
GCancellable               *_agent_provider_get_cancellable   (AgentProvider       *self);
SoupMessage                *_agent_provider_build_message     (AgentProvider       *self,
                                                               const AgentRequest  *request,
                                                               GError             **error);
/* Sets @body as @message's request body, and again each time libsoup
 * restarts @message. libsoup 3 drops the body of a message it restarts
 * (an idempotent request, a DELETE, sent again on a new connection when
 * the kept-alive one closed under it): it would write the headers alone,
 * Content-Length and all, and wait for an answer that never comes. */
void                        _agent_message_set_body           (SoupMessage         *message,
                                                               const char          *content_type,
                                                               GBytes              *body);
GError                     *_agent_provider_error_from_http   (const char * const  *secrets,
                                                               guint                status,
                                                               const char          *reason,
                                                               const char          *body,
                                                               gsize                len);
GError                     *_agent_provider_error_from_redirect (const char * const *secrets,
                                                                 SoupMessage        *message);
/* A request's transfer that failed, as the user reads it: cancellation and
 * AGENT_ERRORs as they are, any other (GIO's, libsoup's) as
 * AGENT_ERROR_NETWORK naming the host, @secrets redacted. Takes @error. */
GError                     *_agent_provider_transfer_error    (const char * const  *secrets,
                                                               SoupMessage         *message,
                                                               GError              *error);
/* Closes an answer's stream at once (and with it the connection): what is
 * left of the answer is not wanted. Clears *@stream. */
void                        _agent_close_stream_now           (GInputStream       **stream);
char                       *_agent_provider_redact            (AgentProvider       *self,
                                                               const char          *text);
char                      **_agent_provider_dup_secrets       (AgentProvider       *self);
char                      **_agent_provider_dup_request_secrets (AgentProvider     *self,
                                                                 AgentRequestSettings *settings);
void                        _agent_secrets_free               (char               **secrets);
void                        _agent_provider_add_bearer_auth   (AgentProvider       *self,
                                                               SoupMessageHeaders  *headers);
gboolean                    _agent_provider_add_headers       (AgentProvider       *self,
                                                               AgentRequestSettings *settings,
                                                               SoupMessageHeaders  *headers,
                                                               GError             **error);
void                        _agent_provider_add_api_key_header (AgentProvider      *self,
                                                                SoupMessageHeaders *headers,
                                                                const char         *name);
GBytes                     *_agent_provider_get_request_body  (SoupMessage         *message);
char                       *_agent_provider_build_url         (AgentProvider       *self,
                                                               const char          *path,
                                                               GError             **error);
GError                     *_agent_provider_error_from_json_value (const char * const *secrets,
                                                                   int                 code,
                                                                   const char         *prefix,
                                                                   const AgentJson    *root);
GError                     *_agent_provider_error_from_json   (const char * const  *secrets,
                                                               int                  code,
                                                               const char          *prefix,
                                                               const char          *json,
                                                               gsize                len);

void                        _agent_provider_acquire_async     (AgentProvider       *self,
                                                               GCancellable        *cancellable,
                                                               GAsyncReadyCallback  callback,
                                                               gpointer             user_data);
gboolean                    _agent_provider_acquire_finish    (AgentProvider       *self,
                                                               GAsyncResult        *result,
                                                               GError             **error);
void                        _agent_provider_release           (AgentProvider       *self);

extern const AgentProviderBackend agent_openai_chat_backend;
extern const AgentProviderBackend agent_openai_responses_backend;
extern const AgentProviderBackend agent_anthropic_backend;
extern const AgentProviderBackend agent_ollama_backend;
extern const AgentProviderBackend agent_gemini_backend;
extern const AgentProviderBackend agent_desktop_backend;

G_END_DECLS
