/* agent-desktop-assistant.c — io.github.libagent.Assistant1: the user's
 * models for the applications the user allowed
 *
 * Every call is first identified (agent-desktop-peer.c): an application
 * gets ListProfiles and StartConversation once the user allowed it
 * (agent-desktop-consent.c); the methods for Preferences (the consent
 * agent, the apps, their limits and log) are for unsandboxed callers only,
 * which could read the service's files anyway. Keys stay here: the
 * providers are made from the profiles with their keys from the keyring,
 * and an app sees only the answers.
 *
 * AppsChanged goes to the watchers, the unsandboxed callers of ListApps or
 * ListLog (until they leave the bus), at most once a main-loop iteration
 * however many changes came in it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include <agent.h>

#include "agent-desktop-apps.h"
#include "agent-desktop-assistant.h"
#include "agent-desktop-profile.h"
#include "agent-desktop-consent.h"
#include "agent-desktop-conversation.h"
#include "agent-desktop-error.h"
#include "agent-desktop-peer.h"
#include "agent-desktop-step.h"

#define INTERFACE_NAME "io.github.libagent.Assistant1"
#define CONVERSATION_INTERFACE_NAME "io.github.libagent.AssistantConversation1"
#define INTERFACE_VERSION 1
/* The conversations an app may have open at once */
#define MAX_CONVERSATIONS_PER_APP 32
#define INTERFACES_RESOURCE "/io/github/libagent/Assistant/io.github.libagent.Assistant1.xml"

struct _AgentDesktopAssistant
{
  GObject                    parent_instance;

  GApplication              *application;   /* unowned: it owns the assistant */
  GDBusConnection           *connection;
  GDBusNodeInfo             *node_info;
  AgentProfileList          *profiles;
  AgentDesktopApps          *apps;
  AgentDesktopConsentBroker *consent;
  AgentDesktopSteps         *steps;
  GHashTable                *conversations;  /* path → AgentDesktopConversation */
  GHashTable                *watchers;       /* unique names told of AppsChanged */
  guint                      apps_changed_id; /* the idle that sends AppsChanged */
  guint                      registration_id;
  guint                      name_owner_changed_id;
  guint                      next_conversation;
};

G_DEFINE_FINAL_TYPE (AgentDesktopAssistant, agent_desktop_assistant, G_TYPE_OBJECT)

/* One method call while it is identified, consented and answered */
typedef struct
{
  AgentDesktopAssistant *self;
  GDBusMethodInvocation *invocation;
  AgentDesktopPeer      *peer;
} Call;

static void
call_free (Call *call)
{
  g_application_release (call->self->application);
  g_object_unref (call->self);
  g_object_unref (call->invocation);
  agent_desktop_peer_free (call->peer);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Call, call_free)

static void
close_conversations (AgentDesktopAssistant *self,
                     const char            *owner,
                     const char            *app_id)
{
  g_autoptr(GPtrArray) closing = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->conversations);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if ((owner == NULL || g_str_equal (agent_desktop_conversation_get_owner (value), owner))
        && (app_id == NULL || g_str_equal (agent_desktop_conversation_get_app_id (value), app_id)))
      g_ptr_array_add (closing, g_object_ref (value));
  for (guint i = 0; i < closing->len; i++)
    agent_desktop_conversation_close (g_ptr_array_index (closing, i));
}

static void
conversation_closed (AgentDesktopAssistant    *self,
                     AgentDesktopConversation *conversation)
{
  if (g_hash_table_remove (self->conversations, agent_desktop_conversation_get_path (conversation)))
    g_application_release (self->application);
}

