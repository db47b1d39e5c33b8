/* agent-util.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "agent-util-private.h"
#include "wire/agent-wire-util-private.h"

/*
 * Runs @func (@object) on the thread that owns @object: at once when called
 * there, through @context (the owner's main context) otherwise. Objects
 * that tools and dialogs answer from any thread (invocations, approvals)
 * report back this way. g_main_context_invoke() is not enough: another
 * thread may acquire the global default context and would then run @func
 * on the wrong thread.
 */
void
_agent_run_on_owner (GObject      *object,
                     GThread      *owner,
                     GMainContext *context,
                     GSourceFunc   func)
{
  if (g_thread_self () == owner)
    {
      func (object);
      return;
    }

  _agent_run_later (object, context, func);
}

/* Calls func (object) from @context's next iteration, holding a reference
 * until then. From a dispose, this brings the object back to life: it is
 * disposed again after func ran. */
void
_agent_run_later (GObject      *object,
                  GMainContext *context,
                  GSourceFunc   func)
{
  GSource *source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, g_object_ref (object), g_object_unref);
  g_source_set_static_name (source, "[agent-run-on-owner]");
  g_source_attach (source, context);
  g_source_unref (source);
}

/* @url without its user information ("user:password@"), which is a
 * secret: to show, log or store. @url itself (a copy) when it has none or
 * is no URL. */
char *
_agent_url_hide_userinfo (const char *url)
{
  g_autoptr(GUri) uri = NULL;

  if (url == NULL)
    return NULL;

  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED | G_URI_FLAGS_HAS_PASSWORD, NULL);
  if (uri == NULL || g_uri_get_userinfo (uri) == NULL)
    return g_strdup (url);

  return g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO);
}

/* Where the redirect @message received points, to show in an error:
 * resolved against the request's URL, without user information, with
 * @secrets (NULL-terminated, or NULL) redacted. NULL without a Location.
 * Redirects carrying a key or configured headers are never followed: the
 * error says where the server pointed, for the user to configure it. */
char *
_agent_redirect_target (SoupMessage        *message,
                        const char * const *secrets)
{
  const char *location = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                       "Location");
  g_autoptr(GUri) target = NULL;
  g_autofree char *shown = NULL;

  if (location == NULL)
    return NULL;

  target = g_uri_parse_relative (soup_message_get_uri (message), location, SOUP_HTTP_URI_FLAGS,
                                 NULL);
  shown = target != NULL ? g_uri_to_string_partial (target, G_URI_HIDE_USERINFO)
                         : g_utf8_make_valid (location, -1);
  return agent_redact (shown, secrets);
}

/* Whether the value of the HTTP header @name is a credential, to be kept
 * out of logs and errors: a name one of whose words (between "-" or "_")
 * is authorization, auth, cookie, key, apikey, token, secret, password or
 * session — Authorization, x-api-key, x-goog-api-key, Set-Cookie,
 * Helicone-Auth, X-Access-Token; not x-ratelimit-remaining-tokens. */
gboolean
_agent_header_is_secret (const char *name)
{
  static const char * const words[] = {
    "authorization", "auth", "cookie", "key", "apikey", "token", "secret", "password", "session",
    NULL,
  };
  g_auto(GStrv) parts = NULL;
  g_autofree char *lower = NULL;

  if (name == NULL)
    return FALSE;

  lower = g_ascii_strdown (name, -1);
  g_strdelimit (lower, "_", '-');
  parts = g_strsplit (lower, "-", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (g_strv_contains (words, parts[i]))
      return TRUE;
  return FALSE;
}

#define LEASE_POLL_USEC (20 * 1000)

/* Opens @path for reading when it is a regular file, as a descriptor
 * (close-on-exec, blocking) with what fstat() says of it in @info. Opened
 * without waiting: a FIFO would block open() until a writer comes, and its
 * type is checked on what was opened, since a look at the path first could
 * be answered by a regular file that is a FIFO by the time it is opened. A
 * file under another process's lease answers EWOULDBLOCK until the lease is
 * given up: asked again, until then or until @cancellable is cancelled
 * (ECANCELED).
 *
 * Returns -1 with errno set when it could not be opened, or with errno 0
 * when it is not a regular file (@info says what it is). */
int
_agent_open_regular_file (const char   *path,
                          GCancellable *cancellable,
                          struct stat  *info)
{
  int fd;

  while ((fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0)) < 0 &&
         errno == EWOULDBLOCK)
    {
      if (g_cancellable_is_cancelled (cancellable))
        {
          errno = ECANCELED;
          return -1;
        }
      g_usleep (LEASE_POLL_USEC);
    }
  if (fd < 0)
    return -1;

  if (fstat (fd, info) != 0)
    {
      int saved_errno = errno;

      close (fd);
      errno = saved_errno;
      return -1;
    }
  if (!S_ISREG (info->st_mode))
    {
      close (fd);
      errno = 0;
      return -1;
    }

  /* A regular file never blocks; reads need no O_NONBLOCK */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}
