/* agent-demo-request.h
 *
 * Reading a chat-completions request body, and rejecting it the way OpenAI does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The one model the server offers, and the one a request gets when it names none. */
#define DEMO_MODEL "demo"

/* An OpenAI-style error: {"error":{"message":…,"type":…,"param":…,"code":…}}. */
typedef struct
{
  guint  status;
  char  *message;
  char  *param;
  char  *code;
} DemoApiError;

/* A tool message answering a call of the assistant message before it. */
typedef struct
{
  char *name;
  char *arguments;
  char *content;
} DemoToolResult;

typedef struct
{
  char      *model;
  gboolean   stream;
  gboolean   include_usage;
  gboolean   offers_calculator;
  gboolean   offers_read_file;
  char      *last_user_text;
  GPtrArray *tool_results;  /* (element-type DemoToolResult): the trailing tool messages */
  guint      prompt_tokens;
} DemoRequest;

void          demo_api_error_free (DemoApiError *error);
void          demo_request_clear  (DemoRequest  *request);
DemoApiError *demo_request_parse  (GBytes       *body,
                                   DemoRequest  *request);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DemoApiError, demo_api_error_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DemoRequest, demo_request_clear)

G_END_DECLS
