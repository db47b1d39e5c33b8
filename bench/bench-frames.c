/* bench-frames.c — a window's frame times
 *
 * How long each frame's work took, from the GdkFrameClock's before-paint to
 * its after-paint (the tick callbacks, layout, paint), with its phases, and
 * the intervals between frames (GdkFrameTimings).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>

#include "bench-frames.h"
#include "bench-util.h"

static void
on_before_paint (GdkFrameClock *clock,
                 BenchFrames   *self)
{
  self->frame_start = g_get_monotonic_time ();
  for (int i = 0; i < 3; i++)
    self->phase_end[i] = 0;
}

/* The ends of the phases that ran: each is connected after GTK's handlers.
 * A phase runs only when asked for: a frame that only draws (a queued draw,
 * no resize) has no layout, and one whose ticks changed nothing no paint. */
static void
on_update_done (GdkFrameClock *clock,
                BenchFrames   *self)
{
  self->phase_end[0] = g_get_monotonic_time ();
}

static void
on_layout_done (GdkFrameClock *clock,
                BenchFrames   *self)
{
  self->phase_end[1] = g_get_monotonic_time ();
}

static void
on_paint_done (GdkFrameClock *clock,
               BenchFrames   *self)
{
  self->phase_end[2] = g_get_monotonic_time ();
}

static void
on_after_paint (GdkFrameClock *clock,
                BenchFrames   *self)
{
  GdkFrameTimings *timings = gdk_frame_clock_get_timings (clock, gdk_frame_clock_get_frame_counter (clock));
  gint64 now = g_get_monotonic_time ();
  gint64 start;
  BenchFrame frame;

  self->drawn_at = now;
  if (self->gate != NULL && !self->gate (self, self->gate_data))
    return;
  if (!self->recording || self->frame_start == 0)
    return;
  frame.at = (self->frame_start - self->recorded_at) / 1000.0;
  frame.clock = self->frame_start / 1000.0;
  frame.work = (now - self->frame_start) / 1000.0;
  g_array_append_val (self->work, frame.work);
  /* Each phase that ran, from the end of the one before it that ran */
  start = self->frame_start;
  for (int i = 0; i < 3; i++)
    {
      frame.phases[i] = -1;
      if (self->phase_end[i] == 0)
        continue;
      frame.phases[i] = (self->phase_end[i] - start) / 1000.0;
      g_array_append_val (self->phases[i], frame.phases[i]);
      start = self->phase_end[i];
    }
  if (frame.phases[2] < 0)
    {
      self->n_unpainted++;
      self->unpainted_work += frame.work;
      if (frame.phases[1] >= 0)
        self->n_unpainted_laid_out++;
    }
  g_array_append_val (self->frames, frame);
  if (timings != NULL)
    {
      gint64 frame_time = gdk_frame_timings_get_frame_time (timings);

      if (self->last_frame_time != 0)
        g_array_append_val (self->intervals,
                            (double) { (frame_time - self->last_frame_time) / 1000.0 });
      self->last_frame_time = frame_time;
    }
}

BenchFrames *
bench_frames_new (GdkFrameClock *clock)
{
  BenchFrames *self = g_new0 (BenchFrames, 1);

  self->work = g_array_new (FALSE, FALSE, sizeof (double));
  for (int i = 0; i < 3; i++)
    self->phases[i] = g_array_new (FALSE, FALSE, sizeof (double));
  self->intervals = g_array_new (FALSE, FALSE, sizeof (double));
  self->frames = g_array_new (FALSE, FALSE, sizeof (BenchFrame));
  /* A phase starts at before-paint (for update: the tick callbacks) or when
   * the phase before it that ran ended */
  g_signal_connect (clock, "before-paint", G_CALLBACK (on_before_paint), self);
  g_signal_connect_after (clock, "update", G_CALLBACK (on_update_done), self);
  g_signal_connect_after (clock, "layout", G_CALLBACK (on_layout_done), self);
  g_signal_connect_after (clock, "paint", G_CALLBACK (on_paint_done), self);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), self);
  return self;
}

