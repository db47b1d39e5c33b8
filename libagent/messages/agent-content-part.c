/* agent-content-part.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "agent-enums.h"
#include "agent-error.h"
#include "messages/agent-content-part-private.h"

/**
 * AgentContentPart:
 *
 * One part of a message's content: a piece of text, an image, a
 * recording or a document, in the order the user gave them.
 *
 * An image, a recording or a document has a MIME type and either its bytes
 * ([method@Agent.ContentPart.get_data]) or a URI the provider fetches
 * ([method@Agent.ContentPart.get_uri]). A part never changes once made, so
 * one part may be shared by several messages.
 *
 * A message's text parts are its [property@Agent.Message:content]: see
 * [method@Agent.Message.add_part] and [method@Agent.Message.list_parts].
 *
 * Since: 0.1
 */

struct _AgentContentPart
{
  GObject               parent_instance;
  char                 *text;
  char                 *mime_type;
  GBytes               *data;
  char                 *uri;
  char                 *name;
  AgentContentPartKind  kind;
  AgentPartCache       *cache;  /* agent-content-part-cache.c: made once, as asked for */
};

enum {
  PROP_0,
  PROP_KIND,
  PROP_TEXT,
  PROP_MIME_TYPE,
  PROP_DATA,
  PROP_URI,
  PROP_NAME,
  PROP_SIZE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentContentPart, agent_content_part, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
agent_content_part_finalize (GObject *object)
{
  AgentContentPart *self = (AgentContentPart *)object;

  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->mime_type, g_free);
  g_clear_pointer (&self->data, g_bytes_unref);
  g_clear_pointer (&self->uri, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->cache, _agent_part_cache_free);

  G_OBJECT_CLASS (agent_content_part_parent_class)->finalize (object);
}

