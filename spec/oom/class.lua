-- Out of memory in movement classes and cost overlays (spec/c/oom_host.c runs this with every
-- allocation of body refused in turn). The map: 12x12 of cost 1, a river of cost 3 at x = 6
-- (every row). A walker's class blocks the river but for a ford at (6, 6); the danger layer
-- adds 4 on row 6 from x = 8 to 12.
local astar = require "astar"
local SQRT2 = math.sqrt(2)

local function map()
  local g = astar.grid(12, 12)
  g:fill(6, 1, 1, 12, 3)
  return g
end

return {
  setup = function() return { g = map() } end,
  body = function(s)
    local g = s.g
    s.walker = g:class({ [3] = false })
    g:set(6, 6, 1)                                    -- the ford reaches the class
    s.path = s.walker:find(1, 6, 12, 6)
    local danger = astar.grid(12, 12, false)
    danger:fill(8, 6, 5, 1, 4)
    s.field = danger:to_field()
    s.around = g:find(1, 6, 12, 6, { overlay = s.field })
    s.q = g:query(1, 6, { overlay = s.field, goals = { { 12, 6 } } })
    s.q:step(1000000)
    s.df = g:distance_field({ { 12, 6 } }, { overlay = s.field })
  end,
  check = function(s)
    local g = s.g
    -- the map is edited whole or not at all, and any class made follows it
    assert(g:get(6, 6) == 1 or g:get(6, 6) == 3)
    local walker = s.walker or g:class({ [3] = false })
    g:set(6, 6, 1)
    assert(walker:get(6, 6) == 1 and walker:walkable(6, 5) == false)
    assert(walker:find(1, 6, 12, 6):cost() == 11, "walker after the failure")
    if s.path then assert(s.path:cost() == 11) end
    -- with the overlay: through the ford (5), one diagonal up (sqrt 2), along row 5 to
    -- x = 12 (5), then down into the goal, which pays its overlay (1 + 4)
    local want = 15 + SQRT2
    local field = s.field or (function()
      local d = astar.grid(12, 12, false)
      d:fill(8, 6, 5, 1, 4)
      return d:to_field()
    end)()
    local p = g:find(1, 6, 12, 6, { overlay = field })
    assert(math.abs(p:cost() - want) < 1e-9, "overlay after the failure: " .. p:cost())
    if s.around then assert(math.abs(s.around:cost() - want) < 1e-9) end
    if s.q then
      local st
      repeat st = s.q:step(1000000) until st ~= "running"
      assert(math.abs(s.q:result():cost() - want) < 1e-9, "query after the failure: " .. st)
    end
    if s.df then assert(math.abs(s.df:distance(1, 6) - want) < 1e-9) end
  end,
}
