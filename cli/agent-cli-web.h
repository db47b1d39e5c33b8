/* agent-cli-web.h
 *
 * agent-cli's tools: the built-in ones, with the settings of the web
 * tools (--fetch-allow, --search-url, --search-provider).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

G_BEGIN_DECLS

extern const GOptionEntry cli_web_entries[];

/* The built-in tool @name, fetch_url and web_search with their options */
AgentTool *cli_web_tool_new (const char  *name,
                             GError     **error);

/* --search-provider and --search-url, for --save-profile */
gboolean   cli_web_get_search_options (const char **name,
                                       const char **url,
                                       GError     **error);

G_END_DECLS
