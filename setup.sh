#!/bin/sh
# setup.sh - install the Debian packages astar needs; safe to run again.
#   sh setup.sh            build + test + demo: gcc make, Lua 5.1-5.4 and LuaJIT with headers, busted
#   sh setup.sh --love     also LOVE 11.4 and a headless X server (make love)
#   sh setup.sh --dev      also luacheck, ldoc, luarocks, clang, valgrind (make lint docs rock fuzz
#                          valgrind)
# Works on a bare Debian 12 image (needs only sh and apt-get); uses sudo when not root.
set -eu
PKGS="gcc make libc6-dev pkg-config lua5.4 liblua5.4-dev luajit libluajit-5.1-dev lua-busted
  lua5.1 liblua5.1-0-dev lua5.2 liblua5.2-dev lua5.3 liblua5.3-dev"
for a in "$@"; do
  case "$a" in
    --love) PKGS="$PKGS love xvfb xauth" ;;
    --dev)  PKGS="$PKGS lua-check lua-ldoc lua-discount luarocks clang libclang-rt-14-dev valgrind" ;;
    --all)  PKGS="$PKGS love xvfb xauth lua-check lua-ldoc lua-discount luarocks clang libclang-rt-14-dev
              valgrind" ;;
    *) echo "setup.sh: unknown option $a (use --love, --dev or --all)" >&2; exit 2 ;;
  esac
done
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "setup.sh: installing$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q \
  --no-install-recommends $missing
