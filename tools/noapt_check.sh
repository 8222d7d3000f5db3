#!/bin/sh
# noapt_check.sh - `make build` on a machine without Debian's installer: a PATH holding every
# command of /usr/bin except apt* and dpkg*. The build must use the compiler and headers that
# are there, and a missing header must end in a message that says what to do - never in apt.
set -eu
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
out=$(mktemp)
trap 'rm -rf "$bin" "$out"' EXIT
for f in /usr/bin/* /usr/local/bin/*; do
  case ${f##*/} in apt*|dpkg*|\*) ;; *) ln -sf "$f" "$bin/" ;; esac
done
if PATH="$bin" command -v apt-get >/dev/null 2>&1; then echo "noapt_check: apt-get still on PATH" >&2; exit 1; fi
PATH="$bin" make --no-print-directory -B build
if PATH="$bin" make --no-print-directory -B build LUA_INCDIR_5.4=/nonexistent >"$out" 2>&1; then
  echo "noapt_check: a build without lua.h succeeded" >&2; exit 1
fi
grep -q "set LUA_INCDIR_5.4=" "$out" || { cat "$out"; echo "noapt_check: no hint in the message" >&2; exit 1; }
if grep -qi "apt-get" "$out"; then cat "$out"; echo "noapt_check: the build called apt" >&2; exit 1; fi
echo "noapt_check: make build works without apt-get/dpkg; a missing lua.h says what to do"
