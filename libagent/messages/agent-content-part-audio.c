/* agent-content-part-audio.c — what APIs call the types of recordings
 *
 * A recording's MIME type comes from GIO's guess (a file's name and first
 * bytes) or from the caller, and the same format has several names:
 * shared-mime-info says audio/x-wav, audio/x-flac and audio/x-vorbis+ogg
 * where Gemini documents audio/wav, audio/flac and audio/ogg, and
 * OpenAI's chat completions take a format name, "wav" or "mp3", rather
 * than a MIME type at all. Each name is mapped here once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "messages/agent-content-part-private.h"

typedef struct
{
  const char *mime_type;  /* as a caller or GIO may name it */
  const char *canonical;  /* as Gemini documents it */
  const char *format;     /* OpenAI's input_audio format, or NULL */
} AudioType;

static const AudioType audio_types[] = {
  { "audio/wav",          "audio/wav",  "wav" },
  { "audio/x-wav",        "audio/wav",  "wav" },
  { "audio/wave",         "audio/wav",  "wav" },
  { "audio/vnd.wave",     "audio/wav",  "wav" },
  { "audio/mpeg",         "audio/mp3",  "mp3" },
  { "audio/mp3",          "audio/mp3",  "mp3" },
  { "audio/x-mp3",        "audio/mp3",  "mp3" },
  { "audio/x-mpeg",       "audio/mp3",  "mp3" },
  { "audio/flac",         "audio/flac", NULL },
  { "audio/x-flac",       "audio/flac", NULL },
  { "audio/ogg",          "audio/ogg",  NULL },
  { "audio/x-vorbis+ogg", "audio/ogg",  NULL },
  { "audio/x-opus+ogg",   "audio/ogg",  NULL },
  { "audio/x-flac+ogg",   "audio/ogg",  NULL },
  { "application/ogg",    "audio/ogg",  NULL },
  { "audio/aiff",         "audio/aiff", NULL },
  { "audio/x-aiff",       "audio/aiff", NULL },
  { "audio/aac",          "audio/aac",  NULL },
  { "audio/x-aac",        "audio/aac",  NULL },
  { "audio/webm",         "audio/webm", NULL },
};

static const AudioType *
lookup (const char *mime_type)
{
  if (mime_type == NULL)
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (audio_types); i++)
    if (g_ascii_strcasecmp (mime_type, audio_types[i].mime_type) == 0)
      return &audio_types[i];

  return NULL;
}

/* Documented in agent-content-part-private.h */
gboolean
_agent_mime_is_audio (const char *mime_type)
{
  return mime_type != NULL &&
         (g_ascii_strncasecmp (mime_type, "audio/", strlen ("audio/")) == 0 ||
          lookup (mime_type) != NULL);
}

/* Documented in agent-content-part-private.h */
const char *
_agent_audio_get_canonical_type (const char *mime_type)
{
  const AudioType *type = lookup (mime_type);

  return type != NULL ? type->canonical : mime_type;
}

/* Documented in agent-content-part-private.h */
const char *
_agent_audio_get_openai_format (AgentContentPart *part)
{
  const AudioType *type;

  if (agent_content_part_get_kind (part) != AGENT_CONTENT_PART_KIND_AUDIO ||
      agent_content_part_get_data (part) == NULL)
    return NULL;

  type = lookup (agent_content_part_get_mime_type (part));
  return type != NULL ? type->format : NULL;
}

static guint32
read_le32 (const guchar *bytes)
{
  guint32 value;

  memcpy (&value, bytes, sizeof value);
  return GUINT32_FROM_LE (value);
}

/* The seconds a WAV file plays, from its header (0: not a WAV read):
 * the "data" chunk's size over the byte rate of its "fmt " chunk */
static double
wav_seconds (GBytes *data)
{
  gsize len;
  const guchar *bytes = g_bytes_get_data (data, &len);
  guint32 byte_rate = 0;
  gsize at = 12;

  if (len < 12 || memcmp (bytes, "RIFF", 4) != 0 || memcmp (bytes + 8, "WAVE", 4) != 0)
    return 0;

  while (at + 8 <= len)
    {
      guint32 size = read_le32 (bytes + at + 4);

      if (memcmp (bytes + at, "fmt ", 4) == 0 && at + 16 <= len && size >= 12)
        byte_rate = read_le32 (bytes + at + 16);
      else if (memcmp (bytes + at, "data", 4) == 0)
        return byte_rate > 0 ? (double) MIN (size, len - at - 8) / byte_rate : 0;
      at += 8 + (gsize) size + (size & 1);
    }

  return 0;
}

/* Documented in agent-content-part-private.h */
gint64
_agent_content_part_get_audio_tokens (AgentContentPart *part)
{
  GBytes *data = agent_content_part_get_data (part);
  double seconds;

  if (data == NULL)
    return 32 * 60;

  /* Other formats: at 128 kbit/s, MP3's common rate */
  seconds = wav_seconds (data);
  if (seconds <= 0)
    seconds = g_bytes_get_size (data) / 16000.0;

  return MAX (1, (gint64) (seconds * 32 + 0.5));
}
