#!/bin/sh
# test-tool.sh: psocache-tool inspect and verify on files the library wrote
# (persist-child write) and on damaged copies (persist-child craft), with
# their documented exit codes and JSON. TAP output.
#
# usage: test-tool.sh PERSIST-CHILD PSOCACHE-TOOL
set -u
child=$1 tool=$2
py=/usr/bin/python3
work=$(mktemp -d "${TMPDIR:-/tmp}/psc-tool.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
n=0 failures=0

ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); echo "not ok $n - $1"; failures=$((failures + 1)); }
# expect NAME STATUS COMMAND...: runs COMMAND, output in $work/out.
expect () {
  name=$1 want=$2
  shift 2
  "$@" > "$work/out" 2> "$work/err"
  got=$?
  if [ "$got" -eq "$want" ]; then ok "$name (exit $want)"; else
    not_ok "$name: exit $got, expected $want"; sed 's/^/# /' "$work/out" "$work/err"; fi
}
# json_check NAME PYTHON-EXPRESSION: over the JSON document in $work/out (j).
json_check () {
  if "$py" -c "import json,sys; j=json.load(open('$work/out')); sys.exit(0 if ($2) else 1)"; then
    ok "$1"; else not_ok "$1"; sed 's/^/# /' "$work/out"; fi
}

mkdir -p "$work/good" "$work/bad" "$work/foreign"
"$child" write "$work/good" || { echo "Bail out! persist-child write failed"; exit 1; }
file=$(ls "$work/good"/driver-*.pscache)

expect "verify: a file the library wrote" 0 "$tool" verify "$work/good"
expect "inspect --json" 0 "$tool" inspect --json "$work/good"
json_check "inspect: one driver file, valid, usable on this device" \
  "[f['kind'] for f in j['files']].count('driver') == 1 and all(f['valid'] for f in j['files']) and [f for f in j['files'] if f['kind'] == 'driver'][0]['this_device'] == 'usable'"
json_check "inspect: the marker is listed as one" \
  "any(f['kind'] == 'marker' for f in j['files'])"

"$child" craft checksum "$file" "$work/bad/$(basename "$file")"
expect "verify: a damaged checksum" 1 "$tool" verify --no-device "$work/bad"
if grep -q "invalid: checksum" "$work/out"; then ok "verify names the reason"; else
  not_ok "verify names the reason"; sed 's/^/# /' "$work/out"; fi
expect "verify --json" 1 "$tool" verify --json --no-device "$work/bad"
json_check "verify --json: invalid 1, reason checksum" \
  "j['invalid'] == 1 and j['files'][0]['reason'] == 'checksum'"

"$child" craft foreign "$file" "$work/foreign/$(basename "$file")"
expect "verify: another device's valid file" 0 "$tool" verify "$work/foreign"
expect "inspect: another device's file" 0 "$tool" inspect --json "$work/foreign"
json_check "inspect: this device would reject it (uuid)" \
  "j['files'][0]['this_device'] == 'uuid' and j['files'][0]['valid']"

ln -s "$file" "$work/bad/driver-link.pscache"
expect "verify: a symbolic link" 1 "$tool" verify --json --no-device "$work/bad/driver-link.pscache"
json_check "verify: the link is not followed" "j['files'][0]['reason'] == 'symlink'"

expect "verify --probe: the warm probe on the directory" 0 "$tool" verify --probe --json "$work/good"
json_check "verify --probe: every recorded recipe resolves, none served on an empty cache" \
  "j['probe']['ran'] and j['probe']['recorded'] >= 1 and j['probe']['stale'] == 0 and j['probe']['served'] <= j['probe']['recorded']"
json_check "inspect: the recipes log and its lock are listed" \
  "any(f['kind'] == 'recipes' and f['records'] >= 2 for f in j['files']) and any(f['kind'] == 'lock' for f in j['files'])"
expect "verify --probe needs one directory" 2 "$tool" verify --probe "$work/good" "$work/bad"

expect "no command" 2 "$tool"
expect "unknown command" 2 "$tool" frobnicate "$work/good"
expect "no path" 2 "$tool" verify
expect "unknown option" 2 "$tool" verify --frobnicate "$work/good"
expect "a missing path" 3 "$tool" verify --no-device "$work/missing"
expect "--help" 0 "$tool" verify --help

echo "1..$n"
[ "$failures" -eq 0 ]
