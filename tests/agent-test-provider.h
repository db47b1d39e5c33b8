/* agent-test-provider.h
 *
 * What the tests of the provider backends share: the recorded streams of
 * tests/corpus with their .expected.json, replayed through a backend fed
 * whole, one byte at a time, in random pieces or cut in two; comparisons
 * that collect every mismatch in a GString, so that a failure says all
 * that is wrong; a session against the in-process server that records
 * what its signals said; request bodies written for histories built by
 * hand.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "transport/agent-provider-private.h"
#include "agent-test-replay.h"
#include "agent-test-server.h"
#include "agent-test-turn.h"

G_BEGIN_DECLS

/* Corpus files smaller than this are also cut in two at every byte. */
#define AGENT_TEST_CUT_LIMIT 4096
/* Random pieces are of 1 to this many bytes, or else of AGENT_TEST_FEED_RANDOM's sizes. */
#define AGENT_TEST_MAX_PIECE 64

/* Comparisons: each appends "\n  WHAT: …" to @problems when it does not hold. */

void        agent_test_expect_str    (GString      *problems,
                                      const char   *what,
                                      const char   *expected,
                                      const char   *actual);
void        agent_test_expect_int    (GString      *problems,
                                      const char   *what,
                                      gint64        expected,
                                      gint64        actual);
void        agent_test_expect_true   (GString      *problems,
                                      const char   *what,
                                      gboolean      value);
void        agent_test_expect_json   (GString      *problems,
                                      const char   *what,
                                      JsonNode     *expected,
                                      JsonNode     *actual);

/* Members of @object, which may be NULL: NULL or 0 when absent, null or
 * of another type. */

JsonObject *agent_test_member_object (JsonObject   *object,
                                      const char   *name);
JsonArray  *agent_test_member_array  (JsonObject   *object,
                                      const char   *name);
const char *agent_test_member_string (JsonObject   *object,
                                      const char   *name);
gint64      agent_test_member_int    (JsonObject   *object,
                                      const char   *name);

/* Where agent_test_expect_usage() reads the counts in a provider's usage
 * object: a member, or DETAILS.MEMBER. */
typedef struct
{
  const char *prompt;
  const char *completion;
  const char *total;
  const char *reasoning;
  const char *cached;
} AgentTestUsageNames;

void        agent_test_expect_usage  (GString                   *problems,
                                      AgentUsage                *usage,
                                      JsonNode                  *expected,
                                      const AgentTestUsageNames *names);

/* The corpus */

/* A recorded body and the .expected.json beside it. */
typedef struct
{
  char       *path;       /* the recorded body */
  char       *name;       /* its file name without the suffix */
  char       *body;
  gsize       body_len;
  JsonNode   *root;       /* the .expected.json */
  JsonObject *result;     /* its "result" */
  JsonObject *transport;  /* its "transport" */
} AgentTestCorpusFile;

/* The data of a test added by agent_test_add_corpus_cases(). */
typedef struct
{
  char  *path;
  guint  mode;            /* the index of its mode in the modes it was added with */
} AgentTestCorpusCase;

/* Calls @func with the data of each event an EventSource would dispatch. */
typedef void (*AgentTestEventFunc) (const char *data,
                                    gpointer    user_data);

void        agent_test_corpus_file_load  (AgentTestCorpusFile *self,
                                          const char          *path,
                                          const char          *suffix);
void        agent_test_corpus_file_clear (AgentTestCorpusFile *self);
void        agent_test_add_corpus_cases  (const char          *prefix,
                                          const char          *subdir,
                                          const char          *suffix,
                                          const char * const  *modes,
                                          GTestDataFunc        func);
guint       agent_test_read_sse          (const char          *body,
                                          gsize                len,
                                          AgentTestEventFunc   func,
                                          gpointer             user_data);

/* Replays */

typedef enum
{
  AGENT_TEST_REPLAY_WHOLE,      /* fed whole */
  AGENT_TEST_REPLAY_BYTES,      /* one byte at a time */
  AGENT_TEST_REPLAY_RANDOM,     /* in random pieces, with each of a few seeds */
  AGENT_TEST_REPLAY_CUTS,       /* cut in two, at every byte */
  AGENT_TEST_REPLAY_ALL,        /* each of these, until one fails; cut only if small */
  AGENT_TEST_REPLAY_LINE_CUTS,  /* cut at every byte near a line's ends, one in 13 inside */
} AgentTestReplayMode;

