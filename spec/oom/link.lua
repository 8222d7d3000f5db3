-- Out of memory in grid links (spec/c/oom_host.c runs this with every allocation of body
-- refused in turn). The map: 12x12, a wall at x = 6 from top to bottom; a link both ways from
-- (5, 6) to (7, 6) of cost 2 is the only way through: from (1, 6) to (12, 6), 4 + 2 + 5 = 11.
local astar = require "astar"
local BEST = 11

local function walled()
  local g = astar.grid(12, 12)
  g:fill(6, 1, 1, 12, false)
  return g
end

return {
  setup = function() return { g = walled() } end,
  body = function(s)
    local g = s.g
    g:link(5, 6, 7, 6, 2)
    s.linked = true
    s.path = g:find(1, 6, 12, 6)
    s.q = g:query(1, 6, 12, 6)
    s.q:step(1000000)
    s.field = g:distance_field({ { 12, 6 } })
    s.clone = g:clone()
    s.cells = g:to_path({ 4, 6, 5, 6, 7, 6 })
    s.list = g:links()
    s.back = g:find(12, 6, 1, 6)
  end,
  check = function(s)
    local g = s.g
    local n = #g:links()
    -- a link both ways is made whole or not at all
    assert(n == 0 or n == 2, "links after the failure: " .. n)
    if n == 0 then
      assert(not s.linked)
      assert(g:find(1, 6, 12, 6) == nil)
      g:link(5, 6, 7, 6, 2)
    end
    assert(g:find(1, 6, 12, 6):cost() == BEST, "find after the failure")
    if s.path then assert(s.path:cost() == BEST and s.path:link(5) == 2) end
    if s.q then
      local st
      repeat st = s.q:step(1000000) until st ~= "running"
      local p = s.q:result()
      assert(p and p:cost() == BEST, "query after the failure: " .. st)
    end
    if s.field then assert(s.field:distance(1, 6) == BEST) end
    if s.clone then
      assert(#s.clone:links() == 2)
      assert(s.clone:find(1, 6, 12, 6):cost() == BEST)
    end
    if s.cells then assert(s.cells:cost() == 3 and s.cells:link(2) == 2) end
    if s.list then assert(#s.list == 2) end
    if s.back then assert(s.back:cost() == BEST) end
    assert(g:distance_field({ { 12, 6 } }):distance(1, 6) == BEST)
  end,
}
