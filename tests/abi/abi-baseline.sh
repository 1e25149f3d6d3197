#!/bin/sh
# abi-baseline.sh: the ABI baseline of libpsocache-1.so.0 (libabigail).
#
#   abi-baseline.sh check BASELINE LIBRARY HEADERS-DIR...
#   abi-baseline.sh write BASELINE LIBRARY HEADERS-DIR...
#
# Both modes describe LIBRARY the same way: abidw over its DWARF, restricted
# to the types of the public headers in HEADERS-DIR (the source's
# libpsocache/psocache and the build's, for the generated headers), without
# paths, source locations or DT_NEEDED, so that the description depends on
# the ABI only, not on where or how the tree was built (docs/abi.md).
#
# write: stores that description in BASELINE.
# check: compares it with BASELINE through abidiff --harmless. Any
# difference fails:
#   - bit 8 (ABIDIFF_ABI_INCOMPATIBLE_CHANGE): a removed function or
#     variable symbol; binaries built against the baseline break;
#   - bit 4 (ABIDIFF_ABI_CHANGE): everything else libabigail sees, which it
#     cannot classify for us: an added function, but also a field inserted
#     into a public struct or a changed parameter type (which do break
#     callers), and, with --harmless, an enumerator appended to an enum.
#     Such a change must be deliberate and reviewed: it is accepted by
#     updating the baseline in the same commit (.ci/update-abi-baseline,
#     which prints this report), so the baseline is always the ABI of the
#     tree.
# A library without DWARF is refused: abidw would describe symbols only and
# every type change would pass unseen.
set -eu

fail () { echo "abi-baseline: $*" >&2; exit 1; }

[ $# -ge 4 ] || fail "usage: abi-baseline.sh check|write BASELINE LIBRARY HEADERS-DIR..."
mode=$1 baseline=$2 lib=$3
shift 3
case $mode in check|write) ;; *) fail "unknown mode $mode" ;; esac

[ -f "$lib" ] || fail "$lib: no such library"
readelf -S -W "$lib" | grep -q ' \.debug_info ' ||
  fail "$lib has no DWARF (.debug_info): build with debug info (buildtype debug or debugoptimized, no -g0)"

work=$(mktemp -d "${TMPDIR:-/tmp}/psc-abi.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# The remaining arguments become "--hd DIR" pairs.
for dir do
  shift
  [ -d "$dir" ] || fail "$dir: no such headers directory"
  set -- "$@" --hd "$dir"
done

abidw --no-corpus-path --no-comp-dir-path --no-show-locs --no-elf-needed \
  --type-id-style hash --drop-private-types --drop-undefined-syms \
  "$@" --out-file "$work/current.abi" "$lib" ||
  fail "abidw failed on $lib"
grep -q '<function-decl ' "$work/current.abi" ||
  fail "abidw found no function declaration in $lib: its DWARF does not describe the public API"

if [ "$mode" = write ]; then
  cp "$work/current.abi" "$baseline"
  echo "abi-baseline: wrote $baseline"
  exit 0
fi

[ -f "$baseline" ] || fail "$baseline: no baseline (run .ci/update-abi-baseline)"
status=0
abidiff --harmless "$baseline" "$work/current.abi" > "$work/report" 2>&1 || status=$?
cat "$work/report"
if [ $((status & 3)) -ne 0 ]; then
  fail "abidiff could not compare (exit status $status)"
fi
if [ $((status & 8)) -ne 0 ]; then
  fail "INCOMPATIBLE ABI change against $baseline (above): binaries built against the baseline would break. Revert it, or, if the break is intended, it needs a new soname and its own review (docs/abi.md)"
fi
if [ $((status & 4)) -ne 0 ]; then
  fail "ABI change against $baseline (above; libabigail calls it compatible, but read it: a moved struct field is reported this way too). If it is deliberate and compatible, run .ci/update-abi-baseline and commit the new baseline (and map) with the change (docs/abi.md)"
fi
echo "abi-baseline: $(basename "$lib") matches $baseline"
