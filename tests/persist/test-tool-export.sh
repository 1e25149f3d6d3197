#!/bin/sh
# test-tool-export.sh: psocache-tool export on the recipes a real cache run
# recorded under an isolated $XDG_CACHE_HOME (persist-child scene: the demo
# scene, on both backends): one file per pipeline record named by its
# recipe hash, or JSON lines; every document loads back
# (psc_recipe_new_from_json) and gives one of the run's own pipelines,
# creating none (persist-child check-recipes); a damaged log (a shader
# record dropped) names each skipped recipe with its reason and exits 1;
# usage errors exit 2, a missing directory or log 3. TAP output.
#
# usage: test-tool-export.sh PERSIST-CHILD PSOCACHE-TOOL
set -u
# Absolute: one command runs in another directory.
child=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tool=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
py=/usr/bin/python3
app=io.github.psocache.ExportTest
work=$(mktemp -d "${TMPDIR:-/tmp}/psc-export.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
unset PSOCACHE_DIR PSOCACHE_DISABLE PSOCACHE_MAX_SIZE
n=0 failures=0

ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); echo "not ok $n - $1"; failures=$((failures + 1)); }
# expect NAME STATUS COMMAND...: runs COMMAND, output in $work/out, $work/err.
expect () {
  name=$1 want=$2
  shift 2
  "$@" > "$work/out" 2> "$work/err"
  got=$?
  if [ "$got" -eq "$want" ]; then ok "$name (exit $want)"; else
    not_ok "$name: exit $got, expected $want"; sed 's/^/# /' "$work/out" "$work/err"; fi
}
# check NAME PYTHON-EXPRESSION: w is $work, out/err the last command's output.
check () {
  if "$py" -c "
import glob, json, os, re, sys
w = '$work'
out = open(w + '/out').read()
err = open(w + '/err').read()
sys.exit(0 if ($2) else 1)"; then ok "$1"; else
    not_ok "$1"; sed 's/^/# /' "$work/out" "$work/err" | head -40; fi
}

for backend in auto legacy; do
  home="$work/xdg-$backend"
  dir="$home/psocache/$app"
  if ! XDG_CACHE_HOME="$home" "$child" scene "$app" "$backend"; then
    echo "Bail out! persist-child scene $backend failed"; exit 1; fi
  if [ -f "$dir/recipes.psclog" ]; then ok "$backend: the run recorded $dir/recipes.psclog"; else
    not_ok "$backend: no recipes.psclog in $dir"; fi

  expect "$backend: export --output" 0 "$tool" export --output "$work/files-$backend" "$dir"
  check "$backend: one file per recorded pipeline, named by its recipe hash" \
    "(lambda files, m: len(files) > 10 and all(re.fullmatch('[0-9a-f]{16}[.]json', os.path.basename(f)) for f in files) and m is not None and int(m.group(1)) == int(m.group(2)) == len(files))(glob.glob(w + '/files-$backend/*'), re.search(r'(\d+) of (\d+) recorded pipelines exported', out))"
  check "$backend: each file is a recipe JSON document of version 1" \
    "all(json.load(open(f))['version'] == 1 for f in glob.glob(w + '/files-$backend/*.json'))"
  expect "$backend: the files load back and give the run's own pipelines, none created" 0 \
    "$child" check-recipes "$backend" "$work/files-$backend"/*.json

  expect "$backend: export --json-lines" 0 "$tool" export --json-lines "$dir"
  cp "$work/out" "$work/lines-$backend.jsonl"
  check "$backend: one document per line, the same documents as the files" \
    "sorted(json.dumps(json.loads(l), sort_keys=True) for l in out.splitlines()) == sorted(json.dumps(json.load(open(f)), sort_keys=True) for f in glob.glob(w + '/files-$backend/*.json'))"
  expect "$backend: the lines load back and give the run's own pipelines" 0 \
    "$child" check-recipes "$backend" "$work/lines-$backend.jsonl"
done

dir="$work/xdg-auto/psocache/$app"
expect "no directory given: the current one, JSON lines" 0 sh -c "cd '$dir' && exec '$tool' export"
check "the current directory's recipes" \
  "len(out.splitlines()) == len(glob.glob(w + '/files-auto/*.json'))"
expect "the log file itself" 0 "$tool" export "$dir/recipes.psclog"

# A damaged copy: the first shader record dropped (its record only; every
# other record keeps its own checks), so the recipes that use it no longer
# resolve.
mkdir -p "$work/damaged"
"$py" - "$dir/recipes.psclog" "$work/damaged/recipes.psclog" <<'EOF'
import struct, sys
data = open(sys.argv[1], 'rb').read()
out, pos, dropped = bytearray(data[:32]), 32, False
while pos < len(data):
    _, rtype, _, length = struct.unpack_from('<IHHI', data, pos)
    size = 24 + (length + 7) // 8 * 8
    payload = data[pos + 24:pos + 24 + length]
    if not dropped and rtype == 1 and payload[8] == 1:
        dropped = True
    else:
        out += data[pos:pos + size]
    pos += size
assert dropped
open(sys.argv[2], 'wb').write(out)
EOF
expect "a log without a shader record: the recipes that need it are skipped" 1 \
  "$tool" export --json-lines "$work/damaged"
check "each skipped recipe is named with its reason" \
  "re.search(r'recipe [0-9a-f]{16} skipped: missing-record', err) is not None and len(out.splitlines()) < len(glob.glob(w + '/files-auto/*.json'))"
check "the rest is exported" \
  "(lambda m: m is not None and int(m.group(1)) == len(out.splitlines()) and int(m.group(2)) == len(glob.glob(w + '/files-auto/*.json')))(re.search(r'(\d+) of (\d+) recorded pipelines exported', err))"
cp "$work/out" "$work/damaged.jsonl"
expect "what was exported from it still gives the run's pipelines" 0 \
  "$child" check-recipes auto "$work/damaged.jsonl"

driver=$(ls "$dir"/driver-*.pscache)
expect "not a recipes log" 1 "$tool" export "$driver"
mkdir -p "$work/empty"
expect "a directory without a recipes log" 3 "$tool" export "$work/empty"
expect "a missing directory" 3 "$tool" export "$work/missing"
ln -s "$dir/recipes.psclog" "$work/empty/recipes.psclog"
expect "a symbolic link in the log's place is not followed" 3 "$tool" export "$work/empty"
expect "--output and --json-lines" 2 "$tool" export --output "$work/x" --json-lines "$dir"
expect "two directories" 2 "$tool" export "$dir" "$dir"
expect "an unknown option" 2 "$tool" export --frobnicate "$dir"
expect "--help" 0 "$tool" export --help
check "--help names the options" "'--output' in out and '--json-lines' in out"

echo "1..$n"
[ "$failures" -eq 0 ]
