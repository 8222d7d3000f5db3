-- Out of memory in the constructors that read Lua tables and text (spec/c/oom_host.c), and in
-- the methods that build tables and fields. A 4x3 map: from (1, 1) to (4, 3) round the blocked
-- cell (2, 2) with no corner cutting: (1, 1) -> (3, 1) two steps, a diagonal to (4, 2) (the one
-- from (2, 1) would cut the blocked corner), a step to (4, 3): 3 + sqrt 2.
local astar = require "astar"
local BEST = 3 + math.sqrt(2)
local function near(a, b) return math.abs(a - b) < 1e-9 end

local function checkgrid(g)
  assert(not g:walkable(2, 2) and g:walkable(1, 1))
  assert(near(g:find(1, 1, 4, 3):cost(), BEST))
end

return {
  setup = function() return {} end,
  body = function(s)
    s.t = astar.grid.from_table({ { 1, 1, 1, 1 }, { 1, false, 1, 1 }, { 1, 1, 1, 1 } })
    s.p = astar.grid.parse("....\n.#..\n....", { ["."] = 1, ["#"] = false })
    s.m = astar.grid.parse_movingai("type octile\nheight 3\nwidth 4\nmap\n....\n.@..\n....\n")
    s.scen = astar.parse_scenarios("version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3.82842712\n")
    s.comp = s.t:components()
    s.field = s.t:distance_field({ { 4, 3 } })
    s.step = { s.field:next(1, 1) }
    s.back = s.field:path_from(1, 1)
    s.mesh = astar.navmesh { vertices = { 0, 0, 4, 0, 4, 3, 0, 3, 2, 3 },
      polygons = { { 1, 2, 5 }, { 2, 3, 5 }, { 1, 5, 4 } }, costs = { 1, 2, 1 } }
    s.verts = s.mesh:vertices()
    s.path = s.mesh:find(0.5, 0.5, 3.5, 2.5)
    s.tab = s.path:table()
  end,
  check = function(s)
    for _, k in ipairs({ "t", "p", "m" }) do if s[k] then checkgrid(s[k]) end end
    if s.scen then assert(#s.scen == 1 and s.scen[1].gx == 4 and near(s.scen[1].optimal, 3.82842712)) end
    if s.comp then assert(s.comp == 1) end
    if s.field then assert(near(s.field:distance(1, 1), BEST)) end
    if s.step and s.step[1] then assert(s.step[1] == 2 and s.step[2] == 1) end
    if s.back then assert(near(s.back:cost(), BEST)) end
    if s.mesh then
      assert(s.mesh:stats().polygons == 3 and s.mesh:cost(2) == 2)
      assert(s.mesh:find(0.5, 0.5, 3.5, 2.5))
    end
    if s.verts then assert(#s.verts == 10) end
    if s.tab and s.path then assert(#s.tab == #s.path) end
  end,
}
