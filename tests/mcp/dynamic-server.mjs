// A small MCP server on stdio, built with the official SDK, whose tools
// change while it runs: for the tests of notifications/tools/list_changed.
//
//   add-tool     adds a tool "added-N" (the SDK then tells the client that
//                the list changed)
//   remove-tool  removes the last tool added
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "libagent-dynamic", version: "1.0.0" });
const added = [];

server.registerTool("add-tool", { description: "Adds a tool" }, async () => {
  const name = `added-${added.length + 1}`;
  added.push(server.registerTool(name, { description: `Tool ${name}` }, async () => ({
    content: [{ type: "text", text: `${name} ran` }],
  })));
  return { content: [{ type: "text", text: `added ${name}` }] };
});

server.registerTool("remove-tool", { description: "Removes the last tool added" }, async () => {
  const tool = added.pop();
  if (tool === undefined)
    return { content: [{ type: "text", text: "nothing to remove" }], isError: true };
  tool.remove();
  return { content: [{ type: "text", text: "removed" }] };
});

await server.connect(new StdioServerTransport());
