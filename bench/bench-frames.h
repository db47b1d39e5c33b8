/* bench-frames.h — a window's frame times, as bench-gui and bench-scroll
 * measure them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct
{
  double at;         /* ms since recording began */
  double clock;      /* its start on CLOCK_MONOTONIC, in ms (for perf -k CLOCK_MONOTONIC) */
  double work;
  double phases[3];  /* update, layout, paint; -1: the frame had no such phase */
} BenchFrame;

typedef struct _BenchFrames BenchFrames;

/* Called at each frame's end, before it is recorded: returns whether it is
 * (and may start recording, bench_frames_record()) */
typedef gboolean (*BenchFramesGate) (BenchFrames *frames,
                                     gpointer     user_data);

struct _BenchFrames
{
  GArray  *work;       /* ms per frame, before-paint → after-paint */
  GArray  *phases[3];  /* the same, per phase that ran: update, layout, paint */
  GArray  *intervals;  /* ms between frames, from GdkFrameTimings */
  GArray  *frames;     /* of BenchFrame */
  gint64   phase_end[3];  /* this frame's: update, layout, paint; 0 if it did not run */
  guint    n_unpainted;   /* frames recorded without a paint phase */
  guint    n_unpainted_laid_out;  /* of them, with a layout phase */
  double   unpainted_work;        /* their work, ms */
  gint64   frame_start;
  gint64   last_frame_time;
  gint64   drawn_at;     /* the end of the last frame, recorded or not */
  gint64   recorded_at;  /* when recording began */
  gboolean recording;
  BenchFramesGate gate;
  gpointer gate_data;
};

/* Times the frames of @clock from now on (recording once asked to) */
BenchFrames *bench_frames_new    (GdkFrameClock *clock);
void         bench_frames_free   (BenchFrames   *frames);
/* Records the frames from now on */
void         bench_frames_record (BenchFrames   *frames);
/* Forgets the frames recorded, and stops recording */
void         bench_frames_clear  (BenchFrames   *frames);
/* Frame work and its phases, frame intervals; with @verbose, the slowest */
void         bench_frames_print  (BenchFrames   *frames,
                                  gboolean       verbose);
/* Frames whose interval was over @factor periods of @period_ms */
guint        bench_frames_count_late (BenchFrames *frames,
                                      double       period_ms,
                                      double       factor);
/* Whether the focused @what's cursor blinks (GTK's settings), for how long:
 * while it does, GTK 4.8 ticks at every frame of the display */
void         bench_frames_print_cursor_blink (const char *what);
/* Iterates the main context until @widget's window drew a frame */
void         bench_frames_wait_drawn (BenchFrames *frames,
                                      GtkWidget   *widget);

G_END_DECLS
