-- Out of memory in graph methods (spec/c/oom_host.c). A square 1-2-3-4 with a diagonal 1-3 of
-- cost 5: from 1 to 3 the two sides cost 3 + 4 = 7 either way; the diagonal, 5, is shortest.
local astar = require "astar"
local function near(a, b) return math.abs(a - b) < 1e-9 end

return {
  setup = function() return {} end,
  body = function(s)
    local g = astar.graph()
    s.g = g
    local a, b = g:add_node(0, 0), g:add_node(3, 0)
    local c, d = g:add_node(3, 4), g:add_node(0, 4)
    g:add_edge(a, b); g:add_edge(b, c); g:add_edge(c, d); g:add_edge(d, a)
    g:add_edge(a, c, 5)
    s.built = true
    s.path = g:find(a, c)
    s.field = g:distance_field({ c })
    s.q = g:query(a, c)
    s.q:step(1000)
  end,
  check = function(s)
    if s.built then
      assert(near(s.g:find(1, 3):cost(), 5))
      assert(near(s.g:distance_field({ 1 }):distance(3), 5))
    end
    if s.path then assert(near(s.path:cost(), 5)) end
    if s.field then assert(near(s.field:distance(1), 5)) end
    if s.q then
      repeat until s.q:step(1000) ~= "running"
      assert(near(s.q:result():cost(), 5))
    end
  end,
}
