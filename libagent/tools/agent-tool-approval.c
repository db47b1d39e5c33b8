/* agent-tool-approval.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tools/agent-tool-approval-private.h"
#include "agent-util-private.h"

/**
 * AgentToolApproval:
 *
 * A question to the user: may this tool run with these arguments?
 *
 * A session asks it through [signal@Agent.Session::approve-tool-call]
 * before running a tool that [property@Agent.Tool:requires-approval]. The
 * handler answers with [method@Agent.ToolApproval.allow] or
 * [method@Agent.ToolApproval.deny], at once or later — after a dialog, from
 * any thread — the way a D-Bus service answers a
 * [class@Gio.DBusMethodInvocation]. [property@Agent.ToolApproval:answered]
 * is then notified on the main context the approval was created in.
 *
 * If the turn is cancelled before the answer, the approval's
 * [method@Agent.ToolApproval.get_cancellable] is cancelled (a dialog can
 * close itself) and a late answer is ignored; a late
 * [method@Agent.ToolApproval.allow] says so once with a warning.
 *
 * The session does not keep the approval alive for the handler: one that
 * answers later keeps a reference until it does. An approval finalized
 * without an answer denies the call, so that the turn never waits forever
 * and the tool never runs unapproved.
 *
 * Since: 0.1
 */

struct _AgentToolApproval
{
  GObject        parent_instance;
  GMutex         mutex;
  AgentTool     *tool;
  AgentToolCall *tool_call;
  GCancellable  *cancellable;
  GMainContext  *context;
  GThread       *owner;
  char          *reason;
  guint          answered : 1;
  guint          dropped : 1;
  guint          over : 1;
  guint          allowed : 1;
};

enum {
  PROP_0,
  PROP_TOOL,
  PROP_TOOL_CALL,
  PROP_CANCELLABLE,
  PROP_ANSWERED,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentToolApproval, agent_tool_approval, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static gboolean notify_answered_cb (gpointer data);

static void
agent_tool_approval_dispose (GObject *object)
{
  AgentToolApproval *self = (AgentToolApproval *)object;
  gboolean answered;

  /* Dropped without an answer: the call is denied. Notifications are not
   * delivered during a dispose: the answer is, from the owner's main
   * context, which holds a new reference until then; the approval is
   * disposed again after it. */
  g_mutex_lock (&self->mutex);
  answered = self->answered || self->over || self->tool_call == NULL;
  if (!answered)
    {
      self->answered = TRUE;
      self->dropped = TRUE;
    }
  g_mutex_unlock (&self->mutex);

  if (!answered)
    {
      _agent_run_later (object, self->context, notify_answered_cb);
      return;
    }

  g_clear_object (&self->tool);
  g_clear_object (&self->tool_call);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (agent_tool_approval_parent_class)->dispose (object);
}

static void
agent_tool_approval_finalize (GObject *object)
{
  AgentToolApproval *self = (AgentToolApproval *)object;

  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->reason, g_free);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (agent_tool_approval_parent_class)->finalize (object);
}

