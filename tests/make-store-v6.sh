#!/bin/sh
# Makes tests/test-store-v6.db, the database of the schema before branches
# (version 6), with the agent-cli and agent-demo-server of a build of that
# schema (commit 1989f27 made the committed file):
#
#   tests/make-store-v6.sh BUILD_DIR tests/test-store-v6.db
#
# Three conversations: two turns; a turn with a tool call and its result;
# one turn. test-store-branches opens it, migrates it and checks that each
# conversation is one branch ending at its last message.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu

build=${1:?the build directory of a version-6 libagent}
out=${2:?the database file to write}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

rm -f "$out"
mkfifo "$work/stdin"
"$build/demo/agent-demo-server" --port=0 --delay-ms=0 --quiet --exit-on-stdin-eof \
  <"$work/stdin" >"$work/url" &
server=$!
exec 3>"$work/stdin"
while [ ! -s "$work/url" ]; do sleep 0.1; done
url=$(head -n 1 "$work/url")

cli() {
  XDG_CONFIG_HOME="$work" "$build/cli/agent-cli" --base-url="$url" --model=demo \
    --store="$out" "$@" >/dev/null
}

cli "Hello, who are you?"
cli --continue "Tell me more."
cli --tool=calculator "What is 6 * 7? Use the calculator."
cli "A third conversation, of one turn."

exec 3>&-
wait "$server" || true
rm -f "$out-claims"
