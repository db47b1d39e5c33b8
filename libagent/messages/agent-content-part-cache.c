/* agent-content-part-cache.c — what is worked out of a part once
 *
 * A part never changes, so what is read or made of it is kept with it:
 * an image's size (from its header). Parts are shared between messages
 * and threads, so the cache is reached under one lock, taken only to look
 * and to store: the work runs outside it, and of two threads that did the
 * same work, the first result is kept.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "messages/agent-content-part-private.h"

struct _AgentPartCache
{
  int  width;
  int  height;
  int  size_state;  /* 0: not read yet, 1: read, -1: not an image we read */
};

static GMutex cache_lock;

void
_agent_part_cache_free (AgentPartCache *cache)
{
  g_free (cache);
}

/* The part's cache, made if need be; with cache_lock held */
static AgentPartCache *
get_cache (AgentContentPart *self)
{
  AgentPartCache **slot = _agent_content_part_cache_slot (self);

  if (*slot == NULL)
    *slot = g_new0 (AgentPartCache, 1);
  return *slot;
}

/* Documented in agent-content-part-private.h */
gboolean
_agent_content_part_get_image_size (AgentContentPart *self,
                                    int              *width,
                                    int              *height)
{
  AgentPartCache *cache;
  int state, w = 0, h = 0;

  if (agent_content_part_get_kind (self) != AGENT_CONTENT_PART_KIND_IMAGE ||
      agent_content_part_get_data (self) == NULL)
    return FALSE;

  g_mutex_lock (&cache_lock);
  cache = get_cache (self);
  state = cache->size_state;
  w = cache->width;
  h = cache->height;
  g_mutex_unlock (&cache_lock);

  if (state == 0)
    {
      state = _agent_image_read_size (agent_content_part_get_data (self), &w, &h) ? 1 : -1;
      g_mutex_lock (&cache_lock);
      cache = get_cache (self);
      cache->size_state = state;
      cache->width = w;
      cache->height = h;
      g_mutex_unlock (&cache_lock);
    }

  if (state < 0)
    return FALSE;
  *width = w;
  *height = h;
  return TRUE;
}