static void
agent_content_part_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AgentContentPart *self = AGENT_CONTENT_PART (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;

    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;

    case PROP_MIME_TYPE:
      g_value_set_string (value, self->mime_type);
      break;

    case PROP_DATA:
      g_value_set_boxed (value, self->data);
      break;

    case PROP_URI:
      g_value_set_string (value, self->uri);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_SIZE:
      g_value_set_uint64 (value, agent_content_part_get_size (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_content_part_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  AgentContentPart *self = AGENT_CONTENT_PART (object);

  switch (prop_id)
    {
    case PROP_KIND:
      self->kind = g_value_get_enum (value);
      break;

    case PROP_TEXT:
      self->text = g_value_dup_string (value);
      break;

    case PROP_MIME_TYPE:
      self->mime_type = g_value_dup_string (value);
      break;

    case PROP_DATA:
      self->data = g_value_dup_boxed (value);
      break;

    case PROP_URI:
      self->uri = g_value_dup_string (value);
      break;

    case PROP_NAME:
      self->name = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_content_part_class_init (AgentContentPartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags construct = (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  object_class->finalize = agent_content_part_finalize;
  object_class->get_property = agent_content_part_get_property;
  object_class->set_property = agent_content_part_set_property;

  /**
   * AgentContentPart:kind:
   *
   * Whether the part is text, an image, a recording or a document.
   */
  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL,
                       AGENT_TYPE_CONTENT_PART_KIND, AGENT_CONTENT_PART_KIND_TEXT, construct);

  /**
   * AgentContentPart:text:
   *
   * The text of a text part, %NULL for the others.
   */
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL, construct);

  /**
   * AgentContentPart:mime-type:
   *
   * The MIME type of an image or a document (`image/png`,
   * `application/pdf`, …); `text/plain` for a text part.
   */
  properties[PROP_MIME_TYPE] =
    g_param_spec_string ("mime-type", NULL, NULL, NULL, construct);

  /**
   * AgentContentPart:data:
   *
   * The bytes of an image or a document, or %NULL when the part refers to
   * them by [property@Agent.ContentPart:uri].
   */
  properties[PROP_DATA] =
    g_param_spec_boxed ("data", NULL, NULL, G_TYPE_BYTES, construct);

  /**
   * AgentContentPart:uri:
   *
   * Where the provider finds the image or document (an `https:` URL), or
   * %NULL when the part holds its bytes.
   */
  properties[PROP_URI] =
    g_param_spec_string ("uri", NULL, NULL, NULL, construct);

  /**
   * AgentContentPart:name:
   *
   * The file name of a document or an image, if known (providers that
   * take a file name receive it).
   */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, construct);

  /**
   * AgentContentPart:size:
   *
   * The size of the part in bytes: of its data, or of its text.
   */
  properties[PROP_SIZE] =
    g_param_spec_uint64 ("size", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
agent_content_part_init (AgentContentPart *self)
{
}

/**
 * agent_content_part_new_text:
 * @text: the text
 *
 * Creates a text part.
 *
 * Returns: (transfer full): a new [class@Agent.ContentPart]
 *
 * Since: 0.1
 */
AgentContentPart *
agent_content_part_new_text (const char *text)
{
  g_return_val_if_fail (text != NULL, NULL);

  return g_object_new (AGENT_TYPE_CONTENT_PART,
                       "kind", AGENT_CONTENT_PART_KIND_TEXT,
                       "text", text,
                       "mime-type", "text/plain",
                       NULL);
}

/**
 * agent_content_part_new_image:
 * @mime_type: the image's MIME type, such as `image/png`
 * @data: the bytes of the image
 *
 * Creates an image part holding its bytes.
 *
 * Returns: (transfer full): a new [class@Agent.ContentPart]
 *
 * Since: 0.1
 */
AgentContentPart *
agent_content_part_new_image (const char *mime_type,
                              GBytes     *data)
{
  g_return_val_if_fail (mime_type != NULL, NULL);
  g_return_val_if_fail (data != NULL, NULL);

  return g_object_new (AGENT_TYPE_CONTENT_PART,
                       "kind", AGENT_CONTENT_PART_KIND_IMAGE,
                       "mime-type", mime_type,
                       "data", data,
                       NULL);
}

/**
 * agent_content_part_new_file:
 * @mime_type: the document's MIME type, such as `application/pdf`
 * @data: the bytes of the document
 * @name: (nullable): the file name, e.g. `report.pdf`
 *
 * Creates a document part holding its bytes.
 *
 * Returns: (transfer full): a new [class@Agent.ContentPart]
 *
 * Since: 0.1
 */
AgentContentPart *
agent_content_part_new_file (const char *mime_type,
                             GBytes     *data,
                             const char *name)
{
  g_return_val_if_fail (mime_type != NULL, NULL);
  g_return_val_if_fail (data != NULL, NULL);

  return g_object_new (AGENT_TYPE_CONTENT_PART,
                       "kind", AGENT_CONTENT_PART_KIND_FILE,
                       "mime-type", mime_type,
                       "data", data,
                       "name", name,
                       NULL);
}

/**
 * agent_content_part_new_audio:
 * @mime_type: the recording's MIME type, such as `audio/wav`, `audio/mpeg`,
 *   `audio/flac`, `audio/ogg` or `audio/webm`
 * @data: the bytes of the recording
 *
 * Creates an audio part holding its bytes. OpenAI's chat completions take
 * WAV and MP3 (as `input_audio`), Gemini any recording (as `inline_data`);
 * the providers whose APIs take no audio (Anthropic, Ollama, OpenAI's
 * Responses) refuse a message with one with %AGENT_ERROR_UNSUPPORTED
 * before anything is sent.
 *
 * [ctor@Agent.ContentPart.new_from_file] makes an audio part of a file
 * whose type is an audio one.
 *
 * Returns: (transfer full): a new [class@Agent.ContentPart]
 *
 * Since: 0.1
 */
AgentContentPart *
agent_content_part_new_audio (const char *mime_type,
                              GBytes     *data)
{
  g_return_val_if_fail (mime_type != NULL, NULL);
  g_return_val_if_fail (data != NULL, NULL);

  return g_object_new (AGENT_TYPE_CONTENT_PART,
                       "kind", AGENT_CONTENT_PART_KIND_AUDIO,
                       "mime-type", mime_type,
                       "data", data,
                       NULL);
}

/**
 * agent_content_part_new_for_uri:
 * @kind: %AGENT_CONTENT_PART_KIND_IMAGE, %AGENT_CONTENT_PART_KIND_FILE or
 *   %AGENT_CONTENT_PART_KIND_AUDIO
 * @mime_type: the MIME type of what @uri refers to
 * @uri: where the provider fetches it (an `https:` URL; for Gemini, a
 *   file it holds)
 *
 * Creates an image, document or audio part that refers to its content by URI,
 * for the providers that fetch it themselves. A provider that cannot
 * fetch refuses the request with %AGENT_ERROR_INVALID_ARGUMENT.
 *
 * Returns: (transfer full): a new [class@Agent.ContentPart]
 *
 * Since: 0.1
 */
AgentContentPart *
agent_content_part_new_for_uri (AgentContentPartKind  kind,
                                const char           *mime_type,
                                const char           *uri)
{
  g_return_val_if_fail (kind != AGENT_CONTENT_PART_KIND_TEXT, NULL);
  g_return_val_if_fail (mime_type != NULL, NULL);
  g_return_val_if_fail (uri != NULL, NULL);

  return g_object_new (AGENT_TYPE_CONTENT_PART,
                       "kind", kind,
                       "mime-type", mime_type,
                       "uri", uri,
                       NULL);
}

/* Documented in agent-content-part-private.h */
char *
_agent_content_part_guess_mime_type (const char *name,
                                     GBytes     *data)
{
  g_autofree char *content_type = NULL;
  gsize len = 0;
  const guchar *bytes = data != NULL ? g_bytes_get_data (data, &len) : NULL;
  char *mime_type;

  content_type = g_content_type_guess (name, bytes, MIN (len, 4096), NULL);
  mime_type = g_content_type_get_mime_type (content_type);

  return mime_type != NULL ? mime_type : g_strdup ("application/octet-stream");
}

/**
 * agent_content_part_new_from_file:
 * @file: the file to attach
 * @cancellable: (nullable): a [class@Gio.Cancellable]
 * @error: return location for a [struct@GLib.Error]
 *
 * Reads @file into an image, audio or document part, its MIME type guessed
 * by GIO from its name and its first bytes: an image part for `image/`
 * types, an audio part for `audio/` types (and `application/ogg`), a
 * document part for the others. The part's name is the file's name (in
 * UTF-8, whatever the file system's encoding).
 *
 * Only a regular file is read: a folder, a named pipe, a device or a
 * socket fails with %G_IO_ERROR_IS_DIRECTORY or
 * %G_IO_ERROR_NOT_REGULAR_FILE, naming what it is (reading a pipe could
 * wait for ever, a device never end). A file is read up to the size it
 * had when it was opened: what it grows by meanwhile is not read (files of
 * `/proc` and `/sys`, which say they hold nothing, are read empty).
 *
 * This blocks: a program with a main loop to keep going uses
 * [func@Agent.ContentPart.new_from_file_async], which also takes a limit.
 *
 * Returns: (transfer full): a new [class@Agent.ContentPart], or %NULL with
 *   @error set when the file cannot be read
 *
 * Since: 0.1
 */
AgentContentPart *
agent_content_part_new_from_file (GFile         *file,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return _agent_content_part_load_file (file, 0, cancellable, error);
}

/**
 * agent_content_part_get_kind:
 * @self: a [class@Agent.ContentPart]
 *
 * Gets [property@Agent.ContentPart:kind].
 *
 * Returns: the kind of the part
 *
 * Since: 0.1
 */
AgentContentPartKind
agent_content_part_get_kind (AgentContentPart *self)
{
  g_return_val_if_fail (AGENT_IS_CONTENT_PART (self), AGENT_CONTENT_PART_KIND_TEXT);
  return self->kind;
}

/**
 * agent_content_part_get_text:
 * @self: a [class@Agent.ContentPart]
 *
 * Gets [property@Agent.ContentPart:text].
 *
 * Returns: (nullable): the text of a text part
 *
 * Since: 0.1
 */
const char *
agent_content_part_get_text (AgentContentPart *self)
{
  g_return_val_if_fail (AGENT_IS_CONTENT_PART (self), NULL);
  return self->text;
}

/**
 * agent_content_part_get_mime_type:
 * @self: a [class@Agent.ContentPart]
 *
 * Gets [property@Agent.ContentPart:mime-type].
 *
 * Returns: the MIME type
 *
 * Since: 0.1
 */
const char *
agent_content_part_get_mime_type (AgentContentPart *self)
{
  g_return_val_if_fail (AGENT_IS_CONTENT_PART (self), NULL);
  return self->mime_type;
}

/**
 * agent_content_part_get_data:
 * @self: a [class@Agent.ContentPart]
 *
 * Gets [property@Agent.ContentPart:data].
 *
 * Returns: (transfer none) (nullable): the bytes of an image or a document
 *
 * Since: 0.1
 */
GBytes *
agent_content_part_get_data (AgentContentPart *self)
{
  g_return_val_if_fail (AGENT_IS_CONTENT_PART (self), NULL);
  return self->data;
}

/**
 * agent_content_part_get_uri:
 * @self: a [class@Agent.ContentPart]
 *
 * Gets [property@Agent.ContentPart:uri].
 *
 * Returns: (nullable): where the content is found
 *
 * Since: 0.1
 */
const char *
agent_content_part_get_uri (AgentContentPart *self)
{
  g_return_val_if_fail (AGENT_IS_CONTENT_PART (self), NULL);
  return self->uri;
}

/**
 * agent_content_part_get_name:
 * @self: a [class@Agent.ContentPart]
 *
 * Gets [property@Agent.ContentPart:name].
 *
 * Returns: (nullable): the file name
 *
 * Since: 0.1
 */
const char *
agent_content_part_get_name (AgentContentPart *self)
{
  g_return_val_if_fail (AGENT_IS_CONTENT_PART (self), NULL);
  return self->name;
}

/**
 * agent_content_part_get_size:
 * @self: a [class@Agent.ContentPart]
 *
 * Gets [property@Agent.ContentPart:size].
 *
 * Returns: the size in bytes of the data or the text
 *
 * Since: 0.1
 */
gsize
agent_content_part_get_size (AgentContentPart *self)
{
  g_return_val_if_fail (AGENT_IS_CONTENT_PART (self), 0);

  if (self->data != NULL)
    return g_bytes_get_size (self->data);
  if (self->text != NULL)
    return strlen (self->text);
  return 0;
}

/**
 * agent_content_part_dup_checksum:
 * @self: a [class@Agent.ContentPart]
 *
 * Gets the SHA-256 of the part's data, as lowercase hex: the name under
 * which a store keeps it once.
 *
 * Returns: (transfer full) (nullable): the checksum, or %NULL for a part
 *   without data
 *
 * Since: 0.1
 */
char *
agent_content_part_dup_checksum (AgentContentPart *self)
{
  g_return_val_if_fail (AGENT_IS_CONTENT_PART (self), NULL);

  if (self->data == NULL)
    return NULL;

  return g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, self->data);
}

/* Documented in agent-content-part-private.h */
AgentPartCache **
_agent_content_part_cache_slot (AgentContentPart *self)
{
  return &self->cache;
}

/* Documented in agent-content-part-private.h */
AgentContentPart *
_agent_content_part_new (AgentContentPartKind  kind,
                         const char           *mime_type,
                         GBytes               *data,
                         const char           *uri,
                         const char           *name)
{
  return g_object_new (AGENT_TYPE_CONTENT_PART,
                       "kind", kind,
                       "mime-type", mime_type,
                       "data", data,
                       "uri", uri,
                       "name", name,
                       NULL);
}

/* Documented in agent-content-part-private.h */
char *
_agent_content_part_dup_data_url (AgentContentPart *self)
{
  return g_strconcat ("data:", self->mime_type, ";base64,", _agent_content_part_get_base64 (self),
                      NULL);
}

/* Documented in agent-content-part-private.h */
char *
_agent_content_part_dup_description (AgentContentPart *self)
{
  g_autofree char *size = g_format_size (agent_content_part_get_size (self));
  const char *label;

  if (self->kind == AGENT_CONTENT_PART_KIND_IMAGE)
    label = _("Image");
  else if (self->kind == AGENT_CONTENT_PART_KIND_AUDIO)
    label = _("Audio");
  else
    label = _("File");

  if (self->name != NULL)
    return g_strdup_printf ("[%s: %s, %s, %s]", label, self->name, self->mime_type, size);
  return g_strdup_printf ("[%s: %s, %s]", label, self->mime_type, size);
}

/* Documented in agent-content-part-private.h */
gboolean
_agent_content_part_is_text_file (AgentContentPart *self)
{
  gsize len;
  const char *bytes;

  if (self->kind != AGENT_CONTENT_PART_KIND_FILE || self->data == NULL ||
      !g_str_has_prefix (self->mime_type, "text/"))
    return FALSE;

  bytes = g_bytes_get_data (self->data, &len);
  return g_utf8_validate_len (bytes, len, NULL) && memchr (bytes, '\0', len) == NULL;
}

/* @value as an XML attribute's value: quotes, angle brackets and
 * ampersands as entities, and the line breaks and tabs that an attribute
 * would turn into spaces as character references */
static char *
escape_attribute (const char *value)
{
  g_autofree char *escaped = g_markup_escape_text (value, -1);
  GString *result = g_string_new (escaped);

  g_string_replace (result, "\n", "&#10;", 0);
  g_string_replace (result, "\r", "&#13;", 0);
  g_string_replace (result, "\t", "&#9;", 0);
  return g_string_free (result, FALSE);
}

/* Documented in agent-content-part-private.h */
char *
_agent_content_part_dup_file_text (AgentContentPart *self)
{
  gsize len;
  const char *bytes = g_bytes_get_data (self->data, &len);
  g_autofree char *text = g_strndup (bytes, len);
  g_autofree char *name = escape_attribute (self->name ? self->name : "");
  g_autofree char *type = escape_attribute (self->mime_type);

  return g_strdup_printf ("<file name=\"%s\" type=\"%s\">\n%s\n</file>", name, type, text);
}

/* Documented in agent-content-part-private.h */
GError *
_agent_content_part_unsupported (AgentContentPart *self,
                                 const char       *provider)
{
  if (self->data == NULL)
    return g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                        _("The %s provider cannot fetch content by URI (%s, %s); "
                          "attach its bytes instead"),
                        provider, self->mime_type, self->uri);

  /* A recording where the API takes none, or not of this format */
  if (self->kind == AGENT_CONTENT_PART_KIND_AUDIO && self->name != NULL)
    return g_error_new (AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                        _("The %s provider does not accept audio of type %s (%s)"),
                        provider, self->mime_type, self->name);
  if (self->kind == AGENT_CONTENT_PART_KIND_AUDIO)
    return g_error_new (AGENT_ERROR, AGENT_ERROR_UNSUPPORTED,
                        _("The %s provider does not accept audio of type %s"),
                        provider, self->mime_type);

  if (self->name != NULL)
    return g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                        _("The %s provider does not accept attachments of type %s (%s)"),
                        provider, self->mime_type, self->name);

  return g_error_new (AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                      _("The %s provider does not accept attachments of type %s"),
                      provider, self->mime_type);
}
