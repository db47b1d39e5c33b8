# agenttestgui.py: helpers of the end-to-end GUI tests (tests/chat: the
# agent-chat app; tests/gtk: the examples that embed libagent-gtk), which
# drive the real program through the pointer and the keyboard (xdotool) and
# read the screen through the accessibility tree (AT-SPI), under
# dbus-run-session and xvfb-run. Its helper programs, other applications a
# person drags or copies files from, are in this folder too.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import struct
import zlib

import pyatspi

results = []
HELPERS = os.path.dirname(os.path.abspath(__file__))


def helper(name):
    """The command that runs @name, a helper program of this folder
    (dragsource.py, clipsource.py, clipread.py)."""
    return ["/usr/bin/python3", os.path.join(HELPERS, name)]


def png_chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))


# A 2×1 PNG, a red pixel and a blue one
PNG = (b"\x89PNG\r\n\x1a\n" +
       png_chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0)) +
       png_chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00\x00\x00\xff")) +
       png_chunk(b"IEND", b""))


def tap(ok, name):
    """One TAP line."""
    results.append(bool(ok))
    print(("ok" if ok else "not ok") + " %d %s" % (len(results), name), flush=True)


def finish(plan):
    """The summary; the exit status."""
    passed = sum(1 for r in results if r)
    print("# %d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) == plan else 1


def wait_for(predicate, timeout=20.0):
    """predicate()'s first true value within @timeout seconds, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    return None


def app_env():
    """The environment for the app: with the accessibility bridge, and a
    profiles file of its own (the app saves its servers there; the tests'
    shared $AGENT_PROFILES is agent-cli's, to read)."""
    env = dict(os.environ)
    env.pop("NO_AT_BRIDGE", None)
    env["GTK_A11Y"] = "atspi"
    directory = tempfile.mkdtemp(prefix="agent-chat-profiles-")
    atexit.register(shutil.rmtree, directory, True)
    env["AGENT_PROFILES"] = os.path.join(directory, "profiles.ini")
    return env


def find_app(name="agent-chat"):
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and app.name == name:
            return app
    return None


def all_nodes(node, depth=0):
    if node is None or depth > 60:
        return
    yield node
    for i in range(node.childCount):
        try:
            child = node.getChildAtIndex(i)
        except Exception:
            continue
        yield from all_nodes(child, depth + 1)


def xdotool(*args):
    subprocess.run(["xdotool"] + list(args), check=True)


def focus_mapped():
    """Gives the keyboard to the app's window, once it is mapped."""
    windows = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "Agent Chat"],
                             capture_output=True, text=True).stdout.split()
    return windows and subprocess.run(["xdotool", "windowfocus", "--sync", windows[0]],
                                      capture_output=True).returncode == 0


def focus_window(title="Agent Chat"):
    """Gives the keyboard to the window called @title."""
    window = wait_for(lambda: subprocess.run(["xdotool", "search", "--name", title],
                                             capture_output=True, text=True).stdout.split())
    xdotool("windowfocus", "--sync", window[0])
    time.sleep(0.5)


