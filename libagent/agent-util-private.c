/* agent-util-private.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agent-util-private.h"

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
