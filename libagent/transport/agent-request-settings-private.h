/* agent-request-settings-private.h
 *
 * What a request asks of the model besides its messages, as the provider,
 * the session and the prepare-step hook set it (agent-request-settings.c:
 * the class and the tool choice; -sampling.c; -options.c: provider
 * options by path, and headers), and the behaviour around it
 * (agent-request-settings-apply.c): the layers
 * merged into the settings of one request, its headers checked and added,
 * the secrets among them. The providers read the fields directly
 * (providers/agent-provider-settings.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "transport/agent-request-settings.h"

G_BEGIN_DECLS

/* Which settings are set; those that are not leave the API's default */
typedef enum
{
  AGENT_SETTING_TEMPERATURE         = 1 << 0,
  AGENT_SETTING_TOP_P               = 1 << 1,
  AGENT_SETTING_TOP_K               = 1 << 2,
  AGENT_SETTING_SEED                = 1 << 3,
  AGENT_SETTING_STOP                = 1 << 4,
  AGENT_SETTING_PRESENCE_PENALTY    = 1 << 5,
  AGENT_SETTING_FREQUENCY_PENALTY   = 1 << 6,
  AGENT_SETTING_TOOL_CHOICE         = 1 << 7,
  AGENT_SETTING_PARALLEL_TOOL_CALLS = 1 << 8,
  AGENT_SETTING_PROVIDER_OPTIONS    = 1 << 9,
  AGENT_SETTING_HEADERS             = 1 << 10,
} AgentSettingFlags;

/* A header as it was given: its name's case is kept */
typedef struct
{
  char *name;
  char *value;
} AgentHeader;

struct _AgentRequestSettings
{
  GObject          parent_instance;
  double           temperature;
  double           top_p;
  double           presence_penalty;
  double           frequency_penalty;
  gint64           seed;
  guint            top_k;
  AgentToolChoice  tool_choice;
  char            *tool_choice_name;
  char           **stop;
  JsonNode        *provider_options;  /* an object, or NULL */
  GPtrArray       *headers;           /* of AgentHeader, in the order given */
  AgentSettingFlags set;
  guint            parallel_tool_calls : 1;
};

static inline gboolean
_agent_request_settings_has (const AgentRequestSettings *self,
                             AgentSettingFlags           flag)
{
  return self != NULL && (self->set & flag) != 0;
}

/* agent-request-settings.c */
void         _agent_request_settings_notify_set  (AgentRequestSettings  *self,
                                                  AgentSettingFlags      flag,
                                                  gboolean               was_set);

/* agent-request-settings-options.c */
AgentHeader *_agent_request_settings_find_header (AgentRequestSettings  *self,
                                                  const char            *name);

/* agent-request-settings-apply.c */
void      _agent_request_settings_merge       (AgentRequestSettings  *self,
                                               AgentRequestSettings  *over);
JsonNode *_agent_json_merge                   (JsonNode              *base,
                                               JsonNode              *over);
void      _agent_request_settings_add_secrets (AgentRequestSettings  *self,
                                               GPtrArray             *secrets);
gboolean  _agent_request_settings_add_headers (AgentRequestSettings  *self,
                                               SoupMessageHeaders    *headers,
                                               GError               **error);

G_END_DECLS
