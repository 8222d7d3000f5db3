-- Out of memory in cooperative paths (spec/c/oom_host.c): the reservation table, a
-- Cooperative A* and a WHCA* find with their state table and backward search, the Path with
-- its times, claiming the path, astar.cooperative, and the table's methods. A corridor with a
-- passing bay: unit 2 steps aside and waits for unit 1 (cost 7, 8 points).
local astar = require "astar"

return {
  setup = function()
    return { g = astar.grid.parse("###.###\n.......", { ["."] = 1, ["#"] = false }) }
  end,
  body = function(s)
    s.r = astar.reservations()
    s.a = s.g:find(1, 2, 7, 2, { reserve = s.r, unit = 1 })
    s.b = s.g:find(5, 2, 1, 2, { reserve = s.r, unit = 2 })
    s.w = s.g:find(1, 2, 7, 2, { reserve = s.r, unit = 3, window = 2, claim = false })
    s.paths = astar.cooperative(s.g, { { 1, 2, 7, 2 }, { 5, 2, 1, 2 } })
    s.hold = s.r:hold(9, 4, 1, 50)
    s.again = s.r:reserve(1, s.a)
    s.released = s.r:release(2)
  end,
  check = function(s)
    if s.b then assert(s.b:cost() == 7 and #s.b == 8 and s.b:time(8) == 7) end
    if s.paths then assert(s.paths[2] and s.paths[2]:cost() == 7) end
    if s.r then
      assert(s.r:holder(1, 2, 0) == 1 or s.r:holder(1, 2, 0) == nil)
      s.r:close()
    end
    -- after any failure a fresh table and the grid work
    local r = astar.reservations()
    assert(s.g:find(1, 2, 7, 2, { reserve = r, unit = 1 }):cost() == 6)
    assert(s.g:find(5, 2, 1, 2, { reserve = r, unit = 2 }):cost() == 7)
  end,
}
