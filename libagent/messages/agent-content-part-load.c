/* agent-content-part-load.c — files read into parts, within bounds
 *
 * A file to attach may be anything its name points at: a named pipe
 * nobody writes to (open and read block for ever), a device that never
 * ends (/dev/zero), a log that grows while it is read, a file larger than
 * memory. So: only regular files are read (the others are refused, naming
 * what they are), opened without blocking; never more than the size they
 * had when opened, nor more than the caller's limit; asynchronously, on a
 * worker thread, so that the caller's main loop (its signals, its window)
 * goes on.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <sys/stat.h>

#include <glib/gi18n-lib.h>
#include <gio/gunixinputstream.h>

#include "agent-error.h"
#include "agent-util-private.h"
#include "messages/agent-content-part-private.h"

/* What a file that is not a regular one is, in words */
static const char *
describe_type (mode_t mode)
{
  if (S_ISFIFO (mode))
    return _("a named pipe (FIFO)");
  if (S_ISCHR (mode))
    return _("a character device");
  if (S_ISBLK (mode))
    return _("a block device");
  if (S_ISSOCK (mode))
    return _("a socket");
  return _("not a regular file");
}

static void
set_not_regular (GError     **error,
                 const char  *shown,
                 gboolean     folder,
                 const char  *what)
{
  if (folder)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                 _("“%s” is a folder, not a file"), shown);
  else
    /* Translators: the second %s is what the file is, e.g. "a named pipe (FIFO)" */
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                 _("“%s” is %s, not a regular file: it was not read"), shown, what);
}

/* A regular local file, opened without blocking on the way (a FIFO put
 * in its place after a look at it does not hang the open), as a stream,
 * and its size then. NULL with @error for anything else. */
static GInputStream *
open_local (const char    *path,
            const char    *shown,
            goffset       *size,
            GCancellable  *cancellable,
            GError       **error)
{
  struct stat info;
  int fd;

  if ((fd = _agent_open_regular_file (path, cancellable, &info)) < 0)
    {
      int saved_errno = errno;

      if (saved_errno == ECANCELED)
        g_cancellable_set_error_if_cancelled (cancellable, error);
      else if (saved_errno == 0)
        set_not_regular (error, shown, S_ISDIR (info.st_mode), describe_type (info.st_mode));
      else if (saved_errno == ENXIO)
        /* A socket, or on some systems a FIFO without a writer */
        set_not_regular (error, shown, FALSE, _("a socket or a named pipe"));
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                     _("“%s” could not be opened: %s"), shown, g_strerror (saved_errno));
      return NULL;
    }

  *size = info.st_size;
  return g_unix_input_stream_new (fd, TRUE);
}

/* A file GIO reaches otherwise (a remote one, through GVfs) */
static GInputStream *
open_other (GFile         *file,
            const char    *shown,
            goffset       *size,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local_error = NULL;
  GFileType type;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE,
                            cancellable, &local_error);
  if (info == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("“%s” could not be read: %s"), shown, local_error->message);
      return NULL;
    }
  type = g_file_info_get_file_type (info);
  if (type != G_FILE_TYPE_REGULAR)
    {
      set_not_regular (error, shown, type == G_FILE_TYPE_DIRECTORY,
                       type == G_FILE_TYPE_SPECIAL ? _("a special file") : _("not a regular file"));
      return NULL;
    }
  g_clear_object (&info);

  if (!(stream = g_file_read (file, cancellable, &local_error)) ||
      !(info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                               cancellable, &local_error)))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("“%s” could not be read: %s"), shown, local_error->message);
      return NULL;
    }

  *size = g_file_info_get_size (info);
  return G_INPUT_STREAM (g_steal_pointer (&stream));
}

