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

static gsize
longest (const char * const *secrets)
{
  gsize most = 0;

  for (guint i = 0; secrets != NULL && secrets[i] != NULL; i++)
    most = MAX (most, strlen (secrets[i]));
  return most;
}

/* The one redaction of libagent: every @secrets (a NULL-terminated list,
 * or NULL) in @text becomes AGENT_REDACTED, the longest first (a secret
 * may hold another). Returns a new string; NULL for NULL. */
char *
agent_redact (const char         *text,
              const char * const *secrets)
{
  g_autoptr(GPtrArray) sorted = NULL;
  GString *result;

  if (text == NULL)
    return NULL;

  for (guint i = 0; secrets != NULL && secrets[i] != NULL; i++)
    if (secrets[i][0] != '\0' && strstr (text, secrets[i]) != NULL)
      {
        if (sorted == NULL)
          sorted = g_ptr_array_new ();
        g_ptr_array_add (sorted, (gpointer) secrets[i]);
      }

  if (sorted == NULL)
    return g_strdup (text);

  result = g_string_new (text);
  while (sorted->len > 0)
    {
      guint most = 0;

      for (guint i = 1; i < sorted->len; i++)
        if (strlen (g_ptr_array_index (sorted, i)) > strlen (g_ptr_array_index (sorted, most)))
          most = i;
      g_string_replace (result, g_ptr_array_index (sorted, most), AGENT_REDACTED, 0);
      g_ptr_array_remove_index (sorted, most);
    }

  return g_string_free (result, FALSE);
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
  gsize wanted = (gsize) max_chars * 4 + longest (secrets);
  g_autofree char *valid = g_utf8_make_valid (text, MIN (len, wanted));
  g_autofree char *redacted = agent_redact (valid, secrets);
  glong n_chars = g_utf8_strlen (redacted, -1);
  const char *end;

  if (n_chars <= (glong) max_chars && len <= wanted)
    return g_steal_pointer (&redacted);

  end = g_utf8_offset_to_pointer (redacted, MIN (n_chars, (glong) max_chars));
  redacted[end - redacted] = '\0';
  return g_strconcat (redacted, "…", NULL);
}
