/* test-store-util.h — helpers shared by the store tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "agent-test-server.h"

G_BEGIN_DECLS

typedef struct
{
  char       *dir;
  char       *path;    /* the database file in @dir */
  AgentStore *store;
} TestStore;

void               test_store_open              (TestStore          *self);
void               test_store_close             (TestStore          *self);
AgentStore        *test_store_open_again        (TestStore          *self);
void               test_store_flush             (AgentStore         *store);
void               test_store_flush_conversation (AgentConversation *conversation);
gboolean           test_store_try_flush         (AgentStore         *store,
                                                 GError            **error);
AgentConversation *test_store_read_back         (TestStore          *self,
                                                 gint64              id,
                                                 AgentStore        **store);

char              *test_store_copy_fixture      (const char         *dir,
                                                 const char         *name,
                                                 const char         *version);
void               test_store_exec              (const char         *path,
                                                 const char         *sql);
char              *test_store_query             (const char         *path,
                                                 const char         *sql);
void               test_store_assert_sound      (const char         *path);
gboolean           test_store_file_contains     (const char         *path,
                                                 const char         *needle);

void               test_store_assert_same_messages (GListModel      *expected,
                                                    GListModel      *actual);
void               test_store_add_tool_turn     (AgentTestServer    *server,
                                                 const char         *answer);
/* agent_memory_append(), asserted to succeed (@message not taken) */
void               test_store_append            (AgentConversation  *conversation,
                                                 AgentMessage       *message);

G_END_DECLS
