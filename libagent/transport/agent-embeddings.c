/* agent-embeddings.c
 *
 * Vectors a provider's embedding model gave for some texts, one per text,
 * in the order of the texts: float32, all of the same length, kept in one
 * block (vector i at i × dimensions).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "agent-error.h"
#include "transport/agent-embeddings.h"

struct _AgentEmbeddings
{
  GObject  parent_instance;

  char    *model;
  guint    dimensions;
  guint    n_vectors;
  GBytes  *data;
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_N_VECTORS,
  PROP_DIMENSIONS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (AgentEmbeddings, agent_embeddings, G_TYPE_OBJECT)

static void
agent_embeddings_finalize (GObject *object)
{
  AgentEmbeddings *self = AGENT_EMBEDDINGS (object);

  g_free (self->model);
  g_clear_pointer (&self->data, g_bytes_unref);

  G_OBJECT_CLASS (agent_embeddings_parent_class)->finalize (object);
}

static void
agent_embeddings_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AgentEmbeddings *self = AGENT_EMBEDDINGS (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;
    case PROP_N_VECTORS:
      g_value_set_uint (value, self->n_vectors);
      break;
    case PROP_DIMENSIONS:
      g_value_set_uint (value, self->dimensions);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_embeddings_class_init (AgentEmbeddingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = agent_embeddings_finalize;
  object_class->get_property = agent_embeddings_get_property;

  /**
   * AgentEmbeddings:model:
   *
   * The embedding model that made the vectors, or %NULL if not known.
   *
   * Since: 0.1
   */
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentEmbeddings:n-vectors:
   *
   * How many vectors there are: one per text embedded.
   *
   * Since: 0.1
   */
  properties[PROP_N_VECTORS] =
    g_param_spec_uint ("n-vectors", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AgentEmbeddings:dimensions:
   *
   * The length of each vector (0 when there are none).
   *
   * Since: 0.1
   */
  properties[PROP_DIMENSIONS] =
    g_param_spec_uint ("dimensions", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_embeddings_init (AgentEmbeddings *self)
{
}

/**
 * AgentEmbeddings:
 *
 * The vectors an embedding model gave for some texts, one per text, in the
 * order of the texts (see [method@Agent.Provider.embed_async]).
 *
 * Each vector has [property@Agent.Embeddings:dimensions] 32-bit floats;
 * [method@Agent.Embeddings.get_data] gives them all in one block, vector
 * after vector, in the machine's byte order.
 *
 * Since: 0.1
 */

/**
 * agent_embeddings_new:
 * @model: (nullable): the model that made the vectors
 * @dimensions: the length of each vector
 * @data: the vectors, one after the other, as native-endian 32-bit floats
 * @error: return location for a [struct@GLib.Error]
 *
 * Wraps vectors made elsewhere (read back from an index, for example).
 *
 * Returns: (transfer full): the vectors, or %NULL with
 *   %AGENT_ERROR_INVALID_ARGUMENT when @data is not a whole number of
 *   vectors of @dimensions floats
 *
 * Since: 0.1
 */
AgentEmbeddings *
agent_embeddings_new (const char  *model,
                      guint        dimensions,
                      GBytes      *data,
                      GError     **error)
{
  AgentEmbeddings *self;
  gsize size;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  size = g_bytes_get_size (data);
  if ((dimensions == 0 && size != 0) ||
      (dimensions != 0 && size % ((gsize) dimensions * sizeof (float)) != 0) ||
      (dimensions != 0 && size / ((gsize) dimensions * sizeof (float)) > G_MAXUINT))
    {
      g_autofree char *bytes = g_strdup_printf ("%" G_GSIZE_FORMAT, size);

      /* Translators: the first %s is a number of bytes */
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("%s bytes are not a whole number of vectors of %u floats"),
                   bytes, dimensions);
      return NULL;
    }

  self = g_object_new (AGENT_TYPE_EMBEDDINGS, NULL);
  self->model = g_strdup (model);
  self->dimensions = dimensions;
  self->n_vectors = dimensions != 0 ? size / ((gsize) dimensions * sizeof (float)) : 0;
  if (self->n_vectors == 0)
    self->dimensions = 0;
  self->data = g_bytes_ref (data);

  return self;
}

/**
 * agent_embeddings_get_model:
 * @self: a [class@Agent.Embeddings]
 *
 * Gets the embedding model that made the vectors.
 *
 * Returns: (nullable): the model that made the vectors
 *
 * Since: 0.1
 */
const char *
agent_embeddings_get_model (AgentEmbeddings *self)
{
  g_return_val_if_fail (AGENT_IS_EMBEDDINGS (self), NULL);

  return self->model;
}

/**
 * agent_embeddings_get_n_vectors:
 * @self: a [class@Agent.Embeddings]
 *
 * Gets how many vectors there are: one per text.
 *
 * Returns: how many vectors there are
 *
 * Since: 0.1
 */
guint
agent_embeddings_get_n_vectors (AgentEmbeddings *self)
{
  g_return_val_if_fail (AGENT_IS_EMBEDDINGS (self), 0);

  return self->n_vectors;
}

/**
 * agent_embeddings_get_dimensions:
 * @self: a [class@Agent.Embeddings]
 *
 * Gets the length of each vector.
 *
 * Returns: the length of each vector, 0 when there are none
 *
 * Since: 0.1
 */
guint
agent_embeddings_get_dimensions (AgentEmbeddings *self)
{
  g_return_val_if_fail (AGENT_IS_EMBEDDINGS (self), 0);

  return self->dimensions;
}

/**
 * agent_embeddings_get_vector:
 * @self: a [class@Agent.Embeddings]
 * @index: which vector, below [property@Agent.Embeddings:n-vectors]
 * @n_values: (out): the vector's length
 *
 * Gets the vector of one text, as [property@Agent.Embeddings:dimensions]
 * floats.
 *
 * Returns: (array length=n_values) (transfer none): the vector of the text
 *   at @index
 *
 * Since: 0.1
 */
const float *
agent_embeddings_get_vector (AgentEmbeddings *self,
                             guint            index,
                             guint           *n_values)
{
  g_return_val_if_fail (AGENT_IS_EMBEDDINGS (self), NULL);
  g_return_val_if_fail (index < self->n_vectors, NULL);

  if (n_values != NULL)
    *n_values = self->dimensions;
  return (const float *) g_bytes_get_data (self->data, NULL) + (gsize) index * self->dimensions;
}

/**
 * agent_embeddings_get_data:
 * @self: a [class@Agent.Embeddings]
 *
 * All the vectors in one block, one after the other, as native-endian
 * 32-bit floats: n-vectors × dimensions × 4 bytes.
 *
 * Returns: (transfer none): the vectors
 *
 * Since: 0.1
 */
GBytes *
agent_embeddings_get_data (AgentEmbeddings *self)
{
  g_return_val_if_fail (AGENT_IS_EMBEDDINGS (self), NULL);

  return self->data;
}

/**
 * agent_embeddings_similarity:
 * @self: a [class@Agent.Embeddings]
 * @index: a vector of @self
 * @other: a [class@Agent.Embeddings] of the same dimensions
 * @other_index: a vector of @other
 *
 * The cosine similarity of two vectors: 1 for the same direction, 0 for
 * unrelated ones; 0 when either is all zeros.
 *
 * Returns: the similarity, from -1 to 1
 *
 * Since: 0.1
 */
double
agent_embeddings_similarity (AgentEmbeddings *self,
                             guint            index,
                             AgentEmbeddings *other,
                             guint            other_index)
{
  const float *a;
  const float *b;
  double dot = 0, norm_a = 0, norm_b = 0;

  g_return_val_if_fail (AGENT_IS_EMBEDDINGS (self), 0);
  g_return_val_if_fail (AGENT_IS_EMBEDDINGS (other), 0);
  g_return_val_if_fail (index < self->n_vectors, 0);
  g_return_val_if_fail (other_index < other->n_vectors, 0);
  g_return_val_if_fail (self->dimensions == other->dimensions, 0);

  a = agent_embeddings_get_vector (self, index, NULL);
  b = agent_embeddings_get_vector (other, other_index, NULL);
  for (guint i = 0; i < self->dimensions; i++)
    {
      dot += (double) a[i] * b[i];
      norm_a += (double) a[i] * a[i];
      norm_b += (double) b[i] * b[i];
    }
  if (norm_a == 0 || norm_b == 0)
    return 0;
  return dot / (sqrt (norm_a) * sqrt (norm_b));
}
