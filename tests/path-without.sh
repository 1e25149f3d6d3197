#!/bin/sh
# path-without.sh: makes a PATH on which some programs cannot be found.
#
#   PATH=$(path-without.sh DIR PROGRAM...)
#
# Fills DIR (created) with a symbolic link to every other executable of the
# current PATH, the first one of each name as PATH lookup would find it, and
# prints DIR: the new PATH. Fails if a PROGRAM can still be found there.
# Used to prove that a build does not need PROGRAM (e.g. glslangValidator).
set -eu
[ $# -ge 2 ] || { echo "usage: path-without.sh DIR PROGRAM..." >&2; exit 2; }
dir=$1
shift
mkdir -p "$dir"
old_ifs=$IFS
IFS=:
for d in $PATH; do
  IFS=$old_ifs
  [ -d "$d" ] || continue
  for f in "$d"/*; do
    name=${f##*/}
    [ -x "$f" ] && [ ! -d "$f" ] || continue
    [ -e "$dir/$name" ] || [ -L "$dir/$name" ] && continue
    excluded=no
    for p in "$@"; do [ "$name" = "$p" ] && excluded=yes; done
    [ $excluded = no ] && ln -s "$f" "$dir/$name"
  done
done
IFS=$old_ifs
for p in "$@"; do
  if PATH=$dir command -v "$p" > /dev/null 2>&1; then
    echo "path-without: $p is still found in $dir" >&2
    exit 1
  fi
done
echo "$dir"
