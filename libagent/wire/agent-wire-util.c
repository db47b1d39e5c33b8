/* agent-wire-util.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "wire/agent-wire-util-private.h"

/* A size limit in words for error messages: "16 MiB", "64 KiB", "100
 * bytes" (g_format_size() would say "16.0 MiB", with a no-break space). */
char *
agent_wire_format_limit (gsize limit)
{
  if (limit >= 1024 * 1024 && limit % (1024 * 1024) == 0)
    return g_strdup_printf ("%lu MiB", (gulong) (limit / (1024 * 1024)));

  if (limit >= 1024 && limit % 1024 == 0)
    return g_strdup_printf ("%lu KiB", (gulong) (limit / 1024));

  return g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);
}

/* Redaction: any run of RUN bytes or more of a secret is a piece of it
 * (a server that echoes "sk-PROBE-SEC***" gives away most of a key). The
 * secrets' RUN-byte grams are kept sorted, so that each position of the
 * text costs a look-up; a gram found is extended as far as the secret
 * goes on. A secret shorter than RUN is matched whole. */

#define RUN AGENT_REDACT_MIN_RUN

typedef struct
{
  guint64 value;    /* the RUN bytes, as they lie in memory */
  guint   secret;
  gsize   offset;
} Gram;

typedef struct
{
  const char * const *secrets;
  gsize              *lengths;
  GArray             *grams;         /* of Gram, by value */
  guint64             filter[64];    /* a bit for each gram's hash: most positions stop here */
  gsize               longest_short; /* of the secrets shorter than RUN */
  gsize               longest;
  gboolean            empty;
} Finder;

static inline guint64
load_gram (const char *bytes)
{
  guint64 value;

  memcpy (&value, bytes, sizeof value);
  return value;
}

