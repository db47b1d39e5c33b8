/* agent-tool-invocation.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "messages/agent-tool-call.h"
#include "tools/agent-tool-invocation-private.h"
#include "agent-util-private.h"
#include "json/agent-json-private.h"

/**
 * AgentToolInvocation:
 *
 * One run of a tool: the call the model made, its parsed arguments, and the
 * means to answer it.
 *
 * The tool completes the invocation exactly once, with
 * [method@Agent.ToolInvocation.return_result] or an error, at once or later
 * and from any thread. [property@Agent.ToolInvocation:completed] is then
 * notified on the main context that was the thread-default one when the
 * invocation was created.
 *
 * The invocation's [method@Agent.ToolInvocation.get_cancellable] is
 * cancelled when the turn is; a long-running tool should watch it.
 *
 * A session does not keep the invocation alive for the tool: a tool that
 * answers later keeps a reference until it does. An invocation finalized
 * without an answer completes with an error result that says the tool gave
 * no answer, so that a forgotten invocation never hangs the turn.
 *
 * Once the call is over — the turn was cancelled, or the tool timed out —
 * a late answer is ignored; a late result says so once with a warning,
 * since what the tool did is lost (a late error is expected from a tool
 * that saw its cancellable and is ignored quietly).
 *
 * Since: 0.1
 */

struct _AgentToolInvocation
{
  GObject        parent_instance;
  GMutex         mutex;
  AgentTool     *tool;
  AgentToolCall *tool_call;
  GCancellable  *cancellable;
  GMainContext  *context;
  GThread       *owner;
  JsonNode      *arguments;
  char          *result;
  GPtrArray     *attachments;      /* of AgentContentPart, or NULL */
  char          *progress_text;    /* the last report, until delivered */
  double         progress;
  char          *over;             /* why the call ended without the tool's answer */
  guint          is_error : 1;
  guint          completed : 1;
  guint          progress_pending : 1;
};

enum {
  PROGRESS,
  N_SIGNALS
};

enum {
  PROP_0,
  PROP_TOOL,
  PROP_TOOL_CALL,
  PROP_CANCELLABLE,
  PROP_COMPLETED,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentToolInvocation, agent_tool_invocation, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static gboolean notify_completed_cb (gpointer data);

static void
agent_tool_invocation_dispose (GObject *object)
{
  AgentToolInvocation *self = (AgentToolInvocation *)object;
  gboolean answered;

  /* Dropped without an answer: the call is answered with an error, so that
   * the turn does not wait for it forever. Notifications are not delivered
   * during a dispose: the answer is, from the owner's main context, which
   * holds a new reference until then; the invocation is disposed again
   * after it. */
  g_mutex_lock (&self->mutex);
  answered = self->completed || self->over != NULL || self->tool_call == NULL;
  if (!answered)
    {
      self->completed = TRUE;
      self->is_error = TRUE;
      self->result = g_strdup_printf (_("The tool “%s” gave no answer"),
                                      agent_tool_call_get_name (self->tool_call));
    }
  g_mutex_unlock (&self->mutex);

  if (!answered)
    {
      _agent_run_later (object, self->context, notify_completed_cb);
      return;
    }

  g_clear_object (&self->tool);
  g_clear_object (&self->tool_call);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (agent_tool_invocation_parent_class)->dispose (object);
}

static void
agent_tool_invocation_finalize (GObject *object)
{
  AgentToolInvocation *self = (AgentToolInvocation *)object;

  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->arguments, json_node_unref);
  g_clear_pointer (&self->result, g_free);
  g_clear_pointer (&self->attachments, g_ptr_array_unref);
  g_clear_pointer (&self->progress_text, g_free);
  g_clear_pointer (&self->over, g_free);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (agent_tool_invocation_parent_class)->finalize (object);
}

