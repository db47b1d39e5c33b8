/* agent-desktop-consent-private.h — the consent broker's insides, shared by
 * its two files: agent-desktop-consent.c (may an application use the
 * assistant) and agent-desktop-tool-consent.c (may it run this tool call)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "agent-desktop-consent.h"

G_BEGIN_DECLS

typedef struct
{
  char *name;   /* its unique name */
  char *path;
} ConsentAgent;

struct _AgentDesktopConsentBroker
{
  GObject           parent_instance;

  GApplication     *application;    /* unowned: it owns the broker */
  GDBusConnection  *connection;
  AgentDesktopApps *apps;
  GPtrArray        *agents;         /* of ConsentAgent, the last registered last */
  GHashTable       *questions;      /* app id → Question */
  GHashTable       *tool_questions; /* number → ToolQuestion */
  guint             ask_seconds;    /* how long the user has to answer */
  guint             next_tool_question;
};

void agent_desktop_consent_broker_init_tools          (AgentDesktopConsentBroker *self);
void agent_desktop_consent_broker_stop_tool_questions (AgentDesktopConsentBroker *self,
                                                       const GError              *error);

G_END_DECLS
