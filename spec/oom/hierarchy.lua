-- Out of memory in hierarchical search (spec/c/oom_host.c): building the abstraction, a
-- search and its refinement, a time-sliced query, and the local rebuild after an edit. A
-- 40x30 grid with a wall at x = 20 open at y = 30: from (2, 2) to (38, 2) the way goes round.
-- Then a build on two threads (256 clusters: the threads' scratch is allocated too).
local astar = require "astar"

local function grid()
  local g = astar.grid(40, 30)
  g:fill(20, 1, 1, 29, false)
  return g
end

local HIER = { algorithm = "hierarchical" }

local function big()
  local g = astar.grid(64, 64)
  g:fill(30, 1, 1, 60, false)
  g:fill(5, 40, 50, 1, 3)
  return g
end

return {
  setup = function() return { g = grid(), big = big() } end,
  body = function(s)
    s.info = s.g:hierarchy { cluster = 8 }
    s.p = s.g:find(2, 2, 38, 2, HIER)
    local q = s.g:query(2, 2, 38, 2, HIER)
    while q:step(2) == "running" do end
    s.q = q:result()
    s.g:set(10, 10, false)
    s.after = s.g:hierarchy { cluster = 8 }
    s.binfo = s.big:hierarchy { cluster = 4, threads = 2 }
  end,
  check = function(s)
    local function ok(g, p)         -- legal on g, and no cheaper than A* there
      assert(g:check(p))
      assert(p:cost() >= g:find(2, 2, 38, 2, { algorithm = "astar" }):cost() - 1e-9)
    end
    local before = grid()             -- the paths of the body were found before its edit
    if s.p then ok(before, s.p) end
    if s.q then ok(before, s.q) end
    ok(s.g, s.g:find(2, 2, 38, 2, HIER))
    local fresh = grid()
    fresh:set(10, 10, false)
    if not s.after then s.g:set(10, 10, false) end
    assert(s.g:hierarchy { cluster = 8 }.digest == fresh:hierarchy { cluster = 8 }.digest)
    if s.info then assert(s.info.clusters == 20) end
    local want = big():hierarchy { cluster = 4, threads = 1 }.digest
    if s.binfo then assert(s.binfo.digest == want) end
    assert(s.big:hierarchy { cluster = 4, threads = 2 }.digest == want)
  end,
}
