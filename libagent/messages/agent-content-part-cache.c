/* agent-content-part-cache.c — what is worked out of a part once
 *
 * A part never changes, so what is read or made of it is kept with it:
 * an image's size (from its header), the pages of a PDF, the base64 of
 * its bytes, and what a provider's rule sends of an image (a variant:
 * the image scaled down to the size the API documents as useful, in
 * base64). A conversation's parts live as long as it is loaded, so each
 * attachment is scaled and encoded once per conversation, whatever the
 * number of requests that carry it; a store keeps the variants, so that
 * it holds across a restart too (agent-store-attachments.c).
 *
 * Parts are shared between messages and threads (a turn prepares them on
 * a worker thread), so the cache is reached under one lock, taken only to
 * look and to store: the work runs outside it, and of two threads that did
 * the same work, the first result is kept. What is kept is never changed
 * nor freed before the part, so a pointer into it stays good as long as
 * the caller holds the part.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "messages/agent-content-part-private.h"

typedef struct
{
  char     *rule;       /* _agent_image_rule_key() */
  char     *mime_type;  /* NULL: the part is sent as it is */
  int       width;
  int       height;
  char     *base64;     /* of the scaled bytes; NULL when sent as it is */
  gboolean  saved;      /* in a store */
} Variant;

struct _AgentPartCache
{
  int        width;
  int        height;
  int        size_state;  /* 0: not read yet, 1: read, -1: not an image we read */
  int        n_pages;     /* a PDF's, 0 until counted */
  char      *base64;      /* of the part's own bytes */
  GPtrArray *variants;    /* of Variant */
};

static GMutex cache_lock;

/* How many images were scaled for a rule, in this process (bench, tests) */
static guint n_scaled;

static void
variant_free (gpointer data)
{
  Variant *variant = data;

  g_free (variant->rule);
  g_free (variant->mime_type);
  g_free (variant->base64);
  g_free (variant);
}

