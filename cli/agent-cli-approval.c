/* agent-cli-approval.c
 *
 * Tools that need approval are asked about on the controlling terminal
 * (/dev/tty), even when the prompt came from a pipe: "Run read_file
 * {"path":"notes.txt"}? [y/N]". One question at a time; the others wait.
 * Without a terminal there is no one to ask, and the library denies the
 * call; --yes approves everything.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <gio/gunixinputstream.h>

#include "agent-cli-approval.h"
#include "agent-cli-output.h"

struct _CliApprover
{
  GQueue            queue;      /* AgentToolApproval, the first being asked */
  GDataInputStream *tty_in;
  int               tty_fd;
  GCancellable     *reading;
  gulong            cancelled_id;  /* on the cancellable of the approval being asked */
  guint             approve_all : 1;
  guint             tty_failed : 1;
};

static void ask_next (CliApprover *self);

CliApprover *
cli_approver_new (gboolean approve_all)
{
  CliApprover *self = g_new0 (CliApprover, 1);

  g_queue_init (&self->queue);
  self->approve_all = !!approve_all;
  self->tty_fd = -1;

  return self;
}

void
cli_approver_free (CliApprover *self)
{
  if (self == NULL)
    return;

  if (self->cancelled_id != 0)
    g_cancellable_disconnect (agent_tool_approval_get_cancellable (g_queue_peek_head (&self->queue)),
                              self->cancelled_id);
  if (self->reading != NULL)
    g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  g_queue_clear_full (&self->queue, g_object_unref);
  g_clear_object (&self->tty_in);
  if (self->tty_fd >= 0)
    close (self->tty_fd);
  g_free (self);
}

static gboolean
open_terminal (CliApprover *self)
{
  g_autoptr(GInputStream) stream = NULL;

  if (self->tty_in != NULL)
    return TRUE;
  if (self->tty_failed)
    return FALSE;

  self->tty_fd = open ("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
  if (self->tty_fd < 0)
    {
      self->tty_failed = TRUE;
      return FALSE;
    }

  stream = g_unix_input_stream_new (self->tty_fd, FALSE);
  self->tty_in = g_data_input_stream_new (stream);
  return TRUE;
}

static void
say_on_terminal (CliApprover *self,
                 const char  *text)
{
  gsize len = strlen (text);

  /* After the answer's text that standard output still holds */
  fflush (stdout);
  while (len > 0)
    {
      gssize n = write (self->tty_fd, text, len);

      if (n <= 0)
        return;
      text += n;
      len -= n;
    }
}

static void
answered (CliApprover *self,
          gboolean     allowed)
{
  g_autoptr(AgentToolApproval) approval = g_queue_pop_head (&self->queue);

  g_clear_object (&self->reading);
  g_cancellable_disconnect (agent_tool_approval_get_cancellable (approval), self->cancelled_id);
  self->cancelled_id = 0;

  if (!agent_tool_approval_is_answered (approval) &&
      !g_cancellable_is_cancelled (agent_tool_approval_get_cancellable (approval)))
    {
      if (allowed)
        agent_tool_approval_allow (approval);
      else
        agent_tool_approval_deny (approval, _("the user said no"));
    }

  ask_next (self);
}

static void
read_answer_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  CliApprover *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL,
                                                    &error);

  /* The approver is gone (the program ends): nothing to do. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && g_queue_is_empty (&self->queue))
    return;

  if (line != NULL)
    g_strstrip (line);

  answered (self, line != NULL && (g_ascii_strcasecmp (line, "y") == 0 ||
                                   g_ascii_strcasecmp (line, "yes") == 0));
}

static void
approval_cancelled_cb (GCancellable *cancellable,
                       CliApprover  *self)
{
  /* The turn was cancelled while we asked: stop waiting for the answer. */
  if (self->reading != NULL)
    g_cancellable_cancel (self->reading);
}

static void
ask_next (CliApprover *self)
{
  AgentToolApproval *approval;
  AgentToolCall *call;
  g_autofree char *question = NULL;
  g_autofree char *name = NULL;
  g_autofree char *arguments = NULL;

  while ((approval = g_queue_peek_head (&self->queue)) != NULL &&
         g_cancellable_is_cancelled (agent_tool_approval_get_cancellable (approval)))
    g_object_unref (g_queue_pop_head (&self->queue));

  if (approval == NULL || self->reading != NULL)
    return;

  call = agent_tool_approval_get_tool_call (approval);
  name = cli_escape_for_terminal (agent_tool_call_get_name (call), FALSE);
  arguments = cli_escape_for_terminal (agent_tool_call_get_arguments (call), FALSE);
  /* Translators: asked on the terminal before a tool runs; %s are the tool
   * and its arguments. Answering y or yes allows it. */
  question = g_strdup_printf (_("Run %s %s? [y/N] "), name, arguments);
  say_on_terminal (self, question);

  self->reading = g_cancellable_new ();
  self->cancelled_id = g_cancellable_connect (agent_tool_approval_get_cancellable (approval),
                                              G_CALLBACK (approval_cancelled_cb), self, NULL);
  g_data_input_stream_read_line_async (self->tty_in, G_PRIORITY_DEFAULT, self->reading,
                                       read_answer_cb, self);
}

/* The approve-tool-call handler: TRUE if the question will be answered. */
gboolean
cli_approver_handle (CliApprover       *self,
                     AgentToolCall     *call,
                     AgentToolApproval *approval)
{
  if (self->approve_all)
    {
      agent_tool_approval_allow (approval);
      return TRUE;
    }

  if (!open_terminal (self))
    return FALSE;

  g_queue_push_tail (&self->queue, g_object_ref (approval));
  ask_next (self);
  return TRUE;
}
