#!/bin/sh
# rock_check.sh - `luarocks make` (offline) into a throw-away tree for Lua 5.4
# and for LuaJIT, then load what it installed and run one search with it.
set -eu
cd "$(dirname "$0")/.."
tree=$(mktemp -d)
trap 'rm -rf "$tree"; rm -f src/core/*.o src/lua/*.o astar/core.so; rmdir astar 2>/dev/null || true' EXIT
luarocks lint astar-scm-1.rockspec
probe='local a = require "astar"; local g = a.grid(8, 8); g:fill(4, 1, 1, 7, false)
local p = assert(g:find(1, 1, 8, 1)); assert(#p > 8, "detour expected")
local m = a.navmesh.from_polygons({0, 0, 10, 0, 10, 10, 0, 10}, {{4, 4, 6, 4, 6, 6, 4, 6}})
assert(#assert(m:find(1, 1, 9, 9)) == 3, "navmesh: one bend expected")
print("rock ok: " .. a._VERSION .. " on " .. (jit and jit.version or _VERSION) ..
  ", " .. package.searchpath("astar.core", package.cpath))'
luarocks --lua-version=5.4 --tree="$tree" make --deps-mode=none astar-scm-1.rockspec
LUA_PATH_5_4="$tree/share/lua/5.4/?.lua;;" LUA_CPATH_5_4="$tree/lib/lua/5.4/?.so;;" \
  lua5.4 -e "$probe"
luarocks --lua-version=5.1 --tree="$tree" make --deps-mode=none astar-scm-1.rockspec \
  LUA_INCDIR=/usr/include/luajit-2.1
LUA_PATH="$tree/share/lua/5.1/?.lua;;" LUA_CPATH="$tree/lib/lua/5.1/?.so;;" \
  luajit -e "$probe"
