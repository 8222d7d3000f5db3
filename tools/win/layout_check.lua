-- layout_check.lua - run by `make wintest` under wine, from a folder laid out like a LÖVE game
-- on Windows: luajit.exe + lua51.dll (love.exe + lua51.dll there), astar.lua, astar/*.lua and
-- astar/core.dll side by side. No LUA_PATH / LUA_CPATH: only what a game would set itself.
package.cpath = "./?.dll;" .. package.cpath
package.path = "./?.lua;./?/init.lua;" .. package.path

local found = package.searchpath and package.searchpath("astar.core", package.cpath)
assert(found, "astar.core is not on package.cpath: " .. package.cpath)
assert(found:gsub("\\", "/") == "./astar/core.dll", "astar.core would load from " .. found)

local astar = require "astar"
local grid = astar.grid.parse([[
S....#....
.##..#.~~.
..#....~~G]], { ["#"] = false, ["."] = 1, ["~"] = 3, S = 1, G = 1 })
local path = assert(grid:find(1, 1, 10, 3))
local cells = {}
for _, x, y in path:points() do cells[#cells + 1] = x .. "," .. y end
assert(#path == 13, "path of " .. #path .. " points, 13 expected")
assert(math.abs(path:cost() - (9 + 3 * math.sqrt(2))) < 1e-9, "cost " .. path:cost())

print(("%s on %s %s/%s: %d points, cost %.6f"):format(astar._VERSION, jit.version, jit.os, jit.arch,
  #path, path:cost()))
print("  " .. table.concat(cells, " "))
print(grid:render(path))
print("layout check OK")
