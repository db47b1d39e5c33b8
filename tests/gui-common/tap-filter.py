#!/usr/bin/python3
# tap-filter.py — runs a TAP test and keeps its output TAP: lines that are
# not TAP (what the session's D-Bus services print, such as at-spi's
# registry announcing itself) become TAP comments.
#
#   tap-filter.py COMMAND [ARGUMENT…]
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import re
import subprocess
import sys

TAP = re.compile(r'^(ok|not ok|1\.\.\d+|#|Bail out!|TAP version)')

child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, text=True, errors='replace')
for line in child.stdout:
    if not TAP.match(line) and line.strip():
        line = '# ' + line
    sys.stdout.write(line)
    sys.stdout.flush()
sys.exit(child.wait())
