#!/bin/sh
# check-version-macros.sh: the availability, deprecation and version-pinning
# macros of psc-macros.h, seen by a compiler as an application sees them.
#
#   check-version-macros.sh SRC-INCLUDE-DIR BUILD-INCLUDE-DIR
#   env: CC (a compiler command line), PKG_CONFIG (default pkg-config)
#
# Each case compiles a few lines that include <psocache/psocache.h> with
# -Werror=deprecated-declarations and expects either success or a failure
# whose message contains a given text: a macro that stopped warning, warns
# with the wrong text, or accepts a version range it must refuse fails the
# case.
set -eu
# ASCII quotes in the compiler's messages, whatever the locale.
LC_ALL=C
export LC_ALL

[ $# -eq 2 ] || { echo "usage: check-version-macros.sh SRC-INCLUDE-DIR BUILD-INCLUDE-DIR" >&2; exit 2; }
src_inc=$1 build_inc=$2
deps_cflags=$(${PKG_CONFIG:-pkg-config} --cflags glib-2.0 gobject-2.0 gio-2.0 vulkan)

work=$(mktemp -d "${TMPDIR:-/tmp}/psc-version-macros.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
failures=0 n=0

# case NAME EXPECT(ok|"fail:TEXT") EXTRA-CFLAGS < C-SOURCE
case_ () {
  name=$1 expect=$2 extra=$3
  n=$((n + 1))
  cat > "$work/t.c"
  status=0
  # shellcheck disable=SC2086 # CC, pkg-config output and extra are word lists
  ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror=deprecated-declarations -DVK_NO_PROTOTYPES \
    -I"$src_inc" -I"$build_inc" $deps_cflags $extra -c "$work/t.c" -o "$work/t.o" \
    > "$work/log" 2>&1 || status=$?
  case $expect in
    ok)
      if [ $status -eq 0 ]; then
        echo "ok $n - $name"
      else
        echo "not ok $n - $name: did not compile"; sed 's/^/# /' "$work/log"
        failures=$((failures + 1))
      fi ;;
    fail:*)
      text=${expect#fail:}
      if [ $status -ne 0 ] && grep -qF -- "$text" "$work/log"; then
        echo "ok $n - $name"
      elif [ $status -eq 0 ]; then
        echo "not ok $n - $name: compiled, expected a failure mentioning \"$text\""
        failures=$((failures + 1))
      else
        echo "not ok $n - $name: failed without \"$text\""; sed 's/^/# /' "$work/log"
        failures=$((failures + 1))
      fi ;;
  esac
}

case_ "defaults: current version, min = max = current" ok "" <<'EOF'
#include <psocache/psocache.h>
_Static_assert (PSC_VERSION_0_1 == 0x000100, "0.1 encodes as 0x000100");
_Static_assert (PSC_ENCODE_VERSION (0, 2) > PSC_VERSION_0_1, "versions compare in release order");
_Static_assert (PSC_ENCODE_VERSION (1, 0) > PSC_ENCODE_VERSION (0, 255), "the major version dominates");
_Static_assert (PSC_VERSION_CUR_STABLE == PSC_ENCODE_VERSION (PSC_MAJOR_VERSION, PSC_MINOR_VERSION),
                "psc-macros.h: PSC_VERSION_CUR_STABLE is not the project version (add this release's block)");
_Static_assert (PSC_VERSION_MIN_REQUIRED == PSC_VERSION_CUR_STABLE, "default minimum");
_Static_assert (PSC_VERSION_MAX_ALLOWED == PSC_VERSION_CUR_STABLE, "default maximum");
unsigned f (void) { return psc_get_major_version (); }
EOF

case_ "the whole API compiles pinned to 0.1" ok \
  "-DPSC_VERSION_MIN_REQUIRED=PSC_VERSION_0_1 -DPSC_VERSION_MAX_ALLOWED=PSC_VERSION_0_1" <<'EOF'
#include <psocache/psocache.h>
_Static_assert (PSC_VERSION_MAX_ALLOWED == PSC_VERSION_0_1, "the pin is kept");
unsigned f (void) { return psc_get_minor_version (); }
EOF

case_ "0.2 API pinned to 0.1 warns where it is used" "fail:Not available before 0.2" \
  "-DPSC_VERSION_MIN_REQUIRED=PSC_VERSION_0_1 -DPSC_VERSION_MAX_ALLOWED=PSC_VERSION_0_1" <<'EOF'
#include <psocache/psocache.h>
gboolean f (PscCache *c) { return psc_cache_save (c, NULL); }
EOF

case_ "0.2 API with the defaults" ok "" <<'EOF'
#include <psocache/psocache.h>
_Static_assert (PSC_VERSION_0_2 == 0x000200, "0.2 encodes as 0x000200");
gboolean f (PscCache *c) { return psc_cache_save (c, NULL); }
GType g (void) { return PSC_TYPE_FILE_REJECTION; }
EOF

case_ "0.3 API pinned to 0.2 warns where it is used" "fail:Not available before 0.3" \
  "-DPSC_VERSION_MIN_REQUIRED=PSC_VERSION_0_2 -DPSC_VERSION_MAX_ALLOWED=PSC_VERSION_0_2" <<'EOF'
#include <psocache/psocache.h>
PscRecipe *f (void) { return psc_recipe_new_graphics (); }
EOF

case_ "0.3 API with the defaults" ok "" <<'EOF'
#include <psocache/psocache.h>
_Static_assert (PSC_VERSION_0_3 == 0x000300, "0.3 encodes as 0x000300");
PscRecipe *f (void) { return psc_recipe_new_compute (); }
GType g (void) { return PSC_TYPE_RECIPE_KIND; }
EOF

case_ "a minimum newer than these headers is refused" \
  "fail:PSC_VERSION_MIN_REQUIRED must be <= PSC_VERSION_CUR_STABLE" \
  "-DPSC_VERSION_MIN_REQUIRED=PSC_ENCODE_VERSION(9,0)" <<'EOF'
#include <psocache/psocache.h>
EOF

case_ "a minimum before the first release is refused" \
  "fail:PSC_VERSION_MIN_REQUIRED must be >= PSC_VERSION_0_1" \
  "-DPSC_VERSION_MIN_REQUIRED=PSC_ENCODE_VERSION(0,0)" <<'EOF'
#include <psocache/psocache.h>
EOF

case_ "a maximum below the minimum is refused" \
  "fail:PSC_VERSION_MAX_ALLOWED must be >= PSC_VERSION_MIN_REQUIRED" \
  "-DPSC_VERSION_MIN_REQUIRED=PSC_VERSION_0_1 -DPSC_VERSION_MAX_ALLOWED=PSC_ENCODE_VERSION(0,0)" <<'EOF'
#include <psocache/psocache.h>
EOF

case_ "PSC_DEPRECATED_IN_0_1 warns" "fail:'psc_test_old' is deprecated" "" <<'EOF'
#include <psocache/psocache.h>
PSC_DEPRECATED_IN_0_1 void psc_test_old (void);
void f (void) { psc_test_old (); }
EOF

case_ "PSC_DISABLE_DEPRECATION_WARNINGS silences it" ok "-DPSC_DISABLE_DEPRECATION_WARNINGS" <<'EOF'
#include <psocache/psocache.h>
PSC_DEPRECATED_IN_0_1 void psc_test_old (void);
PSC_DEPRECATED_IN_0_1_FOR (psc_test_new) void psc_test_older (void);
typedef int PscTestOld PSC_DEPRECATED_TYPE_IN_0_1;
void f (void) { PscTestOld x = 0; psc_test_old (); psc_test_older (); (void) x; }
EOF

case_ "PSC_DEPRECATED_IN_0_1_FOR names the replacement" "fail:Use 'psc_test_new' instead" "" <<'EOF'
#include <psocache/psocache.h>
PSC_DEPRECATED_IN_0_1_FOR (psc_test_new) void psc_test_old (void);
void f (void) { psc_test_old (); }
EOF

case_ "PSC_DEPRECATED_TYPE_IN_0_1_FOR warns on use of the type" "fail:Use 'PscTestNew' instead" "" <<'EOF'
#include <psocache/psocache.h>
typedef int PscTestOld PSC_DEPRECATED_TYPE_IN_0_1_FOR (PscTestNew);
int f (void) { PscTestOld x = 1; return x; }
EOF

case_ "PSC_DEPRECATED_ENUMERATOR_IN_0_1 warns on use of the value" "fail:'PSC_TEST_OLD' is deprecated" "" <<'EOF'
#include <psocache/psocache.h>
typedef enum { PSC_TEST_NEW, PSC_TEST_OLD PSC_DEPRECATED_ENUMERATOR_IN_0_1 } PscTestEnum;
int f (void) { return PSC_TEST_OLD; }
EOF

case_ "PSC_UNAVAILABLE warns with the version" "fail:Not available before 9.9" "" <<'EOF'
#include <psocache/psocache.h>
PSC_UNAVAILABLE (9, 9) void psc_test_future (void);
void f (void) { psc_test_future (); }
EOF

case_ "PSC_AVAILABLE_IN_0_1 declares exports" ok "" <<'EOF'
#include <psocache/psocache.h>
PSC_AVAILABLE_IN_0_1 void psc_test_new (void);
typedef int PscTestNew PSC_AVAILABLE_TYPE_IN_0_1;
typedef enum { PSC_TEST_VALUE PSC_AVAILABLE_ENUMERATOR_IN_0_1 } PscTestEnum;
void f (void) { PscTestNew x = PSC_TEST_VALUE; psc_test_new (); (void) x; }
EOF

case_ "no unversioned PSC_AVAILABLE_IN_ALL: every symbol names its version" "fail:PSC_AVAILABLE_IN_ALL" "" <<'EOF'
#include <psocache/psocache.h>
PSC_AVAILABLE_IN_ALL void psc_test_all (void);
EOF

case_ "a sub-header is refused outside the umbrella" "fail:Only <psocache/psocache.h> can be included directly." "" <<'EOF'
#include <psocache/psc-macros.h>
EOF

echo "1..$n"
[ $failures -eq 0 ] || { echo "# $failures case(s) failed"; exit 1; }
