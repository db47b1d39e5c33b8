/* agent-gtk-tool-card.c
 *
 * One tool call as a card: the tool's name, its arguments as fields (one
 * row per member of the object, growing as they stream; pretty JSON at the
 * JSON toggle, or when they are no object), a spinner and the elapsed time
 * while it runs, its progress when the tool reports some, and its result
 * or error in a collapsible section — or "Denied".
 *
 * The card shows as soon as the call starts streaming, with the tool's
 * name and "Writing arguments…"; the arguments themselves show while they
 * stream only when show-chunks is set (the Show Tool-Call Chunks toggle),
 * otherwise once they are whole. Streaming, they are read by a tolerant
 * partial reader (AgentGtkArgumentFields), so that a string shows as it
 * grows and the fields never jump to something else once the call is whole.
 *
 * What the card shows of a call is drawn in parts — the header (name,
 * status, spinner), the progress, the arguments, the result — each by its
 * own update_*() from the call: a new kind of result (structured output,
 * an image) is one more part, shown instead of the plain result.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "agent-gtk-argument-fields-private.h"
#include "agent-gtk-private.h"
#include "agent-gtk-tool-card-private.h"

/**
 * AgentGtkToolCard:
 *
 * A tool call as a card: the tool's name, its arguments as readable fields
 * (as they stream, with [property@AgentGtk.ToolCard:show-chunks]; as JSON
 * at the card's JSON toggle), its result or error, and how long it ran.
 *
 * Since: 0.1
 */
struct _AgentGtkToolCard
{
  GtkWidget      parent_instance;

  GtkWidget     *box;
  GtkWidget     *name_label;
  GtkWidget     *spinner;
  GtkWidget     *status_label;
  GtkWidget     *raw_button;
  GtkWidget     *progress_bar;
  GtkWidget     *fields;
  GtkWidget     *arguments_label;
  GtkWidget     *result_expander;
  GtkWidget     *result_label;

  AgentToolCall *tool_call;
  GSignalGroup  *signals;
  gint64         started;           /* monotonic time the tool started running */
  guint          timer_id;
  guint          arguments_tick_id;
  guint          show_chunks : 1;
};

enum {
  PROP_0,
  PROP_TOOL_CALL,
  PROP_SHOW_CHUNKS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (AgentGtkToolCard, agent_gtk_tool_card, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

/* @json indented, or a copy of @json when it is not (yet) valid JSON or
 * nests deeper than AGENT_JSON_MAX_DEPTH */
char *
_agent_gtk_pretty_json (const char *json)
{
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(JsonNode) root = NULL;

  if (json == NULL || *json == '\0')
    return g_strdup ("");
  if (!(root = agent_json_parse (json, -1, NULL)))
    return g_strdup (json);

  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

static void
update_visibility (AgentGtkToolCard *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self), self->tool_call != NULL);
}

/* The arguments part: as fields while they read as an object (once whole,
 * the JSON toggle shows them as JSON instead), otherwise as the text the
 * model wrote (pretty once whole). Streaming, only with show-chunks; the
 * JSON toggle calls it too. */
static void
update_arguments (AgentGtkToolCard *self)
{
  const char *arguments;
  gboolean streaming, shown, fields = FALSE, raw;
  g_autofree char *text = NULL;

  if (self->tool_call == NULL)
    return;
  arguments = agent_tool_call_get_arguments (self->tool_call);
  streaming = agent_tool_call_get_state (self->tool_call) == AGENT_TOOL_CALL_STATE_STREAMING;
  shown = !streaming || self->show_chunks;
  if (shown)
    fields = agent_gtk_argument_fields_set_text (AGENT_GTK_ARGUMENT_FIELDS (self->fields),
                                                 arguments, !streaming) &&
             agent_gtk_argument_fields_get_n_fields (AGENT_GTK_ARGUMENT_FIELDS (self->fields)) > 0;
  raw = !fields || gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->raw_button));
  if (shown && raw)
    text = streaming ? g_strdup (arguments) : _agent_gtk_pretty_json (arguments);

  /* Not while they stream: the header is narrow enough with the status */
  gtk_widget_set_visible (self->raw_button, fields && !streaming);
  gtk_widget_set_visible (self->fields, fields && !raw);
  gtk_label_set_text (GTK_LABEL (self->arguments_label), text ? text : "");
  gtk_widget_set_visible (self->arguments_label, text != NULL && *text != '\0');
}

