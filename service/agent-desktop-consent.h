/* agent-desktop-consent.h — asking the user whether an application may use
 * the assistant
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "agent-desktop-apps.h"
#include "agent-desktop-peer.h"

G_BEGIN_DECLS

#define AGENT_DESKTOP_TYPE_CONSENT_BROKER (agent_desktop_consent_broker_get_type ())

G_DECLARE_FINAL_TYPE (AgentDesktopConsentBroker, agent_desktop_consent_broker,
                      AGENT_DESKTOP, CONSENT_BROKER, GObject)

AgentDesktopConsentBroker *agent_desktop_consent_broker_new (GApplication     *application,
                                                             AgentDesktopApps *apps);
void     agent_desktop_consent_broker_set_connection (AgentDesktopConsentBroker  *self,
                                                      GDBusConnection            *connection);
void     agent_desktop_consent_broker_add_agent      (AgentDesktopConsentBroker  *self,
                                                      const char                 *name,
                                                      const char                 *path);
gboolean agent_desktop_consent_broker_remove_agent   (AgentDesktopConsentBroker  *self,
                                                      const char                 *name,
                                                      const char                 *path);
void     agent_desktop_consent_broker_check_async    (AgentDesktopConsentBroker  *self,
                                                      const AgentDesktopPeer     *peer,
                                                      GCancellable               *cancellable,
                                                      GAsyncReadyCallback         callback,
                                                      gpointer                    user_data);
gboolean agent_desktop_consent_broker_check_finish   (AgentDesktopConsentBroker  *self,
                                                      GAsyncResult               *result,
                                                      GError                    **error);
void     agent_desktop_consent_broker_answer         (AgentDesktopConsentBroker  *self,
                                                      const char                 *app_id,
                                                      gboolean                    allowed);

void     agent_desktop_consent_broker_approve_tool_async  (AgentDesktopConsentBroker  *self,
                                                           const char                 *app_id,
                                                           const char                 *app_name,
                                                           const char                 *tool_name,
                                                           const char                 *description,
                                                           const char                 *arguments,
                                                           GCancellable               *cancellable,
                                                           GAsyncReadyCallback         callback,
                                                           gpointer                    user_data);
gboolean agent_desktop_consent_broker_approve_tool_finish (AgentDesktopConsentBroker  *self,
                                                           GAsyncResult               *result,
                                                           GError                    **error);
void     agent_desktop_consent_broker_answer_tool         (AgentDesktopConsentBroker  *self,
                                                           guint                       number,
                                                           gboolean                    allowed,
                                                           gboolean                    remember);
gboolean agent_desktop_consent_broker_administer_tools    (AgentDesktopConsentBroker  *self,
                                                           GDBusMethodInvocation      *invocation);

G_END_DECLS