static void
agent_tool_invocation_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  AgentToolInvocation *self = AGENT_TOOL_INVOCATION (object);

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

    case PROP_COMPLETED:
      g_value_set_boolean (value, agent_tool_invocation_is_completed (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_tool_invocation_class_init (AgentToolInvocationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_tool_invocation_dispose;
  object_class->finalize = agent_tool_invocation_finalize;
  object_class->get_property = agent_tool_invocation_get_property;

  /**
   * AgentToolInvocation:tool:
   *
   * The tool being run.
   */
  properties[PROP_TOOL] =
    g_param_spec_object ("tool", NULL, NULL,
                         AGENT_TYPE_TOOL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolInvocation:tool-call:
   *
   * The call the model made.
   */
  properties[PROP_TOOL_CALL] =
    g_param_spec_object ("tool-call", NULL, NULL,
                         AGENT_TYPE_TOOL_CALL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolInvocation:cancellable:
   *
   * Cancelled when the turn is cancelled.
   */
  properties[PROP_CANCELLABLE] =
    g_param_spec_object ("cancellable", NULL, NULL,
                         G_TYPE_CANCELLABLE,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentToolInvocation:completed:
   *
   * Whether the invocation has its result. Notified once, when the tool
   * completes the invocation: at once on the thread that created the
   * invocation, or through that thread's main context when completed from
   * another thread.
   */
  properties[PROP_COMPLETED] =
    g_param_spec_boolean ("completed", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentToolInvocation::progress:
   * @self: the invocation
   * @fraction: how far the tool is, from 0 to 1, or -1 if it cannot say
   * @text: (nullable): a line about what it is doing
   *
   * Emitted on the invocation's main context after the tool reported
   * progress with [method@Agent.ToolInvocation.report_progress]. Reports
   * that come faster than the main context runs are merged: the last one
   * wins.
   */
  signals[PROGRESS] =
    g_signal_new ("progress",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_STRING);
}

static void
agent_tool_invocation_init (AgentToolInvocation *self)
{
  g_mutex_init (&self->mutex);
}

static gboolean
notify_completed_cb (gpointer data)
{
  g_object_notify_by_pspec (G_OBJECT (data), properties[PROP_COMPLETED]);
  return G_SOURCE_REMOVE;
}

static void
run_on_owner (AgentToolInvocation *self,
              GSourceFunc          func)
{
  _agent_run_on_owner (G_OBJECT (self), self->owner, self->context, func);
}

static gboolean
emit_progress_cb (gpointer data)
{
  AgentToolInvocation *self = data;
  g_autofree char *text = NULL;
  double fraction;

  g_mutex_lock (&self->mutex);
  fraction = self->progress;
  text = g_steal_pointer (&self->progress_text);
  self->progress_pending = FALSE;
  g_mutex_unlock (&self->mutex);

  g_signal_emit (self, signals[PROGRESS], 0, fraction, text);
  return G_SOURCE_REMOVE;
}

static void
complete (AgentToolInvocation *self,
          const char          *result,
          gboolean             is_error)
{
  const char *name = agent_tool_call_get_name (self->tool_call);
  g_autofree char *over = NULL;

  g_mutex_lock (&self->mutex);
  if (self->completed)
    {
      g_mutex_unlock (&self->mutex);
      g_critical ("The invocation of tool “%s” was completed twice; "
                  "only the first result counts", name);
      return;
    }
  self->completed = TRUE;
  self->is_error = !!is_error;
  self->result = g_strdup (result ? result : "");
  over = g_strdup (self->over);
  g_mutex_unlock (&self->mutex);

  /* The call ended without this answer: nobody waits for it. */
  if (over != NULL)
    {
      if (!is_error)
        g_warning ("The tool “%s” answered after its call was over (%s); its result was dropped",
                   name, over);
      return;
    }

  run_on_owner (self, notify_completed_cb);
}

/*
 * _agent_tool_invocation_set_over:
 * @self: an invocation
 * @why: why the call ended without the tool's answer, for a warning
 *
 * Marks the call as over (cancelled, timed out): an answer that comes
 * later is dropped, a result with a warning.
 */
void
_agent_tool_invocation_set_over (AgentToolInvocation *self,
                                 const char          *why)
{
  g_return_if_fail (AGENT_IS_TOOL_INVOCATION (self));

  g_mutex_lock (&self->mutex);
  if (self->over == NULL && !self->completed)
    self->over = g_strdup (why);
  g_mutex_unlock (&self->mutex);
}

/*
 * _agent_tool_invocation_is_over:
 * @self: an invocation
 *
 * Returns: whether the call ended without the tool's answer
 */
gboolean
_agent_tool_invocation_is_over (AgentToolInvocation *self)
{
  gboolean over;

  g_mutex_lock (&self->mutex);
  over = self->over != NULL;
  g_mutex_unlock (&self->mutex);

  return over;
}

/**
 * agent_tool_invocation_new:
 * @tool: the tool to run
 * @tool_call: the call the model made
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 *
 * Creates an invocation of @tool for @tool_call. Sessions create them; an
 * application may create one to run a tool by hand with
 * [method@Agent.Tool.invoke].
 *
 * The call's arguments are parsed here. If they are not a JSON object, the
 * invocation is created already completed with an error that says so (and
 * [property@Agent.ToolInvocation:completed] is not notified, since it never
 * changes), and the tool will not run.
 *
 * Returns: (transfer full): a new [class@Agent.ToolInvocation]
 *
 * Since: 0.1
 */
AgentToolInvocation *
agent_tool_invocation_new (AgentTool     *tool,
                           AgentToolCall *tool_call,
                           GCancellable  *cancellable)
{
  g_autoptr(GError) error = NULL;
  AgentToolInvocation *self;

  g_return_val_if_fail (AGENT_IS_TOOL (tool), NULL);
  g_return_val_if_fail (AGENT_IS_TOOL_CALL (tool_call), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  self = g_object_new (AGENT_TYPE_TOOL_INVOCATION, NULL);
  self->tool = g_object_ref (tool);
  self->tool_call = g_object_ref (tool_call);
  self->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  self->context = g_main_context_ref_thread_default ();
  self->owner = g_thread_self ();
  self->arguments = agent_tool_call_parse_arguments (tool_call, &error);

  if (self->arguments == NULL)
    {
      JsonNode *empty = json_node_new (JSON_NODE_OBJECT);

      json_node_take_object (empty, json_object_new ());
      self->arguments = empty;
      self->completed = TRUE;
      self->is_error = TRUE;
      self->result = g_strdup (error->message);
    }

  json_node_seal (self->arguments);

  return self;
}

/**
 * agent_tool_invocation_get_tool:
 * @self: a [class@Agent.ToolInvocation]
 *
 * Gets the tool being run.
 *
 * Returns: (transfer none): the tool being run
 *
 * Since: 0.1
 */
AgentTool *
agent_tool_invocation_get_tool (AgentToolInvocation *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_INVOCATION (self), NULL);
  return self->tool;
}

/**
 * agent_tool_invocation_get_tool_call:
 * @self: a [class@Agent.ToolInvocation]
 *
 * Gets the call the model made.
 *
 * Returns: (transfer none): the call the model made
 *
 * Since: 0.1
 */
AgentToolCall *
agent_tool_invocation_get_tool_call (AgentToolInvocation *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_INVOCATION (self), NULL);
  return self->tool_call;
}

/**
 * agent_tool_invocation_get_arguments:
 * @self: a [class@Agent.ToolInvocation]
 *
 * Gets the call's arguments, parsed. Empty arguments are an empty object.
 *
 * Returns: (transfer none): a JSON object (sealed: copy it to change it)
 *
 * Since: 0.1
 */
JsonNode *
agent_tool_invocation_get_arguments (AgentToolInvocation *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_INVOCATION (self), NULL);
  return self->arguments;
}

/**
 * agent_tool_invocation_get_cancellable:
 * @self: a [class@Agent.ToolInvocation]
 *
 * Gets a [class@Gio.Cancellable], cancelled when the turn is.
 *
 * Returns: (transfer none): a [class@Gio.Cancellable], cancelled when the turn is
 *
 * Since: 0.1
 */
GCancellable *
agent_tool_invocation_get_cancellable (AgentToolInvocation *self)
{
  g_return_val_if_fail (AGENT_IS_TOOL_INVOCATION (self), NULL);
  return self->cancellable;
}

/**
 * agent_tool_invocation_is_completed:
 * @self: a [class@Agent.ToolInvocation]
 *
 * Checks whether a result or an error was returned.
 *
 * Returns: whether a result or an error was returned
 *
 * Since: 0.1
 */
gboolean
agent_tool_invocation_is_completed (AgentToolInvocation *self)
{
  gboolean completed;

  g_return_val_if_fail (AGENT_IS_TOOL_INVOCATION (self), FALSE);

  g_mutex_lock (&self->mutex);
  completed = self->completed;
  g_mutex_unlock (&self->mutex);

  return completed;
}

/**
 * agent_tool_invocation_return_result:
 * @self: a [class@Agent.ToolInvocation]
 * @result: the tool's result, as text for the model (often JSON)
 *
 * Completes the invocation with a result. May be called from any thread.
 *
 * Since: 0.1
 */
void
agent_tool_invocation_return_result (AgentToolInvocation *self,
                                     const char          *result)
{
  g_return_if_fail (AGENT_IS_TOOL_INVOCATION (self));
  g_return_if_fail (result != NULL);

  complete (self, result, FALSE);
}

/**
 * agent_tool_invocation_return_json:
 * @self: a [class@Agent.ToolInvocation]
 * @value: the tool's result, any JSON value
 *
 * Completes the invocation with a JSON value, which the model reads as its
 * JSON text: an object, an array, a number, a boolean or null. A string is
 * the text itself, as [method@Agent.ToolInvocation.return_result] sends it.
 * May be called from any thread.
 *
 * Since: 0.1
 */
void
agent_tool_invocation_return_json (AgentToolInvocation *self,
                                   JsonNode            *value)
{
  g_autofree char *text = NULL;

  g_return_if_fail (AGENT_IS_TOOL_INVOCATION (self));
  g_return_if_fail (value != NULL);

  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (value));
  else
    text = agent_json_node_to_string (value, FALSE);

  complete (self, text, FALSE);
}

/**
 * agent_tool_invocation_return_error:
 * @self: a [class@Agent.ToolInvocation]
 * @error: the error
 *
 * Completes the invocation with an error. Its message is what the model
 * reads, so that it can recover. May be called from any thread.
 *
 * Since: 0.1
 */
void
agent_tool_invocation_return_error (AgentToolInvocation *self,
                                    const GError        *error)
{
  g_return_if_fail (AGENT_IS_TOOL_INVOCATION (self));
  g_return_if_fail (error != NULL);

  complete (self, error->message, TRUE);
}

/**
 * agent_tool_invocation_return_error_literal:
 * @self: a [class@Agent.ToolInvocation]
 * @message: the error text for the model
 *
 * Completes the invocation with an error message. May be called from any
 * thread.
 *
 * Since: 0.1
 */
void
agent_tool_invocation_return_error_literal (AgentToolInvocation *self,
                                            const char          *message)
{
  g_return_if_fail (AGENT_IS_TOOL_INVOCATION (self));
  g_return_if_fail (message != NULL);

  complete (self, message, TRUE);
}

/**
 * agent_tool_invocation_report_progress:
 * @self: a [class@Agent.ToolInvocation]
 * @fraction: how far the tool is, from 0 to 1, or a negative number if it
 *   cannot say
 * @text: (nullable): a short line about what it is doing
 *
 * Reports the progress of a long-running tool, so that an application can
 * show it (see [signal@Agent.Session::tool-progress]). May be called from
 * any thread, as often as the tool likes; reports after the invocation
 * completed are ignored.
 *
 * Since: 0.1
 */
void
agent_tool_invocation_report_progress (AgentToolInvocation *self,
                                       double               fraction,
                                       const char          *text)
{
  gboolean schedule;

  g_return_if_fail (AGENT_IS_TOOL_INVOCATION (self));

  g_mutex_lock (&self->mutex);
  if (self->completed)
    {
      g_mutex_unlock (&self->mutex);
      return;
    }
  self->progress = fraction < 0 ? -1 : MIN (fraction, 1.0);
  if (text != NULL)
    {
      g_free (self->progress_text);
      self->progress_text = g_strdup (text);
    }
  schedule = !self->progress_pending;
  self->progress_pending = TRUE;
  g_mutex_unlock (&self->mutex);

  if (schedule)
    run_on_owner (self, emit_progress_cb);
}

/**
 * agent_tool_invocation_add_attachment:
 * @self: a [class@Agent.ToolInvocation]
 * @part: an image or a document the result comes with
 *
 * Adds an image or a document to the tool's result, for the model to see:
 * call it before completing the invocation. The result's text should say
 * what the attachment is, for the providers whose API takes no images in
 * tool results: there the attachment follows the results in a user
 * message. May be called from any thread.
 *
 * Since: 0.1
 */
void
agent_tool_invocation_add_attachment (AgentToolInvocation *self,
                                      AgentContentPart    *part)
{
  g_return_if_fail (AGENT_IS_TOOL_INVOCATION (self));
  g_return_if_fail (AGENT_IS_CONTENT_PART (part));
  g_return_if_fail (agent_content_part_get_kind (part) != AGENT_CONTENT_PART_KIND_TEXT);

  g_mutex_lock (&self->mutex);
  if (self->completed)
    {
      g_mutex_unlock (&self->mutex);
      g_critical ("An attachment was added to the invocation of tool “%s” after it completed",
                  agent_tool_call_get_name (self->tool_call));
      return;
    }
  if (self->attachments == NULL)
    self->attachments = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->attachments, g_object_ref (part));
  g_mutex_unlock (&self->mutex);
}

/* Documented in agent-tool-invocation-private.h */
GPtrArray *
_agent_tool_invocation_steal_attachments (AgentToolInvocation *self)
{
  GPtrArray *attachments;

  g_mutex_lock (&self->mutex);
  attachments = g_steal_pointer (&self->attachments);
  g_mutex_unlock (&self->mutex);

  return attachments;
}

/**
 * agent_tool_invocation_dup_result:
 * @self: a [class@Agent.ToolInvocation]
 * @is_error: (out) (optional): whether the result is an error
 *
 * Gets what the tool returned.
 *
 * Returns: (transfer full) (nullable): the result or error text, or %NULL if
 *   the invocation is not completed yet
 *
 * Since: 0.1
 */
char *
agent_tool_invocation_dup_result (AgentToolInvocation *self,
                                  gboolean            *is_error)
{
  char *result;

  g_return_val_if_fail (AGENT_IS_TOOL_INVOCATION (self), NULL);

  g_mutex_lock (&self->mutex);
  result = g_strdup (self->result);
  if (is_error != NULL)
    *is_error = self->is_error;
  g_mutex_unlock (&self->mutex);

  return result;
}
