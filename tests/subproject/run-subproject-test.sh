#!/bin/sh
# Builds tests/subproject/parent, a project using this source tree as its
# subproject libpsocache (library only: tests, demo, docs and introspection
# off), with a PATH on which glslangValidator cannot be found, then runs its
# consumer (tests/install/consumer.c) against the subproject's library.
#
# usage: run-subproject-test.sh MESON SOURCE-ROOT SHADER.spv
# env:   PSC_WERROR (true/false), PSC_SANITIZE (b_sanitize), VK_DRIVER_FILES
set -eu

meson=$1 srcroot=$2 spv=$3
fail () { echo "subproject test: $*" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/psc-subproject-test.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

mkdir "$work/parent" "$work/parent/subprojects"
cp "$srcroot/tests/subproject/parent/meson.build" "$srcroot/tests/install/consumer.c" "$work/parent/"
ln -s "$srcroot" "$work/parent/subprojects/libpsocache"

PATH=$("$srcroot/tests/path-without.sh" "$work/bin" glslangValidator) || fail "cannot hide glslangValidator"
export PATH

echo "# meson setup (subproject libpsocache, no glslangValidator on PATH)"
"$meson" setup "$work/build" "$work/parent" --force-fallback-for=psocache-1 \
  -Dwerror="${PSC_WERROR:-false}" -Db_sanitize="${PSC_SANITIZE:-none}" \
  > "$work/setup.log" 2>&1 || { cat "$work/setup.log" >&2; fail "meson setup failed"; }
"$meson" compile -C "$work/build" > "$work/compile.log" 2>&1 ||
  { cat "$work/compile.log" >&2; fail "the build failed"; }

libdir=$work/build/subprojects/libpsocache/libpsocache
[ -e "$libdir/libpsocache-1.so.0" ] || fail "no libpsocache-1.so.0 in $libdir"
echo "# running the consumer"
"$work/build/consumer" "$libdir" "$spv" || fail "the consumer failed"
echo "subproject test: ok"
