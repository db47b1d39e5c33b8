#!/usr/bin/python3
# test-gui-desktop-consent-e2e.py: agent-chat as the consent agent of
# agent-desktop-service, and Preferences › Apps, on the GUI tests' session
# bus: the service runs there (with the test server as its default profile),
# the real app registers itself, and another process, an application of the
# service (tests/desktop-service-app.py), starts a conversation. The
# question shows over the window naming the app; Allow is clicked and the
# app's turn streams; Preferences › Apps lists it; Revoke is clicked and the
# app's next request asks again; Deny refuses it with AccessDenied.
# Expanded, the app's row shows its log, and a daily limit is typed in.
# While a new limit is being typed, the app asks again: the page shows its
# new tokens and log line by itself (the service's AppsChanged), and the
# limit typed keeps its text and the focus. Escape denies too.
# With AGENT_SCREENSHOT=FILE, the screen is saved there at the end.
# Positions come from the accessibility tree, the pointer is xdotool's.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import subprocess
import sys

import pyatspi

# This folder's helpers, and agenttestgui.py, shared with tests/gtk
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gui-common')]
from agenttestgui import App, GuiServer, all_nodes, click_at, focus_window, run_test, state, \
    tap, text_of, wait_for, walking, xdotool  # noqa: E402
from desktopservice import APP_NAME, Reader, describes, find, name_has_owner, page_tab, \
    service_app, start_service  # noqa: E402

PLAN = 13
KEY = "sk-test-desktop-consent-3a7e"


def question(app):
    return find(app, lambda n: n.name.startswith("Allow “%s”" % APP_NAME))


def tokens_today(app):
    """The tokens of the day the app's row shows, against its limit of 5000."""
    row = describes(app, " of 5000 tokens today")
    match = row and re.search(r"(\d+) of 5000 tokens today", row.name + (row.description or ""))
    return int(match.group(1)) if match else None


def log_lines(app):
    return walking(lambda: len([n for n in all_nodes(app) if n.name and
                                n.name.endswith(" tokens") and "Loopback" in n.name]))


def ask_and_answer(app, button, outcome):
    """An app of the service asks; the question shows and @button is
    clicked. Returns (the app, whether the question showed, whether
    @outcome came from the app)."""
    asker = service_app()
    asked = wait_for(lambda: question(app), 30)
    answer = wait_for(lambda: find(app, lambda n: n.name == button), 10)
    if asked is None or answer is None:
        return asker, asked is not None, False
    click_at(answer)
    return asker, True, bool(wait_for(lambda: asker.said(outcome), 30))


