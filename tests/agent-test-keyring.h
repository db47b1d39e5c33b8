/* agent-test-keyring.h — a real Secret Service for the keyring tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct
{
  char        *dir;     /* HOME, XDG_DATA_HOME… of the daemon */
  GSubprocess *bus;
  GSubprocess *daemon;
} AgentTestKeyring;

void agent_test_keyring_start (AgentTestKeyring *self);
void agent_test_keyring_stop  (AgentTestKeyring *self);

G_END_DECLS
