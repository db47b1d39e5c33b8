/* agent-chat-first-run.c
 *
 * The first run: with no server yet (no profiles, nor a server in the
 * settings to carry over), the empty chat offers servers to start with, one
 * click each:
 *
 * - libagent's demo server, when agent-demo-server is there
 *   ($AGENT_DEMO_SERVER, the PATH, or next to agent-chat): the app starts it
 *   (with --exit-on-stdin-eof, so that it leaves with the app) and adds a
 *   "Demo Server" profile on its address;
 * - a local Ollama, when one answers at http://127.0.0.1:11434 (or
 *   $AGENT_CHAT_OLLAMA_URL) within PROBE_TIMEOUT_MS: an "Ollama" profile,
 *   with the first of its models;
 * - Add a Server…, which opens Preferences with a new server to fill in.
 *
 * It shows while the profiles are empty, and goes once one is added.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "agent-chat-demo.h"
#include "agent-chat-first-run.h"
#include "agent-chat-names.h"
#include "agent-chat-profiles.h"

#define PROBE_TIMEOUT_MS 2000
#define OLLAMA_URL "http://127.0.0.1:11434"

struct _AgentChatFirstRun
{
  GtkBox            parent_instance;

  AdwActionRow     *demo_row;
  GtkWidget        *demo_button;
  AdwActionRow     *ollama_row;
  GtkWidget        *ollama_button;

  AgentProfileList *profiles;
  GCancellable     *cancellable;
  guint             probe_timeout_id;
  char             *ollama_model;  /* the first model of the Ollama found */
  gboolean          server_given;  /* the window's server came from the command line */
};

G_DEFINE_FINAL_TYPE (AgentChatFirstRun, agent_chat_first_run, GTK_TYPE_BOX)

/**
 * agent_chat_first_run_dup_ollama_url:
 *
 * Returns: (transfer full): where a local Ollama would answer
 */
char *
agent_chat_first_run_dup_ollama_url (void)
{
  const char *url = g_getenv ("AGENT_CHAT_OLLAMA_URL");

  return g_strdup (url != NULL && *url != '\0' ? url : OLLAMA_URL);
}

static void
say (AgentChatFirstRun *self,
     const char        *text)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (root != NULL)
    gtk_widget_activate_action (GTK_WIDGET (root), "win.toast", "s", text);
}

static void
add_profile (AgentChatFirstRun *self,
             const char        *name,
             const char        *provider,
             const char        *base_url,
             const char        *model)
{
  g_autoptr(GError) error = NULL;

  if (agent_chat_profiles_add (self->profiles, name, provider, base_url, model, &error) == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The server could not be added: %s"),
                                               error->message);

      say (self, text);
    }
}

/* Ollama */

static void
on_ollama_listed (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AgentChatFirstRun) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = agent_provider_list_models_finish (AGENT_PROVIDER (object), result,
                                                           &error);
  g_autofree char *subtitle = NULL;
  g_autofree char *url = NULL;

  g_clear_handle_id (&self->probe_timeout_id, g_source_remove);
  if (models == NULL)
    {
      /* None here: nothing to offer */
      gtk_widget_set_visible (GTK_WIDGET (self->ollama_row), FALSE);
      return;
    }
  url = agent_chat_first_run_dup_ollama_url ();
  g_free (self->ollama_model);
  self->ollama_model = g_strdup (models[0]);
  subtitle = g_strdup_printf (g_dngettext (AGENT_CHAT_GETTEXT_PACKAGE,
                                           /* Translators: %u models at an address */
                                           "%u model at %s", "%u models at %s",
                                           g_strv_length (models)),
                              g_strv_length (models), url);
  adw_action_row_set_subtitle (self->ollama_row, subtitle);
  gtk_widget_set_sensitive (self->ollama_button, TRUE);
}

static gboolean
on_probe_timeout (gpointer user_data)
{
  AgentChatFirstRun *self = user_data;

  self->probe_timeout_id = 0;
  g_cancellable_cancel (self->cancellable);
  return G_SOURCE_REMOVE;
}

static void
probe_ollama (AgentChatFirstRun *self)
{
  g_autoptr(AgentProvider) provider = agent_provider_new ("ollama", NULL);
  g_autofree char *url = agent_chat_first_run_dup_ollama_url ();

  if (provider == NULL)
    return;
  agent_provider_set_base_url (provider, url);
  self->probe_timeout_id = g_timeout_add (PROBE_TIMEOUT_MS, on_probe_timeout, self);
  agent_provider_list_models_async (provider, self->cancellable, on_ollama_listed,
                                    g_object_ref (self));
}

