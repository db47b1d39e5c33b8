/* agent-mcp-auth-store.c — an MCP server's tokens in the keyring
 *
 * One item per server URL, under the schema io.github.libagent.McpToken
 * (attribute `server-url`), its secret a JSON object: the tokens, their
 * expiry, the client they were issued to and the token endpoint, all that
 * a refresh needs. Built without the keyring (-Dkeyring=disabled), tokens
 * live only as long as the client.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "agent-error.h"
#include "agent-features.h"
#include "mcp/agent-mcp-auth-private.h"

#if AGENT_HAS_KEYRING
# include <libsecret/secret.h>
#endif

AgentMcpTokens *
_agent_mcp_tokens_copy (const AgentMcpTokens *tokens)
{
  AgentMcpTokens *copy = g_new0 (AgentMcpTokens, 1);

  copy->access_token = g_strdup (tokens->access_token);
  copy->refresh_token = g_strdup (tokens->refresh_token);
  copy->expires_at = tokens->expires_at;
  copy->client_id = g_strdup (tokens->client_id);
  copy->client_secret = g_strdup (tokens->client_secret);
  copy->token_endpoint = g_strdup (tokens->token_endpoint);
  copy->resource = g_strdup (tokens->resource);
  copy->scope = g_strdup (tokens->scope);
  return copy;
}

void
_agent_mcp_tokens_free (AgentMcpTokens *tokens)
{
  g_free (tokens->access_token);
  g_free (tokens->refresh_token);
  g_free (tokens->client_id);
  g_free (tokens->client_secret);
  g_free (tokens->token_endpoint);
  g_free (tokens->resource);
  g_free (tokens->scope);
  g_free (tokens);
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

char *
_agent_mcp_tokens_serialize (const AgentMcpTokens *tokens)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  add_string (builder, "access_token", tokens->access_token);
  add_string (builder, "refresh_token", tokens->refresh_token);
  json_builder_set_member_name (builder, "expires_at");
  json_builder_add_int_value (builder, tokens->expires_at);
  add_string (builder, "client_id", tokens->client_id);
  add_string (builder, "client_secret", tokens->client_secret);
  add_string (builder, "token_endpoint", tokens->token_endpoint);
  add_string (builder, "resource", tokens->resource);
  add_string (builder, "scope", tokens->scope);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

AgentMcpTokens *
_agent_mcp_tokens_parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(AgentMcpTokens) tokens = NULL;
  JsonObject *object;

  if (text == NULL || !json_parser_load_from_data (parser, text, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return NULL;
  object = json_node_get_object (json_parser_get_root (parser));
  tokens = g_new0 (AgentMcpTokens, 1);
#define GET(member) g_strdup (json_object_get_string_member_with_default (object, #member, NULL))
  tokens->access_token = GET (access_token);
  tokens->refresh_token = GET (refresh_token);
  tokens->client_id = GET (client_id);
  tokens->client_secret = GET (client_secret);
  tokens->token_endpoint = GET (token_endpoint);
  tokens->resource = GET (resource);
  tokens->scope = GET (scope);
#undef GET
  tokens->expires_at = json_object_get_int_member_with_default (object, "expires_at", 0);

  /* What a refresh cannot do without */
  if (tokens->access_token == NULL || tokens->client_id == NULL || tokens->token_endpoint == NULL)
    return NULL;
  return g_steal_pointer (&tokens);
}

/* "https://example.com/mcp/" and "https://example.com/mcp" are one server */
char *
_agent_mcp_auth_store_key (const char *url)
{
  char *key = g_strdup (url);
  gsize len = strlen (key);

  while (len > 0 && key[len - 1] == '/')
    key[--len] = '\0';
  return key;
}

#if AGENT_HAS_KEYRING
static const SecretSchema token_schema = {
  "io.github.libagent.McpToken", SECRET_SCHEMA_NONE,
  {
    { "server-url", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  },
  0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

static GHashTable *
attributes_new (const char *url)
{
  GHashTable *attributes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  g_hash_table_insert (attributes, (gpointer) "server-url", _agent_mcp_auth_store_key (url));
  return attributes;
}

static void
keyring_error (GError     **error,
               GError      *cause,
               const char  *what)
{
  if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, cause);
  else
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE, "%s: %s", what, cause->message);
      g_error_free (cause);
    }
}
#endif

AgentMcpTokens *
_agent_mcp_auth_store_load (const char    *url,
                            GCancellable  *cancellable,
                            GError       **error)
{
#if AGENT_HAS_KEYRING
  g_autoptr(GHashTable) attributes = attributes_new (url);
  GError *local_error = NULL;
  char *text;
  AgentMcpTokens *tokens;

  text = secret_password_lookupv_sync (&token_schema, attributes, cancellable, &local_error);
  if (local_error != NULL)
    {
      keyring_error (error, local_error, _("The MCP server's tokens could not be read from the "
                                           "keyring"));
      return NULL;
    }
  tokens = _agent_mcp_tokens_parse (text);
  secret_password_free (text);
  return tokens;
#else
  return NULL;
#endif
}

gboolean
_agent_mcp_auth_store_save (const char            *url,
                            const AgentMcpTokens  *tokens,
                            GCancellable          *cancellable,
                            GError               **error)
{
#if AGENT_HAS_KEYRING
  g_autoptr(GHashTable) attributes = attributes_new (url);
  g_autofree char *text = _agent_mcp_tokens_serialize (tokens);
  g_autofree char *label = NULL;
  GError *local_error = NULL;
  gboolean saved;

  label = g_strdup_printf (_("MCP authorization for %s"),
                           (const char *) g_hash_table_lookup (attributes, "server-url"));
  saved = secret_password_storev_sync (&token_schema, attributes, SECRET_COLLECTION_DEFAULT,
                                       label, text, cancellable, &local_error);
  memset (text, 0, strlen (text));
  if (!saved)
    keyring_error (error, local_error, _("The MCP server's tokens could not be saved in the "
                                         "keyring"));
  return saved;
#else
  return TRUE;
#endif
}

gboolean
_agent_mcp_auth_store_clear (const char    *url,
                             GCancellable  *cancellable,
                             GError       **error)
{
#if AGENT_HAS_KEYRING
  g_autoptr(GHashTable) attributes = attributes_new (url);
  GError *local_error = NULL;

  secret_password_clearv_sync (&token_schema, attributes, cancellable, &local_error);
  if (local_error != NULL)
    {
      keyring_error (error, local_error, _("The MCP server's tokens could not be removed from "
                                           "the keyring"));
      return FALSE;
    }
  return TRUE;
#else
  return TRUE;
#endif
}
