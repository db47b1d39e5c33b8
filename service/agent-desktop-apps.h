/* agent-desktop-apps.h — what the user decided for each application, and
 * what each asked: apps.ini and log.jsonl in the service's data folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  AGENT_DESKTOP_CONSENT_UNKNOWN,
  AGENT_DESKTOP_CONSENT_ALLOWED,
  AGENT_DESKTOP_CONSENT_DENIED,
} AgentDesktopConsent;

#define AGENT_DESKTOP_TYPE_APPS (agent_desktop_apps_get_type ())

G_DECLARE_FINAL_TYPE (AgentDesktopApps, agent_desktop_apps, AGENT_DESKTOP, APPS, GObject)

AgentDesktopApps    *agent_desktop_apps_new              (const char        *dir);
gboolean             agent_desktop_apps_load             (AgentDesktopApps  *self,
                                                          GError           **error);
AgentDesktopConsent  agent_desktop_apps_get_consent      (AgentDesktopApps  *self,
                                                          const char        *app_id);
gboolean             agent_desktop_apps_set_consent      (AgentDesktopApps  *self,
                                                          const char        *app_id,
                                                          const char        *app_name,
                                                          gboolean           allowed,
                                                          GError           **error);
gboolean             agent_desktop_apps_revoke           (AgentDesktopApps  *self,
                                                          const char        *app_id,
                                                          GError           **error);
gboolean             agent_desktop_apps_set_daily_limit  (AgentDesktopApps  *self,
                                                          const char        *app_id,
                                                          guint64            tokens,
                                                          GError           **error);
gboolean             agent_desktop_apps_check_limit      (AgentDesktopApps  *self,
                                                          const char        *app_id,
                                                          GError           **error);
gboolean             agent_desktop_apps_add_request      (AgentDesktopApps  *self,
                                                          const char        *app_id,
                                                          const char        *profile,
                                                          guint64            tokens,
                                                          GError           **error);
GVariant            *agent_desktop_apps_list             (AgentDesktopApps  *self);
GVariant            *agent_desktop_apps_list_log         (AgentDesktopApps  *self,
                                                          const char        *app_id,
                                                          GError           **error);
gboolean             agent_desktop_apps_prune_log        (AgentDesktopApps  *self,
                                                          GError           **error);

gboolean             agent_desktop_apps_get_ask_before_tools (AgentDesktopApps  *self,
                                                              const char        *app_id);
gboolean             agent_desktop_apps_set_ask_before_tools (AgentDesktopApps  *self,
                                                              const char        *app_id,
                                                              gboolean           ask,
                                                              GError           **error);
char               **agent_desktop_apps_dup_allowed_tools    (AgentDesktopApps  *self,
                                                              const char        *app_id);
gboolean             agent_desktop_apps_is_tool_allowed      (AgentDesktopApps  *self,
                                                              const char        *app_id,
                                                              const char        *tool_name);
gboolean             agent_desktop_apps_allow_tool           (AgentDesktopApps  *self,
                                                              const char        *app_id,
                                                              const char        *tool_name,
                                                              GError           **error);
gboolean             agent_desktop_apps_forget_tool          (AgentDesktopApps  *self,
                                                              const char        *app_id,
                                                              const char        *tool_name,
                                                              GError           **error);

G_END_DECLS
