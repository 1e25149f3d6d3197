#!/bin/sh
# Installs the build into a temporary DESTDIR, then builds and runs a program
# outside the tree against the installed files only, through pkg-config.
#
# usage: run-install-test.sh MESON BUILDDIR PREFIX LIBDIR INCLUDEDIR CONSUMER.c SHADER.spv
# env:   CC, PSC_CONSUMER_CFLAGS, PSC_INTROSPECTION (1/0), VK_DRIVER_FILES,
#        PSC_DOCS_DIR (where the API reference is installed; empty: docs off)
#
# The library never links the Vulkan loader (headless devices dlopen it), so
# vulkan is only in the .pc's Requires.private: consumers get the Vulkan
# headers' cflags but no -lvulkan, and the consumer below is linked and run
# without it (-Wl,--no-as-needed, so a -lvulkan would show up as DT_NEEDED).
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
if [ -n "${PSC_DOCS_DIR:-}" ]; then
  [ -f "$destdir$PSC_DOCS_DIR/index.html" ] || fail "API reference not installed in $PSC_DOCS_DIR"
  [ -f "$destdir$PSC_DOCS_DIR/libpsocache-1.devhelp2" ] || fail "devhelp index not installed in $PSC_DOCS_DIR"
fi
needed () { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
if needed "$inst_libdir/libpsocache-1.so.0" | grep -q '^libvulkan'; then
  fail "libpsocache-1.so.0 links the Vulkan loader (DT_NEEDED libvulkan)"
fi
if [ "${PSC_INTROSPECTION:-0}" = 1 ]; then
  [ -f "$inst_libdir/girepository-1.0/Psc-1.typelib" ] || fail "Psc-1.typelib not installed"
  [ -f "$destdir$prefix/share/gir-1.0/Psc-1.gir" ] || fail "Psc-1.gir not installed"
fi

# Only the public API is exported: every exported function is declared in an
# installed header (the core, volk and xxHash stay hidden) and bound to a
# version node of the symbol map (the abi suite checks the map itself).
if command -v nm > /dev/null 2>&1; then
  nm -D --defined-only "$inst_libdir/libpsocache-1.so.0" | awk '$2 == "T" { print $3 }' \
    > "$work/exports"
  [ -s "$work/exports" ] || fail "no exported functions"
  while read -r versioned; do
    sym=${versioned%%@*}
    case $versioned in
      *@@PSOCACHE_*) ;;
      *) fail "exported symbol $versioned has no PSOCACHE_ version (symbol map not applied?)" ;;
    esac
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

# vulkan: private, for the headers' cflags only.
libs=$(pkg-config --libs psocache-1)
case " $libs " in *" -lvulkan "*) fail "pkg-config --libs psocache-1 gives -lvulkan: $libs" ;; esac
pkg-config --print-requires psocache-1 | grep -q '^vulkan' &&
  fail "vulkan is in Requires of psocache-1.pc (consumers would link the loader)"
pkg-config --print-requires-private psocache-1 | grep -q '^vulkan' ||
  fail "vulkan is not in Requires.private of psocache-1.pc (consumers would miss its cflags)"
cflags=$(pkg-config --cflags psocache-1)
for f in $(pkg-config --cflags vulkan); do
  case " $cflags " in *" $f "*) ;; *) fail "pkg-config --cflags psocache-1 lacks vulkan's $f" ;; esac
done
echo "# pkg-config --libs psocache-1: $libs (no -lvulkan)"

cp "$consumer_src" "$work/consumer.c"
# shellcheck disable=SC2086 # CC, CFLAGS and pkg-config output are word lists
${CC:-cc} -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror ${PSC_CONSUMER_CFLAGS:-} \
  -o "$work/consumer" "$work/consumer.c" -Wl,--no-as-needed $flags || fail "the consumer does not compile"
if needed "$work/consumer" | grep -q '^libvulkan'; then
  fail "the consumer links the Vulkan loader: $(needed "$work/consumer" | tr '\n' ' ')"
fi

echo "# running the consumer"
LD_LIBRARY_PATH="$inst_libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$work/consumer" "$inst_libdir" "$spv" || fail "the consumer failed"
echo "install test: ok"
