/* agent-conversation-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "store/agent-conversation.h"
#include "store/agent-store-private.h"

G_BEGIN_DECLS

struct _AgentConversation
{
  GObject        parent_instance;
  AgentStoreDb  *db;
  gint64         id;          /* 0 until the first message is written */
  char          *title;
  gint64         created;     /* µs since 1970, UTC */
  gint64         updated;
  GDateTime     *created_time;  /* made when first asked for */
  GDateTime     *updated_time;
  char          *provider;
  char          *model;
  char          *profile;
  JsonNode      *settings;
  AgentMessageTree *tree;     /* every message, in branches; NULL until loaded */
  GPtrArray     *messages;    /* the tree's path: NULL until loaded */
  GHashTable    *errors;      /* seq → GError of the turn that ended there; or NULL */
  guint          n_saved;     /* messages [0, n_saved) of the path are written or queued to be */
  guint          n_stored;    /* messages in the tree written or queued to be */
  GError        *load_error;
  AgentMessage  *watched;     /* the last answer: its turn metrics come after it */
  guint          watched_seq;
  gulong         watched_id;
  AgentSession  *turn_session; /* weak: its turns end our claims (record_session) */
  AgentStoreTarget *target;   /* shared with its writes queued on the store's writer */
  GError        *write_error; /* a write failed: nothing more is written */
  guint          row_queued : 1;   /* its row is inserted by a queued write */
  guint          release_wanted : 1; /* released before its id was known */
  guint          purged : 1;  /* deleted for good: nothing more is written */
  guint          claimed : 1; /* this program adds to it (agent-conversation-claim.c) */
  guint          closed : 1;  /* disposed: nothing more is written */
};

void  _agent_conversation_unwatch       (AgentConversation  *self);
void  _agent_conversation_set_updated   (AgentConversation  *self,
                                         gint64              now);
void  _agent_conversation_take_title    (AgentConversation  *self,
                                         char               *title);
/* Takes @tree as the conversation's messages (emitting nothing) */
void  _agent_conversation_take_tree     (AgentConversation  *self,
                                         AgentMessageTree   *tree);

/* agent-conversation-memory.c: the AgentMemory of a conversation */
void  _agent_conversation_memory_iface_init (AgentMemoryInterface *iface);
/* Before a change of branch: loaded, writable, ours and unchanged by
 * others since read, what waited written */
gboolean _agent_conversation_prepare_change (AgentConversation  *self,
                                             GError            **error);
/* The list shows the path to message @leaf (its leaf written) */
void  _agent_conversation_show_path     (AgentConversation  *self,
                                         guint               leaf);

/* agent-conversation-update.c */
/* Queues the writing of the columns (STMT_SET_…), in one transaction. A
 * conversation whose row is not written (nor queued) yet keeps them for
 * its first write. */
gboolean    _agent_conversation_update_columns (AgentConversation          *self,
                                                const AgentStoreStatement  *columns,
                                                const char * const         *values,
                                                guint                       n_columns,
                                                GError                    **error);
/* The name of a member of @node (at any depth) that holds a credential
 * (api-key, authorization, token, password…, compared without case, '-'
 * or '_'), or NULL */
const char *_agent_conversation_find_secret    (JsonNode                   *node);

/* agent-conversation-claim.c */
gboolean _agent_conversation_claim         (AgentConversation  *self,
                                            gboolean           *changed,
                                            GError            **error);
void     _agent_conversation_release_claim (AgentConversation  *self);
void     _agent_conversation_follow_turns  (AgentConversation  *self,
                                            AgentSession       *session);

/* A new conversation given what agent-store-import.c read (@messages and
 * @errors taken): message i is seq i, under the seq @parents[i] says
 * (guint each, a parent before its children), the active branch ending at
 * @leaf; written with its row, in one transaction */
void  _agent_conversation_take_imported (AgentConversation  *self,
                                         const char         *title,
                                         gint64              created,
                                         const char         *provider,
                                         const char         *model,
                                         const char         *profile,
                                         JsonNode           *settings,
                                         GPtrArray          *messages,
                                         GArray             *parents,
                                         guint               leaf,
                                         GHashTable         *errors);

char *_agent_conversation_to_markdown  (AgentConversation  *self);
char *_agent_conversation_to_json      (AgentConversation  *self);

gboolean _agent_conversation_check_writable (AgentConversation *self,
                                             GError           **error);
void     _agent_conversation_queue          (AgentConversation *self,
                                             AgentStoreBatch   *batch);

/* agent-conversation-errors.c */
GHashTable *_agent_store_load_errors        (AgentStoreDb       *db,
                                             gint64              id,
                                             guint               n_messages);
JsonNode *_agent_conversation_error_to_node (const GError       *error);
GError   *_agent_conversation_error_from_node (JsonNode         *node);
void      _agent_conversation_batch_errors  (AgentConversation  *self,
                                             AgentStoreBatch    *batch,
                                             guint               from);
/* Every error of the tree, for a conversation written whole */
void      _agent_conversation_batch_all_errors (AgentConversation *self,
                                                AgentStoreBatch   *batch);
void      _agent_conversation_went_on       (AgentConversation  *self,
                                             guint               position);
void      _agent_conversation_forget_errors (AgentConversation  *self,
                                             GArray             *seqs);

G_END_DECLS
