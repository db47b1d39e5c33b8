/* agent-pull-progress.c — how far the download of a model is
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "models/agent-models-private.h"

/**
 * AgentPullProgress:
 *
 * How far [method@Agent.ModelManager.pull_async] is. The manager emits
 * [signal@Agent.ModelManager::pull-progress] with the same object for each
 * status line of one pull, its properties updated (and notified) before:
 * bind a progress bar to [property@Agent.PullProgress:fraction] and a label
 * to [property@Agent.PullProgress:status].
 *
 * A model is pulled layer by layer (its weights, its template, its
 * licence, …). [property@Agent.PullProgress:completed] and
 * [property@Agent.PullProgress:total] are the bytes of the layer being
 * downloaded; [property@Agent.PullProgress:overall-completed] and
 * [property@Agent.PullProgress:overall-total] those of all the layers seen
 * so far. The server names a layer only when it starts it, so the overall
 * total grows as layers appear; the weights come first and are nearly all
 * of it.
 *
 * Since: 0.1
 */

/* One layer's bytes, keyed by its digest */
typedef struct
{
  guint64 completed;
  guint64 total;
} Layer;

struct _AgentPullProgress
{
  GObject     parent_instance;
  char       *model;
  char       *status;
  char       *digest;
  guint64     completed;
  guint64     total;
  guint64     overall_completed;
  guint64     overall_total;
  GHashTable *layers;   /* digest → Layer */
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_STATUS,
  PROP_DIGEST,
  PROP_COMPLETED,
  PROP_TOTAL,
  PROP_OVERALL_COMPLETED,
  PROP_OVERALL_TOTAL,
  PROP_FRACTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentPullProgress, agent_pull_progress, G_TYPE_OBJECT)

static void
agent_pull_progress_finalize (GObject *object)
{
  AgentPullProgress *self = (AgentPullProgress *) object;

  g_free (self->model);
  g_free (self->status);
  g_free (self->digest);
  g_hash_table_unref (self->layers);

  G_OBJECT_CLASS (agent_pull_progress_parent_class)->finalize (object);
}