static void
list_profiles (Call *call)
{
  GListModel *profiles = G_LIST_MODEL (call->self->profiles);
  const char *default_name = agent_profile_list_get_default_name (call->self->profiles);
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ssa{sv})"));
  for (guint i = 0; i < g_list_model_get_n_items (profiles); i++)
    {
      g_autoptr(AgentProfile) profile = g_list_model_get_item (profiles, i);
      const char *provider = agent_profile_get_provider (profile);
      const char *model = agent_profile_get_model (profile);
      const char *base_url = agent_profile_get_base_url (profile);
      g_autofree char *label = g_strdup_printf ("%s/%s", provider, model ? model : "");
      GVariantBuilder details;

      if (!agent_desktop_profile_is_usable (profile))
        continue;

      g_variant_builder_init (&details, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_add (&details, "{sv}", "provider", g_variant_new_string (provider));
      if (model != NULL)
        g_variant_builder_add (&details, "{sv}", "model", g_variant_new_string (model));
      if (base_url != NULL)
        {
          /* A profile's URL holds no password (the file refuses one); no user either */
          g_autoptr(GUri) uri = g_uri_parse (base_url, G_URI_FLAGS_NONE, NULL);

          if (uri != NULL)
            {
              g_autofree char *shown = g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO);

              g_variant_builder_add (&details, "{sv}", "base-url", g_variant_new_string (shown));
            }
        }
      g_variant_builder_add (&details, "{sv}", "default",
                             g_variant_new_boolean (g_strcmp0 (default_name,
                                                               agent_profile_get_name (profile))
                                                    == 0));
      g_variant_builder_add (&builder, "(ssa{sv})", agent_profile_get_name (profile), label,
                             &details);
    }
  g_dbus_method_invocation_return_value (call->invocation,
                                         g_variant_new ("(@a(ssa{sv}))",
                                                        g_variant_builder_end (&builder)));
}

typedef struct
{
  Call         *call;
  AgentProfile *profile;
  char         *system_prompt;
} Start;

static void
start_free (Start *start)
{
  call_free (start->call);
  g_object_unref (start->profile);
  g_free (start->system_prompt);
  g_free (start);
}

static void
owner_checked (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(AgentDesktopConversation) conversation = user_data;
  g_autoptr(GVariant) reply = NULL;
  gboolean has_owner = FALSE;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, NULL);
  if (reply != NULL)
    g_variant_get (reply, "(b)", &has_owner);
  if (!has_owner)
    agent_desktop_conversation_close (conversation);
}

