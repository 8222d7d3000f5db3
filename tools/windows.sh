#!/bin/sh
# tools/windows.sh - astar for Windows, cross-built and tested from Debian 12 (issue 13).
#
#   sh tools/windows.sh dll      build/win/x64/astar/core.dll and build/win/x86/astar/core.dll
#                                (mingw-w64, LuaJIT 2.1 ABI = LÖVE 11.x's lua51.dll)   make windows
#   sh tools/windows.sh test     dll, then LuaJIT for Windows from Debian's source package, the
#                                busted suite under wine, and a LÖVE-like folder check  make wintest
#   sh tools/windows.sh test32   the x86 DLL's 32-bit data model and SSE2 arithmetic, tested on
#                                Linux: 32-bit LuaJIT + the core built with the x86 flags  make test32
#   sh tools/windows.sh release  dll, then dist/astar-<version>/ and its .zip (the Linux
#                                core.so files come from `make build`)                   make release
#   sh tools/windows.sh clean    rm -rf build/win dist, and the wine prefix
#
# Installs the Debian packages it needs by name (root or sudo), like setup.sh. Everything it
# makes or downloads is cached under build/win/ (the wine prefix: ~/.cache/astar-wineprefix,
# or $ASTAR_WINEPREFIX); a second run redoes only what changed.
#   WERROR=-Werror     warnings are errors in the core.dll build
#   ASTAR_MOVINGAI     Moving AI maps for the specs (default ../shared/benchmarks/movingai)
#   ASTAR_SCEN_LIMIT   scenarios per Moving AI map in the specs (default 200)
#   BUSTED_ARGS        instead of `spec`, e.g. "spec/grid_spec.lua"
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
W=build/win
WABS=$ROOT/$W
T0=$(date +%s)

