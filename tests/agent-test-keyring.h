/* test-secret-service.h — a real Secret Service for the keyring tests
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
} TestSecretService;

void test_secret_service_start (TestSecretService *self);
void test_secret_service_stop  (TestSecretService *self);

G_END_DECLS