static gboolean
arguments_tick (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  AgentGtkToolCard *self = AGENT_GTK_TOOL_CARD (widget);

  self->arguments_tick_id = 0;
  update_arguments (self);
  return G_SOURCE_REMOVE;
}

/* Arguments grow a fragment at a time: lay them out once per frame. */
static void
on_arguments_changed (AgentGtkToolCard *self)
{
  if (self->arguments_tick_id == 0)
    self->arguments_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), arguments_tick,
                                                            NULL, NULL);
}

static char *
format_seconds (gint64 usec)
{
  return g_strdup_printf (_("%.1f s"), usec / (double) G_USEC_PER_SEC);
}

static gboolean
on_timer (gpointer user_data)
{
  AgentGtkToolCard *self = user_data;
  g_autofree char *elapsed = format_seconds (g_get_monotonic_time () - self->started);

  gtk_label_set_text (GTK_LABEL (self->status_label), elapsed);
  return G_SOURCE_CONTINUE;
}

static void
update_progress (AgentGtkToolCard *self)
{
  double progress;
  const char *text;
  gboolean running;

  if (self->tool_call == NULL)
    return;
  progress = agent_tool_call_get_progress (self->tool_call);
  text = agent_tool_call_get_progress_text (self->tool_call);
  running = agent_tool_call_get_state (self->tool_call) == AGENT_TOOL_CALL_STATE_RUNNING;

  gtk_widget_set_visible (self->progress_bar, running && (progress >= 0 || text != NULL));
  if (progress >= 0)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), progress);
  else
    gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->progress_bar));
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), text);
}

static void update_result (AgentGtkToolCard *self);

/* The header: what the call is at, with a spinner while it is written or
 * runs; then every other part */
static void
update_state (AgentGtkToolCard *self)
{
  AgentToolCallState state;
  const char *status = "";
  gint64 duration;
  g_autofree char *done = NULL;

  if (self->tool_call == NULL)
    return;

  state = agent_tool_call_get_state (self->tool_call);
  duration = agent_tool_call_get_duration (self->tool_call);

  if (state == AGENT_TOOL_CALL_STATE_RUNNING && self->timer_id == 0)
    {
      self->started = g_get_monotonic_time ();
      self->timer_id = g_timeout_add (100, on_timer, self);
    }
  else if (state != AGENT_TOOL_CALL_STATE_RUNNING)
    g_clear_handle_id (&self->timer_id, g_source_remove);

  switch (state)
    {
    case AGENT_TOOL_CALL_STATE_STREAMING:
      status = _("Writing arguments…");
      break;
    case AGENT_TOOL_CALL_STATE_READY:
      status = _("Ready");
      break;
    case AGENT_TOOL_CALL_STATE_AWAITING_APPROVAL:
      status = _("Waiting for approval");
      break;
    case AGENT_TOOL_CALL_STATE_RUNNING:
      status = NULL;
      on_timer (self);
      break;
    case AGENT_TOOL_CALL_STATE_SUCCEEDED:
      status = done = duration >= 0 ? format_seconds (duration) : g_strdup (_("Done"));
      break;
    case AGENT_TOOL_CALL_STATE_FAILED:
      status = _("Failed");
      break;
    case AGENT_TOOL_CALL_STATE_CANCELLED:
      status = _("Stopped");
      break;
    case AGENT_TOOL_CALL_STATE_DENIED:
      status = _("Denied");
      break;
    default:
      break;
    }
  if (status != NULL)
    gtk_label_set_text (GTK_LABEL (self->status_label), status);

  gtk_widget_set_visible (self->spinner, state == AGENT_TOOL_CALL_STATE_STREAMING ||
                                         state == AGENT_TOOL_CALL_STATE_RUNNING);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), gtk_widget_get_visible (self->spinner));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, status ? status : "", -1);

  if (state == AGENT_TOOL_CALL_STATE_FAILED)
    gtk_widget_add_css_class (self->box, "error");
  else
    gtk_widget_remove_css_class (self->box, "error");
  if (state == AGENT_TOOL_CALL_STATE_DENIED)
    gtk_widget_add_css_class (self->box, "warning");
  else
    gtk_widget_remove_css_class (self->box, "warning");

  update_result (self);
  update_progress (self);
  update_arguments (self);
  update_visibility (self);
}

