/* agent-html-text-private.h — HTML to readable Markdown, for fetch_url
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *_agent_html_to_markdown (const char  *data,
                               gsize        length,
                               const char  *charset,
                               const char  *base_url,
                               char       **title);

G_END_DECLS
