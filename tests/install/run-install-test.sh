#!/bin/sh
# Installs the build into a temporary DESTDIR, then builds and runs a program
# outside the tree against the installed files only, through pkg-config.
#
# usage: run-install-test.sh MESON BUILDDIR PREFIX LIBDIR INCLUDEDIR CONSUMER.c SHADER.spv
# env:   CC, PSC_CONSUMER_CFLAGS, PSC_INTROSPECTION (1/0), VK_DRIVER_FILES
set -eu

meson=$1 builddir=$2 prefix=$3 libdir=$4 includedir=$5 consumer_src=$6 spv=$7

fail () { echo "install test: $*" >&2; exit 1; }

# Absolute libdir/includedir are allowed by meson; relative ones are below prefix.
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
case $includedir in /*) ;; *) includedir=$prefix/$includedir ;; esac

work=$(mktemp -d "${TMPDIR:-/tmp}/psc-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
destdir=$work/destdir

echo "# meson install --destdir $destdir"
"$meson" install -C "$builddir" --no-rebuild --quiet --destdir "$destdir" \
  > "$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "meson install failed"; }

inst_libdir=$destdir$libdir
inst_pcdir=$inst_libdir/pkgconfig
[ -f "$inst_pcdir/psocache-1.pc" ] || fail "psocache-1.pc not installed in $inst_pcdir"
[ -f "$destdir$includedir/libpsocache-1/psocache/psocache.h" ] || fail "umbrella header not installed"
[ -f "$destdir$includedir/libpsocache-1/psocache/psc-version.h" ] || fail "psc-version.h not installed"
[ -f "$destdir$includedir/libpsocache-1/psocache/psc-enum-types.h" ] || fail "psc-enum-types.h not installed"
[ -L "$inst_libdir/libpsocache-1.so" ] || fail "libpsocache-1.so development link missing"
[ -e "$inst_libdir/libpsocache-1.so.0" ] || fail "libpsocache-1.so.0 (soname) missing"
if [ "${PSC_INTROSPECTION:-0}" = 1 ]; then
  [ -f "$inst_libdir/girepository-1.0/Psc-1.typelib" ] || fail "Psc-1.typelib not installed"
  [ -f "$destdir$prefix/share/gir-1.0/Psc-1.gir" ] || fail "Psc-1.gir not installed"
fi

# Only the public API is exported: every exported function is declared in an
# installed header (the core, volk and xxHash stay hidden).
if command -v nm > /dev/null 2>&1; then
  nm -D --defined-only "$inst_libdir/libpsocache-1.so.0" | awk '$2 == "T" { print $3 }' \
    > "$work/exports"
  [ -s "$work/exports" ] || fail "no exported functions"
  while read -r sym; do
    case $sym in
      psc_*) grep -rqw "$sym" "$destdir$includedir/libpsocache-1" ||
               fail "exported symbol $sym is not in an installed header" ;;
      _init|_fini) ;;
      *) fail "exported symbol $sym is outside the psc_ namespace" ;;
    esac
  done < "$work/exports"
fi

# The .pc file: use it as installed when it is relocatable
# (-Dpkgconfig.relocatable=true); otherwise point a private copy's prefix into
# the DESTDIR, which is what relocation would do. Nothing else is changed.
pcpath=$inst_pcdir
if ! grep -q '^prefix=${pcfiledir}' "$inst_pcdir/psocache-1.pc"; then
  mkdir "$work/pc"
  sed "s|^prefix=.*|prefix=$destdir$prefix|" "$inst_pcdir/psocache-1.pc" > "$work/pc/psocache-1.pc"
  pcpath=$work/pc
fi
export PKG_CONFIG_PATH="$pcpath${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

flags=$(pkg-config --cflags --libs psocache-1) || fail "pkg-config psocache-1 failed"
echo "# pkg-config --cflags --libs psocache-1: $flags"
case $flags in *"$destdir"*) ;; *) fail "pkg-config flags do not point into the DESTDIR" ;; esac

cp "$consumer_src" "$work/consumer.c"
# shellcheck disable=SC2086 # CC, CFLAGS and pkg-config output are word lists
${CC:-cc} -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror ${PSC_CONSUMER_CFLAGS:-} \
  -o "$work/consumer" "$work/consumer.c" $flags || fail "the consumer does not compile"

echo "# running the consumer"
LD_LIBRARY_PATH="$inst_libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$work/consumer" "$inst_libdir" "$spv" || fail "the consumer failed"
echo "install test: ok"