static inline guint
gram_bit (guint64 value)
{
  return (guint) ((value * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 52);
}

static int
compare_grams (gconstpointer a,
               gconstpointer b)
{
  guint64 x = ((const Gram *) a)->value;
  guint64 y = ((const Gram *) b)->value;

  return x < y ? -1 : x > y;
}

static void
finder_init (Finder             *self,
             const char * const *secrets)
{
  guint n = secrets != NULL ? g_strv_length ((char **) secrets) : 0;

  memset (self, 0, sizeof *self);
  self->secrets = secrets;
  self->lengths = g_new0 (gsize, n + 1);
  self->grams = g_array_new (FALSE, FALSE, sizeof (Gram));
  self->empty = TRUE;

  for (guint i = 0; i < n; i++)
    {
      gsize len = strlen (secrets[i]);

      self->lengths[i] = len;
      self->longest = MAX (self->longest, len);
      if (len == 0)
        continue;
      self->empty = FALSE;
      if (len < RUN)
        {
          self->longest_short = MAX (self->longest_short, len);
          continue;
        }
      for (gsize offset = 0; offset + RUN <= len; offset++)
        {
          Gram gram = { load_gram (secrets[i] + offset), i, offset };
          guint bit = gram_bit (gram.value);

          self->filter[bit / 64] |= G_GUINT64_CONSTANT (1) << (bit % 64);
          g_array_append_val (self->grams, gram);
        }
    }
  g_array_sort (self->grams, compare_grams);
}

static void
finder_clear (Finder *self)
{
  g_clear_pointer (&self->lengths, g_free);
  g_clear_pointer (&self->grams, g_array_unref);
}

/* How many bytes of a secret begin at @text[@i] (0: none); *@open is set
 * when they reach the end of @text, where more of the secret may follow */
static gsize
finder_match (const Finder *self,
              const char   *text,
              gsize         len,
              gsize         i,
              gboolean     *open)
{
  gsize best = 0;

  *open = FALSE;

  if (self->grams->len > 0 && len - i >= RUN)
    {
      guint64 value = load_gram (text + i);
      guint bit = gram_bit (value);

      if (self->filter[bit / 64] & (G_GUINT64_CONSTANT (1) << (bit % 64)))
        {
          const Gram *grams = (const Gram *) (gpointer) self->grams->data;
          guint low = 0, high = self->grams->len;

          while (low < high)
            {
              guint middle = low + (high - low) / 2;

              if (grams[middle].value < value)
                low = middle + 1;
              else
                high = middle;
            }

          for (guint k = low; k < self->grams->len && grams[k].value == value; k++)
            {
              const char *secret = self->secrets[grams[k].secret] + grams[k].offset;
              gsize left = self->lengths[grams[k].secret] - grams[k].offset;
              gsize run = RUN;

              while (run < left && i + run < len && text[i + run] == secret[run])
                run++;
              if (run > best)
                best = run;
              if (run < left && i + run == len)
                *open = TRUE;
            }
        }
    }

  if (self->longest_short > 0)
    for (guint k = 0; self->secrets[k] != NULL; k++)
      {
        gsize slen = self->lengths[k];

        if (slen == 0 || slen >= RUN || slen <= best)
          continue;
        if (len - i >= slen)
          {
            if (memcmp (text + i, self->secrets[k], slen) == 0)
              best = slen;
          }
        else if (memcmp (text + i, self->secrets[k], len - i) == 0)
          *open = TRUE;
      }

  return best;
}

static inline gboolean
is_continuation (char byte)
{
  return ((guchar) byte & 0xc0) == 0x80;
}

/* Redacts @len bytes of @text into @out. With @partial, stops where what
 * is left could still be (or become, with the bytes that follow) a piece
 * of a secret; returns how many bytes of @text went into @out. */
static gsize
redact_into (GString      *out,
             const Finder *finder,
             const char   *text,
             gsize         len,
             gboolean      partial)
{
  gsize copied = 0;
  gsize hold = 0;
  gsize i = 0;

  /* As much as a secret but a byte: what could be the start of one, and
   * the text before a piece that begins near the end stays with it */
  if (partial && finder->longest > 0)
    hold = finder->longest - 1;

  while (i < len)
    {
      gboolean open;
      gsize start, end, run;

      if (partial && len - i <= hold)
        break;

      run = finder_match (finder, text, len, i, &open);
      if (partial && open)
        break;
      if (run == 0)
        {
          i++;
          continue;
        }

      /* The whole characters it touches go */
      start = i;
      end = i + run;
      while (start > copied && is_continuation (text[start]))
        start--;
      while (end < len && is_continuation (text[end]))
        end++;

      g_string_append_len (out, text + copied, start - copied);
      g_string_append (out, AGENT_REDACTED);
      copied = i = end;
    }

  if (partial)
    {
      /* Not in the middle of a character */
      while (i > copied && i < len && is_continuation (text[i]))
        i--;
      g_string_append_len (out, text + copied, i - copied);
      return i;
    }

  g_string_append_len (out, text + copied, len - copied);
  return len;
}

/* The one redaction of libagent: every piece of @secrets (a
 * NULL-terminated list, or NULL) in @text becomes AGENT_REDACTED — any run
 * of 8 bytes or more of a secret, and a shorter secret whole. Returns a
 * new string; NULL for NULL. */
char *
agent_redact (const char         *text,
              const char * const *secrets)
{
  GString *result;
  Finder finder;
  gsize len;

  if (text == NULL)
    return NULL;

  finder_init (&finder, secrets);
  if (finder.empty)
    {
      finder_clear (&finder);
      return g_strdup (text);
    }

  len = strlen (text);
  result = g_string_sized_new (len);
  redact_into (result, &finder, text, len, FALSE);
  finder_clear (&finder);
  return g_string_free (result, FALSE);
}

/* agent_redact() of the start of @len bytes of @text that more bytes to
 * come cannot turn into a piece of a secret: its end that could begin one
 * is left, *@consumed saying where it begins. For text that arrives in
 * pieces (the debug log of a body), and for a cut that must not leave a
 * piece of a secret shorter than the run that would be redacted. */
char *
agent_redact_prefix (const char         *text,
                     gsize               len,
                     const char * const *secrets,
                     gsize              *consumed)
{
  GString *result = g_string_sized_new (len);
  Finder finder;

  finder_init (&finder, secrets);
  if (finder.empty)
    {
      g_string_append_len (result, text, len);
      *consumed = len;
    }
  else
    *consumed = redact_into (result, &finder, text, len, TRUE);
  finder_clear (&finder);
  return g_string_free (result, FALSE);
}

/* The longest of @secrets (NULL-terminated, or NULL), in bytes */
gsize
agent_secrets_longest (const char * const *secrets)
{
  gsize most = 0;

  for (guint i = 0; secrets != NULL && secrets[i] != NULL; i++)
    most = MAX (most, strlen (secrets[i]));
  return most;
}

/* The start of @len bytes from the wire, to quote in an error message: as
 * valid UTF-8, with @secrets redacted, then cut to @max_chars characters
 * ("…" when cut). Redacting first means no cut can leave a piece of a
 * secret that no longer matches it. */
char *
agent_excerpt (const char         *text,
               gsize               len,
               guint               max_chars,
               const char * const *secrets)
{
  /* Enough bytes for @max_chars characters, and for a secret that starts
   * within them */
  gsize wanted = (gsize) max_chars * 4 + agent_secrets_longest (secrets);
  g_autofree char *valid = g_utf8_make_valid (text, MIN (len, wanted));
  g_autofree char *redacted = NULL;
  glong n_chars;
  const char *end;
  gsize consumed;

  /* Cut before the bytes that could begin a piece of a secret: the piece
   * that the cut would leave is shorter than a run that is redacted */
  if (len > wanted)
    redacted = agent_redact_prefix (valid, strlen (valid), secrets, &consumed);
  else
    redacted = agent_redact (valid, secrets);
  n_chars = g_utf8_strlen (redacted, -1);

  if (n_chars <= (glong) max_chars && len <= wanted)
    return g_steal_pointer (&redacted);

  end = g_utf8_offset_to_pointer (redacted, MIN (n_chars, (glong) max_chars));
  redacted[end - redacted] = '\0';
  return g_strconcat (redacted, "…", NULL);
}