say() { printf 'windows.sh [%3ss] %s\n' "$(( $(date +%s) - T0 ))" "$*"; }
die() { echo "windows.sh: $*" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------
# Debian packages, installed by name when missing (the same way as setup.sh).
need() {
  missing=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  say "installing$missing"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q \
    --no-install-recommends $missing >/dev/null
}
PKG_DLL="gcc-mingw-w64-x86-64-win32 gcc-mingw-w64-i686-win32 libluajit-5.1-dev"
PKG_TEST="$PKG_DLL wine wine64 dpkg-dev xz-utils make gcc libc6-dev lua-busted"

# True when file $1 is missing or older than any file under the paths that follow.
stale() {
  t=$1
  shift
  [ ! -f "$t" ] || [ -n "$(find "$@" -type f -newer "$t" | head -n 1)" ]
}

version() { sed -n 's/^#define ASTAR_VERSION "\(.*\)"/\1/p' src/core/astar.h; }

# ---------------------------------------------------------------------------------------------
# core.dll. Linked against an import library for lua51.dll made from a .def that lists exactly
# the lua_*/luaL_* functions the objects call (nm -u), so no LuaJIT source or DLL is needed and
# the list follows the code. Only luaopen_astar_core is exported (core.def).
CFLAGS_WIN="-O2 -std=c99 -Wall -Wextra -pedantic -Wshadow -Wmissing-prototypes -Isrc/core -I/usr/include/luajit-2.1"

dll_arch() { # x64 | x86
  arch=$1
  # x86: SSE2 arithmetic, not the x87 default. x87 keeps 80-bit intermediates, and D* Lite's
  # path walk (compares of g-values that must tie exactly) then loops: replanner_spec fails on
  # a 32-bit x87 build. LuaJIT 2.1 itself requires SSE2 on x86, so no LÖVE player loses.
  case $arch in
    x64) T=x86_64-w64-mingw32 FP="" ;;
    x86) T=i686-w64-mingw32 FP="-msse2 -mfpmath=sse" ;;
  esac
  d=$W/$arch
  out=$d/astar/core.dll
  if ! stale "$out" src tools/windows.sh; then
    say "$out is up to date"
    return 0
  fi
  rm -rf "$d/obj" && mkdir -p "$d/obj" "$d/astar"
  for f in src/core/*.c src/lua/*.c; do
    o=$d/obj/$(basename "$(dirname "$f")")_$(basename "$f" .c).o
    $T-gcc $CFLAGS_WIN $FP ${WERROR:-} -c "$f" -o "$o"
  done
  # The functions of lua51.dll that the objects import. i686 C symbols carry a leading '_'.
  {
    echo "LIBRARY lua51.dll"
    echo "EXPORTS"
    $T-nm -u "$d"/obj/*.o | awk '{print $NF}' | sed 's/^_\(luaL\{0,1\}_\)/\1/' |
      grep -E '^luaL?_' | sort -u | sed 's/^/  /'
  } > "$d/lua51.def"
  $T-dlltool -d "$d/lua51.def" -D lua51.dll -l "$d/liblua51.a"
  printf 'EXPORTS\n  luaopen_astar_core\n' > "$d/core.def"
  $T-gcc -shared -s -static-libgcc -Wl,--no-insert-timestamp -o "$out.tmp" \
    "$d"/obj/*.o "$d/core.def" "$d/liblua51.a"
  check_dll "$T" "$out.tmp"
  mv "$out.tmp" "$out"
  say "$out: $(wc -c < "$out") bytes, imports $(grep -c '^  ' "$d/lua51.def") functions of lua51.dll"
}

# The DLL must import from lua51.dll, KERNEL32.dll and msvcrt.dll only (nothing a game does
# not already have: no libgcc_s, no libwinpthread) and export luaopen_astar_core alone.
check_dll() { # triplet dll
  $1-objdump -p "$2" > "$2.dump"
  imports=$(sed -n 's/^[[:space:]]*DLL Name: //p' "$2.dump" | sort | tr '\n' ' ')
  exports=$(awk '/\[Ordinal\/Name Pointer\] Table/ {t = 1; next}
                 t && /^[[:space:]]*\[/ {print $NF; next}
                 t {t = 0}' "$2.dump" | tr '\n' ' ')
  for i in $imports; do
    case $i in
      lua51.dll|KERNEL32.dll|msvcrt.dll) ;;
      *) die "$2 imports $i (only lua51.dll, KERNEL32.dll, msvcrt.dll are allowed)" ;;
    esac
  done
  [ "$exports" = "luaopen_astar_core " ] || die "$2 exports '$exports', not luaopen_astar_core alone"
  rm -f "$2.dump"
  say "$(basename "$(dirname "$(dirname "$2")")"): imports $imports; exports $exports"
}

cmd_dll() {
  need $PKG_DLL
  dll_arch x64
  dll_arch x86
}

# ---------------------------------------------------------------------------------------------
# Debian source packages through a private apt configuration: the machine's own archives (the
# deb entries of /etc/apt), as deb-src, with lists and cache under build/win/apt.
apt_src() {
  A=$WABS/apt
  mkdir -p "$A/parts" "$A/lists/partial" "$A/cache/archives/partial" "$W/src"
  : > "$A/sources.list"
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >> "$A/sources.list"
  done
  rm -f "$A"/parts/*.sources
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" > "$A/parts/$(basename "$f")"
  done
  set -- -q -o Dir::Etc::SourceList="$A/sources.list" -o Dir::Etc::SourceParts="$A/parts" \
    -o Dir::State::Lists="$A/lists" -o Dir::Cache="$A/cache"
  [ "$(id -u)" -eq 0 ] && set -- "$@" -o APT::Sandbox::User=root
  APT_OPTS=$*
}

# Fetches the source package $1 into build/win/src (once) and unpacks it to build/win/src/$1:
# with Debian's patches when the whole package could be fetched, else the upstream tarball.
fetch_src() { # package [directory under build/win/src, default: the package's name]
  pkg=$1
  dir=${2:-$1}
  [ -d "$W/src/$dir" ] && return 0
  if ! ls "$W/src/${pkg}"_*.dsc >/dev/null 2>&1; then
    if [ ! -f "$WABS/apt/lists/.updated" ]; then
      say "apt-get update (deb-src lists, private to build/win/apt)"
      # shellcheck disable=SC2086
      apt-get $APT_OPTS update > "$W/logs/apt-update.log" 2>&1 || die "apt-get update failed: $W/logs/apt-update.log"
      touch "$WABS/apt/lists/.updated"
    fi
    say "apt-get source --download-only $pkg"
    # shellcheck disable=SC2086
    (cd "$W/src" && apt-get $APT_OPTS source --download-only "$pkg") >> "$W/logs/apt-source.log" 2>&1 || true
  fi
  dsc=$(ls "$W/src/${pkg}"_*.dsc 2>/dev/null | tail -n 1)
  [ -n "$dsc" ] || die "no source package $pkg (see $W/logs/apt-source.log)"
  if ls "$W/src/${pkg}"_*.debian.tar.* >/dev/null 2>&1; then
    dpkg-source --no-check -x "$dsc" "$W/src/$dir" > "$W/logs/dpkg-source-$dir.log" 2>&1
  else
    orig=$(ls "$W/src/${pkg}"_*.orig.tar.* 2>/dev/null | tail -n 1)
    [ -n "$orig" ] || die "no tarball of $pkg could be fetched (see $W/logs/apt-source.log)"
    say "$pkg: Debian's packaging could not be fetched, building from its upstream tarball"
    rm -rf "$W/src/$dir.tmp" && mkdir -p "$W/src/$dir.tmp"
    tar -xf "$orig" -C "$W/src/$dir.tmp"
    mv "$W/src/$dir.tmp"/* "$W/src/$dir" && rmdir "$W/src/$dir.tmp"
  fi
}

# LuaJIT for Windows x64 (luajit.exe + lua51.dll, the pair LÖVE ships), and the C modules
# busted needs, all against that lua51.dll, under build/win/luajit.
LJ=$W/luajit
XCC="x86_64-w64-mingw32-gcc -O2 -shared -s -static-libgcc"

cmd_luajit() {
  mkdir -p "$W/logs" "$LJ/clib/system" "$LJ/clib/term"
  apt_src
  if [ ! -f "$LJ/luajit.exe" ] || [ ! -f "$LJ/lua51.dll" ]; then
    fetch_src luajit
    say "building LuaJIT for Windows x64 (Debian's luajit source)"
    make -C "$W/src/luajit" -j2 HOST_CC=gcc CROSS=x86_64-w64-mingw32- TARGET_SYS=Windows \
      BUILDMODE=dynamic > "$W/logs/luajit.log" 2>&1 || die "LuaJIT build failed: $W/logs/luajit.log"
    cp "$W/src/luajit/src/luajit.exe" "$W/src/luajit/src/lua51.dll" "$LJ/"
    cp "$W/src/luajit/src"/lua.h "$W/src/luajit/src"/luaconf.h "$W/src/luajit/src"/lauxlib.h \
      "$W/src/luajit/src"/lualib.h "$W/src/luajit/src"/luajit.h "$LJ/"
  fi
  if [ ! -f "$LJ/clib/lfs.dll" ]; then
    fetch_src lua-filesystem
    $XCC -I"$LJ" -o "$LJ/clib/lfs.dll" "$W/src/lua-filesystem/src/lfs.c" "$LJ/lua51.dll"
    say "built lfs.dll (Debian's lua-filesystem)"
  fi
  if [ ! -f "$LJ/clib/term/core.dll" ]; then
    fetch_src lua-term
    $XCC -I"$LJ" -o "$LJ/clib/term/core.dll" "$W/src/lua-term/core.c" "$LJ/lua51.dll"
    say "built term/core.dll (Debian's lua-term)"
  fi
  if stale "$LJ/clib/system/core.dll" tools/win/system_core.c; then
    $XCC -std=c99 -Wall -Wextra -I"$LJ" -o "$LJ/clib/system/core.dll" tools/win/system_core.c "$LJ/lua51.dll"
    say "built system/core.dll (tools/win/system_core.c: Debian's lua-system source cannot be fetched)"
  fi
}

# ---------------------------------------------------------------------------------------------
# wine, with a prefix of its own (made on first use, a few seconds). Not under build/: a
# prefix holds dosdevices/z: -> /, and `luacheck .` (make lint) would walk the whole machine.
WINE_DIR=${ASTAR_WINEPREFIX:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/astar-wineprefix}

wine_env() {
  export WINEPREFIX="$WINE_DIR" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
  if [ ! -f "$WINEPREFIX/system.reg" ]; then
    say "creating the wine prefix $WINEPREFIX"
    mkdir -p "$(dirname "$WINEPREFIX")"
    wine cmd /c exit > "$W/logs/wineprefix.log" 2>&1 || true
  fi
}

# A unix path as wine's Windows programs see it (wine maps / to Z:).
winpath() {
  case $1 in
    /*) printf 'Z:%s' "$1" ;;
    *) printf '%s' "$1" ;;
  esac
}

cmd_test() {
  need $PKG_TEST
  cmd_dll
  cmd_luajit
  wine_env
  movingai=${ASTAR_MOVINGAI:-$ROOT/../shared/benchmarks/movingai}
  [ -d "$movingai" ] && movingai=$(cd "$movingai" && pwd)
  say "busted under wine: LuaJIT for Windows x64 + build/win/x64/astar/core.dll"
  rm -f "$W/logs/busted.log"
  set +e
  # shellcheck disable=SC2086
  EXPECT_INTERP=LuaJIT \
  ASTAR_MOVINGAI="$(winpath "$movingai")" \
  ASTAR_SCEN_LIMIT="${ASTAR_SCEN_LIMIT:-200}" \
  LUA_PATH="./lua/?.lua;./lua/?/init.lua;Z:/usr/share/lua/5.1/?.lua;Z:/usr/share/lua/5.1/?/init.lua;;" \
  LUA_CPATH="./$W/x64/?.dll;./$LJ/clib/?.dll;;" \
    wine "$LJ/luajit.exe" Z:/usr/bin/busted -o utfTerminal ${BUSTED_ARGS:-spec} 2>&1 | tee "$W/logs/busted.log"
  set -e
  tail -n 3 "$W/logs/busted.log" | grep -q ' 0 failures / 0 errors' || die "specs failed under wine (log: $W/logs/busted.log)"
  layout_check
  say "wintest OK"
}

# A folder laid out like a LÖVE game on Windows: the interpreter and lua51.dll, astar.lua,
# astar/*.lua and astar/core.dll side by side, run with no LUA_PATH / LUA_CPATH.
layout_check() {
  G=$W/game
  rm -rf "$G" && mkdir -p "$G/astar"
  cp "$LJ/luajit.exe" "$LJ/lua51.dll" "$G/"
  cp -R lua/. "$G/"
  cp "$W/x64/astar/core.dll" "$G/astar/"
  cp tools/win/layout_check.lua "$G/main.lua"
  say "LÖVE-like folder $G: require \"astar\" with package.cpath = \"./?.dll;\" .. package.cpath"
  (cd "$G" && env -u LUA_PATH -u LUA_CPATH wine luajit.exe main.lua) 2>&1 | tee "$W/logs/layout.log"
  grep -q '^layout check OK' "$W/logs/layout.log" || die "the LÖVE-like layout check failed"
}

# ---------------------------------------------------------------------------------------------
# The x86 DLL cannot run here (wine for 32-bit programs needs Debian's i386 architecture
# added to the machine). Its risks are those of any ILP32 build (32-bit size_t, pointers and
# LuaJIT's lua_Integer) and of its floating point (SSE2, as chosen above): this builds
# 32-bit LuaJIT for Linux from the same Debian source, the core with the x86 DLL's flags, and
# runs every spec with it (where the kernel runs 32-bit programs: below). Not Windows, but the
# same 32-bit data model and arithmetic.
L32=$W/linux32

cmd_test32() {
  need gcc-multilib dpkg-dev xz-utils make libluajit-5.1-dev lua-busted
  mkdir -p "$W/logs" "$L32/clib/system" "$L32/clib/term" "$L32/astar"
  if stale "$L32/astar/core.so" src tools/windows.sh; then
    # shellcheck disable=SC2086
    gcc -m32 -msse2 -mfpmath=sse $CFLAGS_WIN ${WERROR:-} -fPIC -shared -o "$L32/astar/core.so" \
      src/core/*.c src/lua/*.c -lm -pthread
    say "built $L32/astar/core.so (i386, the x86 DLL's flags)"
  fi
  # Some kernels run no 32-bit x86 program ("Exec format error": built without IA32
  # emulation, as a machine of 2026-11-29 was). There the core above, built for i386 with
  # the x86 DLL's flags (warnings as errors under WERROR), is all this can check; the probe
  # is the smallest 32-bit program, so that its failure says only that.
  printf 'int main(void) { return 0; }\n' > "$W/logs/probe32.c"
  if ! gcc -m32 -o "$W/logs/probe32" "$W/logs/probe32.c" || ! "$W/logs/probe32" 2>/dev/null; then
    say "test32: this kernel cannot run 32-bit x86 programs; the core built for i386, the specs NOT run"
    return 0
  fi
  apt_src
  if [ ! -x "$L32/luajit" ]; then
    fetch_src luajit luajit-linux32
    say "building 32-bit LuaJIT for Linux (Debian's luajit source, SSE2)"
    make -C "$W/src/luajit-linux32" -j2 CC="gcc -m32 -msse2 -mfpmath=sse" BUILDMODE=static \
      > "$W/logs/luajit-linux32.log" 2>&1 || die "LuaJIT build failed: $W/logs/luajit-linux32.log"
    cp "$W/src/luajit-linux32/src/luajit" "$L32/luajit"
  fi
  CC32="gcc -m32 -msse2 -mfpmath=sse -O2 -fPIC -shared -I$W/src/luajit-linux32/src"
  if [ ! -f "$L32/clib/lfs.so" ]; then
    fetch_src lua-filesystem
    $CC32 -o "$L32/clib/lfs.so" "$W/src/lua-filesystem/src/lfs.c"
  fi
  if [ ! -f "$L32/clib/term/core.so" ]; then
    fetch_src lua-term
    $CC32 -o "$L32/clib/term/core.so" "$W/src/lua-term/core.c"
  fi
  if stale "$L32/clib/system/core.so" tools/win/system_core.c; then
    $CC32 -std=c99 -Wall -Wextra -o "$L32/clib/system/core.so" tools/win/system_core.c
  fi
  movingai=${ASTAR_MOVINGAI:-$ROOT/../shared/benchmarks/movingai}
  say "busted with 32-bit LuaJIT for Linux + $L32/astar/core.so"
  set +e
  # shellcheck disable=SC2086
  EXPECT_INTERP=LuaJIT ASTAR_MOVINGAI="$movingai" ASTAR_SCEN_LIMIT="${ASTAR_SCEN_LIMIT:-200}" \
  LUA_PATH="./lua/?.lua;./lua/?/init.lua;/usr/share/lua/5.1/?.lua;/usr/share/lua/5.1/?/init.lua;;" \
  LUA_CPATH="./$L32/?.so;./$L32/clib/?.so" \
    "$L32/luajit" /usr/bin/busted -o utfTerminal ${BUSTED_ARGS:-spec} 2>&1 | tee "$W/logs/busted32.log"
  set -e
  tail -n 3 "$W/logs/busted32.log" | grep -q ' 0 failures / 0 errors' || die "specs failed on 32-bit (log: $W/logs/busted32.log)"
  say "test32 OK"
}

# ---------------------------------------------------------------------------------------------
cmd_release() {
  need zip binutils
  cmd_dll
  for so in build/jit/astar/core.so build/5.4/astar/core.so; do
    [ -f "$so" ] || die "$so is missing: run \`make build\` (or \`make release\`, which does)"
  done
  v=$(version)
  [ -n "$v" ] || die "no ASTAR_VERSION in src/core/astar.h"
  name=astar-$v
  D=dist/$name
  case $(uname -m) in
    x86_64) lx=linux-x64 ;;
    aarch64) lx=linux-arm64 ;;
    *) lx=linux-$(uname -m) ;;
  esac
  rm -rf "$D" "dist/$name.zip"
  mkdir -p "$D/lua" "$D/windows-x64/astar" "$D/windows-x86/astar" "$D/$lx-luajit/astar" \
    "$D/$lx-lua5.4/astar"
  [ -f dist/.gitignore ] || printf '*\n' > dist/.gitignore
  cp -R lua/. "$D/lua/"
  cp "$W/x64/astar/core.dll" "$D/windows-x64/astar/core.dll"
  cp "$W/x86/astar/core.dll" "$D/windows-x86/astar/core.dll"
  strip --strip-unneeded -o "$D/$lx-luajit/astar/core.so" build/jit/astar/core.so
  strip --strip-unneeded -o "$D/$lx-lua5.4/astar/core.so" build/5.4/astar/core.so
  cp README.md "$D/"
  for f in LICENSE LICENSE.md LICENSE.txt COPYING CHANGELOG.md; do
    [ -f "$f" ] && cp "$f" "$D/"
  done
  sed -e "s/@VERSION@/$v/g" -e "s/linux-x64/$lx/g" tools/win/dist-readme.txt > "$D/INSTALL.txt"
  (cd dist && zip -q -r -X "$name.zip" "$name")
  say "dist/$name.zip ($(wc -c < "dist/$name.zip") bytes):"
  (cd dist && find "$name" -type f | sort | sed 's/^/  /')
}

case ${1:-} in
  dll) cmd_dll ;;
  luajit) need $PKG_TEST; cmd_luajit ;;
  test) cmd_test ;;
  test32) cmd_test32 ;;
  release) cmd_release ;;
  clean) rm -rf "$W" dist "$WINE_DIR" ;;
  *) echo "usage: sh tools/windows.sh dll|test|test32|release|luajit|clean" >&2; exit 2 ;;
esac
