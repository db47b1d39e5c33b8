/* test-mcp-resources.c — the resources of MCP servers
 *
 * The reference server-everything over stdio: listing resources and
 * templates, reading them as content parts (text and blob), a resource
 * that does not exist, subscriptions and notifications/resources/updated;
 * tests/mcp/features-server.mjs, which offers no resources.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <agent.h>

#include "agent-test-mcp.h"
#include "agent-test-util.h"

typedef struct
{
  GListModel *model;
  GError     *error;
  gboolean    done;
  gboolean    ok;
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_clear_object (&outcome->model);
  g_clear_error (&outcome->error);
  outcome->done = FALSE;
  outcome->ok = FALSE;
}

static gboolean
outcome_done (gpointer data)
{
  return ((Outcome *) data)->done;
}

static void
list_resources_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->model = agent_mcp_client_list_resources_finish (AGENT_MCP_CLIENT (object), result,
                                                           &outcome->error);
  outcome->done = TRUE;
}

static void
list_templates_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->model = agent_mcp_client_list_resource_templates_finish (AGENT_MCP_CLIENT (object),
                                                                    result, &outcome->error);
  outcome->done = TRUE;
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->model = agent_mcp_client_read_resource_finish (AGENT_MCP_CLIENT (object), result,
                                                          &outcome->error);
  outcome->done = TRUE;
}

static void
subscribed_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->ok = agent_mcp_client_subscribe_resource_finish (AGENT_MCP_CLIENT (object), result,
                                                            &outcome->error);
  outcome->done = TRUE;
}

static void
unsubscribed_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->ok = agent_mcp_client_unsubscribe_resource_finish (AGENT_MCP_CLIENT (object), result,
                                                              &outcome->error);
  outcome->done = TRUE;
}

static void
read_resource (AgentMcpClient *client,
               const char     *uri,
               Outcome        *outcome)
{
  outcome_clear (outcome);
  agent_mcp_client_read_resource_async (client, uri, NULL, read_cb, outcome);
  agent_test_wait_until (outcome_done, outcome);
}

static char *
part_text (AgentContentPart *part)
{
  GBytes *data = agent_content_part_get_data (part);
  gsize len;
  const char *bytes = g_bytes_get_data (data, &len);

  return g_strndup (bytes, len);
}

static void
test_list (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  Outcome outcome = { 0 };
  gboolean has_features = FALSE;
  JsonObject *capabilities;

  /* Not connected: it connects first */
  agent_mcp_client_list_resources_async (client, NULL, list_resources_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_no_error (outcome.error);
  capabilities = json_node_get_object (agent_mcp_client_get_capabilities (client));
  g_assert_true (json_object_get_boolean_member (
    json_object_get_object_member (capabilities, "resources"), "subscribe"));

  g_assert_cmpuint (g_list_model_get_n_items (outcome.model), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (outcome.model); i++)
    {
      g_autoptr(AgentMcpResource) resource = g_list_model_get_item (outcome.model, i);

      g_assert_nonnull (agent_mcp_resource_get_uri (resource));
      g_assert_null (agent_mcp_resource_get_uri_template (resource));
      if (g_str_equal (agent_mcp_resource_get_uri (resource),
                       "demo://resource/static/document/features.md"))
        {
          has_features = TRUE;
          g_assert_cmpstr (agent_mcp_resource_get_name (resource), ==, "features.md");
          g_assert_cmpstr (agent_mcp_resource_get_mime_type (resource), ==, "text/markdown");
          g_assert_nonnull (agent_mcp_resource_get_description (resource));
          g_assert_cmpint (agent_mcp_resource_get_size (resource), ==, -1);
        }
    }
  g_assert_true (has_features);

  outcome_clear (&outcome);
  agent_mcp_client_list_resource_templates_async (client, NULL, list_templates_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_cmpuint (g_list_model_get_n_items (outcome.model), ==, 2);
  {
    g_autoptr(AgentMcpResource) template = g_list_model_get_item (outcome.model, 0);
    g_autofree char *uri_template = NULL;

    g_assert_null (agent_mcp_resource_get_uri (template));
    g_object_get (template, "uri-template", &uri_template, NULL);
    g_assert_cmpstr (uri_template, ==, "demo://resource/dynamic/text/{resourceId}");
  }

  outcome_clear (&outcome);
  agent_test_mcp_close (client);
}

static void
test_read (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  g_autoptr(AgentContentPart) part = NULL;
  g_autofree char *text = NULL;
  Outcome outcome = { 0 };

  agent_test_mcp_connect (client);

  /* Text: a file part of its type, named by its URI, that goes inline */
  read_resource (client, "demo://resource/static/document/features.md", &outcome);
  g_assert_no_error (outcome.error);
  g_assert_cmpuint (g_list_model_get_n_items (outcome.model), ==, 1);
  part = g_list_model_get_item (outcome.model, 0);
  g_assert_cmpint (agent_content_part_get_kind (part), ==, AGENT_CONTENT_PART_KIND_FILE);
  g_assert_cmpstr (agent_content_part_get_mime_type (part), ==, "text/markdown");
  g_assert_cmpstr (agent_content_part_get_name (part), ==,
                   "demo://resource/static/document/features.md");
  text = part_text (part);
  g_assert_nonnull (strstr (text, "#"));
  g_clear_object (&part);
  g_clear_pointer (&text, g_free);

  /* A template filled in */
  read_resource (client, "demo://resource/dynamic/text/3", &outcome);
  g_assert_no_error (outcome.error);
  part = g_list_model_get_item (outcome.model, 0);
  text = part_text (part);
  g_assert_true (g_str_has_prefix (text, "Resource 3: This is a plaintext resource"));
  g_clear_object (&part);
  g_clear_pointer (&text, g_free);

  /* A blob, decoded */
  read_resource (client, "demo://resource/dynamic/blob/4", &outcome);
  g_assert_no_error (outcome.error);
  part = g_list_model_get_item (outcome.model, 0);
  g_assert_cmpstr (agent_content_part_get_mime_type (part), ==, "text/plain");
  text = part_text (part);
  g_assert_true (g_str_has_prefix (text, "Resource 4: This is a base64 blob"));

  /* One the server does not have: its error */
  read_resource (client, "demo://resource/nothing/here", &outcome);
  g_assert_null (outcome.model);
  g_assert_nonnull (outcome.error);
  g_assert_nonnull (strstr (outcome.error->message, "demo://resource/nothing/here"));

  outcome_clear (&outcome);
  agent_test_mcp_close (client);
}

static void
resource_updated_cb (AgentMcpClient *client,
                     const char     *uri,
                     GPtrArray      *updated)
{
  g_ptr_array_add (updated, g_strdup (uri));
}

static gboolean
has_items (gpointer data)
{
  return ((GPtrArray *) data)->len > 0;
}

static void
test_subscribe (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_everything_new (NULL);
  g_autoptr(GPtrArray) updated = g_ptr_array_new_with_free_func (g_free);
  const char *uri = "demo://resource/dynamic/text/1";
  AgentTestMcpResult result;
  Outcome outcome = { 0 };

  agent_test_mcp_connect (client);
  g_signal_connect (client, "resource-updated", G_CALLBACK (resource_updated_cb), updated);

  agent_mcp_client_subscribe_resource_async (client, uri, NULL, subscribed_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.ok);

  /* The server sends updates of what is subscribed to once this is on */
  agent_test_mcp_call (client, "toggle-subscriber-updates", "{}", &result);
  agent_test_mcp_result_clear (&result);
  agent_test_wait_until (has_items, updated);
  g_assert_cmpstr (g_ptr_array_index (updated, 0), ==, uri);

  outcome_clear (&outcome);
  agent_mcp_client_unsubscribe_resource_async (client, uri, NULL, unsubscribed_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.ok);

  agent_test_mcp_call (client, "toggle-subscriber-updates", "{}", &result);
  agent_test_mcp_result_clear (&result);
  g_signal_handlers_disconnect_by_data (client, updated);
  agent_test_mcp_close (client);
}

/* A server that offers no resources is not asked */
static void
test_not_offered (void)
{
  g_autoptr(AgentMcpClient) client = agent_test_mcp_features_new ();
  Outcome outcome = { 0 };

  agent_test_mcp_connect (client);

  agent_mcp_client_list_resources_async (client, NULL, list_resources_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_error (outcome.error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (outcome.error->message, "features"));

  read_resource (client, "file:///etc/passwd", &outcome);
  g_assert_error (outcome.error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);

  outcome_clear (&outcome);
  agent_mcp_client_subscribe_resource_async (client, "x:y", NULL, subscribed_cb, &outcome);
  agent_test_wait_until (outcome_done, &outcome);
  g_assert_error (outcome.error, AGENT_ERROR, AGENT_ERROR_UNSUPPORTED);

  outcome_clear (&outcome);
  agent_test_mcp_close (client);
}

int
main (int   argc,
      char *argv[])
{
  if (!agent_test_mcp_init (&argc, &argv))
    return 0;

  g_test_add_func ("/mcp/resources/list", test_list);
  g_test_add_func ("/mcp/resources/read", test_read);
  g_test_add_func ("/mcp/resources/subscribe", test_subscribe);
  g_test_add_func ("/mcp/resources/not-offered", test_not_offered);

  return g_test_run ();
}
