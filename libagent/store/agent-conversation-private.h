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
  JsonNode      *settings;
  GPtrArray     *messages;    /* NULL until loaded */
  GHashTable    *errors;      /* position → GError of the turn that ended there; or NULL */
  guint          n_saved;     /* messages [0, n_saved) are in the database */
  GError        *load_error;
  AgentMessage  *watched;     /* the last answer: its turn metrics come after it */
  guint          watched_position;
  gulong         watched_id;
  AgentSession  *turn_session; /* weak: its turns end our claims (record_session) */
  guint          purged : 1;  /* deleted for good: nothing more is written */
  guint          claimed : 1; /* this program adds to it (agent-conversation-claim.c) */
  guint          closed : 1;  /* disposed: nothing more is written */
};

void  _agent_conversation_unwatch       (AgentConversation  *self);

/* agent-conversation-claim.c */
gboolean _agent_conversation_claim         (AgentConversation  *self,
                                            gboolean           *changed,
                                            GError            **error);
void     _agent_conversation_claim_new     (AgentConversation  *self,
                                            gint64              id);
void     _agent_conversation_release_claim (AgentConversation  *self);
void     _agent_conversation_follow_turns  (AgentConversation  *self,
                                            AgentSession       *session);

char *_agent_conversation_to_markdown  (AgentConversation  *self);
char *_agent_conversation_to_json      (AgentConversation  *self);

/* agent-conversation-errors.c */
JsonNode *_agent_conversation_error_to_node (const GError       *error);
void      _agent_conversation_load_errors   (AgentConversation  *self);
gboolean  _agent_conversation_write_errors  (AgentConversation  *self,
                                             gint64              id,
                                             guint               from,
                                             GError            **error);
void      _agent_conversation_went_on       (AgentConversation  *self,
                                             guint               position);
void      _agent_conversation_cut_errors    (AgentConversation  *self,
                                             guint               n_items);

G_END_DECLS
