/* agent-cli-profiles.h — --profile, --profiles, --save-profile: the
 * profiles agent-chat and agent-cli share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <agent.h>

#include "agent-cli-output.h"

G_BEGIN_DECLS

extern const GOptionEntry cli_profiles_entries[];

/* The options a profile gives when they were not */
typedef struct
{
  char **provider;
  char **base_url;
  char **model;
  char **context_window;
} CliProfileOptions;

int           cli_profiles_run       (CliOutput               *output,
                                      gboolean                 json,
                                      const CliProfileOptions *options);
gboolean      cli_profiles_choose    (const char              *remembered,
                                      gboolean                 new_conversation,
                                      const CliProfileOptions *options,
                                      CliOutput               *output,
                                      GError                 **error);
AgentProfile *cli_profiles_get_chosen (void);
void          cli_profiles_free      (void);

G_END_DECLS