class FocusTracker:
    """Where the keyboard focus is, as the accessibility tree reports it
    (object:state-changed:focused events, read from GLib's main context)."""

    def __init__(self):
        from gi.repository import GLib
        self.context = GLib.MainContext.default()
        self.node = None
        self.moves = []
        pyatspi.Registry.registerEventListener(self.on_focus, "object:state-changed:focused")

    def on_focus(self, event):
        if event.detail1:
            self.node = event.source
            try:
                self.moves.append((event.source.getRoleName(), event.source.name))
            except Exception:
                self.moves.append(("", ""))

    def pump(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            while self.context.iteration(False):
                pass
            time.sleep(0.02)

    def press(self, *keys, settle=0.3):
        """Presses @keys; returns (role, name) of where the focus went, or
        None if it did not move."""
        self.moves.clear()
        xdotool("key", *keys)
        deadline = time.monotonic() + 2
        while not self.moves and time.monotonic() < deadline:
            self.pump(0.05)
        self.pump(settle)
        return self.moves[-1] if self.moves else None

    def wait(self, predicate, timeout=20.0):
        """predicate()'s first true value, pumping events meanwhile."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            self.pump(0.1)
        return None


def walking(walk):
    """walk()'s value; the tree can change under a walk (a row recycled, a
    window gone): then it is walked again."""
    for attempt in range(5):
        try:
            return walk()
        except Exception:
            time.sleep(0.1)
    return None


def names(node):
    """The names of @node and everything under it."""
    return walking(lambda: [n.name for n in all_nodes(node) if n.name]) or []


def shows(app, text):
    """Whether a name under @app contains @text."""
    return any(text in name for name in names(app))


def turn_over(app):
    """No turn runs: Send shows, Stop does not."""
    shown = names(app)
    return "Send" in shown and "Stop" not in shown


def send(text):
    """Types @text into the focused composer, and Return."""
    xdotool("type", "--delay", "20", text)
    xdotool("key", "Return")


def find_node(node, name, role=None):
    """The first node under @node called @name (with @role, if given)."""
    return walking(lambda: next((n for n in all_nodes(node)
                                 if n.name == name and (role is None or n.getRole() == role)),
                                None))


def menu_items(app):
    """The names of the items of the menu open (GTK 4.8 says a popover menu
    is visible, not showing)."""
    def walk():
        for menu in all_nodes(app):
            if menu.getRole() == pyatspi.ROLE_MENU and \
               menu.getState().contains(pyatspi.STATE_VISIBLE):
                return [n.name for n in all_nodes(menu) if n.getRole() == pyatspi.ROLE_MENU_ITEM]
        return []
    return walking(walk) or []


def focused(node):
    """(role, name) of the nodes under @node that have the keyboard focus
    (a node gone meanwhile, a popover closing, is passed over)."""
    found = []
    for inner in all_nodes(node):
        try:
            if inner.getState().contains(pyatspi.STATE_FOCUSED):
                found.append((inner.getRoleName(), inner.name))
        except Exception:
            continue
    return found


def text_of(node):
    """The text of an entry, read through the accessible Text interface."""
    try:
        text = node.queryText()
        # GTK 4.8 answers nothing for the end offset -1
        return text.getText(0, text.characterCount)
    except Exception:
        return None


def click(node):
    """Runs @node's click (or activate, or press) action."""
    action = node.queryAction()
    for i in range(action.nActions):
        if action.getName(i) in ("click", "activate", "press"):
            action.doAction(i)
            return
    action.doAction(0)