static void
agent_tool_approval_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AgentToolApproval *self = AGENT_TOOL_APPROVAL (object);

  switch (prop_id)
    {
    case PROP_TOOL:
      g_value_set_object (value, self->tool);
      break;

    case PROP_TOOL_CALL:
      g_value_set_object (value, self->tool_call);
      break;

    case PROP_CANCELLABLE:
      g_value_set_object (value, self->cancellable);
      break;

    case PROP_ANSWERED:
      g_value_set_boolean (value, agent_tool_approval_is_answered (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_tool_approval_class_init (AgentToolApprovalClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_tool_approval_dispose;
  object_class->finalize = agent_tool_approval_finalize;
  object_class->get_property = agent_tool_approval_get_property;

  /**
   * AgentToolApproval:tool:
   *
   * The tool that wants to run.
   */
  properties[PROP_TOOL] =
    g_param_spec_object ("tool", NULL, NULL,
                         AGENT_TYPE_TOOL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolApproval:tool-call:
   *
   * The call the model made, with its arguments.
   */
  properties[PROP_TOOL_CALL] =
    g_param_spec_object ("tool-call", NULL, NULL,
                         AGENT_TYPE_TOOL_CALL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolApproval:cancellable:
   *
   * Cancelled when the question no longer matters (the turn was cancelled).
   */
  properties[PROP_CANCELLABLE] =
    g_param_spec_object ("cancellable", NULL, NULL,
                         G_TYPE_CANCELLABLE,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolApproval:answered:
   *
   * Whether the user answered. Notified once.
   */
  properties[PROP_ANSWERED] =
    g_param_spec_boolean ("answered", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_tool_approval_init (AgentToolApproval *self)
{
  g_mutex_init (&self->mutex);
}

/**
 * agent_tool_approval_new:
 * @tool: the tool that wants to run
 * @tool_call: the call the model made
 * @cancellable: (nullable): cancelled when the question no longer matters
 *
 * Creates a question for the user. Sessions create them; it is public so
 * that other front ends and tests can.
 *
 * Returns: (transfer full): a new [class@Agent.ToolApproval]
 *
 * Since: 0.1
 */
AgentToolApproval *
agent_tool_approval_new (AgentTool     *tool,
                         AgentToolCall *tool_call,
                         GCancellable  *cancellable)
{
  AgentToolApproval *self;

  g_return_val_if_fail (AGENT_IS_TOOL (tool), NULL);
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (tool_call), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  self = g_object_new (AGENT_TYPE_TOOL_APPROVAL, NULL);
  self->tool = g_object_ref (tool);
  self->tool_call = g_object_ref (tool_call);
  self->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  self->context = g_main_context_ref_thread_default ();
  self->owner = g_thread_self ();

  return self;
}

static gboolean
notify_answered_cb (gpointer data)
{
  g_object_notify_by_pspec (G_OBJECT (data), properties[PROP_ANSWERED]);
  return G_SOURCE_REMOVE;
}

static void
answer (AgentToolApproval *self,
        gboolean           allowed,
        const char        *reason)
{
  const char *name = agent_tool_call_get_name (self->tool_call);
  gboolean over;

  g_mutex_lock (&self->mutex);
  if (self->answered)
    {
      g_mutex_unlock (&self->mutex);
      g_critical ("The approval of tool “%s” was answered twice; only the first answer counts",
                  name);
      return;
    }
  self->answered = TRUE;
  self->allowed = !!allowed;
  self->reason = g_strdup (reason);
  over = self->over;
  g_mutex_unlock (&self->mutex);

  if (over)
    {
      if (allowed)
        g_warning ("The call of tool “%s” was allowed after it was over (the turn was "
                   "cancelled); the tool did not run", name);
      return;
    }

  _agent_run_on_owner (G_OBJECT (self), self->owner, self->context, notify_answered_cb);
}

/*
 * _agent_tool_approval_set_over:
 * @self: an approval
 *
 * Marks the question as no longer mattering: a later answer is ignored, an
 * allow with a warning.
 */
void
_agent_tool_approval_set_over (AgentToolApproval *self)
{
  g_mutex_lock (&self->mutex);
  if (!self->answered)
    self->over = TRUE;
  g_mutex_unlock (&self->mutex);
}

/*
 * _agent_tool_approval_was_dropped:
 * @self: an approval
 *
 * Returns: whether the approval was finalized without an answer
 */
gboolean
_agent_tool_approval_was_dropped (AgentToolApproval *self)
{
  gboolean dropped;

  g_mutex_lock (&self->mutex);
  dropped = self->dropped;
  g_mutex_unlock (&self->mutex);

  return dropped;
}

/**
 * agent_tool_approval_get_tool:
 * @self: a [class@Agent.ToolApproval]
 *
 * Gets the tool that wants to run.
 *
 * Returns: (transfer none): the tool that wants to run
 *
 * Since: 0.1
 */
AgentTool *
agent_tool_approval_get_tool (AgentToolApproval *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_APPROVAL (self), NULL);
  return self->tool;
}

/**
 * agent_tool_approval_get_tool_call:
 * @self: a [class@Agent.ToolApproval]
 *
 * Gets the call the model made.
 *
 * Returns: (transfer none): the call the model made
 *
 * Since: 0.1
 */
AgentToolCall *
agent_tool_approval_get_tool_call (AgentToolApproval *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_APPROVAL (self), NULL);
  return self->tool_call;
}

/**
 * agent_tool_approval_get_cancellable:
 * @self: a [class@Agent.ToolApproval]
 *
 * Gets a [class@Gio.Cancellable], cancelled when the question no longer matters.
 *
 * Returns: (transfer none): cancelled when the question no longer matters
 *
 * Since: 0.1
 */
GCancellable *
agent_tool_approval_get_cancellable (AgentToolApproval *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_APPROVAL (self), NULL);
  return self->cancellable;
}

/**
 * agent_tool_approval_allow:
 * @self: a [class@Agent.ToolApproval]
 *
 * Lets the tool run. May be called from any thread.
 *
 * Since: 0.1
 */
void
agent_tool_approval_allow (AgentToolApproval *self)
{
  g_return_if_fail (AGENT_IS_TOOL_APPROVAL (self));

  answer (self, TRUE, NULL);
}

/**
 * agent_tool_approval_deny:
 * @self: a [class@Agent.ToolApproval]
 * @reason: (nullable): why, in words for the model
 *
 * Refuses the call. The model is told "denied by the user", with @reason,
 * and the turn goes on. May be called from any thread.
 *
 * Since: 0.1
 */
void
agent_tool_approval_deny (AgentToolApproval *self,
                          const char        *reason)
{
  g_return_if_fail (AGENT_IS_TOOL_APPROVAL (self));

  answer (self, FALSE, reason);
}

/**
 * agent_tool_approval_is_answered:
 * @self: a [class@Agent.ToolApproval]
 *
 * Checks whether the user answered.
 *
 * Returns: whether the user answered
 *
 * Since: 0.1
 */
gboolean
agent_tool_approval_is_answered (AgentToolApproval *self)
{
  gboolean answered;

  g_return_val_if_fail (AGENT_IS_TOOL_APPROVAL (self), FALSE);

  g_mutex_lock (&self->mutex);
  answered = self->answered;
  g_mutex_unlock (&self->mutex);

  return answered;
}

/**
 * agent_tool_approval_get_allowed:
 * @self: a [class@Agent.ToolApproval]
 *
 * Checks whether the user allowed the call (%FALSE until answered).
 *
 * Returns: whether the user allowed the call (%FALSE until answered)
 *
 * Since: 0.1
 */
gboolean
agent_tool_approval_get_allowed (AgentToolApproval *self)
{
  gboolean allowed;

  g_return_val_if_fail (AGENT_IS_TOOL_APPROVAL (self), FALSE);

  g_mutex_lock (&self->mutex);
  allowed = self->answered && self->allowed;
  g_mutex_unlock (&self->mutex);

  return allowed;
}

/**
 * agent_tool_approval_dup_reason:
 * @self: a [class@Agent.ToolApproval]
 *
 * Gets the reason given with a denial.
 *
 * Returns: (transfer full) (nullable): the reason given with a denial
 *
 * Since: 0.1
 */
char *
agent_tool_approval_dup_reason (AgentToolApproval *self)
{
  char *reason;

  g_return_val_if_fail (AGENT_IS_TOOL_APPROVAL (self), NULL);

  g_mutex_lock (&self->mutex);
  reason = g_strdup (self->reason);
  g_mutex_unlock (&self->mutex);

  return reason;
}