static void
agent_pull_progress_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  AgentPullProgress *self = AGENT_PULL_PROGRESS (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;

    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;

    case PROP_DIGEST:
      g_value_set_string (value, self->digest);
      break;

    case PROP_COMPLETED:
      g_value_set_uint64 (value, self->completed);
      break;

    case PROP_TOTAL:
      g_value_set_uint64 (value, self->total);
      break;

    case PROP_OVERALL_COMPLETED:
      g_value_set_uint64 (value, self->overall_completed);
      break;

    case PROP_OVERALL_TOTAL:
      g_value_set_uint64 (value, self->overall_total);
      break;

    case PROP_FRACTION:
      g_value_set_double (value, agent_pull_progress_get_fraction (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_pull_progress_class_init (AgentPullProgressClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = agent_pull_progress_finalize;
  object_class->get_property = agent_pull_progress_get_property;

  /**
   * AgentPullProgress:model:
   *
   * The model being pulled, as the caller named it.
   *
   * Since: 0.1
   */
  properties[PROP_MODEL] = g_param_spec_string ("model", NULL, NULL, NULL, flags);

  /**
   * AgentPullProgress:status:
   *
   * The server's words for what it is doing (`pulling manifest`,
   * `pulling 6a0746a1ec1a`, `verifying sha256 digest`, `writing manifest`,
   * `success`), untranslated.
   *
   * Since: 0.1
   */
  properties[PROP_STATUS] = g_param_spec_string ("status", NULL, NULL, NULL, flags);

  /**
   * AgentPullProgress:digest:
   *
   * The digest of the layer being downloaded, or %NULL between layers.
   *
   * Since: 0.1
   */
  properties[PROP_DIGEST] = g_param_spec_string ("digest", NULL, NULL, NULL, flags);

  /**
   * AgentPullProgress:completed:
   *
   * The bytes of the current layer downloaded so far.
   *
   * Since: 0.1
   */
  properties[PROP_COMPLETED] = g_param_spec_uint64 ("completed", NULL, NULL,
                                                    0, G_MAXUINT64, 0, flags);

  /**
   * AgentPullProgress:total:
   *
   * The size of the current layer in bytes, 0 if unknown.
   *
   * Since: 0.1
   */
  properties[PROP_TOTAL] = g_param_spec_uint64 ("total", NULL, NULL, 0, G_MAXUINT64, 0, flags);

  /**
   * AgentPullProgress:overall-completed:
   *
   * The bytes of all layers downloaded so far.
   *
   * Since: 0.1
   */
  properties[PROP_OVERALL_COMPLETED] = g_param_spec_uint64 ("overall-completed", NULL, NULL,
                                                            0, G_MAXUINT64, 0, flags);

  /**
   * AgentPullProgress:overall-total:
   *
   * The size of all layers seen so far in bytes.
   *
   * Since: 0.1
   */
  properties[PROP_OVERALL_TOTAL] = g_param_spec_uint64 ("overall-total", NULL, NULL,
                                                        0, G_MAXUINT64, 0, flags);

  /**
   * AgentPullProgress:fraction:
   *
   * [property@Agent.PullProgress:overall-completed] over
   * [property@Agent.PullProgress:overall-total], between 0 and 1, or -1
   * while no size is known (a progress bar pulses then).
   *
   * Since: 0.1
   */
  properties[PROP_FRACTION] = g_param_spec_double ("fraction", NULL, NULL, -1, 1, -1, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_pull_progress_init (AgentPullProgress *self)
{
  self->layers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/**
 * agent_pull_progress_get_model:
 * @self: a [class@Agent.PullProgress]
 *
 * Gets [property@Agent.PullProgress:model].
 *
 * Returns: the model being pulled
 *
 * Since: 0.1
 */
const char *
agent_pull_progress_get_model (AgentPullProgress *self)
{
  g_return_val_if_fail (AGENT_IS_PULL_PROGRESS (self), NULL);

  return self->model;
}

/**
 * agent_pull_progress_get_status:
 * @self: a [class@Agent.PullProgress]
 *
 * Gets [property@Agent.PullProgress:status].
 *
 * Returns: (nullable): the server's status text
 *
 * Since: 0.1
 */
const char *
agent_pull_progress_get_status (AgentPullProgress *self)
{
  g_return_val_if_fail (AGENT_IS_PULL_PROGRESS (self), NULL);

  return self->status;
}

/**
 * agent_pull_progress_get_digest:
 * @self: a [class@Agent.PullProgress]
 *
 * Gets [property@Agent.PullProgress:digest].
 *
 * Returns: (nullable): the digest of the layer being downloaded
 *
 * Since: 0.1
 */
const char *
agent_pull_progress_get_digest (AgentPullProgress *self)
{
  g_return_val_if_fail (AGENT_IS_PULL_PROGRESS (self), NULL);

  return self->digest;
}

/**
 * agent_pull_progress_get_completed:
 * @self: a [class@Agent.PullProgress]
 *
 * Gets [property@Agent.PullProgress:completed].
 *
 * Returns: the bytes of the current layer downloaded
 *
 * Since: 0.1
 */
guint64
agent_pull_progress_get_completed (AgentPullProgress *self)
{
  g_return_val_if_fail (AGENT_IS_PULL_PROGRESS (self), 0);

  return self->completed;
}

/**
 * agent_pull_progress_get_total:
 * @self: a [class@Agent.PullProgress]
 *
 * Gets [property@Agent.PullProgress:total].
 *
 * Returns: the size of the current layer, 0 if unknown
 *
 * Since: 0.1
 */
guint64
agent_pull_progress_get_total (AgentPullProgress *self)
{
  g_return_val_if_fail (AGENT_IS_PULL_PROGRESS (self), 0);

  return self->total;
}

/**
 * agent_pull_progress_get_overall_completed:
 * @self: a [class@Agent.PullProgress]
 *
 * Gets [property@Agent.PullProgress:overall-completed].
 *
 * Returns: the bytes of all layers downloaded
 *
 * Since: 0.1
 */
guint64
agent_pull_progress_get_overall_completed (AgentPullProgress *self)
{
  g_return_val_if_fail (AGENT_IS_PULL_PROGRESS (self), 0);

  return self->overall_completed;
}

/**
 * agent_pull_progress_get_overall_total:
 * @self: a [class@Agent.PullProgress]
 *
 * Gets [property@Agent.PullProgress:overall-total].
 *
 * Returns: the size of all layers seen so far
 *
 * Since: 0.1
 */
guint64
agent_pull_progress_get_overall_total (AgentPullProgress *self)
{
  g_return_val_if_fail (AGENT_IS_PULL_PROGRESS (self), 0);

  return self->overall_total;
}

/**
 * agent_pull_progress_get_fraction:
 * @self: a [class@Agent.PullProgress]
 *
 * Gets [property@Agent.PullProgress:fraction].
 *
 * Returns: the part downloaded, from 0 to 1, or -1 if unknown
 *
 * Since: 0.1
 */
double
agent_pull_progress_get_fraction (AgentPullProgress *self)
{
  g_return_val_if_fail (AGENT_IS_PULL_PROGRESS (self), -1);

  if (self->overall_total == 0)
    return -1;
  return MIN (1.0, (double) self->overall_completed / (double) self->overall_total);
}

/* Private */

AgentPullProgress *
_agent_pull_progress_new (const char *model)
{
  AgentPullProgress *self = g_object_new (AGENT_TYPE_PULL_PROGRESS, NULL);

  self->model = g_strdup (model);
  return self;
}

static void
set_uint64 (AgentPullProgress *self,
            guint64           *field,
            guint64            value,
            guint              prop_id)
{
  if (*field != value)
    {
      *field = value;
      g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
    }
}

static void
set_string (AgentPullProgress  *self,
            char              **field,
            const char         *value,
            guint               prop_id)
{
  if (g_strcmp0 (*field, value) != 0)
    {
      g_free (*field);
      *field = g_strdup (value);
      g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
    }
}

/* @completed and @total are -1 where the line has none */
void
_agent_pull_progress_update (AgentPullProgress *self,
                             const char        *status,
                             const char        *digest,
                             gint64             completed,
                             gint64             total)
{
  double fraction = agent_pull_progress_get_fraction (self);
  guint64 overall_completed = 0, overall_total = 0;
  GHashTableIter iter;
  Layer *layer = NULL;

  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->status, status, PROP_STATUS);
  set_string (self, &self->digest, digest, PROP_DIGEST);

  if (digest != NULL && (layer = g_hash_table_lookup (self->layers, digest)) == NULL)
    {
      layer = g_new0 (Layer, 1);
      g_hash_table_insert (self->layers, g_strdup (digest), layer);
    }
  if (layer != NULL)
    {
      if (total >= 0)
        layer->total = (guint64) total;
      /* A resumed layer starts where the last pull left it; never backwards */
      if (completed >= 0)
        layer->completed = MAX (layer->completed, (guint64) completed);
      if (layer->total > 0)
        layer->completed = MIN (layer->completed, layer->total);
    }
  set_uint64 (self, &self->completed, layer != NULL ? layer->completed : 0, PROP_COMPLETED);
  set_uint64 (self, &self->total, layer != NULL ? layer->total : 0, PROP_TOTAL);

  g_hash_table_iter_init (&iter, self->layers);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &layer))
    {
      overall_completed += layer->completed;
      overall_total += layer->total;
    }
  /* The end: everything is there, whatever the last counts said */
  if (g_strcmp0 (status, "success") == 0)
    overall_completed = overall_total;
  set_uint64 (self, &self->overall_completed, overall_completed, PROP_OVERALL_COMPLETED);
  set_uint64 (self, &self->overall_total, overall_total, PROP_OVERALL_TOTAL);

  if (agent_pull_progress_get_fraction (self) != fraction)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
  g_object_thaw_notify (G_OBJECT (self));
}