static void
on_ollama_clicked (AgentChatFirstRun *self)
{
  g_autofree char *url = agent_chat_first_run_dup_ollama_url ();

  add_profile (self, agent_chat_provider_title ("ollama"), "ollama", url, self->ollama_model);
}

/* The demo server */

static void
on_demo_url (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(AgentChatFirstRun) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = agent_chat_demo_start_finish (result, &error);

  gtk_widget_set_sensitive (self->demo_button, TRUE);
  if (url == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The demo server did not start: %s"),
                                               error->message);

      say (self, text);
      return;
    }
  /* Known as the demo server's by its provider, model and loopback
   * address (agent-chat-demo.c): started again at the next start */
  add_profile (self, _("Demo Server"), "openai", url, "demo");
}

static void
on_demo_clicked (AgentChatFirstRun *self)
{
  gtk_widget_set_sensitive (self->demo_button, FALSE);
  agent_chat_demo_start_async (NULL, on_demo_url, g_object_ref (self));
}

/* Shown while there is no server, unless the command line gave one (./run
 * does: the demo server, already talking) */
static void
update (AgentChatFirstRun *self)
{
  gboolean empty = self->profiles != NULL && !self->server_given &&
                   g_list_model_get_n_items (G_LIST_MODEL (self->profiles)) == 0;

  if (empty && !gtk_widget_get_visible (GTK_WIDGET (self)) && self->probe_timeout_id == 0 &&
      self->ollama_model == NULL)
    probe_ollama (self);
  gtk_widget_set_visible (GTK_WIDGET (self), empty);
}

/**
 * agent_chat_first_run_set_profiles:
 * @self: a #AgentChatFirstRun
 * @profiles: the app's profiles
 *
 * Shows the choices while @profiles is empty.
 */
void
agent_chat_first_run_set_profiles (AgentChatFirstRun *self,
                                   AgentProfileList  *profiles)
{
  g_autofree char *demo = agent_chat_demo_dup_program ();

  g_return_if_fail (AGENT_CHAT_IS_FIRST_RUN (self));
  g_return_if_fail (AGENT_IS_PROFILE_LIST (profiles));

  g_set_object (&self->profiles, profiles);
  gtk_widget_set_visible (GTK_WIDGET (self->demo_row), demo != NULL);
  g_signal_connect_object (profiles, "items-changed", G_CALLBACK (update), self,
                           G_CONNECT_SWAPPED);
  update (self);
}

/**
 * agent_chat_first_run_set_server_given:
 * @self: a #AgentChatFirstRun
 * @server_given: whether the window's server came from the command line
 *
 * A window opened with --provider, --base-url or --model already has a
 * server: it offers none.
 */
void
agent_chat_first_run_set_server_given (AgentChatFirstRun *self,
                                       gboolean           server_given)
{
  g_return_if_fail (AGENT_CHAT_IS_FIRST_RUN (self));

  self->server_given = !!server_given;
  update (self);
}

static void
agent_chat_first_run_dispose (GObject *object)
{
  AgentChatFirstRun *self = AGENT_CHAT_FIRST_RUN (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->probe_timeout_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_CHAT_TYPE_FIRST_RUN);
  g_clear_object (&self->profiles);

  G_OBJECT_CLASS (agent_chat_first_run_parent_class)->dispose (object);
}

static void
agent_chat_first_run_finalize (GObject *object)
{
  AgentChatFirstRun *self = AGENT_CHAT_FIRST_RUN (object);

  g_clear_object (&self->cancellable);
  g_free (self->ollama_model);

  G_OBJECT_CLASS (agent_chat_first_run_parent_class)->finalize (object);
}

static void
agent_chat_first_run_class_init (AgentChatFirstRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = agent_chat_first_run_dispose;
  object_class->finalize = agent_chat_first_run_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Chat/agent-chat-first-run.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentChatFirstRun, demo_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatFirstRun, demo_button);
  gtk_widget_class_bind_template_child (widget_class, AgentChatFirstRun, ollama_row);
  gtk_widget_class_bind_template_child (widget_class, AgentChatFirstRun, ollama_button);
  gtk_widget_class_bind_template_callback (widget_class, on_demo_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_ollama_clicked);
}

static void
agent_chat_first_run_init (AgentChatFirstRun *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}
