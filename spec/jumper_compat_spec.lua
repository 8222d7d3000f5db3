-- astar.compat.jumper: Jumper 1.8's API (Yonaba/Jumper) on astar.
--
-- Expected values come from Jumper's own documentation (its README example, the examples and
-- specs it ships: hand-checked below), or from references written here over Jumper's documented
-- rules: a Dijkstra / BFS on the moves Jumper's Grid:getNeighbours allows (the four straight
-- cells; in DIAGONAL mode the four diagonal ones too, except a diagonal whose two side cells are
-- both unwalkable, unless tunnelling is on), steps of length 1 and sqrt(2). Nothing here asks the
-- shim or astar for an expectation.

local J = require "astar.compat.jumper"
local H = require "spec.helper"

local Grid, Pathfinder, Path, Node, Heuristics = J.grid, J.pathfinder, J.path, J.node, J.heuristics
local floor, abs, sqrt = math.floor, math.abs, math.sqrt
local SQRT2 = sqrt(2)

---------------------------------------------------------------------------------------------------
-- References

-- ok(x, y): walkable per the test's own reading of the map (1-based).
local function rule_moves(ok, w, h, diagonal, tunnel, enter)
  local dirs = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }
  if diagonal then
    dirs[5], dirs[6], dirs[7], dirs[8] = { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 }
  end
  local function inside(x, y) return x >= 1 and y >= 1 and x <= w and y <= h end
  local function walk(x, y) return inside(x, y) and ok(x, y) end
  return function(u, emit)
    local x, y = (u - 1) % w + 1, floor((u - 1) / w) + 1
    for _, d in ipairs(dirs) do
      local nx, ny = x + d[1], y + d[2]
      if walk(nx, ny) and (enter == nil or enter(nx, ny)) then
        if d[1] == 0 or d[2] == 0 then
          emit((ny - 1) * w + nx, 1)
        elseif tunnel or walk(nx, y) or walk(x, ny) then
          emit((ny - 1) * w + nx, SQRT2)
        end
      end
    end
  end
end

-- Shortest length from (sx, sy) to (gx, gy) under Jumper's rule, or nil.
local function ref_length(ok, w, h, sx, sy, gx, gy, diagonal, tunnel, enter)
  local dist = H.dijkstra_generic({ { (sy - 1) * w + sx, 0 } }, rule_moves(ok, w, h, diagonal, tunnel, enter))
  return dist[(gy - 1) * w + gx]
end

-- Fewest steps, and the shortest length among the paths with that many steps, or nil.
local function ref_bfs(ok, w, h, sx, sy, gx, gy, diagonal, tunnel)
  local succ = rule_moves(ok, w, h, diagonal, tunnel)
  local s = (sy - 1) * w + sx
  local steps = H.bfs_generic(s, succ)
  local g = (gy - 1) * w + gx
  if steps[g] == nil then return nil end
  local dist = H.dijkstra_generic({ { s, 0 } }, function(u, emit)
    succ(u, function(v, c)
      if steps[v] == steps[u] + 1 then emit(v, c) end
    end)
  end)
  return steps[g], dist[g]
end