void
bench_frames_free (BenchFrames *self)
{
  g_array_unref (self->work);
  for (int i = 0; i < 3; i++)
    g_array_unref (self->phases[i]);
  g_array_unref (self->intervals);
  g_array_unref (self->frames);
  g_free (self);
}

void
bench_frames_record (BenchFrames *self)
{
  self->recording = TRUE;
  self->recorded_at = g_get_monotonic_time ();
}

void
bench_frames_clear (BenchFrames *self)
{
  g_array_set_size (self->work, 0);
  for (int i = 0; i < 3; i++)
    g_array_set_size (self->phases[i], 0);
  g_array_set_size (self->intervals, 0);
  g_array_set_size (self->frames, 0);
  self->last_frame_time = 0;
  self->frame_start = 0;
  self->n_unpainted = 0;
  self->n_unpainted_laid_out = 0;
  self->unpainted_work = 0;
  self->recorded_at = 0;
  self->recording = FALSE;
}

static void
print_times (const char *what,
             GArray     *values)
{
  const double *v = (const double *) values->data;

  printf ("%-28s frames %5u  p50 %6.2f ms  p90 %6.2f ms  p99 %6.2f ms  max %6.2f ms\n", what,
          values->len, bench_percentile (v, values->len, 50), bench_percentile (v, values->len, 90),
          bench_percentile (v, values->len, 99), bench_max (v, values->len));
}

static int
compare_work (gconstpointer a,
              gconstpointer b)
{
  const BenchFrame *fa = a;
  const BenchFrame *fb = b;

  return (fa->work < fb->work) - (fa->work > fb->work);
}

/* The slowest frames: when they came, and which phase took their time */
static void
print_slowest (BenchFrames *self)
{
  g_autoptr(GArray) sorted = g_array_copy (self->frames);

  g_array_sort (sorted, compare_work);
  printf ("slowest frames (ms since the first recorded, work = update + layout + paint):\n");
  for (guint i = 0; i < MIN (sorted->len, 5); i++)
    {
      const BenchFrame *f = &g_array_index (sorted, BenchFrame, i);

      printf ("  at %7.1f ms  %6.2f = %5.2f + %5.2f + %5.2f  (monotonic %.1f ms)\n", f->at, f->work,
              MAX (f->phases[0], 0), MAX (f->phases[1], 0), MAX (f->phases[2], 0), f->clock);
    }
}

void
bench_frames_print (BenchFrames *self,
                    gboolean     verbose)
{
  print_times ("frame work (whole frame)", self->work);
  print_times ("  update (ticks, styles)", self->phases[0]);
  print_times ("  layout", self->phases[1]);
  print_times ("  paint (snapshot, render)", self->phases[2]);
  printf ("frames that painted nothing: %u, of them laid out: %u, work %.3f ms a frame\n",
          self->n_unpainted, self->n_unpainted_laid_out,
          self->n_unpainted > 0 ? self->unpainted_work / self->n_unpainted : 0.0);
  print_times ("frame interval (timings)", self->intervals);
  if (verbose)
    print_slowest (self);
}

guint
bench_frames_count_late (BenchFrames *self,
                         double       period_ms,
                         double       factor)
{
  guint late = 0;

  for (guint i = 0; i < self->intervals->len; i++)
    if (g_array_index (self->intervals, double, i) > factor * period_ms)
      late++;
  return late;
}

void
bench_frames_wait_drawn (BenchFrames *self,
                         GtkWidget   *widget)
{
  gint64 start = g_get_monotonic_time ();

  gtk_widget_queue_draw (widget);
  while (self->drawn_at <= start)
    g_main_context_iteration (NULL, TRUE);
}

void
bench_frames_print_cursor_blink (const char *what)
{
  gboolean blink;
  int timeout;

  g_object_get (gtk_settings_get_default (), "gtk-cursor-blink", &blink,
                "gtk-cursor-blink-timeout", &timeout, NULL);
  if (blink)
    printf ("the %s's cursor blinks for %d s after the last key "
            "(--no-cursor-blink: not at all)\n", what, timeout);
  else
    printf ("the %s's cursor does not blink\n", what);
}