def main(home):
    server = GuiServer(KEY)
    service = start_service(home, server.url, "keys-model", KEY)
    # The app's registration, seen on the bus
    monitor = Reader(["dbus-monitor", "--session",
                      "type='method_call',member='RegisterConsentAgent'"], dict(os.environ))
    chat = App(home, server.url, model="keys-model")
    asker = None
    try:
        ready = wait_for(lambda: name_has_owner("io.github.libagent.Assistant"), 30)
        app = chat.start()
        registered = wait_for(lambda: monitor.said("RegisterConsentAgent"), 30)
        tap(ready and app is not None and registered,
            "the app registers as the consent agent of the service running")
        if app is None or not registered:
            print("# service: %s" % " | ".join(service.lines))
            return

        asker, asked, streamed = ask_and_answer(app, "Allow", "Finished")
        tap(asked, "an app's first request shows a question naming it")
        tap(streamed and asker.said("TextDelta") and server.seen("/v1/chat/completions",
                                                                 authorization="expected"),
            "Allow: the app's turn streams from the service's profile")
        tap(wait_for(lambda: question(app) is None, 10),
            "the question is gone once answered")

        focus_window()
        xdotool("key", "ctrl+comma")
        page = wait_for(lambda: page_tab(app, "Apps"), 20)
        if page is None:
            tap(False, "Preferences has an Apps page")
            return
        click_at(page)
        row = wait_for(lambda: find(app, lambda n: n.name == APP_NAME), 20)
        described = wait_for(lambda: describes(app, "Allowed"), 10)
        tap(row is not None and described is not None,
            "Preferences › Apps lists the app, allowed")

        # Expanded: its log, and its daily limit typed in
        click_at(row)
        logged = wait_for(lambda: find(app, lambda n: n.name.endswith(" tokens") and
                                       "Loopback" in n.name), 10)
        spin = wait_for(lambda: find(app, lambda n: n.name.startswith("Daily Limit") and
                                     n.getRole() == pyatspi.ROLE_SPIN_BUTTON), 10)
        limited = None
        if spin is not None:
            click_at(spin)
            xdotool("key", "ctrl+a")
            xdotool("type", "--delay", "20", "5000")
            xdotool("key", "Return")
            limited = wait_for(lambda: describes(app, "of 5000 tokens today"), 20)
        if logged is None or limited is None:
            print("# log %s, spin %s, limit %s; shown: %s"
                  % (logged, spin, limited,
                     walking(lambda: [(n.name, n.getRoleName()) for n in all_nodes(app)
                                      if "Daily" in (n.name or "") or
                                      n.getRole() == pyatspi.ROLE_SPIN_BUTTON])))
        tap(logged is not None and limited is not None,
            "expanded, the app's request is in its log and its daily limit is set")

        # A new limit being typed when the app asks again, allowed: the page
        # shows the request by itself, and keeps what is typed
        used = tokens_today(app)
        n_logged = log_lines(app)
        spin = find(app, lambda n: n.name.startswith("Daily Limit") and
                    n.getRole() == pyatspi.ROLE_SPIN_BUTTON)
        if spin is not None:
            click_at(spin)
            xdotool("key", "ctrl+a")
            xdotool("type", "--delay", "20", "7000")
        again = service_app()
        counted = wait_for(lambda: again.said("Finished") and used is not None and
                           (tokens_today(app) or 0) > used and log_lines(app) > n_logged, 30)
        if not counted:
            print("# tokens %s then %s, log lines %s then %s; app: %s"
                  % (used, tokens_today(app), n_logged, log_lines(app), again.lines))
        tap(counted, "the app's new request shows on the page by itself: tokens and log line")
        kept = spin is not None and wait_for(lambda: state(spin, pyatspi.STATE_FOCUSED) and
                                             text_of(spin) == "7000", 10)
        xdotool("key", "Return")
        typed = wait_for(lambda: describes(app, "of 7000 tokens today"), 20)
        if not kept or not typed:
            print("# spin focused %s, text %r" % (state(spin, pyatspi.STATE_FOCUSED),
                                                  text_of(spin)))
        tap(kept and typed, "the limit being typed keeps its text and the focus meanwhile")
        again.stop()

        revoke = wait_for(lambda: find(app, lambda n: n.name == "Revoke"), 10)
        if revoke is None:
            tap(False, "a Revoke button")
            return
        click_at(revoke)
        tap(wait_for(lambda: describes(app, "Not answered yet"), 20),
            "Revoke: the app is listed as not answered")
        asker.stop()

        asker, again, refused = ask_and_answer(app, "Deny", "AccessDenied")
        tap(again, "after Revoke, the app's next request asks again")
        tap(refused, "Deny: the request fails with AccessDenied")
        # The page lists the apps again when it is shown
        general = page_tab(app, "General")
        if general is not None:
            click_at(general)
            wait_for(lambda: find(app, lambda n: n.name == APP_NAME) is None, 10)
        click_at(page)
        denied = wait_for(lambda: describes(app, "Denied"), 20)
        shot = os.environ.get("AGENT_SCREENSHOT")
        if shot:
            subprocess.run(["import", "-window", "root", shot], check=False)
        tap(denied, "Preferences › Apps, shown again, lists the app denied")

        # Revoked again, the question is answered by Escape: no
        asker.stop()
        revoke = wait_for(lambda: find(app, lambda n: n.name == "Revoke"), 10)
        escaped = False
        if revoke is not None:
            click_at(revoke)
            wait_for(lambda: describes(app, "Not answered yet"), 20)
            asker = service_app()
            heading = wait_for(lambda: question(app), 30)
            if heading is not None:
                click_at(heading)
                xdotool("key", "Escape")
                escaped = wait_for(lambda: asker.said("AccessDenied"), 30)
        tap(escaped, "Escape answers the question with Deny")
    finally:
        if asker is not None:
            asker.stop()
        chat.kill()
        monitor.stop()
        service.stop()
        server.stop()


run_test("test-gui-desktop-consent-e2e-", PLAN, main)
