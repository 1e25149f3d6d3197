#!/bin/sh
# The installed library reads no environment variable (README: user knobs
# named PSOCACHE_* arrive with persistence). Proof from the binary: its
# dynamic symbol table imports nothing that reads (or writes) the
# environment, neither from libc nor from GLib. A new getenv() anywhere in
# the library, the core or what they compile in (volk, xxHash) fails this.
#
# usage: check-no-environment.sh NM LIBRARY
set -eu
nm=$1 lib=$2

undefined=$("$nm" -D --undefined-only "$lib" | awk '{ print $NF }' | sed 's/@.*//')
[ -n "$undefined" ] || { echo "no undefined symbols read from $lib: is it a shared library?"; exit 1; }

found=0
for sym in getenv secure_getenv __secure_getenv __libc_secure_getenv environ __environ \
           setenv unsetenv putenv clearenv \
           g_getenv g_setenv g_unsetenv g_listenv g_get_environ g_environ_getenv; do
  if printf '%s\n' "$undefined" | grep -qx "$sym"; then
    echo "$lib imports $sym: the library must not read the environment"
    found=1
  fi
done
[ "$found" = 0 ] || exit 1
echo "$lib imports none of the environment functions"