/* What is wrong with @replay, once finished, as lines for a failure
 * message; NULL if nothing is. */
typedef char *(*AgentTestReplayCheck) (AgentTestReplay *replay,
                                       gpointer         user_data);

/* How many deltas a replay's listener must hear, from an independent
 * reading of the body. */
typedef struct
{
  guint n_text;
  guint n_reasoning;
  guint n_refusal;
  guint n_fragments;        /* non-empty tool-call fragments */
} AgentTestDeltas;

gboolean    agent_test_replay_body       (const AgentProviderBackend *backend,
                                          const char                 *body,
                                          gsize                       len,
                                          AgentTestReplayMode         mode,
                                          AgentTestReplayCheck        check,
                                          gpointer                    user_data);
void        agent_test_expect_heard      (GString                    *problems,
                                          AgentTestReplay            *replay,
                                          const AgentTestDeltas      *deltas);

/* Tool calls */

typedef enum
{
  AGENT_TEST_CALLS_READY,         /* decoded: the stream ended, the calls are ready */
  AGENT_TEST_CALLS_UNKNOWN_TOOL,  /* through a session without tools: each failed */
} AgentTestCalls;

void        agent_test_expect_call_id    (GString        *problems,
                                          const char     *what,
                                          AgentToolCall  *call,
                                          const char     *want_id,
                                          AgentTestCalls  calls);
void        agent_test_expect_call_state (GString        *problems,
                                          const char     *what,
                                          AgentToolCall  *call,
                                          AgentTestCalls  calls);

/* Sessions against the in-process server */

typedef struct
{
  AgentTestServer *server;
  AgentProvider   *provider;
  AgentSession    *session;
  AgentTestTurn    turn;
  /* What the session's signals said */
  GString         *text;          /* every text-delta, concatenated */
  GString         *reasoning;     /* every reasoning-delta */
  GString         *fragments;     /* every tool-call-delta */
  GHashTable      *text_of;       /* AgentMessage → GString of its text-delta */
  GHashTable      *reasoning_of;  /* AgentMessage → GString of its reasoning-delta */
  GHashTable      *fragments_of;  /* AgentToolCall → GString of its tool-call-delta */
  GPtrArray       *steps;         /* the AgentMessage of each step-finished */
  guint            n_reasoning;   /* reasoning-delta signals */
  guint            n_fragments;   /* tool-call-delta signals */
  GString         *problems;      /* signals that broke a promise, one a line */
} AgentTestSession;

AgentProvider *agent_test_provider_new        (AgentTestServer  *server,
                                               const char       *name);
void           agent_test_session_init        (AgentTestSession *self,
                                               const char       *provider_name);
void           agent_test_session_clear       (AgentTestSession *self);
const char    *agent_test_heard               (GHashTable       *table,
                                               gpointer          key);
char         **agent_test_list_models         (AgentProvider    *provider,
                                               GError          **error);
void           agent_test_assert_models_error (AgentProvider    *provider,
                                               AgentTestServer  *server,
                                               guint             status,
                                               const char       *body,
                                               int               code,
                                               const char       *message);

/* Writing events and requests */

/* Anthropic's message_start, with single quotes (agent_test_json_text()) */
#define AGENT_TEST_ANTHROPIC_MESSAGE_START(id) \
  "{'type':'message_start','message':{'id':'" id "','type':'message','role':'assistant'," \
  "'model':'claude-test','content':[],'usage':{'input_tokens':5,'output_tokens':1}}}"

char          *agent_test_json_text           (const char        *quoted);
void           agent_test_append_typed_event  (GString           *body,
                                               const char        *json);
void           agent_test_add_typed_event     (AgentTestResponse *response,
                                               const char        *json);
void           agent_test_add_typed_quoted    (AgentTestResponse *response,
                                               const char        *quoted);
char          *agent_test_build_body          (AgentProvider     *provider,
                                               const char        *model,
                                               const char        *system_prompt,
                                               GListModel        *messages,
                                               GListModel        *tools);
AgentMessage  *agent_test_assistant_new       (const char        *content,
                                               const char        *reasoning,
                                               ...) G_GNUC_NULL_TERMINATED;
GListStore    *agent_test_messages_new        (AgentMessage      *first,
                                               ...) G_GNUC_NULL_TERMINATED;
void           agent_test_assert_json         (JsonNode          *actual,
                                               const char        *expected);

G_END_DECLS
