#!/bin/sh
# Makes tests/test-store-v7.db, the database of the schema before profiles
# (version 7), with the agent-cli and agent-demo-server of a build of that
# schema (commit 594af6b made the committed file):
#
#   tests/make-store-v7.sh BUILD_DIR tests/test-store-v7.db
#
# The same three conversations as make-store-v6.sh makes (two turns; a turn
# with a tool call and its result; one turn), which it runs.
# test-store-profiles opens the file, migrates it and checks that each
# conversation opens with no profile, its messages as they were.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu

exec "$(dirname "$0")/make-store-v6.sh" "$@"
