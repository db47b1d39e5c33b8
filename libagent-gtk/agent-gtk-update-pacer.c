/* agent-gtk-update-pacer.c
 *
 * When a message row shows what changed in its message: at the next frame
 * (the frame clock's tick), and while text streams, at most every 30 ms.
 *
 * Each frame that shows a change costs the same whatever the change (the
 * Markdown of the last block, a layout of the window if a line came, the
 * paint of the chat area): a model writing 100 deltas a second drew a
 * frame at each of the display's 60, at 14 % of a core (bench-gui,
 * bench/RESULTS.md, issue 44). Text shown 30 to 33 times a second still
 * reads as continuous, and costs about half as many frames. So a change
 * of the text or the reasoning (_agent_gtk_update_pacer_queue_paced()) is
 * shown at the first frame at least the interval after the last update:
 * at once if the text was quiet for that long, after a wait of at most
 * the interval otherwise, the changes of the wait together. Anything else
 * (the answer done or stopped, a tool call, the row bound to another
 * message: _agent_gtk_update_pacer_queue()) is shown at the next frame,
 * with the text that waited, so the end of an answer is never late.
 *
 * The wait is a timeout, not a tick: the frame clock rests meanwhile, and
 * a window with nothing else to draw draws nothing.
 *
 * Workaround, GTK 4.8 (not measured on newer GTK): the update is made at
 * the frame's before-paint, not in a tick callback of the update phase,
 * GTK's way. A new widget or style class (a new block of the answer)
 * invalidates the window's style, and GTK 4.8 validates it in a tick
 * callback of the window that it adds then: added during the update
 * phase, it runs in the next frame, so each update that made a block cost
 * a second frame that painted nothing (about 23 a second at 100 deltas a
 * second, bench-gui). Made before the update phase, the style is
 * validated in the same frame. A row not realized yet has no frame clock:
 * a tick callback then, which runs once it has one.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "agent-gtk-config.h"

#include "agent-gtk-update-pacer-private.h"

static guint interval_ms = AGENT_GTK_UPDATE_PACER_INTERVAL;

static void
run_update (AgentGtkUpdatePacer *pacer)
{
  pacer->updated_at = g_get_monotonic_time ();
  pacer->update (pacer->widget);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  AgentGtkUpdatePacer *pacer = user_data;

  pacer->tick_id = 0;
  run_update (pacer);
  return G_SOURCE_REMOVE;
}

static void
stop_waiting_for_frame (AgentGtkUpdatePacer *pacer)
{
  if (pacer->clock != NULL)
    {
      g_clear_signal_handler (&pacer->before_paint_id, pacer->clock);
      g_clear_object (&pacer->clock);
    }
}

static void
on_before_paint (GdkFrameClock *clock,
                 gpointer       user_data)
{
  AgentGtkUpdatePacer *pacer = user_data;

  stop_waiting_for_frame (pacer);
  run_update (pacer);
}

static gboolean
on_timeout (gpointer user_data)
{
  AgentGtkUpdatePacer *pacer = user_data;

  pacer->timeout_id = 0;
  _agent_gtk_update_pacer_queue (pacer);
  return G_SOURCE_REMOVE;
}

void
_agent_gtk_update_pacer_init (AgentGtkUpdatePacer     *pacer,
                              GtkWidget               *widget,
                              AgentGtkUpdatePacerFunc  update)
{
  /* Never updated: the first change is shown at the next frame */
  *pacer = (AgentGtkUpdatePacer) { .widget = widget, .update = update,
                                   .updated_at = G_MININT64 / 2 };
}

/* Updates at the next frame */
void
_agent_gtk_update_pacer_queue (AgentGtkUpdatePacer *pacer)
{
  GdkFrameClock *clock;

  g_clear_handle_id (&pacer->timeout_id, g_source_remove);
  if (pacer->tick_id != 0 || pacer->clock != NULL)
    return;
  clock = gtk_widget_get_frame_clock (pacer->widget);
  if (clock == NULL)
    {
      pacer->tick_id = gtk_widget_add_tick_callback (pacer->widget, on_tick, pacer, NULL);
      return;
    }
  pacer->clock = g_object_ref (clock);
  pacer->before_paint_id = g_signal_connect (clock, "before-paint",
                                             G_CALLBACK (on_before_paint), pacer);
  /* Any phase asked for makes a frame, which begins with before-paint */
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_UPDATE);
}

/* Updates at the first frame at least the interval after the last update */
void
_agent_gtk_update_pacer_queue_paced (AgentGtkUpdatePacer *pacer)
{
  gint64 due;
  gint64 now;

  if (pacer->tick_id != 0 || pacer->clock != NULL || pacer->timeout_id != 0)
    return;
  due = pacer->updated_at + interval_ms * (gint64) 1000;
  now = g_get_monotonic_time ();
  if (interval_ms == 0 || now >= due)
    {
      _agent_gtk_update_pacer_queue (pacer);
      return;
    }
  pacer->timeout_id = g_timeout_add ((guint) ((due - now + 999) / 1000), on_timeout, pacer);
}

void
_agent_gtk_update_pacer_cancel (AgentGtkUpdatePacer *pacer)
{
  g_clear_handle_id (&pacer->timeout_id, g_source_remove);
  stop_waiting_for_frame (pacer);
  if (pacer->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (pacer->widget, pacer->tick_id);
      pacer->tick_id = 0;
    }
}

/* Updates now if an update waits; returns whether one did */
gboolean
_agent_gtk_update_pacer_flush (AgentGtkUpdatePacer *pacer)
{
  if (pacer->tick_id == 0 && pacer->clock == NULL && pacer->timeout_id == 0)
    return FALSE;
  _agent_gtk_update_pacer_cancel (pacer);
  run_update (pacer);
  return TRUE;
}

guint
_agent_gtk_update_pacer_get_interval (void)
{
  return interval_ms;
}

/* The interval of every row's text, in ms (0: every frame): for
 * benchmarks, which compare the two */
void
_agent_gtk_update_pacer_set_interval (guint ms)
{
  interval_ms = ms;
}
