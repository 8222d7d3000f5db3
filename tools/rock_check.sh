#!/bin/sh
# rock_check.sh - `make rock`: pack a source rock users can `luarocks install` offline, then
# prove it: install it into throw-away trees for PUC Lua 5.1, Lua 5.4 and LuaJIT, load what
# was installed and search with it. Also `luarocks make` from the checkout (the README's route).
#   dist/astar-<version>-1.rockspec   release rockspec; its source is the archive beside it
#   dist/astar-<version>-1.src.rock   the rockspec and that archive, for `luarocks install`
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
ver=$(sed -n 's/^#define ASTAR_VERSION "\(.*\)"/\1/p' src/core/astar.h)
[ -n "$ver" ] || { echo "rock_check: no ASTAR_VERSION in src/core/astar.h" >&2; exit 1; }
tree=$(mktemp -d)
trap 'rm -rf "$tree"; rm -f src/core/*.o src/lua/*.o astar/core.so; rmdir astar 2>/dev/null || true' EXIT
luarocks lint astar-scm-1.rockspec

# The release rockspec: the development one with a version and a source that exists.
mkdir -p dist
rm -f dist/astar-"$ver"-1.rockspec dist/astar-"$ver"-1.src.rock dist/astar-"$ver".tar.gz
extra=""
for d in types doc; do [ -d "$d" ] && extra="$extra $d"; done
# shellcheck disable=SC2086
tar -czf dist/astar-"$ver".tar.gz --transform "s,^,astar-$ver/," \
  astar-scm-1.rockspec src lua LICENSE README.md CHANGELOG.md .busted $extra
sed -e "s/^version = \"scm-1\"/version = \"$ver-1\"/" \
    -e "s|^  url = \"git+file:///astar\",|  url = \"file://$root/dist/astar-$ver.tar.gz\",\\n  dir = \"astar-$ver\",|" \
    astar-scm-1.rockspec > dist/astar-"$ver"-1.rockspec
grep -q "dir = \"astar-$ver\"" dist/astar-"$ver"-1.rockspec || { echo "rock_check: source not rewritten" >&2; exit 1; }
luarocks lint dist/astar-"$ver"-1.rockspec
(cd dist && luarocks pack astar-"$ver"-1.rockspec)
test -s dist/astar-"$ver"-1.src.rock
# The rock carries its source: without the archive beside it, installs must still work.
mv dist/astar-"$ver".tar.gz "$tree/"

probe='local a = require "astar"; local g = a.grid(8, 8); g:fill(4, 1, 1, 7, false)
local p = assert(g:find(1, 1, 8, 1)); assert(#p > 8, "detour expected")
local m = a.navmesh.from_polygons({0, 0, 10, 0, 10, 10, 0, 10}, {{4, 4, 6, 4, 6, 6, 4, 6}})
assert(#assert(m:find(1, 1, 9, 9)) == 3, "navmesh: one bend expected")
print("rock ok: " .. a._VERSION .. " on " .. (jit and jit.version or _VERSION) ..
  ", cpath " .. package.cpath)'
# install VM LUAVERSION INCDIR: the packed rock into its own tree, then the probe.
install() {
  t="$tree/$1"
  luarocks --lua-version="$2" --tree="$t" install --deps-mode=none \
    dist/astar-"$ver"-1.src.rock LUA_INCDIR="$3"
  if [ "$2" = 5.1 ]; then
    LUA_PATH="$t/share/lua/5.1/?.lua;;" LUA_CPATH="$t/lib/lua/5.1/?.so;;" "$1" -e "$probe"
  else
    v=$(echo "$2" | tr . _)
    env "LUA_PATH_$v=$t/share/lua/$2/?.lua;;" "LUA_CPATH_$v=$t/lib/lua/$2/?.so;;" "$1" -e "$probe"
  fi
}
install lua5.1 5.1 /usr/include/lua5.1
install lua5.4 5.4 /usr/include/lua5.4
install luajit 5.1 /usr/include/luajit-2.1

# The checkout route of the README (no fetch): luarocks make.
luarocks --lua-version=5.4 --tree="$tree/make" make --deps-mode=none astar-scm-1.rockspec
LUA_PATH_5_4="$tree/make/share/lua/5.4/?.lua;;" LUA_CPATH_5_4="$tree/make/lib/lua/5.4/?.so;;" \
  lua5.4 -e "$probe"
echo "rock_check: dist/astar-$ver-1.src.rock installs and runs on Lua 5.1, 5.4 and LuaJIT"
