-- Out of memory in astar.search (spec/c/oom_host.c): the integers 0 .. 40, steps of +1 (cost 1)
-- and *2 (cost 1); from 1 to 40 the fewest steps are 1 +1 2 *2 4 +1 5 *2 10 *2 20 *2 40: six
-- (40 is 5 * 8, and 5 takes three).
local astar = require "astar"

return {
  setup = function() return {} end,
  body = function(s)
    s.path = astar.search {
      start = 1, goal = 40,
      neighbors = function(n, emit)
        if n + 1 <= 40 then emit(n + 1, 1) end
        if n * 2 <= 40 then emit(n * 2, 1) end
      end,
    }
  end,
  check = function(s)
    if s.path then assert(s.path:cost() == 6, s.path:cost()) end
    local p = astar.search { start = 1, goal = 40, neighbors = function(n, emit)
      if n + 1 <= 40 then emit(n + 1, 1) end
      if n * 2 <= 40 then emit(n * 2, 1) end
    end }
    assert(p and p:cost() == 6, tostring(p and p:cost()))
  end,
}