def click_at(node):
    """A mouse click in the middle of @node, where it shows on the screen."""
    x, y, width, height = extents(node)
    xdotool("mousemove", str(x + width // 2), str(y + height // 2), "click", "1")


def start_keyring(directory):
    """gnome-keyring-daemon on the session bus, with a login keyring of its
    own in @directory, unlocked; returns the process once it serves."""
    from gi.repository import Gio, GLib

    env = dict(os.environ)
    for name in ("home", "data", "config", "runtime"):
        os.makedirs(os.path.join(directory, name), mode=0o700, exist_ok=True)
    env.update(HOME=os.path.join(directory, "home"),
               XDG_DATA_HOME=os.path.join(directory, "data"),
               XDG_CONFIG_HOME=os.path.join(directory, "config"),
               XDG_RUNTIME_DIR=os.path.join(directory, "runtime"))
    env.pop("DISPLAY", None)
    daemon = subprocess.Popen(["gnome-keyring-daemon", "--foreground", "--unlock",
                               "--components=secrets"],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env)
    daemon.stdin.write(b"test-password")
    daemon.stdin.close()
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)

    def ready():
        try:
            reply = bus.call_sync("org.freedesktop.secrets", "/org/freedesktop/secrets",
                                  "org.freedesktop.Secret.Service", "ReadAlias",
                                  GLib.Variant("(s)", ("default",)), GLib.VariantType("(o)"),
                                  Gio.DBusCallFlags.NO_AUTO_START, 1000, None)
            return reply.unpack()[0] != "/"
        except GLib.Error:
            return False

    if not wait_for(ready, 30):
        daemon.kill()
        raise RuntimeError("gnome-keyring-daemon did not offer an unlocked keyring")
    return daemon


class GuiServer:
    """agent-test-gui-server: the in-process test server as a program, which
    says what reached it (path, model, whether the Authorization header
    carried @key) and never the key."""

    def __init__(self, key):
        env = dict(os.environ)
        env["AGENT_TEST_EXPECTED_KEY"] = key
        self.process = subprocess.Popen([os.environ["AGENT_TEST_GUI_SERVER"]], env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        self.requests = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.requests.append(line.strip())

    def seen(self, path, **fields):
        """The requests for @path whose fields (model=…, authorization=…) match."""
        found = []
        for line in list(self.requests):
            words = line.split()
            values = dict(w.split("=", 1) for w in words[1:] if "=" in w)
            if words and words[0] == path and all(values.get(k) == v for k, v in fields.items()):
                found.append(line)
        return found

    def stop(self):
        self.process.stdin.close()
        self.process.wait(10)
# The settings of a window of 760×660 on the tests' screen of 800×700
WINDOW_SIZE = "window-width=760\nwindow-height=660\n"


class App:
    """agent-chat with its own data and settings (kept from one run to the
    next; @settings: more lines of its keyfile), talking to the server at
    @url."""

    def __init__(self, home, url, model="demo", settings=""):
        self.env = app_env()
        self.env["XDG_DATA_HOME"] = os.path.join(home, "data")
        self.env["XDG_CONFIG_HOME"] = os.path.join(home, "config")
        # Settings that last from one run to the next, as with dconf
        self.env["GSETTINGS_BACKEND"] = "keyfile"
        directory = os.path.join(home, "config", "glib-2.0", "settings")
        os.makedirs(directory, exist_ok=True)
        self.keyfile = os.path.join(directory, "keyfile")
        with open(self.keyfile, "w") as keyfile:
            keyfile.write("[io/github/libagent/Chat]\nprovider='openai'\n"
                          "base-url='%s'\nmodel='%s'\n%s" % (url, model, settings))
        self.process = None

    def start(self, *args):
        """Starts the app (with @args on its command line)."""
        # Xvfb on this shared machine refuses a connection now and then
        # ("cannot open display": the app exits at once): an app gone
        # before its window showed is started again, three times at most
        for attempt in range(3):
            self.process = subprocess.Popen([os.environ["AGENT_CHAT"], *args], env=self.env)
            app = wait_for(lambda: "exited" if self.process.poll() is not None else find_app(),
                           60)
            if app != "exited":
                break
            print("# agent-chat exited (status %d) before its window showed"
                  % self.process.returncode, flush=True)
            time.sleep(1)
        if app in (None, "exited"):
            return None
        # The window can be in the accessibility tree before it is mapped
        if not wait_for(focus_mapped, 30):
            return None
        return app

    def quit(self):
        # The key goes to the app's window: with no window manager, a key
        # pressed while no window has the keyboard is lost
        focus_mapped()
        xdotool("key", "ctrl+q")
        try:
            return self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def cli(self, *args):
        """agent-cli's output, on the same database."""
        return subprocess.run([os.environ["AGENT_CLI"]] + list(args), env=self.env,
                              capture_output=True, text=True, timeout=60).stdout


# The pointer and the screen, as a person uses them

def extents(node):
    """(x, y, width, height) of @node in its window, or None: on the
    screen too, for the app's window, which has no window manager to move
    it from the screen's corner (GTK 4.8 knows no screen coordinates)."""
    try:
        box = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    except Exception:
        return None
    return (box.x, box.y, box.width, box.height)


def state(node, which):
    """Whether @node's state set holds @which (pyatspi.STATE_…)."""
    try:
        return node.getState().contains(which)
    except Exception:
        return False


def showing(node, within=None):
    """Whether @node is on screen, as far as GTK 4.8 says: it reports
    widgets that are visible and mapped as "visible" (never "showing"), and
    hidden ones not at all; and it has an area (within the box @within, if
    given: a pane a folded window slid away is still there, beside it)."""
    if node is None or not (state(node, pyatspi.STATE_SHOWING) or
                            state(node, pyatspi.STATE_VISIBLE)):
        return False
    box = extents(node)
    if box is None or box[2] <= 0 or box[3] <= 0:
        return False
    return within is None or (box[0] < within[0] + within[2] and within[0] < box[0] + box[2] and
                              box[1] < within[1] + within[3] and within[1] < box[1] + box[3])


def point_at(node, dx=0, dy=0):
    """Moves the pointer to the middle of @node (moved by @dx, @dy)."""
    x, y, width, height = extents(node)
    xdotool("mousemove", str(x + width // 2 + dx), str(y + height // 2 + dy))


def wheel(node, button, times=1, shift=False):
    """Turns the wheel over the middle of @node: button 4 up, 5 down, 6
    left, 7 right; with Shift held if @shift."""
    point_at(node)
    time.sleep(0.1)
    if shift:
        xdotool("keydown", "shift")
    try:
        for _ in range(times):
            xdotool("click", str(button))
    finally:
        if shift:
            xdotool("keyup", "shift")


def drag(from_x, from_y, to_x, to_y, steps=12):
    """Presses the first button at (@from_x, @from_y), moves to (@to_x,
    @to_y) the way a hand does, and releases it."""
    xdotool("mousemove", str(from_x), str(from_y))
    time.sleep(0.2)
    xdotool("mousedown", "1")
    for step in range(1, steps + 1):
        xdotool("mousemove", str(from_x + (to_x - from_x) * step // steps),
                str(from_y + (to_y - from_y) * step // steps))
        time.sleep(0.05)
    time.sleep(0.2)
    xdotool("mouseup", "1")


def start_drag_source(*paths):
    """Another program's window whose label drags @paths (dragsource.py),
    moved to (620, 70): its process, and its X window (None if it did not
    show)."""
    source = subprocess.Popen(helper("dragsource.py") + list(paths))
    window = wait_for(lambda: x_window("^drag-source$"), 20)
    if window is not None:
        xdotool("windowmove", window, "620", "70")
        time.sleep(1)
    return source, window


def drag_from(window, to_x, to_y):
    """Presses 80 px into the drag source @window (start_drag_source(): at
    (700, 150) on the screen), moves to (@to_x, @to_y) slowly enough for
    drag and drop to follow each step, and releases."""
    xdotool("mousemove", "--window", window, "80", "80")
    time.sleep(0.3)
    xdotool("mousedown", "1")
    x, y = 700, 150
    for step in range(1, 9):
        xdotool("mousemove", str(x + (to_x - x) * step // 8), str(y + (to_y - y) * step // 8))
        time.sleep(0.2)
    time.sleep(0.3)
    xdotool("mouseup", "1")


def screenshot(name):
    """The screen, in $AGENT_TEST_SCREENSHOTS/@name.png when that is set
    (to look at; no test compares them)."""
    directory = os.environ.get("AGENT_TEST_SCREENSHOTS")
    if directory:
        os.makedirs(directory, exist_ok=True)
        subprocess.run(["import", "-window", "root", os.path.join(directory, name + ".png")],
                       check=False)


def buttons_shown(window):
    """The buttons of @window (a frame) that a person sees (showing, within
    the window), as (name, sensitive, description); None if the tree could
    not be walked."""
    roles = (pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_TOGGLE_BUTTON)

    def walk():
        box = extents(window)
        return [(n.name, state(n, pyatspi.STATE_SENSITIVE), n.description)
                for n in all_nodes(window) if n.getRole() in roles and showing(n, box)]
    return walking(walk)


def x_window(title):
    """The X window called @title (a regular expression) that shows, or None."""
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", title],
                           capture_output=True, text=True).stdout.split()
    return found[0] if found else None


def choose_file(focus, path):
    """In the file chooser that shows (called "Attach Files"), types @path
    (Ctrl+L, the path, Return), and waits until it is gone. Returns
    whether it showed. (Nothing reads the accessibility tree meanwhile:
    GTK 4.8's AT-SPI bridge fails answering for a window being destroyed,
    and the app's tree is lost to the reader from then on.)"""
    if not wait_for(lambda: x_window("^Attach Files$"), 15):
        return False
    focus.pump(1.0)
    xdotool("key", "ctrl+l")
    focus.pump(0.5)
    xdotool("type", "--delay", "20", path)
    xdotool("key", "Return")
    wait_for(lambda: x_window("^Attach Files$") is None, 15)
    focus.pump(1.5)
    return True


def run_test(prefix, plan, main):
    """Runs main(home, ...) in a new home directory, with the TAP plan
    @plan first; exits with the summary's status."""
    home = tempfile.mkdtemp(prefix=prefix)
    print("1..%d" % plan, flush=True)
    try:
        main(home)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    sys.exit(finish(plan))


def style_runs():
    """The (width, dark) of each run of a test that runs in several styles:
    760 px light and 360 px dark; all four with AGENT_TEST_ALL_STYLES=1,
    the first alone with AGENT_TEST_ONE_STYLE=1."""
    runs = ([(760, False), (760, True), (360, False), (360, True)]
            if os.environ.get("AGENT_TEST_ALL_STYLES") == "1" else [(760, False), (360, True)])
    return runs[:1] if os.environ.get("AGENT_TEST_ONE_STYLE") == "1" else runs


def mcp_app(home, url, width, dark, servers):
    """agent-chat (App) for a run of run_styled_test(): the model "scripted"
    at @url, a window @width px wide, dark if @dark, the MCP servers
    @servers (as mcp.json's "mcpServers") in its config dir."""
    chat = App(home, url, "scripted", "window-width=%d\nwindow-height=660\n" % width)
    if dark:
        chat.env["ADW_DEBUG_COLOR_SCHEME"] = "prefer-dark"
    config = os.path.join(home, "config")
    os.makedirs(os.path.join(config, "agent-chat"), exist_ok=True)
    with open(os.path.join(config, "agent-chat", "mcp.json"), "w") as f:
        json.dump({"mcpServers": servers}, f)
    # GNOME's window buttons, Close alone: with three the header bar keeps the
    # window wider than 360 px
    os.makedirs(os.path.join(config, "gtk-4.0"), exist_ok=True)
    with open(os.path.join(config, "gtk-4.0", "settings.ini"), "w") as settings:
        settings.write("[Settings]\ngtk-decoration-layout=appmenu:close\n")
    return chat


def run_styled_test(prefix, steps, needs, check, make_server):
    """Runs check(home, server, focus, width, dark), @steps TAP lines each,
    once for each of style_runs(), against the model server
    make_server() returns (closed at the end). @needs is a path the test
    cannot run without (an npm package): skipped if it is missing and
    AGENT_NO_NPM=1, failed otherwise."""
    runs = style_runs()
    if os.environ.get("AGENT_NO_NPM") == "1" and not os.path.exists(needs):
        print("1..0 # SKIP no MCP servers to test with (AGENT_NO_NPM=1)")
        sys.exit(0)

    def main(home):
        if not os.path.exists(needs):
            for _ in range(steps * len(runs)):
                tap(False, "%s is missing: run tests/mcp/install" % needs)
            return
        server = make_server()
        focus = FocusTracker()
        try:
            for i, (width, dark) in enumerate(runs):
                results = check(os.path.join(home, "run%d" % i), server, focus, width, dark)
                for _ in range(steps - len(results)):
                    tap(False, "not reached (%d px)" % width)
        finally:
            server.close()

    run_test(prefix, steps * len(runs), main)
