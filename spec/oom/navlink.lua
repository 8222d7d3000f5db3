-- Out of memory in navmesh links (spec/c/oom_host.c runs this with every allocation of body
-- refused in turn). Two rooms 10 x 10 apart, (0..10) and (20..30) in x; a link both ways from
-- (9, 5) to (21, 5) of cost 4 is the only way across: from (1, 5) to (29, 5), 8 + 4 + 8 = 20.
local astar = require "astar"
local BEST = 20

local function rooms()
  return astar.navmesh { vertices = { 0, 0, 10, 0, 10, 10, 0, 10, 20, 0, 30, 0, 30, 10, 20, 10 },
    polygons = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } } }
end

local function cost(_, _, base) return base end

return {
  setup = function() return { m = rooms() } end,
  body = function(s)
    local m = s.m
    m:link(9, 5, 21, 5, 4)
    s.linked = true
    s.path = m:find(1, 5, 29, 5)
    s.portal = m:find(1, 5, 29, 5, { cost = cost })
    s.q = m:query(1, 5, 29, 5)
    s.q:step(1000000)
    s.list = m:links()
    s.back = m:find(29, 5, 1, 5, { radius = 0.5 })
  end,
  check = function(s)
    local m = s.m
    local n = #m:links()
    -- a link both ways is made whole or not at all
    assert(n == 0 or n == 2, "links after the failure: " .. n)
    if n == 0 then
      assert(not s.linked)
      assert(m:find(1, 5, 29, 5) == nil)
      m:link(9, 5, 21, 5, 4)
    end
    assert(m:find(1, 5, 29, 5):cost() == BEST, "find after the failure")
    assert(m:find(1, 5, 29, 5, { cost = cost }):cost() == BEST, "portal find after the failure")
    if s.path then assert(s.path:cost() == BEST and s.path:link(2) == 4) end
    if s.portal then assert(s.portal:cost() == BEST and s.portal:link(2) == 4) end
    if s.q then
      local st
      repeat st = s.q:step(1000000) until st ~= "running"
      local p = s.q:result()
      assert(p and p:cost() == BEST, "query after the failure: " .. st)
    end
    if s.list then assert(#s.list == 2) end
    if s.back then assert(s.back:cost() == BEST) end
  end,
}
