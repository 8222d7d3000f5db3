-- Out of memory in navmesh building and searching (spec/c/oom_host.c). A 20x10 room with a 2x8
-- block at x 9..11, y 1..9: from (1, 5) to (19, 5) the shortest ways bend at two corners of the
-- block, (9, 1) and (11, 1) or (9, 9) and (11, 9): 2 * sqrt(8^2 + 4^2) + 2.
local astar = require "astar"
local BEST = 2 * math.sqrt(80) + 2
local function near(a, b) return math.abs(a - b) < 1e-9 end

return {
  setup = function() return {} end,
  body = function(s)
    s.mesh = astar.navmesh.from_polygons({ 0, 0, 20, 0, 20, 10, 0, 10 },
      { { 9, 1, 11, 1, 11, 9, 9, 9 } })
    s.path = s.mesh:find(1, 5, 19, 5)
    s.wide = s.mesh:find(1, 5, 19, 5, { radius = 0.4 })
    s.seen = { s.mesh:raycast(1, 5, 19, 5) }
    s.polys = s.mesh:polygons()
    s.grid = astar.grid(8, 8)
    s.grid:set(2, 6, false)
    s.gmesh = astar.navmesh.from_grid(s.grid)
    s.gpath = s.gmesh:find(0.5, 0.5, 7.5, 7.5)
  end,
  check = function(s)
    if s.mesh then assert(near(s.mesh:find(1, 5, 19, 5):cost(), BEST)) end
    if s.path then assert(near(s.path:cost(), BEST)) end
    if s.wide then assert(s.wide:cost() > BEST and s.wide:cost() < BEST + 2) end
    if s.seen and s.seen[1] ~= nil then assert(s.seen[1] == false) end
    if s.gmesh then
      -- (0.5, 0.5) -> (7.5, 7.5): the blocked cell is off the diagonal
      assert(near(s.gmesh:find(0.5, 0.5, 7.5, 7.5):cost(), 7 * math.sqrt(2)))
    end
    if s.gpath then assert(near(s.gpath:cost(), 7 * math.sqrt(2))) end
  end,
}
