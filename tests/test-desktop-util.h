/* test-desktop-util.h — agent-desktop-service on a private session bus,
 * for its tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <agent.h>

#include "agent-test-server.h"

G_BEGIN_DECLS

#define BUS_NAME         "io.github.libagent.Assistant"
#define ASSISTANT_PATH   "/io/github/libagent/Assistant"
#define ASSISTANT        "io.github.libagent.Assistant1"
#define CONVERSATION     "io.github.libagent.AssistantConversation1"
#define CONSENT          "io.github.libagent.AssistantConsent1"
#define AGENT_PATH       "/io/github/libagent/Test/ConsentAgent"
#define ERROR_PREFIX     "io.github.libagent.Assistant1.Error."
#define SECRET           "sk-test-desktop-secret-8c1f"

typedef enum
{
  ANSWER_ALLOW,
  ANSWER_DENY,
  ANSWER_ALWAYS,   /* tool calls: Always Allow */
  ANSWER_NONE,     /* tool calls: the question is held, unanswered */
} Answer;

typedef struct
{
  char            *dir;
  char            *proc_dir;   /* this process's entry in the made-up /proc */
  GSubprocess     *bus;
  char            *address;
  AgentTestServer *server;
  GDBusConnection *agent;      /* the consent agent's connection */
  guint            agent_id;
  Answer           answer;
  guint            n_asked;
  char            *asked_app_id;
  char            *asked_app_name;
  /* ApproveToolCall */
  Answer           tool_answer;
  guint            n_tool_asked;
  char            *asked_tool;        /* "app_id app_name tool description arguments" */
  GDBusMethodInvocation *held;      /* with ANSWER_NONE */
} DesktopTest;

/* The test's state: its bus, its model's server, its consent agent */
extern DesktopTest test;

typedef struct
{
  GDBusConnection *app;
  char            *path;
  guint            subscription;
  GString         *text;
  guint            n_deltas;
  GPtrArray       *tool_calls;   /* "id name arguments" */
  GVariant        *usage;
  char            *failed_name;
  char            *failed_message;
  gboolean         ended;
} Conversation;

/* The desktop's notification server: the last notification shown */
typedef struct
{
  GDBusConnection *connection;
  guint            owner_id;
  guint            object_id;
  gboolean         owned;
  char            *summary;
  char            *body;
  char           **actions;   /* key, label, key, label… */
  guint            n_notified;
  guint            n_closed;
} Notifications;

void             desktop_setup          (const char       *name);
void             desktop_teardown       (void);
void             remove_tree            (const char       *path);

/* Who the service sees */
void             sandbox                (const char       *proc_dir,
                                         const char       *app_id);
void             be_sandboxed           (const char       *app_id);
void             be_unsandboxed         (void);

/* Calls, with the main loop running */
GVariant        *call                   (GDBusConnection  *connection,
                                         const char       *path,
                                         const char       *interface,
                                         const char       *method,
                                         GVariant         *parameters,
                                         GError          **error);
GVariant        *call_ok                (GDBusConnection  *connection,
                                         const char       *path,
                                         const char       *interface,
                                         const char       *method,
                                         GVariant         *parameters);
void             call_fails             (GDBusConnection  *connection,
                                         const char       *path,
                                         const char       *interface,
                                         const char       *method,
                                         GVariant         *parameters,
                                         const char       *name);
void             assert_dbus_error      (const GError     *error,
                                         const char       *name);
GVariant        *administer             (const char       *method,
                                         GVariant         *parameters);
void             register_consent_agent (void);
guint            export_consent_interface (GDBusConnection            *connection,
                                           const char                 *path,
                                           const GDBusInterfaceVTable *vtable);

/* Apps and their conversations */
GDBusConnection *connect_app            (void);
GDBusConnection *connect_allowed_app    (const char       *app_id);
Conversation    *conversation_start     (GDBusConnection  *app,
                                         GError          **error);
void             conversation_free      (Conversation     *conversation);
void             conversation_send      (Conversation     *conversation,
                                         const char       *text,
                                         GVariant         *tools,
                                         GError          **error);
gboolean         has_ended              (gpointer          data);
gboolean         has_deltas             (gpointer          data);
gboolean         has_tool_call          (gpointer          data);
gint64           usage_member           (Conversation     *conversation,
                                         const char       *name);

Notifications   *notifications_start        (void);
void             notifications_stop         (Notifications *notifications);
const char      *notifications_get_action   (Notifications *notifications,
                                             const char    *label);
guint            notifications_count_buttons (Notifications *notifications);
gboolean         has_notification           (gpointer       data);
void             notifications_press        (Notifications *notifications,
                                             const char    *label);
void             add_hello              (void);

/* The service's process */
guint32          get_service_pid        (void);
void             service_vanished       (GDBusConnection  *connection,
                                         const char       *name,
                                         gpointer          user_data);
void             stop_service           (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Conversation, conversation_free)

G_END_DECLS
