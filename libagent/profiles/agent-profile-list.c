/* agent-profile-list.c — the profiles of profiles.ini, as a GListModel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "agent-error.h"
#include "profiles/agent-profile-private.h"

/**
 * AgentProfileList:
 *
 * The profiles of a file, in the file's order: a [iface@Gio.ListModel] of
 * [class@Agent.Profile]. agent-chat and agent-cli share the file (see
 * [func@Agent.ProfileList.get_default_path]); its format is a key file
 * described in the manual's “Profiles” page.
 *
 * [method@Agent.ProfileList.load] reads the file and then watches it: when
 * another program writes it, the list reads it again, updates its
 * profiles (the same objects, for the profiles still there), emits
 * [signal@Gio.ListModel::items-changed] and then
 * [signal@Agent.ProfileList::changed]. Changes made through the API are
 * written by [method@Agent.ProfileList.save].
 *
 * Since: 0.1
 */

struct _AgentProfileList
{
  GObject       parent_instance;
  char         *path;
  GPtrArray    *profiles;
  char         *default_name;
  GKeyFile     *key_file;
  char         *contents;      /* the file as last read or written; NULL: none */
  GFileMonitor *monitor;
};

enum {
  PROP_0,
  PROP_PATH,
  PROP_DEFAULT_NAME,
  PROP_N_ITEMS,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static GType
list_get_item_type (GListModel *model)
{
  return AGENT_TYPE_PROFILE;
}

static guint
list_get_n_items (GListModel *model)
{
  return AGENT_PROFILE_LIST (model)->profiles->len;
}

static gpointer
list_get_item (GListModel *model,
               guint       position)
{
  AgentProfileList *self = AGENT_PROFILE_LIST (model);

  if (position >= self->profiles->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->profiles, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = list_get_item_type;
  iface->get_n_items = list_get_n_items;
  iface->get_item = list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (AgentProfileList, agent_profile_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
agent_profile_list_dispose (GObject *object)
{
  AgentProfileList *self = AGENT_PROFILE_LIST (object);

  if (self->monitor != NULL)
    {
      g_file_monitor_cancel (self->monitor);
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      g_clear_object (&self->monitor);
    }
  g_ptr_array_set_size (self->profiles, 0);

  G_OBJECT_CLASS (agent_profile_list_parent_class)->dispose (object);
}

static void
agent_profile_list_finalize (GObject *object)
{
  AgentProfileList *self = AGENT_PROFILE_LIST (object);

  g_free (self->path);
  g_free (self->default_name);
  g_free (self->contents);
  g_ptr_array_unref (self->profiles);
  g_key_file_unref (self->key_file);

  G_OBJECT_CLASS (agent_profile_list_parent_class)->finalize (object);
}

static void
agent_profile_list_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  AgentProfileList *self = AGENT_PROFILE_LIST (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_DEFAULT_NAME:
      g_value_set_string (value, self->default_name);
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->profiles->len);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_profile_list_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  AgentProfileList *self = AGENT_PROFILE_LIST (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      if (self->path == NULL)
        self->path = agent_profile_list_get_default_path ();
      break;
    case PROP_DEFAULT_NAME:
      agent_profile_list_set_default_name (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_profile_list_class_init (AgentProfileListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_profile_list_dispose;
  object_class->finalize = agent_profile_list_finalize;
  object_class->get_property = agent_profile_list_get_property;
  object_class->set_property = agent_profile_list_set_property;

  /**
   * AgentProfileList:path:
   *
   * The file the profiles are kept in.
   *
   * Since: 0.1
   */
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProfileList:default-name:
   *
   * The name of the profile to use when none is asked for, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_DEFAULT_NAME] =
    g_param_spec_string ("default-name", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AgentProfileList:n-items:
   *
   * The number of profiles.
   *
   * Since: 0.1
   */
  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AgentProfileList::changed:
   * @self: the [class@Agent.ProfileList]
   *
   * Emitted when another program changed the file and the list read it
   * again, after [signal@Gio.ListModel::items-changed].
   *
   * Since: 0.1
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
agent_profile_list_init (AgentProfileList *self)
{
  self->profiles = g_ptr_array_new_with_free_func (g_object_unref);
  self->key_file = g_key_file_new ();
}

/**
 * agent_profile_list_get_default_path:
 *
 * Gets the file the profiles of agent-chat and agent-cli are kept in:
 * `$AGENT_PROFILES` if it is set, else `profiles.ini` in `libagent` in
 * the user's configuration directory ([func@GLib.get_user_config_dir]).
 *
 * Returns: (transfer full) (type filename): the path
 *
 * Since: 0.1
 */
char *
agent_profile_list_get_default_path (void)
{
  const char *path = g_getenv ("AGENT_PROFILES");

  if (path != NULL && *path != '\0')
    return g_strdup (path);
  return g_build_filename (g_get_user_config_dir (), "libagent", "profiles.ini", NULL);
}

/**
 * agent_profile_list_new:
 * @path: (nullable) (type filename): the file, or %NULL for
 *   [func@Agent.ProfileList.get_default_path]
 *
 * Creates an empty list for the profiles of @path; read them with
 * [method@Agent.ProfileList.load].
 *
 * Returns: (transfer full): a new [class@Agent.ProfileList]
 *
 * Since: 0.1
 */
AgentProfileList *
agent_profile_list_new (const char *path)
{
  return g_object_new (AGENT_TYPE_PROFILE_LIST, "path", path, NULL);
}

/**
 * agent_profile_list_get_path:
 * @self: a [class@Agent.ProfileList]
 *
 * Gets the file the profiles are kept in. [property@Agent.ProfileList:path].
 *
 * Returns: (transfer none) (type filename): the path
 *
 * Since: 0.1
 */
const char *
agent_profile_list_get_path (AgentProfileList *self)
{
  g_return_val_if_fail (AGENT_IS_PROFILE_LIST (self), NULL);
  return self->path;
}

static guint
find (AgentProfileList *self,
      const char       *name)
{
  for (guint i = 0; i < self->profiles->len; i++)
    if (g_strcmp0 (agent_profile_get_name (g_ptr_array_index (self->profiles, i)), name) == 0)
      return i;
  return G_MAXUINT;
}

/* Puts @profiles in the list's place, keeping the objects of the profiles
 * whose name and provider stay */
static void
replace (AgentProfileList *self,
         GPtrArray        *profiles)
{
  guint removed = self->profiles->len;

  for (guint i = 0; i < profiles->len; i++)
    {
      AgentProfile *profile = g_ptr_array_index (profiles, i);
      guint old = find (self, agent_profile_get_name (profile));

      if (old != G_MAXUINT &&
          g_str_equal (agent_profile_get_provider (g_ptr_array_index (self->profiles, old)),
                       agent_profile_get_provider (profile)))
        {
          AgentProfile *kept = g_ptr_array_index (self->profiles, old);

          _agent_profile_assign (kept, profile);
          g_ptr_array_index (profiles, i) = g_object_ref (kept);
          g_object_unref (profile);
        }
    }

  g_ptr_array_unref (self->profiles);
  self->profiles = g_ptr_array_ref (profiles);
  if (removed > 0 || profiles->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, profiles->len);
  if (removed != profiles->len)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

static char *
read_contents (const char  *path,
               gboolean    *missing,
               GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  char *contents = NULL;

  *missing = FALSE;
  if (g_file_get_contents (path, &contents, NULL, &local_error))
    return contents;
  if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    {
      *missing = TRUE;
      return NULL;
    }
  g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
               _("Could not read the profiles: %s"), local_error->message);
  return NULL;
}

static gboolean
load_contents (AgentProfileList  *self,
               char              *contents,
               GError           **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GPtrArray) profiles = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *default_name = NULL;

  if (contents != NULL &&
      !g_key_file_load_from_data (key_file, contents, (gsize) -1,
                                  G_KEY_FILE_KEEP_COMMENTS | G_KEY_FILE_KEEP_TRANSLATIONS,
                                  &local_error))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   "%s: %s", self->path, local_error->message);
      return FALSE;
    }

  if (contents == NULL)
    profiles = g_ptr_array_new_with_free_func (g_object_unref);
  else
    profiles = _agent_profile_file_read (key_file, self->path, &default_name, error);
  if (profiles == NULL)
    return FALSE;

  g_key_file_unref (self->key_file);
  self->key_file = g_key_file_ref (key_file);
  g_free (self->contents);
  self->contents = g_strdup (contents);

  replace (self, profiles);
  agent_profile_list_set_default_name (self, default_name);
  return TRUE;
}

static void
monitor_changed_cb (GFileMonitor      *monitor,
                    GFile             *file,
                    GFile             *other_file,
                    GFileMonitorEvent  event,
                    gpointer           user_data)
{
  AgentProfileList *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gboolean missing;

  if (event == G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED ||
      event == G_FILE_MONITOR_EVENT_PRE_UNMOUNT ||
      event == G_FILE_MONITOR_EVENT_UNMOUNTED ||
      event == G_FILE_MONITOR_EVENT_CHANGED)   /* CHANGES_DONE_HINT follows */
    return;

  contents = read_contents (self->path, &missing, &error);
  if (contents == NULL && !missing)
    {
      g_debug ("%s", error->message);
      return;
    }
  /* Our own writes, and events that changed nothing */
  if (g_strcmp0 (contents, self->contents) == 0)
    return;

  if (!load_contents (self, contents, &error))
    {
      g_warning ("The profiles changed, and cannot be read: %s", error->message);
      return;
    }
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
watch (AgentProfileList *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (self->monitor != NULL)
    return;

  file = g_file_new_for_path (self->path);
  self->monitor = g_file_monitor_file (file, G_FILE_MONITOR_NONE, NULL, &error);
  if (self->monitor == NULL)
    {
      g_debug ("Changes to %s will not be seen: %s", self->path, error->message);
      return;
    }
  g_signal_connect (self->monitor, "changed", G_CALLBACK (monitor_changed_cb), self);
}

/**
 * agent_profile_list_load:
 * @self: a [class@Agent.ProfileList]
 * @error: return location for a [struct@GLib.Error]
 *
 * Reads the profiles from the file, replacing the list's, and watches the
 * file for changes other programs make. No file is no profile: the list is
 * empty and the call succeeds.
 *
 * Returns: %TRUE if the profiles were read, or %FALSE with
 *   %AGENT_ERROR_INVALID_ARGUMENT when the file cannot be read or is
 *   malformed: the message names the file, and the profile and key at
 *   fault. The list is then unchanged.
 *
 * Since: 0.1
 */
gboolean
agent_profile_list_load (AgentProfileList  *self,
                         GError           **error)
{
  g_autofree char *contents = NULL;
  gboolean missing;

  g_return_val_if_fail (AGENT_IS_PROFILE_LIST (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  watch (self);
  contents = read_contents (self->path, &missing, error);
  if (contents == NULL && !missing)
    return FALSE;
  return load_contents (self, contents, error);
}

static gboolean
holds_password (const char *url)
{
  g_autoptr(GUri) uri = NULL;

  if (url == NULL)
    return FALSE;
  uri = g_uri_parse (url, G_URI_FLAGS_HAS_PASSWORD, NULL);
  return uri != NULL && g_uri_get_password (uri) != NULL;
}

static gboolean
check_secrets (AgentProfileList  *self,
               GError           **error)
{
  for (guint i = 0; i < self->profiles->len; i++)
    {
      AgentProfile *profile = g_ptr_array_index (self->profiles, i);

      if (holds_password (agent_profile_get_base_url (profile)))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("Profile “%s”: the base URL holds a password, which the profiles "
                         "file does not keep"), agent_profile_get_name (profile));
          return FALSE;
        }
      if (holds_password (agent_profile_get_search_url (profile)))
        {
          g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                       _("Profile “%s”: the search URL holds a password, which the profiles "
                         "file does not keep"), agent_profile_get_name (profile));
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * agent_profile_list_save:
 * @self: a [class@Agent.ProfileList]
 * @error: return location for a [struct@GLib.Error]
 *
 * Writes the profiles to the file, at once (a reader sees the old file or
 * the new one, never a part), making its folder if needed. Comments and
 * keys this version does not know, read by [method@Agent.ProfileList.load],
 * stay. No secret is written: a base URL or search URL that holds a password
 * is refused.
 *
 * Returns: %TRUE if the file was written, or %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
agent_profile_list_save (AgentProfileList  *self,
                         GError           **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GKeyFile) key_file = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  g_return_val_if_fail (AGENT_IS_PROFILE_LIST (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_secrets (self, error))
    return FALSE;

  key_file = _agent_profile_file_write (self->key_file, G_LIST_MODEL (self), self->default_name);
  contents = g_key_file_to_data (key_file, &length, NULL);

  folder = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("Could not make the folder %s: %s"), folder, g_strerror (saved_errno));
      return FALSE;
    }
  if (!g_file_set_contents_full (self->path, contents, length,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0600, &local_error))
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_STORAGE,
                   _("Could not write the profiles: %s"), local_error->message);
      return FALSE;
    }

  g_key_file_unref (self->key_file);
  self->key_file = g_steal_pointer (&key_file);
  g_free (self->contents);
  self->contents = g_steal_pointer (&contents);
  watch (self);
  return TRUE;
}

/**
 * agent_profile_list_lookup:
 * @self: a [class@Agent.ProfileList]
 * @name: a profile's name
 *
 * Finds the profile called @name.
 *
 * Returns: (transfer none) (nullable): the profile, or %NULL if the list
 *   has none of that name
 *
 * Since: 0.1
 */
AgentProfile *
agent_profile_list_lookup (AgentProfileList *self,
                           const char       *name)
{
  guint position;

  g_return_val_if_fail (AGENT_IS_PROFILE_LIST (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  position = find (self, name);
  return position == G_MAXUINT ? NULL : g_ptr_array_index (self->profiles, position);
}

static gboolean
check_free (AgentProfileList  *self,
            const char        *name,
            GError           **error)
{
  if (!_agent_profile_check_name (name, error))
    return FALSE;
  if (find (self, name) != G_MAXUINT)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("There is a profile called “%s” already"), name);
      return FALSE;
    }
  return TRUE;
}

/**
 * agent_profile_list_add:
 * @self: a [class@Agent.ProfileList]
 * @profile: the profile to add, at the end
 * @error: return location for a [struct@GLib.Error]
 *
 * Adds @profile at the end of the list.
 *
 * Returns: %TRUE if it was added, or %FALSE with
 *   %AGENT_ERROR_INVALID_ARGUMENT when the list has a profile of that name,
 *   or the name cannot be kept in the file (empty, with a space at an end,
 *   or holding `[`, `]` or a control character)
 *
 * Since: 0.1
 */
gboolean
agent_profile_list_add (AgentProfileList  *self,
                        AgentProfile      *profile,
                        GError           **error)
{
  g_return_val_if_fail (AGENT_IS_PROFILE_LIST (self), FALSE);
  g_return_val_if_fail (AGENT_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_free (self, agent_profile_get_name (profile), error))
    return FALSE;

  g_ptr_array_add (self->profiles, g_object_ref (profile));
  g_list_model_items_changed (G_LIST_MODEL (self), self->profiles->len - 1, 0, 1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
  return TRUE;
}

/**
 * agent_profile_list_remove:
 * @self: a [class@Agent.ProfileList]
 * @name: a profile's name
 *
 * Removes the profile called @name; if it was the default, the list has no
 * default after.
 *
 * Returns: %TRUE if there was such a profile
 *
 * Since: 0.1
 */
gboolean
agent_profile_list_remove (AgentProfileList *self,
                           const char       *name)
{
  guint position;

  g_return_val_if_fail (AGENT_IS_PROFILE_LIST (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  position = find (self, name);
  if (position == G_MAXUINT)
    return FALSE;

  if (g_strcmp0 (self->default_name, name) == 0)
    agent_profile_list_set_default_name (self, NULL);
  g_ptr_array_remove_index (self->profiles, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
  return TRUE;
}

/**
 * agent_profile_list_rename:
 * @self: a [class@Agent.ProfileList]
 * @name: a profile's name
 * @new_name: its new name
 * @error: return location for a [struct@GLib.Error]
 *
 * Renames the profile called @name, in its place; if it was the default,
 * it stays the default.
 *
 * Returns: %TRUE if it was renamed, or %FALSE with
 *   %AGENT_ERROR_INVALID_ARGUMENT when there is no profile called @name,
 *   another is called @new_name already, or @new_name cannot be kept in the
 *   file
 *
 * Since: 0.1
 */
gboolean
agent_profile_list_rename (AgentProfileList  *self,
                           const char        *name,
                           const char        *new_name,
                           GError           **error)
{
  guint position;

  g_return_val_if_fail (AGENT_IS_PROFILE_LIST (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (new_name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  position = find (self, name);
  if (position == G_MAXUINT)
    {
      g_set_error (error, AGENT_ERROR, AGENT_ERROR_INVALID_ARGUMENT,
                   _("There is no profile called “%s”"), name);
      return FALSE;
    }
  if (g_str_equal (name, new_name))
    return TRUE;
  if (!check_free (self, new_name, error))
    return FALSE;

  if (g_strcmp0 (self->default_name, name) == 0)
    {
      g_free (self->default_name);
      self->default_name = g_strdup (new_name);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEFAULT_NAME]);
    }
  _agent_profile_set_name (g_ptr_array_index (self->profiles, position), new_name);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 1);
  return TRUE;
}

/**
 * agent_profile_list_get_default_name:
 * @self: a [class@Agent.ProfileList]
 *
 * Gets the name of the profile to use when none is asked for.
 * [property@Agent.ProfileList:default-name].
 *
 * Returns: (transfer none) (nullable): the name, or %NULL
 *
 * Since: 0.1
 */
const char *
agent_profile_list_get_default_name (AgentProfileList *self)
{
  g_return_val_if_fail (AGENT_IS_PROFILE_LIST (self), NULL);
  return self->default_name;
}

/**
 * agent_profile_list_set_default_name:
 * @self: a [class@Agent.ProfileList]
 * @name: (nullable): a profile's name, or %NULL for none
 *
 * Sets the name of the profile to use when none is asked for.
 * [property@Agent.ProfileList:default-name].
 *
 * Since: 0.1
 */
void
agent_profile_list_set_default_name (AgentProfileList *self,
                                     const char       *name)
{
  g_return_if_fail (AGENT_IS_PROFILE_LIST (self));

  if (name != NULL && *name == '\0')
    name = NULL;
  if (g_strcmp0 (self->default_name, name) == 0)
    return;
  g_free (self->default_name);
  self->default_name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEFAULT_NAME]);
}