/* The result part: the call's result (or error, or why it was denied),
 * collapsed, once it finished */
static void
update_result (AgentGtkToolCard *self)
{
  AgentToolCallState state = agent_tool_call_get_state (self->tool_call);
  const char *result = agent_tool_call_get_result (self->tool_call);
  const char *expander_label;
  gboolean finished;

  finished = state >= AGENT_TOOL_CALL_STATE_SUCCEEDED && result != NULL;
  gtk_widget_set_visible (self->result_expander, finished);
  gtk_label_set_text (GTK_LABEL (self->result_label), result ? result : "");
  expander_label = state == AGENT_TOOL_CALL_STATE_SUCCEEDED ? _("Result")
                   : state == AGENT_TOOL_CALL_STATE_DENIED ? _("Reason")
                   : _("Error");
  gtk_expander_set_label (GTK_EXPANDER (self->result_expander), expander_label);
  /* GTK 4.8 names an expander after its type: name it after its label,
   * and let it say what it hides */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->result_expander),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, expander_label,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, result ? result : "",
                                  -1);
}

static void
on_name_changed (AgentGtkToolCard *self)
{
  const char *name = self->tool_call ? agent_tool_call_get_name (self->tool_call) : NULL;
  /* Translators: how a screen reader names a tool call's card */
  g_autofree char *label = g_strdup_printf (_("Tool call: %s"), name ? name : "");

  gtk_label_set_text (GTK_LABEL (self->name_label), name ? name : _("Tool"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static void
agent_gtk_tool_card_dispose (GObject *object)
{
  AgentGtkToolCard *self = AGENT_GTK_TOOL_CARD (object);

  agent_gtk_tool_card_set_tool_call (self, NULL);
  g_clear_object (&self->signals);
  gtk_widget_dispose_template (GTK_WIDGET (self), AGENT_GTK_TYPE_TOOL_CARD);

  G_OBJECT_CLASS (agent_gtk_tool_card_parent_class)->dispose (object);
}

static void
agent_gtk_tool_card_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AgentGtkToolCard *self = AGENT_GTK_TOOL_CARD (object);

  switch (prop_id)
    {
    case PROP_TOOL_CALL:
      g_value_set_object (value, self->tool_call);
      break;
    case PROP_SHOW_CHUNKS:
      g_value_set_boolean (value, self->show_chunks);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_tool_card_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  AgentGtkToolCard *self = AGENT_GTK_TOOL_CARD (object);

  switch (prop_id)
    {
    case PROP_TOOL_CALL:
      agent_gtk_tool_card_set_tool_call (self, g_value_get_object (value));
      break;
    case PROP_SHOW_CHUNKS:
      agent_gtk_tool_card_set_show_chunks (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
agent_gtk_tool_card_class_init (AgentGtkToolCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  g_type_ensure (AGENT_GTK_TYPE_ARGUMENT_FIELDS);

  object_class->dispose = agent_gtk_tool_card_dispose;
  object_class->get_property = agent_gtk_tool_card_get_property;
  object_class->set_property = agent_gtk_tool_card_set_property;

  /**
   * AgentGtkToolCard:tool-call:
   *
   * The call the card shows, followed as it streams, waits for approval,
   * runs and finishes.
   *
   * Since: 0.1
   */
  properties[PROP_TOOL_CALL] =
    g_param_spec_object ("tool-call", NULL, NULL, AGENT_TYPE_TOOL_CALL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * AgentGtkToolCard:show-chunks:
   *
   * Whether the arguments show while the model writes them, fragment by
   * fragment (an object as fields, a string in it as far as it came);
   * otherwise they show once whole, and the card says meanwhile that they
   * are being written.
   *
   * Since: 0.1
   */
  properties[PROP_SHOW_CHUNKS] =
    g_param_spec_boolean ("show-chunks", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libagent/Gtk/agent-gtk-tool-card.ui");
  gtk_widget_class_bind_template_child (widget_class, AgentGtkToolCard, box);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkToolCard, name_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkToolCard, spinner);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkToolCard, status_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkToolCard, raw_button);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkToolCard, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkToolCard, fields);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkToolCard, arguments_label);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkToolCard, result_expander);
  gtk_widget_class_bind_template_child (widget_class, AgentGtkToolCard, result_label);
  gtk_widget_class_bind_template_callback (widget_class, update_arguments);
  gtk_widget_class_set_css_name (widget_class, "toolcard");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
agent_gtk_tool_card_init (AgentGtkToolCard *self)
{
  AGENT_GTK_INSTANCE_INIT ();
  gtk_widget_init_template (GTK_WIDGET (self));
  _agent_gtk_label_bound_minimum (GTK_LABEL (self->arguments_label));
  _agent_gtk_label_bound_minimum (GTK_LABEL (self->result_label));

  self->signals = g_signal_group_new (AGENT_TYPE_TOOL_CALL);
  g_signal_group_connect_swapped (self->signals, "notify::state", G_CALLBACK (update_state), self);
  g_signal_group_connect_swapped (self->signals, "notify::result", G_CALLBACK (update_state), self);
  g_signal_group_connect_swapped (self->signals, "notify::name", G_CALLBACK (on_name_changed), self);
  g_signal_group_connect_swapped (self->signals, "notify::arguments",
                                  G_CALLBACK (on_arguments_changed), self);
  g_signal_group_connect_swapped (self->signals, "notify::progress",
                                  G_CALLBACK (update_progress), self);
  g_signal_group_connect_swapped (self->signals, "notify::progress-text",
                                  G_CALLBACK (update_progress), self);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

/**
 * agent_gtk_tool_card_new:
 *
 * Creates a card that shows a tool call; the chat view makes one for each
 * call of an answer.
 *
 * Returns: (transfer floating): a new tool card
 *
 * Since: 0.1
 */
GtkWidget *
agent_gtk_tool_card_new (void)
{
  return g_object_new (AGENT_GTK_TYPE_TOOL_CARD, NULL);
}

/**
 * agent_gtk_tool_card_get_tool_call:
 * @self: a tool card
 *
 * Gets the call the card shows.
 *
 * Returns: (transfer none) (nullable): the call
 *
 * Since: 0.1
 */
AgentToolCall *
agent_gtk_tool_card_get_tool_call (AgentGtkToolCard *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_TOOL_CARD (self), NULL);
  return self->tool_call;
}

/**
 * agent_gtk_tool_card_set_tool_call:
 * @self: a tool card
 * @tool_call: (nullable): the call to show
 *
 * Shows @tool_call, and stops following the call shown before. Without a
 * call, the card hides.
 *
 * Since: 0.1
 */
void
agent_gtk_tool_card_set_tool_call (AgentGtkToolCard *self,
                                    AgentToolCall     *tool_call)
{
  g_return_if_fail (AGENT_GTK_IS_TOOL_CARD (self));

  if (self->tool_call == tool_call)
    return;

  g_clear_handle_id (&self->timer_id, g_source_remove);
  if (self->arguments_tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->arguments_tick_id);
      self->arguments_tick_id = 0;
    }
  agent_gtk_argument_fields_reset (AGENT_GTK_ARGUMENT_FIELDS (self->fields));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->raw_button), FALSE);
  g_set_object (&self->tool_call, tool_call);
  if (self->signals != NULL)
    g_signal_group_set_target (self->signals, tool_call);

  if (tool_call != NULL)
    {
      on_name_changed (self);
      update_state (self);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self), FALSE);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL_CALL]);
}

/**
 * agent_gtk_tool_card_get_show_chunks:
 * @self: a tool card
 *
 * Gets whether the arguments show while they are written.
 *
 * Returns: whether the arguments show fragment by fragment
 *
 * Since: 0.1
 */
gboolean
agent_gtk_tool_card_get_show_chunks (AgentGtkToolCard *self)
{
  g_return_val_if_fail (AGENT_GTK_IS_TOOL_CARD (self), FALSE);
  return self->show_chunks;
}

/**
 * agent_gtk_tool_card_set_show_chunks:
 * @self: a tool card
 * @show_chunks: whether to show the arguments while they are written
 *
 * Sets [property@AgentGtk.ToolCard:show-chunks]. It acts at once, on a
 * call being written too.
 *
 * Since: 0.1
 */
void
agent_gtk_tool_card_set_show_chunks (AgentGtkToolCard *self,
                                      gboolean           show_chunks)
{
  g_return_if_fail (AGENT_GTK_IS_TOOL_CARD (self));

  show_chunks = !!show_chunks;
  if (self->show_chunks == show_chunks)
    return;
  self->show_chunks = show_chunks;
  update_arguments (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_CHUNKS]);
}