local function coords(path)
  local out = {}
  for node in path:nodes() do out[#out + 1] = { node:getX(), node:getY() } end
  return out
end

local function euclid(a, b)
  local dx, dy = a[1] - b[1], a[2] - b[2]
  return sqrt(dx * dx + dy * dy)
end

local function length_of(pts)
  local len = 0
  for i = 2, #pts do len = len + euclid(pts[i - 1], pts[i]) end
  return len
end

-- Every step of `pts` is one move Jumper's rule allows (pts: 1-based coordinates).
local function check_steps(pts, ok, w, h, diagonal, tunnel, enter)
  local succ = rule_moves(ok, w, h, diagonal, tunnel, enter)
  for i = 2, #pts do
    local u = (pts[i - 1][2] - 1) * w + pts[i - 1][1]
    local v = (pts[i][2] - 1) * w + pts[i][1]
    local found = false
    succ(u, function(k) if k == v then found = true end end)
    assert(found, ("step %d (%d, %d) -> (%d, %d) is not a move Jumper allows"):format(
      i - 1, pts[i - 1][1], pts[i - 1][2], pts[i][1], pts[i][2]))
  end
end

-- Cells of a Bresenham line from a to b, the first excluded (written from the textbook algorithm).
local function line_cells(a, b)
  local x0, y0, x1, y1 = a[1], a[2], b[1], b[2]
  local dx, dy = abs(x1 - x0), abs(y1 - y0)
  local sx, sy = x0 < x1 and 1 or -1, y0 < y1 and 1 or -1
  local err, out = dx - dy, {}
  while x0 ~= x1 or y0 ~= y1 do
    local e2 = 2 * err
    if e2 > -dy then err, x0 = err - dy, x0 + sx end
    if e2 < dx then err, y0 = err + dx, y0 + sy end
    out[#out + 1] = { x0, y0 }
  end
  return out
end

-- Largest k such that the k x k square whose top-left cell is (x, y) is inside and walkable.
local function brute_clearance(ok, w, h, x, y)
  local k = 0
  while true do
    local n = k + 1
    if x + n - 1 > w or y + n - 1 > h then return k end
    for yy = y, y + n - 1 do
      for xx = x, x + n - 1 do
        if not ok(xx, yy) then return k end
      end
    end
    k = n
  end
end

local function random_map(rng, w, h, p, open, blocked)
  local map = {}
  for y = 1, h do
    map[y] = {}
    for x = 1, w do map[y][x] = rng.float() < p and blocked or open end
  end
  return map
end

-- Jumper's README example (its output is printed there: JPS, length 8.83, these six nodes).
local README_MAP = {
  { 0, 1, 0, 1, 0 },
  { 0, 1, 0, 1, 0 },
  { 0, 1, 1, 1, 0 },
  { 0, 0, 0, 0, 0 },
}
local README_JPS = { { 1, 1 }, { 1, 3 }, { 2, 4 }, { 4, 4 }, { 5, 3 }, { 5, 1 } }
-- The same path cell by cell: the only shortest one when single corners may be cut.
local README_CELLS = { { 1, 1 }, { 1, 2 }, { 1, 3 }, { 2, 4 }, { 3, 4 }, { 4, 4 }, { 5, 3 }, { 5, 2 }, { 5, 1 } }

local FINDERS = { "ASTAR", "DIJKSTRA", "THETASTAR", "BFS", "DFS", "JPS" }

---------------------------------------------------------------------------------------------------

describe("jumper compat: Grid", function()
  it("reads a table map: size, bounds, the map itself", function()
    local map = { { 0, 0, 1 }, { 0, 1, 0 } }
    local g = Grid(map)
    assert.are.equal(3, g:getWidth())
    assert.are.equal(2, g:getHeight())
    assert.are.same({ 1, 1, 3, 2 }, { g:getBounds() })
    assert.are.equal(map, g:getMap())
    assert.are.equal(getmetatable(g), getmetatable(Grid:new(map)))
  end)

  it("reads a string map: one line per row (\\n or \\r\\n), one string cell per character", function()
    local g = Grid("0#0\r\n000\n")
    assert.are.equal(3, g:getWidth())
    assert.are.equal(2, g:getHeight())
    assert.are.same({ { "0", "#", "0" }, { "0", "0", "0" } }, g:getMap())
    assert.is_true(g:isWalkableAt(1, 1, "0"))
    assert.is_false(g:isWalkableAt(2, 1, "0"))
    -- the walkable value is compared with ==: the number 0 is not the character "0"
    assert.is_false(g:isWalkableAt(1, 1, 0))
    -- and a string walkable is not a pattern: "." matches only "."
    local dots = Grid("..#\n.#.")
    assert.is_true(dots:isWalkableAt(1, 1, "."))
    assert.is_false(dots:isWalkableAt(3, 1, "."))
  end)

  it("keeps maps indexed from 0 in their own coordinates", function()
    local map = { [0] = { [0] = 0, 0, 0 }, { [0] = 0, 1, 0 }, { [0] = 0, 0, 0 } }
    local g = Grid(map)
    assert.are.same({ 0, 0, 2, 2 }, { g:getBounds() })
    assert.are.equal(3, g:getWidth())
    local n = g:getNodeAt(0, 0)
    assert.are.same({ 0, 0 }, { n:getPos() })
    assert.is_nil(g:getNodeAt(3, 0))
    assert.is_false(g:isWalkableAt(1, 1, 0))
    -- around the blocked centre: 4 straight steps or 2 diagonal ones plus straight ones
    local pf = Pathfinder(g, "DIJKSTRA", 0)
    local path = assert(pf:getPath(0, 0, 2, 2))
    local pts = coords(path)
    assert.are.same({ 0, 0 }, pts[1])
    assert.are.same({ 2, 2 }, pts[#pts])
    -- reference on the shifted map: (1,1) -> (3,3) around a blocked (2,2), corners may be cut
    local want = ref_length(function(x, y) return map[y - 1][x - 1] == 0 end, 3, 3, 1, 1, 3, 3, true, false)
    assert.is_true(H.close(want, path:getLength()))
    assert.is_true(H.close(2 + SQRT2, want)) -- (0,0) (1,0) (2,1) (2,2) or its mirror
  end)

  it("getNodeAt returns the same node every time, nil off the map", function()
    local g = Grid({ { 0, 0 }, { 0, 0 } })
    local n = g:getNodeAt(2, 1)
    assert.are.equal(n, g:getNodeAt(2, 1))
    assert.are.same({ 2, 1 }, { n:getX(), n:getY() })
    assert.is_nil(g:getNodeAt(0, 1))
    assert.is_nil(g:getNodeAt(3, 1))
    assert.is_nil(g:getNodeAt(1.5, 1))
    assert.is_nil(g:getNodeAt(nil, 1))
    assert.are.equal(n, g(2, 1)) -- grid(x, y) is getNodeAt
    local nodes = g:getNodes()
    for y = 1, 2 do
      for x = 1, 2 do assert.are.equal(g:getNodeAt(x, y), nodes[y][x]) end
    end
  end)

  it("with cacheNodeData, grid(x, y) gives only nodes made so far; grid(x, y, true) makes one", function()
    local g = Grid({ { 0, 0 }, { 0, 0 } }, true)
    assert.is_nil(g(1, 2))
    local n = g(1, 2, true)
    assert.are.same({ 1, 2 }, { n:getPos() })
    assert.are.equal(n, g(1, 2))
    assert.are.equal(n, g:getNodes()[2][1])
    assert.is_nil(g:getNodes()[1])
  end)

  it("isWalkableAt: no walkable means every cell of the map; a value; a function", function()
    local g = Grid({ { 0, 1, 2 } })
    assert.is_true(g:isWalkableAt(2, 1))
    assert.is_false(g:isWalkableAt(4, 1))
    assert.is_false(g:isWalkableAt(1, 0))
    assert.is_true(g:isWalkableAt(1, 1, 0))
    assert.is_false(g:isWalkableAt(2, 1, 0))
    local even = function(v) return v % 2 == 0 end
    assert.are.same({ true, false, true },
      { g:isWalkableAt(1, 1, even), g:isWalkableAt(2, 1, even), g:isWalkableAt(3, 1, even) })
    -- it reads the map as it is now
    g:getMap()[1][2] = 0
    assert.is_true(g:isWalkableAt(2, 1, 0))
  end)

  it("getNeighbours follows Jumper's rule on every cell of random maps", function()
    local rng = H.rng(1301)
    for _ = 1, 20 do
      local w, h = rng.int(2, 7), rng.int(2, 7)
      local map = random_map(rng, w, h, 0.35, 0, 1)
      local g = Grid(map)
      local ok = function(x, y) return map[y][x] == 0 end
      for _, diag in ipairs({ false, true }) do
        for _, tunnel in ipairs({ false, true }) do
          local succ = rule_moves(ok, w, h, diag, tunnel)
          for y = 1, h do
            for x = 1, w do
              local want = {}
              succ((y - 1) * w + x, function(v) want[#want + 1] = v end)
              table.sort(want)
              local got = {}
              for _, n in ipairs(g:getNeighbours(g:getNodeAt(x, y), 0, diag, tunnel)) do
                assert.are.equal(g:getNodeAt(n:getX(), n:getY()), n)
                got[#got + 1] = (n:getY() - 1) * w + n:getX()
              end
              table.sort(got)
              assert.are.same(want, got, ("(%d, %d) diagonal=%s tunnel=%s"):format(
                x, y, tostring(diag), tostring(tunnel)))
            end
          end
        end
      end
    end
  end)

  it("iter goes row by row over the grid or a rectangle (clamped), with a count", function()
    local g = Grid({ { 0, 0, 0 }, { 0, 0, 0 } })
    local seen = {}
    for n, count in g:iter() do
      seen[#seen + 1] = { n:getX(), n:getY() }
      assert.are.equal(#seen, count)
    end
    assert.are.same({ { 1, 1 }, { 2, 1 }, { 3, 1 }, { 1, 2 }, { 2, 2 }, { 3, 2 } }, seen)
    seen = {}
    for n in g:iter(2, 1, 3, 2) do seen[#seen + 1] = { n:getPos() } end
    assert.are.same({ { 2, 1 }, { 3, 1 }, { 2, 2 }, { 3, 2 } }, seen)
    seen = {}
    for n in g:iter(0, 2, 9, 9) do seen[#seen + 1] = { n:getPos() } end
    assert.are.same({ { 1, 2 }, { 2, 2 }, { 3, 2 } }, seen)
  end)

  it("each, eachRange, imap and imapRange call f(node, ...) and return the grid", function()
    local g = Grid({ { 0, 0, 0 }, { 0, 0, 0 } })
    local calls = 0
    local function f(n, a, b)
      assert.are.equal("a", a)
      assert.are.equal("b", b)
      assert.are.equal(g:getNodeAt(n:getX(), n:getY()), n)
      calls = calls + 1
      return n
    end
    assert.are.equal(g, g:each(f, "a", "b"))
    assert.are.equal(6, calls)
    assert.are.equal(g, g:eachRange(1, 1, 2, 2, f, "a", "b"))
    assert.are.equal(10, calls)
    assert.are.equal(g, g:imap(f, "a", "b"))
    assert.are.equal(16, calls)
    assert.are.equal(g, g:imapRange(3, 1, 3, 2, f, "a", "b"))
    assert.are.equal(18, calls)
  end)

  it("around walks the outline of a square clockwise from its top-left corner (Jumper's spec)", function()
    local g = Grid({ { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } })
    local got = {}
    for n in g:around(Node(2, 2), 1) do got[#got + 1] = { n:getPos() } end
    assert.are.same({ { 1, 1 }, { 2, 1 }, { 3, 1 }, { 3, 2 }, { 3, 3 }, { 2, 3 }, { 1, 3 }, { 1, 2 } }, got)
    got = {}
    for n in g:around(g:getNodeAt(1, 1)) do got[#got + 1] = { n:getPos() } end
    assert.are.same({ { 2, 1 }, { 2, 2 }, { 1, 2 } }, got) -- cells off the map are skipped
    got = {}
    for n in g:around(g:getNodeAt(1, 1), 2) do got[#got + 1] = { n:getPos() } end
    assert.are.same({ { 3, 1 }, { 3, 2 }, { 3, 3 }, { 2, 3 }, { 1, 3 } }, got)
  end)

  it("rejects maps Jumper rejects", function()
    H.checkerr("bad argument #1 to 'Grid' (not a valid map: table or string expected, got number)", Grid, 42)
    H.checkerr("bad argument #1 to 'Grid' (not a valid map: line 2 has 3 characters, expected 2)",
      Grid, "00\n000")
    H.checkerr("bad argument #1 to 'Grid' (not a valid map: no rows)", Grid, "\n\n")
    H.checkerr("bad argument #1 to 'Grid' (not a valid map: rows must be indexed 1..n (or 0..n-1) without holes)",
      Grid, {})
    H.checkerr("bad argument #1 to 'Grid' (not a valid map: rows must be indexed 1..n (or 0..n-1) without holes)",
      Grid, { { 0 }, [3] = { 0 } })
    H.checkerr("bad argument #1 to 'Grid' (not a valid map: row 2 is a number, expected a table)",
      Grid, { { 0 }, 5 })
    H.checkerr("bad argument #1 to 'Grid' (not a valid map: row 2 has cells 1..1, expected 1..2)",
      Grid, { { 0, 0 }, { 0 } })
    H.checkerr("bad argument #1 to 'Grid' (not a valid map: row 1 must be indexed 1..n (or 0..n-1) without holes)",
      Grid, { { 0, nil, 0 } })
    H.checkerr("bad argument #1 to 'Grid' (not a valid map: cell (2, 1) is 0.5, expected a string or an integer)",
      Grid, { { 0, 0.5 } })
    H.checkerr("bad argument #1 to 'Grid' (not a valid map: cell (1, 1) is boolean, expected a string or an integer)",
      Grid, { { true } })
    H.checkerr("bad argument #2 to 'Grid' (boolean expected, got number)", Grid, { { 0 } }, 1)
  end)
end)

---------------------------------------------------------------------------------------------------

describe("jumper compat: Pathfinder settings", function()
  local grid
  before_each(function() grid = Grid({ { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } }) end)

  it("defaults to ASTAR, DIAGONAL, MANHATTAN, no tunnelling, no walkable value", function()
    local pf = Pathfinder(grid)
    assert.are.equal("ASTAR", pf:getFinder())
    assert.are.equal("DIAGONAL", pf:getMode())
    assert.are.equal(Heuristics.MANHATTAN, pf:getHeuristic())
    assert.is_false(pf:getTunnelling())
    assert.is_nil(pf:getWalkable())
    assert.are.equal(grid, pf:getGrid())
    assert.are.equal(getmetatable(pf), getmetatable(Pathfinder:new(grid, "JPS", 0)))
  end)

  it("lists and accepts every finder, mode and heuristic; setters return the pathfinder", function()
    local pf = Pathfinder(grid, "JPS", 0)
    local finders = pf:getFinders()
    table.sort(finders)
    assert.are.same({ "ASTAR", "BFS", "DFS", "DIJKSTRA", "JPS", "THETASTAR" }, finders)
    for _, f in ipairs(finders) do
      assert.are.equal(pf, pf:setFinder(f))
      assert.are.equal(f, pf:getFinder())
    end
    assert.are.equal(pf, pf:setFinder(nil)) -- nil keeps the finder
    assert.are.equal("THETASTAR", pf:getFinder())
    local modes = pf:getModes()
    table.sort(modes)
    assert.are.same({ "DIAGONAL", "ORTHOGONAL" }, modes)
    for _, m in ipairs(modes) do
      assert.are.equal(pf, pf:setMode(m))
      assert.are.equal(m, pf:getMode())
    end
    local hs = pf:getHeuristics()
    table.sort(hs)
    assert.are.same({ "CARDINTCARD", "DIAGONAL", "EUCLIDIAN", "MANHATTAN" }, hs)
    for _, name in ipairs(hs) do
      assert.are.equal(pf, pf:setHeuristic(name))
      assert.are.equal(Heuristics[name], pf:getHeuristic())
    end
    local f = function() return 0 end
    pf:setHeuristic(f)
    assert.are.equal(f, pf:getHeuristic())
    for _, wv in ipairs({ "A", 2, f }) do
      assert.are.equal(pf, pf:setWalkable(wv))
      assert.are.equal(wv, pf:getWalkable())
    end
    assert.are.equal(pf, pf:setTunnelling(true))
    assert.is_true(pf:getTunnelling())
    local other = Grid("00\n00")
    assert.are.equal(pf, pf:setGrid(other))
    assert.are.equal(other, pf:getGrid())
    assert.are.equal(pf, pf:reset())
  end)

  it("the heuristics are Jumper's distances between two nodes", function()
    local a, b = Node(1, 1), Node(4, 5) -- dx = 3, dy = 4
    assert.are.equal(7, Heuristics.MANHATTAN(a, b))
    assert.are.equal(5, Heuristics.EUCLIDIAN(a, b))
    assert.are.equal(4, Heuristics.DIAGONAL(a, b))
    assert.is_true(H.close(3 * SQRT2 + 1, Heuristics.CARDINTCARD(a, b)))
    assert.are.equal(0, Heuristics.CARDINTCARD(a, a))
  end)

  it("reports the grid:find options it uses: Jumper's corner rule is one_obstacle", function()
    local pf = Pathfinder(grid, "ASTAR", 0)
    assert.are.same({ algorithm = "astar", diagonal = "one_obstacle", heuristic = "manhattan" },
      pf:getAstarOptions())
    pf:setHeuristic("CARDINTCARD")
    assert.are.same({ algorithm = "auto", diagonal = "one_obstacle", heuristic = "octile" }, pf:getAstarOptions())
    pf:setTunnelling(true)
    assert.are.equal("always", pf:getAstarOptions().diagonal)
    pf:setFinder("JPS") -- Jumper: tunnelling does not affect JPS
    assert.are.same({ algorithm = "jps", diagonal = "one_obstacle", heuristic = "octile" }, pf:getAstarOptions())
    pf:setMode("ORTHOGONAL")
    assert.are.equal("never", pf:getAstarOptions().diagonal)
    pf:setFinder("DIJKSTRA")
    assert.are.same({ algorithm = "auto", diagonal = "never" }, pf:getAstarOptions())
    pf:setMode("DIAGONAL"):setFinder("ASTAR"):setHeuristic("MANHATTAN")
    assert.are.same({ algorithm = "astar", diagonal = "always", heuristic = "manhattan" }, pf:getAstarOptions())
    pf:setHeuristic(function() return 0 end)
    assert.are.equal("function", type(pf:getAstarOptions().heuristic))
    assert.are.equal("astar", pf:getAstarOptions().algorithm)
  end)

  it("rejects bad arguments with messages that name them", function()
    H.checkerr("bad argument #1 to 'Pathfinder' (a Grid of astar.compat.jumper expected, got table)",
      Pathfinder, {})
    H.checkerr("bad argument #1 to 'Pathfinder' (a Grid of astar.compat.jumper expected, got nil)", Pathfinder)
    H.checkerr("bad argument #2 to 'Pathfinder' (unknown finder 'finder': expected one of ASTAR, DIJKSTRA, "
      .. "THETASTAR, BFS, DFS, JPS)", Pathfinder, grid, "finder")
    H.checkerr("bad argument #3 to 'Pathfinder' (string, integer or function expected, got 2.2)",
      Pathfinder, grid, "ASTAR", 2.2)
    H.checkerr("bad argument #3 to 'Pathfinder' (string, integer or function expected, got table)",
      Pathfinder, grid, "ASTAR", {})
    local pf = Pathfinder(grid)
    H.checkerr("bad argument #1 to 'setFinder' (string expected, got number)", pf.setFinder, pf, 1)
    H.checkerr("bad argument #1 to 'setMode' (unknown mode 'ORTHO': expected DIAGONAL or ORTHOGONAL)",
      pf.setMode, pf, "ORTHO")
    H.checkerr("bad argument #1 to 'setMode' (string expected, got nil)", pf.setMode, pf)
    H.checkerr("bad argument #1 to 'setHeuristic' (unknown heuristic 'OCTILE': expected a function or one of "
      .. "MANHATTAN, EUCLIDIAN, DIAGONAL, CARDINTCARD)", pf.setHeuristic, pf, "OCTILE")
    H.checkerr("bad argument #1 to 'setHeuristic' (string or function expected, got nil)", pf.setHeuristic, pf)
    H.checkerr("bad argument #1 to 'setWalkable' (string, integer or function expected, got 0.4)",
      pf.setWalkable, pf, 0.4)
    H.checkerr("bad argument #1 to 'setTunnelling' (boolean expected, got string)", pf.setTunnelling, pf, "yes")
    H.checkerr("bad argument #1 to 'setGrid' (a Grid of astar.compat.jumper expected, got nil)", pf.setGrid, pf)
    H.checkerr("bad argument #1 to 'getPath' (start (0, 0) is not on the map)", pf.getPath, pf, 0, 0, 3, 3)
    H.checkerr("bad argument #3 to 'getPath' (goal (4, 4) is not on the map)", pf.getPath, pf, 1, 1, 4, 4)
    H.checkerr("bad argument #1 to 'getPath' (start (1.5, 1) is not on the map)", pf.getPath, pf, 1.5, 1, 3, 3)
    H.checkerr("bad argument #5 to 'getPath' (clearance must be a number, got string)",
      pf.getPath, pf, 1, 1, 3, 3, "2")
    H.checkerr("bad argument #1 to 'annotateGrid' (the pathfinder has no walkable value)", pf.annotateGrid, pf)
    H.checkerr("bad argument #1 to 'clearAnnotations' (the pathfinder has no walkable value)",
      pf.clearAnnotations, pf)
  end)
end)

---------------------------------------------------------------------------------------------------

describe("jumper compat: getPath on Jumper's documented examples", function()
  it("README: JPS finds the 8.83-long path through the jump points Jumper prints", function()
    local pf = Pathfinder(Grid(README_MAP), "JPS", 0)
    local path = assert(pf:getPath(1, 1, 5, 1))
    assert.are.same(README_JPS, coords(path))
    assert.are.equal("8.83", ("%.2f"):format(path:getLength()))
    assert.is_true(H.close(6 + 2 * SQRT2, path:getLength()))
    local counts = {}
    for _, count in path:nodes() do counts[#counts + 1] = count end
    assert.are.same({ 1, 2, 3, 4, 5, 6 }, counts)
  end)

  it("README map: every finder cuts the two corners (length 8.83); ORTHOGONAL takes 10 steps", function()
    local grid = Grid(README_MAP)
    for _, f in ipairs(FINDERS) do
      local pf = Pathfinder(grid, f, 0)
      local path = assert(pf:getPath(1, 1, 5, 1), f)
      assert.is_true(H.close(6 + 2 * SQRT2, path:getLength()), f .. ": " .. path:getLength())
      if f ~= "JPS" and f ~= "THETASTAR" then assert.are.same(README_CELLS, coords(path), f) end
      path:fill()
      assert.are.same(README_CELLS, coords(path), f .. " filled")
      pf:setMode("ORTHOGONAL")
      path = assert(pf:getPath(1, 1, 5, 1), f)
      if f == "THETASTAR" or f == "JPS" then
        -- the turns; for THETASTAR, no line of sight skips one: (1, 1) to (2, 4) crosses (2, 3),
        -- (1, 4) to (5, 3) crosses (4, 3), (4, 4) to (5, 1) crosses (4, 3) (Bresenham, by hand)
        assert.are.same({ { 1, 1 }, { 1, 4 }, { 5, 4 }, { 5, 1 } }, coords(path), f)
        path:fill()
      end
      assert.are.equal(10, path:getLength(), f)
      assert.are.same({ { 1, 1 }, { 1, 2 }, { 1, 3 }, { 1, 4 }, { 2, 4 }, { 3, 4 }, { 4, 4 }, { 5, 4 },
        { 5, 3 }, { 5, 2 }, { 5, 1 } }, coords(path), f)
    end
  end)

  it("tunnelling goes diagonally between two walls (Jumper's spec); without it there is no path", function()
    local grid = Grid({ { 0, 0, 0 }, { 1, 0, 0 }, { 0, 2, 0 } })
    for _, f in ipairs({ "ASTAR", "DIJKSTRA", "BFS", "DFS", "THETASTAR" }) do
      local pf = Pathfinder(grid, f, 0)
      assert.is_nil(pf:getPath(1, 3, 3, 1), f)
      pf:setTunnelling(true)
      local path = assert(pf:getPath(1, 3, 3, 1), f)
      if f == "THETASTAR" then path:fill() end
      assert.are.same({ { 1, 3 }, { 2, 2 }, { 3, 1 } }, coords(path), f)
    end
    -- JPS ignores tunnelling, as Jumper documents
    local pf = Pathfinder(grid, "JPS", 0):setTunnelling(true)
    assert.is_nil(pf:getPath(1, 3, 3, 1))
  end)

  it("the start may be unwalkable; an unwalkable goal gives nil; start == goal gives one node", function()
    local map = { { 1, 0, 0 }, { 0, 0, 0 }, { 0, 0, 1 } }
    local grid = Grid(map)
    for _, f in ipairs(FINDERS) do
      local pf = Pathfinder(grid, f, 0)
      local path = assert(pf:getPath(1, 1, 3, 2), f)
      local pts = coords(path)
      assert.are.same({ 1, 1 }, pts[1], f)
      assert.are.same({ 3, 2 }, pts[#pts], f)
      if f ~= "JPS" and f ~= "THETASTAR" then
        assert.is_true(H.close(1 + SQRT2, path:getLength()), f) -- (1,1) (2,2) (3,2)
        check_steps(pts, function(x, y) return map[y][x] == 0 end, 3, 3, true, false)
      end
      assert.is_nil(pf:getPath(1, 2, 3, 3), f)
      assert.is_nil(pf:getPath(1, 1, 3, 3), f)
      path = assert(pf:getPath(2, 2, 2, 2), f)
      assert.are.same({ { 2, 2 } }, coords(path))
      assert.are.equal(grid:getNodeAt(2, 2), path._nodes[1])
      assert.are.same({ { 1, 1 } }, coords(assert(pf:getPath(1, 1, 1, 1))))
    end
    assert.are.equal(1, map[1][1]) -- the map is untouched
  end)

  it("without a walkable value every cell of the map is walkable", function()
    local grid = Grid({ { 0, 1, 0 } })
    local path = assert(Pathfinder(grid, "ASTAR"):getPath(1, 1, 3, 1))
    assert.are.same({ { 1, 1 }, { 2, 1 }, { 3, 1 } }, coords(path))
    assert.is_nil(Pathfinder(grid, "ASTAR", 0):getPath(1, 1, 3, 1))
  end)

  it("path nodes are the grid's nodes", function()
    local grid = Grid(README_MAP)
    local path = assert(Pathfinder(grid, "ASTAR", 0):getPath(1, 1, 5, 1))
    for node in path:nodes() do assert.are.equal(grid:getNodeAt(node:getX(), node:getY()), node) end
    assert.are.equal(grid, path._grid)
  end)
end)

---------------------------------------------------------------------------------------------------

describe("jumper compat: getPath against references on random maps", function()
  -- Each map in three forms: numbers with walkable 0, numbers with a walkable function, a string.
  local function cases(seed, n)
    local rng = H.rng(seed)
    local out = {}
    for i = 1, n do
      local w, h = rng.int(3, 14), rng.int(3, 14)
      local map = random_map(rng, w, h, rng.float() * 0.45, 0, 1)
      local kind = i % 3
      local c = { w = w, h = h, ok = function(x, y) return map[y][x] == 0 end }
      if kind == 0 then
        c.grid, c.walkable = Grid(map), 0
      elseif kind == 1 then
        for y = 1, h do
          for x = 1, w do map[y][x] = map[y][x] == 0 and rng.int(0, 2) or rng.int(3, 5) end
        end
        c.ok = function(x, y) return map[y][x] <= 2 end
        c.grid, c.walkable = Grid(map), function(v) return v <= 2 end
      else
        local lines = {}
        for y = 1, h do
          local row = {}
          for x = 1, w do row[x] = map[y][x] == 0 and "." or "#" end
          lines[y] = table.concat(row)
        end
        c.grid, c.walkable = Grid(table.concat(lines, "\n")), "."
      end
      c.pairs = {}
      for k = 1, 6 do c.pairs[k] = { rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h) } end
      out[i] = c
    end
    return out
  end

  local CASES = cases(4242, 45)

  local function each_query(fn)
    for _, c in ipairs(CASES) do
      for _, q in ipairs(c.pairs) do fn(c, q[1], q[2], q[3], q[4]) end
    end
  end

  local function ends_ok(pts, sx, sy, gx, gy)
    assert.are.same({ sx, sy }, pts[1])
    assert.are.same({ gx, gy }, pts[#pts])
  end

  for _, mode in ipairs({ "DIAGONAL", "ORTHOGONAL" }) do
    for _, tunnel in ipairs({ false, true }) do
      local diag = mode == "DIAGONAL"
      local tag = mode .. (tunnel and " with tunnelling" or "")

      it(tag .. ": DIJKSTRA and ASTAR (admissible heuristics) return shortest paths", function()
        local hs = diag and { "CARDINTCARD", "EUCLIDIAN", "DIAGONAL" }
          or { "MANHATTAN", "CARDINTCARD", "EUCLIDIAN", "DIAGONAL" }
        local n = 0
        each_query(function(c, sx, sy, gx, gy)
          local want = ref_length(c.ok, c.w, c.h, sx, sy, gx, gy, diag, tunnel)
          if not c.ok(gx, gy) then want = nil end
          local pf = Pathfinder(c.grid, "DIJKSTRA", c.walkable):setMode(mode):setTunnelling(tunnel)
          local runs = { { "DIJKSTRA", "MANHATTAN" } }
          for _, hn in ipairs(hs) do runs[#runs + 1] = { "ASTAR", hn } end
          for _, r in ipairs(runs) do
            pf:setFinder(r[1]):setHeuristic(r[2])
            local path = pf:getPath(sx, sy, gx, gy)
            local what = ("%s/%s (%d,%d)->(%d,%d)"):format(r[1], r[2], sx, sy, gx, gy)
            if sx == gx and sy == gy then
              assert.are.equal(1, #path._nodes, what)
            elseif want == nil then
              assert.is_nil(path, what)
            else
              assert.is_not_nil(path, what)
              local pts = coords(path)
              ends_ok(pts, sx, sy, gx, gy)
              check_steps(pts, c.ok, c.w, c.h, diag, tunnel)
              assert.is_true(H.close(want, path:getLength()), what .. ": " .. path:getLength() .. " vs " .. want)
              n = n + 1
            end
          end
        end)
        assert.is_true(n > 100)
      end)

      it(tag .. ": ASTAR with MANHATTAN finds the same paths, not always the shortest", function()
        local n = 0
        each_query(function(c, sx, sy, gx, gy)
          if sx == gx and sy == gy then return end
          local want = ref_length(c.ok, c.w, c.h, sx, sy, gx, gy, diag, tunnel)
          if not c.ok(gx, gy) then want = nil end
          local path = Pathfinder(c.grid, "ASTAR", c.walkable):setMode(mode):setTunnelling(tunnel)
            :getPath(sx, sy, gx, gy)
          if want == nil then
            assert.is_nil(path)
          else
            local pts = coords(path)
            ends_ok(pts, sx, sy, gx, gy)
            check_steps(pts, c.ok, c.w, c.h, diag, tunnel)
            assert.is_true(path:getLength() >= want - 1e-9)
            if not diag then assert.is_true(H.close(want, path:getLength())) end
            n = n + 1
          end
        end)
        assert.is_true(n > 50)
      end)

      it(tag .. ": JPS returns the turning points of a shortest path, and ignores tunnelling", function()
        local n = 0
        each_query(function(c, sx, sy, gx, gy)
          if sx == gx and sy == gy then return end
          local want = ref_length(c.ok, c.w, c.h, sx, sy, gx, gy, diag, false)
          if not c.ok(gx, gy) then want = nil end
          local pf = Pathfinder(c.grid, "JPS", c.walkable):setMode(mode):setTunnelling(tunnel)
          pf:setHeuristic("CARDINTCARD")
          local path = pf:getPath(sx, sy, gx, gy)
          if want == nil then
            assert.is_nil(path)
            return
          end
          local jumps = coords(path)
          ends_ok(jumps, sx, sy, gx, gy)
          assert.is_true(H.close(want, path:getLength()))
          -- every segment is straight or diagonal, and the path turns at every inner point
          for i = 2, #jumps do
            local dx, dy = jumps[i][1] - jumps[i - 1][1], jumps[i][2] - jumps[i - 1][2]
            assert.is_true(dx == 0 or dy == 0 or abs(dx) == abs(dy))
          end
          local filled = coords(path:fill())
          check_steps(filled, c.ok, c.w, c.h, diag, false)
          assert.is_true(H.close(want, length_of(filled)))
          assert.are.same(jumps, coords(path:filter()))
          n = n + 1
        end)
        assert.is_true(n > 50)
      end)

      it(tag .. ": BFS and DFS take the fewest steps, and of those the shortest path", function()
        local n = 0
        each_query(function(c, sx, sy, gx, gy)
          if sx == gx and sy == gy then return end
          local steps, len = ref_bfs(c.ok, c.w, c.h, sx, sy, gx, gy, diag, tunnel)
          if not c.ok(gx, gy) then steps = nil end
          for _, f in ipairs({ "BFS", "DFS" }) do
            local path = Pathfinder(c.grid, f, c.walkable):setMode(mode):setTunnelling(tunnel)
              :getPath(sx, sy, gx, gy)
            if steps == nil then
              assert.is_nil(path)
            else
              local pts = coords(path)
              ends_ok(pts, sx, sy, gx, gy)
              check_steps(pts, c.ok, c.w, c.h, diag, tunnel)
              assert.are.equal(steps, #pts - 1, f)
              assert.is_true(H.close(len, path:getLength()), f)
              n = n + 1
            end
          end
        end)
        assert.is_true(n > 100)
      end)

      it(tag .. ": THETASTAR returns an any-angle path in sight from node to node", function()
        local n = 0
        each_query(function(c, sx, sy, gx, gy)
          if sx == gx and sy == gy then return end
          local want = ref_length(c.ok, c.w, c.h, sx, sy, gx, gy, diag, tunnel)
          if not c.ok(gx, gy) then want = nil end
          local pf = Pathfinder(c.grid, "THETASTAR", c.walkable):setMode(mode):setTunnelling(tunnel)
          pf:setHeuristic("CARDINTCARD")
          local path = pf:getPath(sx, sy, gx, gy)
          if want == nil then
            assert.is_nil(path)
            return
          end
          local pts = coords(path)
          ends_ok(pts, sx, sy, gx, gy)
          for i = 2, #pts do
            for _, cell in ipairs(line_cells(pts[i - 1], pts[i])) do
              assert.is_true(c.ok(cell[1], cell[2]), ("(%d, %d) on the line %d"):format(cell[1], cell[2], i - 1))
            end
          end
          assert.is_true(path:getLength() <= want + 1e-9)
          assert.is_true(path:getLength() >= euclid(pts[1], pts[#pts]) - 1e-9)
          n = n + 1
        end)
        assert.is_true(n > 50)
      end)
    end
  end
end)

---------------------------------------------------------------------------------------------------

describe("jumper compat: Path", function()
  local grid
  before_each(function() grid = Grid(README_MAP) end)

  local function make(pts)
    local p = Path()
    p._grid = grid
    for _, pt in ipairs(pts) do p:addNode(grid:getNodeAt(pt[1], pt[2])) end
    return p
  end

  it("nodes() and iter() yield each node and its count", function()
    local p = make(README_CELLS)
    local i = 0
    for node, count in p:nodes() do
      i = i + 1
      assert.are.equal(i, count)
      assert.are.same(README_CELLS[i], { node:getPos() })
    end
    assert.are.equal(#README_CELLS, i)
    i = 0
    for _, count in p:iter() do i = count end
    assert.are.equal(#README_CELLS, i)
    for _ in Path():nodes() do error("an empty path has no nodes") end
  end)

  it("getLength sums straight-line distances, also between nodes far apart", function()
    assert.is_true(H.close(6 + 2 * SQRT2, make(README_CELLS):getLength()))
    assert.are.equal(5, Path():addNode(Node(1, 1)):addNode(Node(4, 5)):getLength())
    assert.are.equal(0, make({ { 1, 1 } }):getLength())
    assert.are.equal(0, Path():getLength())
  end)

  it("fill puts back the cells between jump points; filter takes them out again", function()
    local p = make(README_JPS)
    assert.are.equal(p, p:fill())
    assert.are.same(README_CELLS, coords(p))
    for node in p:nodes() do assert.are.equal(grid:getNodeAt(node:getX(), node:getY()), node) end
    assert.are.equal(p, p:filter())
    assert.are.same(README_JPS, coords(p))
    -- a segment neither straight nor diagonal: diagonal steps first, then straight ones
    p = make({ { 1, 1 }, { 4, 2 } }):fill()
    assert.are.same({ { 1, 1 }, { 2, 2 }, { 3, 2 }, { 4, 2 } }, coords(p))
    -- one node, or none: nothing to do
    assert.are.same({ { 2, 2 } }, coords(make({ { 2, 2 } }):fill():filter()))
    assert.are.same({}, coords(Path():fill():filter()))
  end)

  it("filter keeps a node only where the step into it and the step out of it differ", function()
    local p = make({ { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 2 }, { 5, 3 }, { 5, 4 } }):filter()
    assert.are.same({ { 1, 1 }, { 3, 1 }, { 5, 3 }, { 5, 4 } }, coords(p))
  end)

  it("clone, reverse, append, addNode, isEqualTo", function()
    local p = make(README_JPS)
    local c = p:clone()
    assert.are_not.equal(p, c)
    assert.are.same(coords(p), coords(c))
    c:reverse()
    local rev = {}
    for i = #README_JPS, 1, -1 do rev[#rev + 1] = README_JPS[i] end
    assert.are.same(rev, coords(c))
    assert.are.same(README_JPS, coords(p)) -- the original is untouched
    assert.is_true(p:isEqualTo(make(README_CELLS)))
    assert.is_true(make(README_CELLS):isEqualTo(p))
    assert.is_false(p:isEqualTo(c))
    assert.is_false(p:isEqualTo(make({ { 1, 1 }, { 1, 3 } })))
    assert.is_false(make({ { 1, 1 }, { 1, 3 } }):isEqualTo(p))
    local a = make({ { 1, 1 }, { 1, 2 } })
    assert.are.equal(a, a:append(make({ { 1, 3 }, { 1, 4 } })))
    assert.are.same({ { 1, 1 }, { 1, 2 }, { 1, 3 }, { 1, 4 } }, coords(a))
    a:addNode(grid:getNodeAt(5, 1), 1)
    assert.are.same({ 5, 1 }, coords(a)[1])
    assert.are.equal(5, #a._nodes)
    assert.are.equal(getmetatable(Path()), getmetatable(Path:new()))
  end)
end)

---------------------------------------------------------------------------------------------------

describe("jumper compat: heuristic functions", function()
  it("get nodes, in Jumper's order: (goal, node) for ASTAR, (node, goal) for JPS", function()
    local grid = Grid("....\n.##.\n....")
    for _, f in ipairs({ "ASTAR", "JPS", "THETASTAR" }) do
      local calls = 0
      local pf = Pathfinder(grid, f, ".")
      pf:setHeuristic(function(a, b)
        calls = calls + 1
        local node, goal = a, b
        if f ~= "JPS" then node, goal = b, a end
        assert.are.equal(grid:getNodeAt(4, 3), goal)
        assert.are.equal(grid:getNodeAt(node:getX(), node:getY()), node)
        return 0
      end)
      local path = assert(pf:getPath(1, 1, 4, 3))
      assert.is_true(calls > 0, f)
      -- a heuristic of 0 is Dijkstra: the shortest path, 3 + sqrt(2) around the wall
      local want = ref_length(function(x, y) return grid:getMap()[y][x] == "." end, 4, 3, 1, 1, 4, 3, true, false)
      assert.is_true(H.close(3 + SQRT2, want))
      if f ~= "THETASTAR" then assert.is_true(H.close(want, path:getLength()), f) end
    end
  end)

  it("a heuristic of Jumper's module is run in C, like its name", function()
    local pf = Pathfinder(Grid(README_MAP), "ASTAR", 0)
    pf:setHeuristic(Heuristics.CARDINTCARD)
    assert.are.equal("octile", pf:getAstarOptions().heuristic)
  end)

  it("a heuristic that returns a negative number or nothing raises astar's error", function()
    local pf = Pathfinder(Grid(README_MAP), "ASTAR", 0)
    pf:setHeuristic(function() return -1 end)
    H.checkerr_prefix("heuristic callback returned -1", pf.getPath, pf, 1, 1, 5, 1)
    pf:setHeuristic(function() end)
    H.checkerr_prefix("heuristic callback returned nil", pf.getPath, pf, 1, 1, 5, 1)
    -- an error inside it reaches the caller unchanged, and the blocked start is closed again
    local map = { { 1, 0 }, { 0, 0 } }
    local grid = Grid(map)
    local boom = {}
    pf = Pathfinder(grid, "ASTAR", 0):setHeuristic(function() error(boom) end)
    local ok, err = pcall(pf.getPath, pf, 1, 1, 2, 2)
    assert.is_false(ok)
    assert.are.equal(boom, err)
    assert.is_false(grid:toAstar(0):walkable(1, 1))
    pf:setHeuristic("CARDINTCARD")
    assert.is_nil(pf:getPath(2, 2, 1, 1))
  end)
end)

---------------------------------------------------------------------------------------------------

describe("jumper compat: edits to the map", function()
  local function corridor()
    return { { 0, 0, 0, 0, 0 }, { 1, 1, 1, 1, 0 }, { 0, 0, 0, 0, 0 } }
  end

  it("reach the next search, as in Jumper (auto-refresh, the default)", function()
    local map = corridor()
    local grid = Grid(map)
    assert.is_true(grid:getAutoRefresh())
    local pf = Pathfinder(grid, "ASTAR", 0):setHeuristic("CARDINTCARD")
    assert.is_true(H.close(6 + 2 * SQRT2, pf:getPath(1, 1, 1, 3):getLength())) -- round (5, 2)
    map[2][5] = 1
    assert.is_nil(pf:getPath(1, 1, 1, 3))
    map[2][1] = 0
    assert.are.equal(2, pf:getPath(1, 1, 1, 3):getLength())
    map[2] = { 1, 1, 0, 1, 1 } -- a new row
    assert.are.equal(2 + 2 * SQRT2, pf:getPath(1, 1, 1, 3):getLength())
    map[2] = nil -- no row: no cells
    assert.is_nil(pf:getPath(1, 1, 1, 3))
    map[2] = { 0, false, 0, 0, 0 } -- false: no cell either, whatever the walkable value
    assert.is_false(grid:isWalkableAt(2, 2))
    assert.is_true(H.close(1 + SQRT2, Pathfinder(grid, "ASTAR"):getPath(1, 1, 2, 3):getLength()))
    map[2] = { 0, 0, 0, 0, nil }
    map[2][5] = nil
    map[1][1] = 1
    assert.are.equal(2, pf:getPath(1, 1, 1, 3):getLength()) -- the start may be blocked
    -- (5, 2) is gone: around it by (4, 2), cutting its corner twice
    assert.are.same({ { 5, 3 }, { 4, 2 }, { 5, 1 } }, coords(pf:getPath(5, 3, 5, 1)))
  end)

  it("reach every walkable value's copy, also after many edits", function()
    local rng = H.rng(77)
    local map = random_map(rng, 9, 7, 0.3, 0, 1)
    local grid = Grid(map)
    local zero = Pathfinder(grid, "DIJKSTRA", 0)
    local fn = Pathfinder(grid, "DIJKSTRA", function(v) return v == 0 end)
    for round = 1, 60 do
      local edits = round % 7 == 0 and 80 or rng.int(1, 4) -- some rounds change more than all cells
      for _ = 1, edits do map[rng.int(1, 7)][rng.int(1, 9)] = rng.float() < 0.3 and 1 or 0 end
      local sx, sy, gx, gy = rng.int(1, 9), rng.int(1, 7), rng.int(1, 9), rng.int(1, 7)
      if sx ~= gx or sy ~= gy then
        local ok = function(x, y) return map[y][x] == 0 end
        local want = ok(gx, gy) and ref_length(ok, 9, 7, sx, sy, gx, gy, true, false) or nil
        for _, pf in ipairs({ zero, fn }) do
          local path = pf:getPath(sx, sy, gx, gy)
          if want == nil then
            assert.is_nil(path, "round " .. round)
          else
            assert.is_true(H.close(want, path:getLength()), "round " .. round)
          end
        end
      end
    end
  end)

  it("with auto-refresh off, reach the search through refresh(x, y) or refresh()", function()
    local map = corridor()
    local grid = Grid(map)
    local pf = Pathfinder(grid, "ASTAR", 0):setHeuristic("CARDINTCARD")
    assert.are.equal(grid, grid:setAutoRefresh(false))
    assert.is_false(grid:getAutoRefresh())
    map[2][5] = 1
    assert.is_not_nil(pf:getPath(1, 1, 1, 3)) -- not seen yet
    assert.are.equal(grid, grid:refresh(5, 2))
    assert.is_nil(pf:getPath(1, 1, 1, 3))
    map[2][1], map[2][2] = 0, 0
    assert.is_nil(pf:getPath(1, 1, 1, 3))
    assert.are.equal(grid, grid:refresh())
    assert.are.equal(2, pf:getPath(1, 1, 1, 3):getLength())
    -- a walkable function that reads other state: refresh() asks it again for every cell
    local door = false
    local pf2 = Pathfinder(grid, "ASTAR", function(v) return v == 0 or door end)
    assert.are.equal(2, pf2:getPath(1, 1, 1, 3):getLength())
    map[2][1], map[2][2], map[2][3] = 1, 1, 0
    grid:refresh()
    assert.is_true(H.close(2 + 2 * SQRT2, pf2:getPath(1, 1, 1, 3):getLength())) -- through (3, 2)
    map[2][3] = 1
    grid:refresh(3, 2)
    assert.is_nil(pf2:getPath(1, 1, 1, 3))
    door = true
    assert.is_nil(pf2:getPath(1, 1, 1, 3))
    grid:refresh()
    assert.are.equal(2, pf2:getPath(1, 1, 1, 3):getLength())
    H.checkerr("bad argument #1 to 'refresh' ((6, 2) is not a cell of the map)", grid.refresh, grid, 6, 2)
    H.checkerr("bad argument #1 to 'setAutoRefresh' (boolean expected, got nil)", grid.setAutoRefresh, grid)
  end)

  it("toAstar gives the astar.Grid the shim searches, up to date", function()
    local map = corridor()
    local grid = Grid(map)
    local ag = grid:toAstar(0)
    assert.are.same({ 5, 3 }, { ag:size() })
    assert.is_false(ag:walkable(1, 2))
    map[2][1] = 0
    assert.are.equal(ag, grid:toAstar(0))
    assert.is_true(ag:walkable(1, 2))
    assert.is_true(grid:toAstar():walkable(1, 2)) -- no walkable value: every cell
    local opts = Pathfinder(grid, "ASTAR", 0):getAstarOptions()
    assert.are.equal(2, #assert(ag:find(1, 1, 1, 3, opts)) - 1)
  end)
end)

---------------------------------------------------------------------------------------------------

describe("jumper compat: clearance", function()
  -- Jumper's makeClearance example and its spec: the map and the clearances it prints.
  local MAP = {
    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0 },
    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0 },
    { 0, 0, 1, 0, 0, 0, 0, 0, 2, 0 },
    { 0, 0, 1, 1, 1, 0, 0, 2, 0, 0 },
    { 0, 0, 0, 1, 1, 0, 2, 0, 0, 2 },
    { 0, 0, 0, 0, 1, 0, 0, 0, 0, 2 },
    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
  }
  local CLEARANCE = {
    { 6, 6, 5, 5, 4, 4, 4, 3, 2, 1 },
    { 6, 5, 5, 4, 4, 3, 3, 3, 2, 1 },
    { 6, 5, 4, 4, 3, 3, 2, 2, 2, 1 },
    { 6, 5, 4, 3, 3, 2, 2, 1, 1, 1 },
    { 6, 5, 4, 3, 2, 2, 1, 1, 0, 1 },
    { 5, 5, 4, 3, 2, 1, 1, 0, 1, 1 },
    { 4, 4, 4, 3, 2, 1, 0, 2, 1, 0 },
    { 3, 3, 3, 3, 3, 3, 3, 2, 1, 0 },
    { 2, 2, 2, 2, 2, 2, 2, 2, 2, 1 },
    { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
  }
  local walkable = function(v) return v ~= 2 end
  local ok = function(x, y) return MAP[y][x] ~= 2 end

  it("annotateGrid gives Jumper's documented clearances; clearAnnotations removes them", function()
    local grid = Grid(MAP)
    local early = grid:getNodeAt(3, 3) -- made before the annotation
    local pf = Pathfinder(grid, "ASTAR", walkable)
    assert.are.equal(pf, pf:annotateGrid())
    for node in grid:iter() do
      local x, y = node:getPos()
      assert.are.equal(CLEARANCE[y][x], node:getClearance(walkable), ("(%d, %d)"):format(x, y))
      assert.are.equal(brute_clearance(ok, 10, 10, x, y), node:getClearance(walkable))
    end
    assert.are.equal(4, early:getClearance(walkable))
    assert.is_true(grid:isWalkableAt(1, 1, walkable, 6))
    assert.is_false(grid:isWalkableAt(1, 1, walkable, 7))
    assert.is_false(grid:isWalkableAt(2, 1, 0, 1)) -- not annotated for 0
    assert.are.equal(pf, pf:clearAnnotations())
    for node in grid:iter() do assert.is_nil(node:getClearance(walkable)) end
    assert.is_false(grid:isWalkableAt(1, 1, walkable, 1))
  end)

  it("getPath(..., clearance) enters only cells with that much clearance", function()
    local grid = Grid(MAP)
    local pf = Pathfinder(grid, "ASTAR", walkable):setHeuristic("CARDINTCARD")
    assert.is_nil(pf:getPath(1, 1, 9, 9, 2)) -- not annotated: no cell has any clearance
    pf:annotateGrid()
    local function enough(c) return function(x, y) return CLEARANCE[y][x] >= c end end
    local rng = H.rng(9)
    local n = 0
    for _ = 1, 40 do
      local sx, sy, gx, gy = rng.int(1, 10), rng.int(1, 10), rng.int(1, 10), rng.int(1, 10)
      for c = 1, 3 do
        if sx ~= gx or sy ~= gy then
          -- corners are tested for walkability only, as Jumper's A* does
          local want = ok(gx, gy) and CLEARANCE[gy][gx] >= c
            and ref_length(ok, 10, 10, sx, sy, gx, gy, true, false, enough(c)) or nil
          for _, f in ipairs({ "ASTAR", "DIJKSTRA" }) do
            pf:setFinder(f)
            local path = pf:getPath(sx, sy, gx, gy, c)
            if want == nil then
              assert.is_nil(path)
            else
              local pts = coords(path)
              check_steps(pts, ok, 10, 10, true, false, enough(c))
              assert.is_true(H.close(want, path:getLength()), f .. " clearance " .. c)
              n = n + 1
            end
          end
          -- JPS tests the clearance wherever it tests walkability, corners included
          local strict = function(x, y) return ok(x, y) and CLEARANCE[y][x] >= c end
          local jwant = strict(gx, gy) and ref_length(strict, 10, 10, sx, sy, gx, gy, true, false) or nil
          pf:setFinder("JPS")
          local path = pf:getPath(sx, sy, gx, gy, c)
          if jwant == nil then
            assert.is_nil(path)
          else
            assert.is_true(H.close(jwant, path:getLength()), "JPS clearance " .. c)
            local pts = coords(path:fill())
            table.remove(pts, 1)
            for _, p in ipairs(pts) do assert.is_true(strict(p[1], p[2])) end
          end
          -- BFS: fewest steps through cells with enough clearance
          pf:setFinder("BFS")
          path = pf:getPath(sx, sy, gx, gy, c)
          if want == nil then
            assert.is_nil(path)
          else
            check_steps(coords(path), ok, 10, 10, true, false, enough(c))
          end
        end
      end
    end
    assert.is_true(n > 50)
    -- an agent of size 2 from (1, 1) to (9, 9) (Jumper's annotatedPathing example)
    pf:setFinder("ASTAR")
    local path = assert(pf:getPath(1, 1, 9, 9, 2))
    for node, count in path:nodes() do
      if count > 1 then assert.is_true(node:getClearance(walkable) >= 2) end
    end
  end)
end)

---------------------------------------------------------------------------------------------------

describe("jumper compat: install", function()
  it("makes require 'jumper.*' return the shim's classes", function()
    local names = { "jumper.grid", "jumper.pathfinder", "jumper.core.path", "jumper.core.node",
      "jumper.core.heuristics" }
    local saved = {}
    for _, name in ipairs(names) do saved[name] = package.loaded[name] end
    assert.are.equal(J, J.install())
    local ok, err = pcall(function()
      assert.are.equal(Grid, require("jumper.grid"))
      assert.are.equal(Pathfinder, require("jumper.pathfinder"))
      assert.are.equal(Path, require("jumper.core.path"))
      assert.are.equal(Node, require("jumper.core.node"))
      assert.are.equal(Heuristics, require("jumper.core.heuristics"))
      -- Jumper's README example, unchanged but for the install line
      local G, PF = require("jumper.grid"), require("jumper.pathfinder")
      local path = PF(G(README_MAP), "JPS", 0):getPath(1, 1, 5, 1)
      assert.are.equal("8.83", ("%.2f"):format(path:getLength()))
    end)
    for _, name in ipairs(names) do package.loaded[name] = saved[name] end
    assert(ok, err)
  end)
end)
