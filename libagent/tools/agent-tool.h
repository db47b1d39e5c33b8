/* agent-tool.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_INSIDE) && !defined(AGENT_COMPILATION)
# error "Only <agent.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "agent-version-macros.h"

G_BEGIN_DECLS

typedef struct _AgentToolInvocation AgentToolInvocation;

#define AGENT_TYPE_TOOL (agent_tool_get_type ())

AGENT_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (AgentTool, agent_tool, AGENT, TOOL, GObject)

/**
 * AgentToolClass:
 * @parent_class: the parent class
 * @invoke: runs the tool for one call. The implementation must eventually
 *   complete @invocation with [method@Agent.ToolInvocation.return_result] or
 *   one of the error variants, now or later, from any thread.
 *
 * The class of tools. Subclass it to write a tool in C; in Python or
 * JavaScript it is often simpler to pass a handler to [ctor@Agent.Tool.new].
 */
struct _AgentToolClass
{
  GObjectClass parent_class;

  void (*invoke) (AgentTool           *self,
                  AgentToolInvocation *invocation);

  /*< private >*/
  gpointer _reserved[12];
};

/**
 * AgentToolFunc:
 * @tool: the tool being called
 * @invocation: the call to complete
 * @user_data: the data passed to [ctor@Agent.Tool.new]
 * @error: return location for a [struct@GLib.Error]
 *
 * The handler of a tool made with [ctor@Agent.Tool.new].
 *
 * The handler completes @invocation at once, or keeps a reference to it,
 * returns %TRUE and completes it later, from any thread. A handler that
 * returns %FALSE (in Python and JavaScript: that raises an exception)
 * before completing @invocation has failed: the call's result is @error's
 * message, or, when the handler set no error, a message saying that the
 * tool failed.
 *
 * Returns: %TRUE if @invocation is completed or will be, %FALSE if the
 *   handler failed
 *
 * Since: 0.1
 */
typedef gboolean (*AgentToolFunc) (AgentTool           *tool,
                                   AgentToolInvocation *invocation,
                                   gpointer             user_data,
                                   GError             **error);

AGENT_AVAILABLE_IN_ALL
AgentTool  *agent_tool_new             (const char          *name,
                                        const char          *description,
                                        JsonNode            *parameters,
                                        AgentToolFunc        handler,
                                        gpointer             user_data,
                                        GDestroyNotify       destroy) G_GNUC_WARN_UNUSED_RESULT;
AGENT_AVAILABLE_IN_ALL
JsonNode   *agent_tool_parse_parameters (const char         *schema,
                                         GError            **error);
AGENT_AVAILABLE_IN_ALL
const char *agent_tool_get_name        (AgentTool           *self);
AGENT_AVAILABLE_IN_ALL
const char *agent_tool_get_description (AgentTool           *self);
AGENT_AVAILABLE_IN_ALL
JsonNode   *agent_tool_get_parameters  (AgentTool           *self);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_tool_get_requires_approval (AgentTool     *self);
AGENT_AVAILABLE_IN_ALL
void        agent_tool_set_requires_approval (AgentTool     *self,
                                              gboolean       requires_approval);
AGENT_AVAILABLE_IN_ALL
gboolean    agent_tool_get_return_direct     (AgentTool     *self);
AGENT_AVAILABLE_IN_ALL
void        agent_tool_set_return_direct     (AgentTool     *self,
                                              gboolean       return_direct);
AGENT_AVAILABLE_IN_ALL
double      agent_tool_get_timeout           (AgentTool     *self);
AGENT_AVAILABLE_IN_ALL
void        agent_tool_set_timeout           (AgentTool     *self,
                                              double         timeout);
AGENT_AVAILABLE_IN_ALL
void        agent_tool_invoke          (AgentTool           *self,
                                        AgentToolInvocation *invocation);

/**
 * AgentToolBlockingFunc:
 * @tool: the tool being called
 * @arguments: the call's arguments, a JSON object
 * @cancellable: cancelled when the call is (the turn was cancelled, or
 *   the tool timed out)
 * @user_data: the data passed to [ctor@Agent.Tool.new_blocking]
 * @error: return location for a [struct@GLib.Error]
 *
 * The body of a tool that blocks (file or network I/O, a computation). It
 * runs in a worker thread.
 *
 * Returns: (transfer full) (nullable): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
typedef char *(*AgentToolBlockingFunc) (AgentTool     *tool,
                                        JsonNode      *arguments,
                                        GCancellable  *cancellable,
                                        gpointer       user_data,
                                        GError       **error);

AGENT_AVAILABLE_IN_ALL
AgentTool  *agent_tool_new_blocking    (const char             *name,
                                        const char             *description,
                                        JsonNode               *parameters,
                                        AgentToolBlockingFunc   func,
                                        gpointer                user_data,
                                        GDestroyNotify          destroy) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
