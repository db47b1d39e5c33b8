/* agent-cli-store.h — agent-cli's stored conversations and keyring options
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-cli-output.h"
#include "agent-cli-profiles.h"

G_BEGIN_DECLS

typedef struct _CliStore CliStore;

extern const GOptionEntry cli_store_entries[];

const char *cli_store_description (void);
int         cli_store_prepare     (CliStore               **store,
                                   CliOutput               *output,
                                   gboolean                 json,
                                   const CliProfileOptions *options,
                                   char                   **system);
gboolean    cli_store_is_new      (CliStore      *store);
int         cli_store_attach      (CliStore      *store,
                                   AgentSession  *session,
                                   CliOutput     *output);
gboolean    cli_store_claim       (CliStore      *store,
                                   gboolean      *busy,
                                   GError       **error);
void        cli_store_release     (CliStore      *store);
gboolean    cli_store_regenerate_wanted (void);
gboolean    cli_store_branch_for_regenerate (CliStore  *store,
                                             GError   **error);
void        cli_store_sync_async  (CliStore      *store,
                                   GAsyncReadyCallback callback,
                                   gpointer       user_data);
gboolean    cli_store_sync_finish (CliStore      *store,
                                   GAsyncResult  *result,
                                   GError       **error);
void        cli_store_told        (CliStore      *store,
                                   const GError  *error);
int         cli_store_flush       (CliStore      *store,
                                   CliOutput     *output,
                                   int            status);
void        cli_store_free        (CliStore      *store);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliStore, cli_store_free)

G_END_DECLS
