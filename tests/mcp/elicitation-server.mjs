// A small MCP server on stdio, built with the official SDK's low-level
// Server, that asks the client for the user's input as a test needs it:
//
//   ask       {message, schema?, url?, id?}   sends elicitation/create (form
//             mode with the schema, URL mode with the url) and answers the
//             result as it came, as JSON text: {"action":…,"content":…}
//   withdraw  {}   withdraws the pending ask (notifications/cancelled):
//             the ask answers "withdrawn"
//
// The requests go as they are, unchecked: a test can send a schema the
// client must refuse. Without the elicitation capability in the client's
// handshake, ask answers what the client says to the request.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "libagent-elicitation", version: "1.0.0" },
                          { capabilities: { tools: {} } });

const text = (t) => [{ type: "text", text: t }];
let pending = null;  // the AbortController of the ask in progress

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: "ask", description: "Asks the user",
      inputSchema: { type: "object",
                     properties: { message: { type: "string" }, schema: { type: "object" },
                                   url: { type: "string" }, id: { type: "string" } } } },
    { name: "withdraw", description: "Withdraws the question",
      inputSchema: { type: "object", properties: {} } },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};

  if (request.params.name === "withdraw") {
    if (pending === null)
      return { content: text("nothing to withdraw"), isError: true };
    pending.abort("withdrawn by the test");
    return { content: text("withdrawn") };
  }

  const params = args.url !== undefined
    ? { mode: "url", message: args.message, url: args.url, elicitationId: args.id ?? "e-1" }
    : { mode: "form", message: args.message, requestedSchema: args.schema };
  const controller = new AbortController();

  pending = controller;
  try {
    const result = await server.request({ method: "elicitation/create", params },
                                        ElicitResultSchema,
                                        { signal: controller.signal, timeout: 600000 });
    return { content: text(JSON.stringify(result)) };
  } catch (error) {
    if (controller.signal.aborted)
      return { content: text("withdrawn") };
    return { content: text(`refused: ${error.code} ${error.message}`), isError: true };
  } finally {
    pending = null;
  }
});

await server.connect(new StdioServerTransport());
