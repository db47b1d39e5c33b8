/* agent-test-server.h
 *
 * A real HTTP server for tests: an in-process SoupServer on 127.0.0.1 that
 * answers each request with the next scripted response, writing its body
 * as chunked transfer-encoding, one chunk per write, with optional delays,
 * pauses and an abrupt close. It records every request it received.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct _AgentTestServer AgentTestServer;
typedef struct _AgentTestResponse AgentTestResponse;

/* See agent_test_server_set_responder(); @body is NULL unless JSON. */
typedef void (*AgentTestResponder) (AgentTestServer *server,
                                    const char      *path,
                                    JsonNode        *body,
                                    gpointer         user_data);

AgentTestServer   *agent_test_server_new                (void);
AgentTestServer   *agent_test_server_new_tls            (const char        *certificate_file,
                                                         const char        *key_file);
void               agent_test_server_free               (AgentTestServer   *self);
const char        *agent_test_server_get_base_url       (AgentTestServer   *self);
AgentTestResponse *agent_test_server_add_response       (AgentTestServer   *self,
                                                         guint              status);
guint              agent_test_server_get_n_requests     (AgentTestServer   *self);
JsonNode          *agent_test_server_get_request_body   (AgentTestServer   *self,
                                                         guint              index);
const char        *agent_test_server_get_request_text   (AgentTestServer   *self,
                                                         guint              index);
GBytes            *agent_test_server_get_request_bytes  (AgentTestServer   *self,
                                                         guint              index);
const char        *agent_test_server_get_request_header (AgentTestServer   *self,
                                                         guint              index,
                                                         const char        *name);
const char        *agent_test_server_get_request_path   (AgentTestServer   *self,
                                                         guint              index);
const char        *agent_test_server_get_request_method (AgentTestServer   *self,
                                                         guint              index);
guint16            agent_test_server_get_request_port   (AgentTestServer   *self,
                                                         guint              index);
guint              agent_test_server_get_n_pending      (AgentTestServer   *self);
void               agent_test_server_release            (AgentTestServer   *self);
gboolean           agent_test_server_is_waiting         (AgentTestServer   *self);
void               agent_test_server_wait_until_waiting (AgentTestServer   *self);
guint              agent_test_server_get_n_aborted      (AgentTestServer   *self);
guint              agent_test_server_get_n_waiting      (AgentTestServer   *self);
void               agent_test_server_set_responder      (AgentTestServer   *self,
                                                         AgentTestResponder responder,
                                                         gpointer           user_data);
void               agent_test_server_set_keep_alive     (AgentTestServer   *self);

void               agent_test_response_set_content_type (AgentTestResponse *self,
                                                         const char        *content_type);
void               agent_test_response_set_reason       (AgentTestResponse *self,
                                                         const char        *reason);
void               agent_test_response_add_header       (AgentTestResponse *self,
                                                         const char        *name,
                                                         const char        *value);
void               agent_test_response_add_bytes        (AgentTestResponse *self,
                                                         const char        *data,
                                                         gssize             len);
void               agent_test_response_add_sse          (AgentTestResponse *self,
                                                         const char        *json);
void               agent_test_response_add_sse_printf   (AgentTestResponse *self,
                                                         const char        *format,
                                                         ...) G_GNUC_PRINTF (2, 3);
void               agent_test_response_add_done         (AgentTestResponse *self);
void               agent_test_response_add_delay        (AgentTestResponse *self,
                                                         guint              msec);
void               agent_test_response_add_wait         (AgentTestResponse *self);
void               agent_test_response_set_drop         (AgentTestResponse *self);
void               agent_test_response_set_drop_at_boundary (AgentTestResponse *self);
void               agent_test_response_set_hang_up      (AgentTestResponse *self);
void               agent_test_response_set_body         (AgentTestResponse *self,
                                                         const char        *content_type,
                                                         const char        *body);
void               agent_test_response_add_file_in_pieces (AgentTestResponse *self,
                                                           const char        *path,
                                                           guint32            seed,
                                                           gsize              max_piece);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentTestServer, agent_test_server_free)

G_END_DECLS