/* Documented in agent-content-part-private.h */
AgentContentPart *
_agent_content_part_load_file (GFile         *file,
                               guint64        max_size,
                               GCancellable  *cancellable,
                               GError       **error)
{
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GBytes) data = NULL;
  g_autofree char *shown = g_file_get_parse_name (file);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *basename = NULL;
  g_autofree char *name = NULL;
  g_autofree char *mime_type = NULL;
  AgentContentPartKind kind;
  guchar *buffer;
  goffset size = 0;
  gsize n_read = 0;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  stream = path != NULL ? open_local (path, shown, &size, cancellable, error)
                        : open_other (file, shown, &size, cancellable, error);
  if (stream == NULL)
    return NULL;

  /* Not read at all when it could not be sent */
  if (max_size > 0 && (guint64) size > max_size)
    {
      g_autofree char *size_text = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *limit = g_format_size_full (max_size, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_LIMIT,
                   _("“%s” is too large to attach: %s, more than %s (max-attachment-size)"),
                   shown, size_text, limit);
      return NULL;
    }

  /* The size it had when opened, at the most: what it grows by later is
   * not read (a log being written) */
  if (size < 0 || (guint64) size > G_MAXSSIZE ||
      (buffer = g_try_malloc (MAX (size, 1))) == NULL)
    {
      g_autofree char *size_text = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _("“%s” is too large to be read into memory (%s)"), shown, size_text);
      return NULL;
    }

  if (!g_input_stream_read_all (stream, buffer, size, &n_read, cancellable, &local_error))
    {
      g_free (buffer);
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, local_error->domain, local_error->code,
                     _("“%s” could not be read: %s"), shown, local_error->message);
      return NULL;
    }
  if (n_read < (gsize) size)
    {
      g_free (buffer);
      /* Translators: the numbers are bytes */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("“%s” became shorter while it was read: %llu of the %llu bytes it had "
                     "when opened"),
                   shown, (unsigned long long) n_read, (unsigned long long) size);
      return NULL;
    }
  /* Files of /proc and /sys say they are empty and are not: what they
   * hold is read only by reading, so one byte more tells; refused rather
   * than attached empty (or read without a bound) */
  if (size == 0)
    {
      guchar probe;
      gssize n_probe = g_input_stream_read (stream, &probe, 1, cancellable, NULL);

      if (n_probe > 0)
        {
          g_free (buffer);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                       _("“%s” states a size of 0 but holds data (a file of /proc or /sys?): "
                         "it was not read; copy it to a regular file to attach it"),
                       shown);
          return NULL;
        }
    }
  data = g_bytes_new_take (buffer, size);

  /* A name, in valid UTF-8 whatever the file system's bytes */
  basename = g_file_get_basename (file);
  name = g_filename_display_name (basename);
  mime_type = _agent_content_part_guess_mime_type (name, data);

  if (g_str_has_prefix (mime_type, "image/"))
    kind = AGENT_CONTENT_PART_KIND_IMAGE;
  else if (_agent_mime_is_audio (mime_type))
    kind = AGENT_CONTENT_PART_KIND_AUDIO;
  else
    kind = AGENT_CONTENT_PART_KIND_FILE;

  return _agent_content_part_new (kind, mime_type, data, NULL, name);
}

typedef struct
{
  GFile   *file;
  guint64  max_size;
} LoadData;

static void
load_data_free (LoadData *load)
{
  g_object_unref (load->file);
  g_free (load);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *load = task_data;
  GError *error = NULL;
  AgentContentPart *part;

  part = _agent_content_part_load_file (load->file, load->max_size, cancellable, &error);
  if (part != NULL)
    g_task_return_pointer (task, part, g_object_unref);
  else
    g_task_return_error (task, error);
}

/**
 * agent_content_part_new_from_file_async:
 * @file: the file to attach
 * @max_size: the largest file read, in bytes, such as a session's
 *   [property@Agent.Session:max-attachment-size] (0: no limit)
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @callback: (scope async): called when the part is ready
 * @user_data: data for @callback
 *
 * Reads @file into an image, audio or document part, as
 * [ctor@Agent.ContentPart.new_from_file] does, on a worker thread: the
 * caller's main loop goes on meanwhile (a window, the signals that stop a
 * program), and @cancellable stops the reading.
 *
 * Only a regular file is read (a folder, a named pipe, a device, a socket
 * fails with %G_IO_ERROR_IS_DIRECTORY or %G_IO_ERROR_NOT_REGULAR_FILE,
 * naming what it is), never more than the size it had when it was opened
 * (what a file that grows adds later is not read), and not at all when
 * that size is more than @max_size (%AGENT_ERROR_LIMIT).
 *
 * Since: 0.1
 */
void
agent_content_part_new_from_file_async (GFile               *file,
                                        guint64              max_size,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *load;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, agent_content_part_new_from_file_async);
  g_task_set_return_on_cancel (task, TRUE);
  load = g_new0 (LoadData, 1);
  load->file = g_object_ref (file);
  load->max_size = max_size;
  g_task_set_task_data (task, load, (GDestroyNotify) load_data_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * agent_content_part_new_from_file_finish:
 * @result: the result given to the callback
 * @error: return location for a [struct@GLib.Error]
 *
 * Finishes [func@Agent.ContentPart.new_from_file_async].
 *
 * Returns: (transfer full): a new [class@Agent.ContentPart], or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
AgentContentPart *
agent_content_part_new_from_file_finish (GAsyncResult  *result,
                                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        agent_content_part_new_from_file_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