static void
provider_ready (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Start *start = user_data;
  AgentDesktopAssistant *self = start->call->self;
  g_autoptr(AgentProvider) provider = NULL;
  g_autoptr(AgentDesktopConversation) conversation = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  const char *owner = g_dbus_method_invocation_get_sender (start->call->invocation);
  GDBusInterfaceInfo *info;

  provider = agent_profile_create_provider_finish (AGENT_PROFILE (object), result, &error);
  if (provider == NULL)
    {
      g_dbus_method_invocation_return_error (start->call->invocation, AGENT_DESKTOP_ERROR,
                                             AGENT_DESKTOP_ERROR_FAILED,
                                             _("Profile “%s”: %s"),
                                             agent_profile_get_name (start->profile),
                                             error->message);
      start_free (start);
      return;
    }

  path = g_strdup_printf (AGENT_DESKTOP_ASSISTANT_PATH "/conversation/%u",
                          ++self->next_conversation);
  info = g_dbus_node_info_lookup_interface (self->node_info, CONVERSATION_INTERFACE_NAME);
  conversation = agent_desktop_conversation_new (self->connection, info, path, owner,
                                                 start->call->peer->app_id, start->profile,
                                                 provider, self->apps);
  agent_desktop_conversation_set_consent (conversation, self->consent,
                                          start->call->peer->app_name);
  if (start->system_prompt != NULL)
    agent_session_set_system_prompt (agent_desktop_conversation_get_session (conversation),
                                     start->system_prompt);
  if (!agent_desktop_conversation_export (conversation, &error))
    {
      g_dbus_method_invocation_return_gerror (start->call->invocation, error);
      start_free (start);
      return;
    }
  g_signal_connect_object (conversation, "closed", G_CALLBACK (conversation_closed), self,
                           G_CONNECT_SWAPPED);
  g_hash_table_insert (self->conversations, g_strdup (path), g_object_ref (conversation));
  g_application_hold (self->application);
  /* The owner may have left while the provider was made */
  g_dbus_connection_call (self->connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                          "org.freedesktop.DBus", "NameHasOwner", g_variant_new ("(s)", owner),
                          G_VARIANT_TYPE ("(b)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL,
                          owner_checked, g_object_ref (conversation));
  g_dbus_method_invocation_return_value (start->call->invocation, g_variant_new ("(o)", path));
  start_free (start);
}

static guint
count_conversations (AgentDesktopAssistant *self,
                     const char            *app_id)
{
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  g_hash_table_iter_init (&iter, self->conversations);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (g_str_equal (agent_desktop_conversation_get_app_id (value), app_id))
      n++;
  return n;
}

static void
start_conversation (Call *call)
{
  GVariant *parameters = g_dbus_method_invocation_get_parameters (call->invocation);
  g_autoptr(GVariant) options = NULL;
  g_autoptr(GError) error = NULL;
  AgentProfile *profile;
  const char *name;
  Start *start;

  g_variant_get (parameters, "(&s@a{sv})", &name, &options);
  if (count_conversations (call->self, call->peer->app_id) >= MAX_CONVERSATIONS_PER_APP)
    g_set_error (&error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_LIMIT_REACHED,
                 _("“%s” has %u conversations open already"), call->peer->app_name,
                 MAX_CONVERSATIONS_PER_APP);
  if (error != NULL
      || !agent_desktop_apps_check_limit (call->self->apps, call->peer->app_id, &error))
    {
      g_dbus_method_invocation_return_gerror (call->invocation, error);
      call_free (call);
      return;
    }
  profile = agent_desktop_profile_lookup (call->self->profiles, name, &error);
  if (profile == NULL)
    {
      g_dbus_method_invocation_return_gerror (call->invocation, error);
      call_free (call);
      return;
    }

  start = g_new0 (Start, 1);
  start->call = call;
  start->profile = g_object_ref (profile);
  g_variant_lookup (options, "system-prompt", "s", &start->system_prompt);
  agent_profile_create_provider_async (profile, NULL, provider_ready, start);
}

static void
consented (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Call *call = user_data;
  g_autoptr(GError) error = NULL;
  const char *method;

  if (!agent_desktop_consent_broker_check_finish (AGENT_DESKTOP_CONSENT_BROKER (object), result,
                                                  &error))
    {
      g_dbus_method_invocation_return_gerror (call->invocation, error);
      call_free (call);
      return;
    }

  method = g_dbus_method_invocation_get_method_name (call->invocation);
  if (g_str_equal (method, "StartConversation"))
    {
      start_conversation (call);
      return;
    }
  if (g_str_equal (method, "RunStep"))
    {
      agent_desktop_steps_run (call->self->steps, call->invocation, call->peer->app_id);
      call_free (call);
      return;
    }
  list_profiles (call);
  call_free (call);
}

/* AppsChanged, once for the changes of a main-loop iteration */

static gboolean
send_apps_changed (gpointer user_data)
{
  AgentDesktopAssistant *self = user_data;
  GHashTableIter iter;
  gpointer name;

  self->apps_changed_id = 0;
  g_hash_table_iter_init (&iter, self->watchers);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    {
      g_autoptr(GError) error = NULL;

      if (!g_dbus_connection_emit_signal (self->connection, name, AGENT_DESKTOP_ASSISTANT_PATH,
                                          INTERFACE_NAME, "AppsChanged", NULL, &error))
        g_debug ("Could not send AppsChanged to %s: %s", (const char *) name, error->message);
    }
  return G_SOURCE_REMOVE;
}

static void
apps_changed (AgentDesktopAssistant *self)
{
  if (self->apps_changed_id == 0 && self->connection != NULL)
    self->apps_changed_id = g_idle_add (send_apps_changed, self);
}

/* The methods for Preferences; @call is the caller's, unsandboxed */
static void
administer (Call *call)
{
  AgentDesktopAssistant *self = call->self;
  GVariant *parameters = g_dbus_method_invocation_get_parameters (call->invocation);
  const char *method = g_dbus_method_invocation_get_method_name (call->invocation);
  const char *sender = g_dbus_method_invocation_get_sender (call->invocation);
  g_autoptr(GError) error = NULL;
  const char *text;
  guint64 tokens;

  if (agent_desktop_consent_broker_administer_tools (self->consent, call->invocation))
    return;
  if (g_str_equal (method, "RegisterConsentAgent"))
    {
      g_variant_get (parameters, "(&o)", &text);
      agent_desktop_consent_broker_add_agent (self->consent, sender, text);
    }
  else if (g_str_equal (method, "UnregisterConsentAgent"))
    {
      g_variant_get (parameters, "(&o)", &text);
      if (!agent_desktop_consent_broker_remove_agent (self->consent, sender, text))
        g_set_error (&error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                     _("No consent agent %s is registered"), text);
    }
  else if (g_str_equal (method, "ListApps"))
    {
      g_hash_table_add (self->watchers, g_strdup (sender));
      g_dbus_method_invocation_return_value (call->invocation,
                                             g_variant_new ("(@a{sa{sv}})",
                                                            agent_desktop_apps_list (self->apps)));
      return;
    }
  else if (g_str_equal (method, "Revoke"))
    {
      g_variant_get (parameters, "(&s)", &text);
      if (agent_desktop_apps_revoke (self->apps, text, &error)
          && agent_desktop_apps_forget_tool (self->apps, text, NULL, &error))
        {
          close_conversations (self, NULL, text);
          agent_desktop_steps_cancel_all (self->steps, NULL, text);
        }
    }
  else if (g_str_equal (method, "SetDailyLimit"))
    {
      g_variant_get (parameters, "(&st)", &text, &tokens);
      if (text[0] == '\0')
        g_set_error_literal (&error, AGENT_DESKTOP_ERROR, AGENT_DESKTOP_ERROR_INVALID_ARGS,
                             _("The application id is empty"));
      else
        agent_desktop_apps_set_daily_limit (self->apps, text, tokens, &error);
    }
  else if (g_str_equal (method, "ListLog"))
    {
      GVariant *entries;

      g_variant_get (parameters, "(&s)", &text);
      g_hash_table_add (self->watchers, g_strdup (sender));
      if ((entries = agent_desktop_apps_list_log (self->apps, text, &error)) != NULL)
        {
          g_dbus_method_invocation_return_value (call->invocation,
                                                 g_variant_new ("(@a(xsst))", entries));
          return;
        }
    }
  else
    g_assert_not_reached ();

  if (error != NULL)
    g_dbus_method_invocation_return_gerror (call->invocation, error);
  else
    g_dbus_method_invocation_return_value (call->invocation, NULL);
}

static void
identified (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  g_autoptr(GError) error = NULL;
  const char *method;

  call->peer = agent_desktop_peer_identify_finish (result, &error);
  if (call->peer == NULL)
    {
      g_dbus_method_invocation_return_gerror (call->invocation, error);
      return;
    }

  method = g_dbus_method_invocation_get_method_name (call->invocation);
  if (g_str_equal (method, "ListProfiles") || g_str_equal (method, "StartConversation") ||
      g_str_equal (method, "RunStep"))
    {
      AgentDesktopConsentBroker *consent = call->self->consent;
      const AgentDesktopPeer *peer = call->peer;

      /* (The call is stolen only after its members are read) */
      agent_desktop_consent_broker_check_async (consent, peer, NULL, consented,
                                                g_steal_pointer (&call));
      return;
    }
  if (call->peer->sandboxed)
    {
      g_dbus_method_invocation_return_error (call->invocation, AGENT_DESKTOP_ERROR,
                                             AGENT_DESKTOP_ERROR_NOT_SUPPORTED,
                                             _("%s is not for sandboxed applications"), method);
      return;
    }
  administer (call);
}

static void
method_call (GDBusConnection       *connection,
             const char            *sender,
             const char            *object_path,
             const char            *interface_name,
             const char            *method_name,
             GVariant              *parameters,
             GDBusMethodInvocation *invocation,
             gpointer               user_data)
{
  AgentDesktopAssistant *self = user_data;
  Call *call;

  /* The caller's own steps only: nobody else's to cancel */
  if (g_str_equal (method_name, "CancelStep"))
    {
      agent_desktop_steps_cancel (self->steps, invocation);
      return;
    }

  call = g_new0 (Call, 1);
  /* The service stays while it answers */
  g_application_hold (self->application);
  call->self = g_object_ref (self);
  call->invocation = g_object_ref (invocation);
  agent_desktop_peer_identify_async (connection, sender, NULL, identified, call);
}

static GVariant *
get_property (GDBusConnection  *connection,
              const char       *sender,
              const char       *object_path,
              const char       *interface_name,
              const char       *property_name,
              GError          **error,
              gpointer          user_data)
{
  if (g_str_equal (property_name, "Version"))
    return g_variant_new_uint32 (INTERFACE_VERSION);
  g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_PROPERTY,
               "No property %s", property_name);
  return NULL;
}

