/* agent-desktop-peer.h — which application a caller on the bus is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct
{
  char     *app_id;     /* the Flatpak app id, or the executable's path */
  char     *app_name;   /* to show: the app id, or the executable's name */
  guint32   pid;
  gboolean  sandboxed;
} AgentDesktopPeer;

void              agent_desktop_peer_identify_async  (GDBusConnection      *connection,
                                                      const char           *sender,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
AgentDesktopPeer *agent_desktop_peer_identify_finish (GAsyncResult         *result,
                                                      GError              **error);
AgentDesktopPeer *agent_desktop_peer_identify_pid    (guint32               pid,
                                                      GError              **error);
void              agent_desktop_peer_free            (AgentDesktopPeer     *peer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AgentDesktopPeer, agent_desktop_peer_free)

G_END_DECLS
