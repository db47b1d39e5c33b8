#!/usr/bin/python3
# tap-filter.py — runs a TAP test and keeps its output TAP: lines that are
# not TAP (what the session's D-Bus services print, such as at-spi's
# registry announcing itself) become TAP comments. The test gets a runtime
# dir of its own for this run ($XDG_RUNTIME_DIR, removed at its end): at-spi's
# bus is $XDG_RUNTIME_DIR/at-spi/bus, so two runs sharing one (two copies of
# a test at once) would each reach the other's accessibility tree, or fail to
# start their bus.
#
#   tap-filter.py COMMAND [ARGUMENT…]
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import shutil
import subprocess
import sys
import tempfile

TAP = re.compile(r'^(ok|not ok|1\.\.\d+|#|Bail out!|TAP version)')

runtime = tempfile.mkdtemp(prefix='agent-test-runtime-')
try:
    child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, text=True, errors='replace',
                             env=dict(os.environ, XDG_RUNTIME_DIR=runtime))
    for line in child.stdout:
        if not TAP.match(line) and line.strip():
            line = '# ' + line
        sys.stdout.write(line)
        sys.stdout.flush()
    status = child.wait()
finally:
    shutil.rmtree(runtime, ignore_errors=True)
sys.exit(status)
