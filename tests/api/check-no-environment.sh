#!/bin/sh
# The installed library reads only its documented user knobs
# (PSOCACHE_DISABLE, PSOCACHE_DIR, PSOCACHE_MAX_SIZE; README "Environment")
# and no test variable. Two proofs:
#  - from the binary: its dynamic symbol table imports nothing that reads
#    or writes the environment except g_getenv (no getenv, secure_getenv,
#    environ, setenv, g_listenv, ...), so a getenv() anywhere in the
#    library, the core or what they compile in (volk, xxHash, zstd) fails;
#  - from the sources: the one call of g_getenv is in libpsocache/psc-env.c,
#    which names exactly the three knobs.
#
# usage: check-no-environment.sh NM LIBRARY SOURCE-DIR
set -eu
nm=$1 lib=$2 src=$3

undefined=$("$nm" -D --undefined-only "$lib" | awk '{ print $NF }' | sed 's/@.*//')
[ -n "$undefined" ] || { echo "no undefined symbols read from $lib: is it a shared library?"; exit 1; }

found=0
for sym in getenv secure_getenv __secure_getenv __libc_secure_getenv environ __environ \
           setenv unsetenv putenv clearenv \
           g_setenv g_unsetenv g_listenv g_get_environ g_environ_getenv; do
  if printf '%s\n' "$undefined" | grep -qx "$sym"; then
    echo "$lib imports $sym: the library must not read the environment but through g_getenv in psc-env.c"
    found=1
  fi
done

calls=$(grep -rln --include='*.c' --include='*.h' -E '\b(g_)?getenv[[:space:]]*\(' "$src/libpsocache" || true)
if [ "$calls" != "$src/libpsocache/psc-env.c" ]; then
  echo "getenv/g_getenv is called outside libpsocache/psc-env.c:"
  printf '  %s\n' $calls
  found=1
fi
knobs=$(grep -oE '"[A-Z_]+"' "$src/libpsocache/psc-env.c" | sort | tr '\n' ' ')
if [ "$knobs" != '"PSOCACHE_DIR" "PSOCACHE_DISABLE" "PSOCACHE_MAX_SIZE" ' ]; then
  echo "psc-env.c names other variables than the three knobs: $knobs"
  found=1
fi
[ "$found" = 0 ] || exit 1
echo "$lib reads the environment only through psc-env.c, which names PSOCACHE_DISABLE, PSOCACHE_DIR and PSOCACHE_MAX_SIZE"