void
_agent_part_cache_free (AgentPartCache *cache)
{
  g_free (cache->base64);
  g_clear_pointer (&cache->variants, g_ptr_array_unref);
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

/* With cache_lock held */
static Variant *
find_variant (AgentPartCache *cache,
              const char     *rule)
{
  for (guint i = 0; cache->variants != NULL && i < cache->variants->len; i++)
    {
      Variant *variant = g_ptr_array_index (cache->variants, i);

      if (strcmp (variant->rule, rule) == 0)
        return variant;
    }
  return NULL;
}

/* Keeps @variant (taken) unless the part has one for its rule already;
 * the one kept. With cache_lock held. */
static Variant *
keep_variant (AgentPartCache *cache,
              Variant        *variant)
{
  Variant *kept = find_variant (cache, variant->rule);

  if (kept != NULL)
    {
      kept->saved |= variant->saved;
      variant_free (variant);
      return kept;
    }
  if (cache->variants == NULL)
    cache->variants = g_ptr_array_new_with_free_func (variant_free);
  g_ptr_array_add (cache->variants, variant);
  return variant;
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

/* Documented in agent-content-part-private.h */
const char *
_agent_content_part_get_base64 (AgentContentPart *self)
{
  AgentPartCache *cache;
  const char *base64;
  gsize len;
  const guchar *bytes;
  char *encoded;

  g_mutex_lock (&cache_lock);
  base64 = get_cache (self)->base64;
  g_mutex_unlock (&cache_lock);
  if (base64 != NULL)
    return base64;

  bytes = g_bytes_get_data (agent_content_part_get_data (self), &len);
  encoded = g_base64_encode (bytes, len);

  g_mutex_lock (&cache_lock);
  cache = get_cache (self);
  if (cache->base64 == NULL)
    cache->base64 = encoded;
  else
    g_free (encoded);
  base64 = cache->base64;
  g_mutex_unlock (&cache_lock);

  return base64;
}

/* The PDF's pages: its page objects ("/Type /Page", not "/Pages"), or 1.
 * An estimate's count, not a parse: a PDF may hold objects no page shows. */
static int
count_pdf_pages (GBytes *data)
{
  gsize len;
  const char *bytes = g_bytes_get_data (data, &len);
  const char *end = bytes + len;
  int n = 0;

  for (const char *p = bytes; p != NULL && p < end;
       p = memmem (p, end - p, "/Type", 5))
    {
      const char *q = p + 5;

      while (q < end && (*q == ' ' || *q == '\r' || *q == '\n' || *q == '\t'))
        q++;
      if (end - q >= 5 && memcmp (q, "/Page", 5) == 0 &&
          (end - q == 5 || !g_ascii_isalnum (q[5])))
        n++;
      p = q;
    }
  return MAX (n, 1);
}

/* Documented in agent-content-part-private.h */
int
_agent_content_part_get_pdf_pages (AgentContentPart *self)
{
  int n;

  g_mutex_lock (&cache_lock);
  n = get_cache (self)->n_pages;
  g_mutex_unlock (&cache_lock);
  if (n > 0)
    return n;

  n = count_pdf_pages (agent_content_part_get_data (self));
  g_mutex_lock (&cache_lock);
  get_cache (self)->n_pages = n;
  g_mutex_unlock (&cache_lock);
  return n;
}

/* Documented in agent-content-part-private.h */
char *
_agent_image_rule_key (const AgentImageRule *rule)
{
  return g_strdup_printf ("fit %d %d %" G_GUINT64_FORMAT, rule->max_side, rule->max_short,
                          rule->max_area);
}

/* Whether @self is an image that @rule may scale */
static gboolean
scales (AgentContentPart     *self,
        const AgentImageRule *rule)
{
  return rule != NULL &&
         agent_content_part_get_kind (self) == AGENT_CONTENT_PART_KIND_IMAGE &&
         agent_content_part_get_data (self) != NULL;
}

/* The variant of @self for @rule, made now if it was not (the image
 * scaled; or the part as it is, when it fits or cannot be read) */
static Variant *
ensure_variant (AgentContentPart     *self,
                const AgentImageRule *rule)
{
  g_autofree char *key = _agent_image_rule_key (rule);
  g_autoptr(AgentContentPart) scaled = NULL;
  g_autoptr(GError) error = NULL;
  Variant *variant;
  int width = 0, height = 0;

  g_mutex_lock (&cache_lock);
  variant = find_variant (get_cache (self), key);
  g_mutex_unlock (&cache_lock);
  if (variant != NULL)
    return variant;

  variant = g_new0 (Variant, 1);
  variant->rule = g_steal_pointer (&key);
  if (_agent_content_part_get_image_size (self, &width, &height))
    {
      variant->width = width;
      variant->height = height;
      scaled = _agent_content_part_scale_to_fit (self, rule->max_side, rule->max_short,
                                                 rule->max_area, &error);
    }
  /* An image that cannot be scaled goes as it is: the server tells what
   * it makes of it */
  if (scaled == NULL && error != NULL)
    g_debug ("An image is sent as it is: %s", error->message);
  if (scaled != NULL && scaled != self)
    {
      gsize len;
      const guchar *bytes = g_bytes_get_data (agent_content_part_get_data (scaled), &len);

      _agent_content_part_get_image_size (scaled, &variant->width, &variant->height);
      variant->mime_type = g_strdup (agent_content_part_get_mime_type (scaled));
      variant->base64 = g_base64_encode (bytes, len);
      g_atomic_int_inc (&n_scaled);
    }

  g_mutex_lock (&cache_lock);
  variant = keep_variant (get_cache (self), variant);
  g_mutex_unlock (&cache_lock);
  return variant;
}

/* Documented in agent-content-part-private.h */
void
_agent_content_part_prepare (AgentContentPart     *self,
                             const AgentImageRule *rule)
{
  Variant *variant = NULL;

  if (agent_content_part_get_data (self) == NULL)
    return;
  if (scales (self, rule))
    variant = ensure_variant (self, rule);
  if (variant == NULL || variant->base64 == NULL)
    _agent_content_part_get_base64 (self);
}

/* Documented in agent-content-part-private.h */
gboolean
_agent_content_part_is_prepared (AgentContentPart     *self,
                                 const AgentImageRule *rule)
{
  g_autofree char *key = NULL;
  AgentPartCache *cache;
  Variant *variant = NULL;
  gboolean prepared;

  if (agent_content_part_get_data (self) == NULL)
    return TRUE;
  if (scales (self, rule))
    key = _agent_image_rule_key (rule);

  g_mutex_lock (&cache_lock);
  cache = get_cache (self);
  if (key != NULL)
    variant = find_variant (cache, key);
  if (key != NULL && variant == NULL)
    prepared = FALSE;
  else
    prepared = (variant != NULL && variant->base64 != NULL) || cache->base64 != NULL;
  g_mutex_unlock (&cache_lock);

  return prepared;
}

/* Documented in agent-content-part-private.h */
const char *
_agent_content_part_get_sent (AgentContentPart     *self,
                              const AgentImageRule *rule,
                              const char          **mime_type,
                              int                  *width,
                              int                  *height)
{
  Variant *variant = scales (self, rule) ? ensure_variant (self, rule) : NULL;
  int w = 0, h = 0;

  if (variant != NULL && variant->base64 != NULL)
    {
      if (mime_type != NULL)
        *mime_type = variant->mime_type;
      w = variant->width;
      h = variant->height;
    }
  else if (mime_type != NULL)
    *mime_type = agent_content_part_get_mime_type (self);

  if (width != NULL || height != NULL)
    {
      if (variant == NULL || variant->base64 == NULL)
        _agent_content_part_get_image_size (self, &w, &h);
      if (width != NULL)
        *width = w;
      if (height != NULL)
        *height = h;
    }

  return variant != NULL && variant->base64 != NULL ? variant->base64
                                                    : _agent_content_part_get_base64 (self);
}

/* Documented in agent-content-part-private.h */
gboolean
_agent_content_part_get_sent_size (AgentContentPart     *self,
                                   const AgentImageRule *rule,
                                   int                  *width,
                                   int                  *height)
{
  g_autofree char *key = NULL;
  Variant *variant = NULL;

  if (scales (self, rule))
    {
      key = _agent_image_rule_key (rule);
      g_mutex_lock (&cache_lock);
      variant = find_variant (get_cache (self), key);
      if (variant != NULL && variant->base64 != NULL)
        {
          *width = variant->width;
          *height = variant->height;
        }
      g_mutex_unlock (&cache_lock);
      if (variant != NULL && variant->base64 != NULL)
        return TRUE;
    }
  return _agent_content_part_get_image_size (self, width, height);
}

/* Documented in agent-content-part-private.h */
void
_agent_content_part_add_variant (AgentContentPart *self,
                                 const char       *rule,
                                 const char       *mime_type,
                                 int               width,
                                 int               height,
                                 const char       *base64)
{
  Variant *variant = g_new0 (Variant, 1);

  variant->rule = g_strdup (rule);
  variant->mime_type = g_strdup (mime_type);
  variant->width = width;
  variant->height = height;
  variant->base64 = g_strdup (base64);
  variant->saved = TRUE;

  g_mutex_lock (&cache_lock);
  keep_variant (get_cache (self), variant);
  g_mutex_unlock (&cache_lock);
}

/* Documented in agent-content-part-private.h */
void
_agent_content_part_foreach_unsaved (AgentContentPart *self,
                                     AgentVariantFunc  func,
                                     gpointer          user_data)
{
  g_autoptr(GPtrArray) unsaved = g_ptr_array_new ();
  AgentPartCache *cache;

  g_mutex_lock (&cache_lock);
  cache = get_cache (self);
  for (guint i = 0; cache->variants != NULL && i < cache->variants->len; i++)
    {
      Variant *variant = g_ptr_array_index (cache->variants, i);

      /* Kept only what cost work: a scaled image */
      if (!variant->saved && variant->base64 != NULL)
        {
          variant->saved = TRUE;
          g_ptr_array_add (unsaved, variant);
        }
    }
  g_mutex_unlock (&cache_lock);

  /* Variants are never changed nor freed before the part */
  for (guint i = 0; i < unsaved->len; i++)
    {
      Variant *variant = g_ptr_array_index (unsaved, i);

      func (variant->rule, variant->mime_type, variant->width, variant->height, variant->base64,
            user_data);
    }
}

/* Documented in agent-content-part-private.h */
guint
_agent_content_part_get_n_scaled (void)
{
  return g_atomic_int_get (&n_scaled);
}