static const GDBusInterfaceVTable vtable = { method_call, get_property, NULL, { 0 } };

/* A caller left the bus: its conversations end, its consent agent goes,
 * it is no watcher any more */
static void
name_owner_changed (GDBusConnection *connection,
                    const char      *sender_name,
                    const char      *object_path,
                    const char      *interface_name,
                    const char      *signal_name,
                    GVariant        *parameters,
                    gpointer         user_data)
{
  AgentDesktopAssistant *self = user_data;
  const char *name;
  const char *old_owner;
  const char *new_owner;

  g_variant_get (parameters, "(&s&s&s)", &name, &old_owner, &new_owner);
  if (name[0] != ':' || new_owner[0] != '\0')
    return;
  close_conversations (self, name, NULL);
  agent_desktop_steps_cancel_all (self->steps, name, NULL);
  agent_desktop_consent_broker_remove_agent (self->consent, name, NULL);
  g_hash_table_remove (self->watchers, name);
}

gboolean
agent_desktop_assistant_export (AgentDesktopAssistant  *self,
                                GDBusConnection        *connection,
                                GError                **error)
{
  g_return_val_if_fail (self->connection == NULL, FALSE);

  self->connection = g_object_ref (connection);
  agent_desktop_consent_broker_set_connection (self->consent, connection);
  self->name_owner_changed_id =
    g_dbus_connection_signal_subscribe (connection, "org.freedesktop.DBus",
                                        "org.freedesktop.DBus", "NameOwnerChanged",
                                        "/org/freedesktop/DBus", NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                        name_owner_changed, self, NULL);
  self->registration_id =
    g_dbus_connection_register_object (connection, AGENT_DESKTOP_ASSISTANT_PATH,
                                       g_dbus_node_info_lookup_interface (self->node_info,
                                                                          INTERFACE_NAME),
                                       &vtable, self, NULL, error);
  return self->registration_id != 0;
}

