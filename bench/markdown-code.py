#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A code block streaming into libagent-gtk's Markdown view.

The block grows by a three-line function a step, to 240 lines; each step
is one set_text() with the whole answer so far, as a message row does once a
frame, and the main loop then runs for 10 ms. Five rounds, each in a new
view. Prints the median and the 90th percentile of the CPU time
(this thread's) of set_text() over the last 40 steps of each round: the
parse of the last chunk and the block's highlighting (GtkSourceView), which
grow with the block. Under Xvfb, with the typelib of a build:

    GSK_RENDERER=cairo meson devenv -C _build-release \\
        xvfb-run -a /usr/bin/python3 "$PWD"/bench/markdown-code.py

(meson devenv runs it in the build directory: hence the absolute path.)
"""
import time

import gi
gi.require_version('Gtk', '4.0')
gi.require_version('Adw', '1')
gi.require_version('AgentGtk', '1.0')
from gi.repository import Adw, AgentGtk, GLib, Gtk  # noqa: E402

STEPS = 80
ROUNDS = 5


def spin(seconds):
    context = GLib.MainContext.default()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        context.iteration(False)


def main():
    Adw.init()
    window = Gtk.Window(default_width=700, default_height=700)
    scroller = Gtk.ScrolledWindow()
    window.set_child(scroller)
    window.present()

    times = []
    for _ in range(ROUNDS):
        view = AgentGtk.MarkdownView()
        scroller.set_child(view)
        text = 'Code:\n\n```python\n'
        view.set_text(text + 'x = 1\n')
        spin(1.0)  # the language read at idle, the window drawn
        for i in range(STEPS):
            text += f'def f{i}(a, b):\n    """Doc {i}."""\n    return a + b * {i}  # sum\n'
            start = time.thread_time()
            view.set_text(text)
            if i >= STEPS // 2:
                times.append((time.thread_time() - start) * 1000)
            spin(0.01)
    times.sort()
    print(f'set_text() over the last {STEPS // 2} steps of a block growing to {STEPS * 3} lines, '
          f'{ROUNDS} rounds: median {times[len(times) // 2]:.2f} ms, '
          f'p90 {times[len(times) * 9 // 10]:.2f} ms (CPU)')


if __name__ == '__main__':
    main()