void
agent_desktop_assistant_unexport (AgentDesktopAssistant *self)
{
  if (self->connection == NULL)
    return;
  close_conversations (self, NULL, NULL);
  g_clear_handle_id (&self->apps_changed_id, g_source_remove);
  g_hash_table_remove_all (self->watchers);
  if (self->registration_id != 0)
    g_dbus_connection_unregister_object (self->connection, self->registration_id);
  self->registration_id = 0;
  if (self->name_owner_changed_id != 0)
    g_dbus_connection_signal_unsubscribe (self->connection, self->name_owner_changed_id);
  self->name_owner_changed_id = 0;
  agent_desktop_consent_broker_set_connection (self->consent, NULL);
  g_clear_object (&self->connection);
}

void
agent_desktop_assistant_answer (AgentDesktopAssistant *self,
                                const char            *app_id,
                                gboolean               allowed)
{
  agent_desktop_consent_broker_answer (self->consent, app_id, allowed);
}

static void
agent_desktop_assistant_dispose (GObject *object)
{
  AgentDesktopAssistant *self = AGENT_DESKTOP_ASSISTANT (object);

  agent_desktop_assistant_unexport (self);
  g_clear_object (&self->consent);
  g_clear_object (&self->steps);
  g_clear_object (&self->apps);
  g_clear_object (&self->profiles);

  G_OBJECT_CLASS (agent_desktop_assistant_parent_class)->dispose (object);
}

static void
agent_desktop_assistant_finalize (GObject *object)
{
  AgentDesktopAssistant *self = AGENT_DESKTOP_ASSISTANT (object);

  g_clear_pointer (&self->conversations, g_hash_table_unref);
  g_clear_pointer (&self->watchers, g_hash_table_unref);
  g_clear_pointer (&self->node_info, g_dbus_node_info_unref);

  G_OBJECT_CLASS (agent_desktop_assistant_parent_class)->finalize (object);
}

static void
agent_desktop_assistant_class_init (AgentDesktopAssistantClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = agent_desktop_assistant_dispose;
  object_class->finalize = agent_desktop_assistant_finalize;
}

static void
agent_desktop_assistant_init (AgentDesktopAssistant *self)
{
  self->conversations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->watchers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

AgentDesktopAssistant *
agent_desktop_assistant_new (GApplication *application)
{
  AgentDesktopAssistant *self = g_object_new (AGENT_DESKTOP_TYPE_ASSISTANT, NULL);
  g_autoptr(GBytes) xml = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;

  self->application = application;
  xml = g_resources_lookup_data (INTERFACES_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  g_assert_no_error (error);
  self->node_info = g_dbus_node_info_new_for_xml (g_bytes_get_data (xml, NULL), &error);
  g_assert_no_error (error);

  self->profiles = agent_profile_list_new (NULL);
  if (!agent_profile_list_load (self->profiles, &error))
    g_warning ("%s", error->message);   /* no profile then, until the file is fixed */
  g_clear_error (&error);

  dir = g_build_filename (g_get_user_data_dir (), "libagent", "desktop-service", NULL);
  self->apps = agent_desktop_apps_new (dir);
  if (!agent_desktop_apps_load (self->apps, &error))
    g_warning ("%s", error->message);   /* nobody allowed then: every app is asked */
  g_signal_connect_object (self->apps, "changed", G_CALLBACK (apps_changed), self,
                           G_CONNECT_SWAPPED);
  self->consent = agent_desktop_consent_broker_new (application, self->apps);
  self->steps = agent_desktop_steps_new (application, self->apps, self->profiles);
  return self;
}
