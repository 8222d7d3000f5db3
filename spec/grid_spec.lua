-- Grids: constructors, cell access, small hand-checked searches, render.

local astar = require "astar"
local H = require "spec.helper"

local S2 = H.SQRT2

-- every cell of `g` equals cells[y][x]
local function assert_cells(g, cells, w, h)
  local gw, gh = g:size()
  assert.are.equal(w, gw, "width")
  assert.are.equal(h, gh, "height")
  for y = 1, h do
    for x = 1, w do
      assert.are.equal(cells[y][x], g:get(x, y), ("get(%d, %d)"):format(x, y))
      assert.are.equal(cells[y][x] ~= false, g:walkable(x, y), ("walkable(%d, %d)"):format(x, y))
    end
  end
end

local function strip_nl(s)
  return (s:gsub("\n$", ""))
end

describe("astar.grid(w, h [, cost])", function()
  it("makes a w x h grid of cost-1 cells by default", function()
    local g = astar.grid(7, 3)
    local w, h = g:size()
    assert.are.equal(7, w)
    assert.are.equal(3, h)
    for y = 1, 3 do
      for x = 1, 7 do
        assert.are.equal(1, g:get(x, y))
        assert.is_true(g:walkable(x, y))
      end
    end
  end)

  it("fills with the given cost", function()
    local g = astar.grid(4, 5, 2.5)
    for y = 1, 5 do
      for x = 1, 4 do assert.are.equal(2.5, g:get(x, y)) end
    end
    local p = assert(g:find(1, 1, 4, 1, { diagonal = "never" }))
    assert.are.equal(4, #p)
    assert.is_true(H.close(7.5, p:cost()), tostring(p:cost()))
  end)

  it("fills with false: every cell blocked", function()
    local g = astar.grid(3, 3, false)
    for y = 1, 3 do
      for x = 1, 3 do
        assert.are.equal(false, g:get(x, y))
        assert.is_false(g:walkable(x, y))
      end
    end
    local p, msg, code = g:find(1, 1, 3, 3)
    assert.is_nil(p)
    assert.are.equal("string", type(msg))
    assert.are.equal("blocked", code)
  end)

  it("makes 1 x 1 and 1 x n grids", function()
    local g = astar.grid(1, 1)
    assert.are.same({ 1, 1 }, { g:size() })
    local p = assert(g:find(1, 1, 1, 1))
    assert.are.equal(1, #p)
    assert.are.equal(0, p:cost())
    local x, y = p:get(1)
    assert.are.same({ 1, 1 }, { x, y })
    local line = astar.grid(1, 50)
    p = assert(line:find(1, 1, 1, 50))
    assert.are.equal(50, #p)
    assert.are.equal(49, p:cost())
  end)

  it("accepts integral floats as sizes and coordinates", function()
    local g = astar.grid(5.0, 4.0)
    assert.are.same({ 5, 4 }, { g:size() })
    local p = assert(g:find(1.0, 1.0, 5.0, 1.0))
    assert.are.equal(5, #p)
    g:set(2.0, 2.0, false)
    assert.are.equal(false, g:get(2, 2))
  end)
end)

describe("astar.grid.parse(text, legend)", function()
  local legend = { ["#"] = false, ["."] = 1, ["~"] = 3 }

  it("reads one row per line, left to right", function()
    local g = astar.grid.parse("#.~.\n..#~\n~~..", legend)
    assert_cells(g, {
      { false, 1, 3, 1 },
      { 1, 1, false, 3 },
      { 3, 3, 1, 1 },
    }, 4, 3)
  end)

  it("accepts \\r\\n and a final newline", function()
    local want = { { false, 1 }, { 3, 1 } }
    assert_cells(astar.grid.parse("#.\n~.\n", legend), want, 2, 2)
    assert_cells(astar.grid.parse("#.\r\n~.\r\n", legend), want, 2, 2)
    assert_cells(astar.grid.parse("#.\r\n~.", legend), want, 2, 2)
  end)

  it("takes any single-character key, fractional costs included", function()
    local g = astar.grid.parse("ab\nc ", { a = 0.5, b = 1.25, c = false, [" "] = 7 })
    assert_cells(g, { { 0.5, 1.25 }, { false, 7 } }, 2, 2)
  end)

  it("handles a single row and a single column", function()
    assert_cells(astar.grid.parse("..#.", legend), { { 1, 1, false, 1 } }, 4, 1)
    assert_cells(astar.grid.parse(".\n#\n~\n", legend), { { 1 }, { false }, { 3 } }, 1, 3)
  end)
end)

describe("astar.grid.from_table(rows [, f])", function()
  it("without f: numbers are costs, true is 1, false is blocked", function()
    local g = astar.grid.from_table({
      { 1, true, false },
      { 2.5, 0.5, true },
    })
    assert_cells(g, { { 1, 1, false }, { 2.5, 0.5, 1 } }, 3, 2)
  end)

  it("with a function: f(value, x, y) gives the cost or false", function()
    local rows = { { "a", "b", "c" }, { "d", "e", "f" } }
    local calls = {}
    local g = astar.grid.from_table(rows, function(v, x, y)
      calls[#calls + 1] = { v, x, y }
      if v == "b" then return false end
      if v == "f" then return 4 end
      return 1
    end)
    assert_cells(g, { { 1, false, 1 }, { 1, 1, 4 } }, 3, 2)
    assert.are.equal(6, #calls)
    local seen = {}
    for _, c in ipairs(calls) do
      assert.are.equal(rows[c[3]][c[2]], c[1], "f got a value that is not rows[y][x]")
      seen[c[2] .. "," .. c[3]] = true
    end
    for y = 1, 2 do
      for x = 1, 3 do assert.is_true(seen[x .. "," .. y], "f not called for " .. x .. "," .. y) end
    end
  end)

  it("with a walkable value: equal cells cost 1, all others are blocked (Jumper's convention)", function()
    local map = {
      { 0, 1, 0 },
      { 0, 0, 2 },
    }
    assert_cells(astar.grid.from_table(map, 0), { { 1, false, 1 }, { 1, 1, false } }, 3, 2)
    assert_cells(astar.grid.from_table({ { ".", "#" }, { "#", "." } }, "."),
      { { 1, false }, { false, 1 } }, 2, 2)
    -- with `true` as the walkable value, a number is not walkable
    assert_cells(astar.grid.from_table({ { true, false, 3 } }, true), { { 1, false, false } }, 3, 1)
  end)

  it("copies: changing the table afterwards does not change the grid", function()
    local rows = { { 1, 1 }, { 1, 1 } }
    local g = astar.grid.from_table(rows)
    rows[1][1] = false
    rows[2] = nil
    assert_cells(g, { { 1, 1 }, { 1, 1 } }, 2, 2)
  end)
end)

describe("grid:get / set / fill / walkable", function()
  it("set stores numbers exactly, false as blocked and true as 1", function()
    local g = astar.grid(3, 3)
    g:set(1, 1, false)
    g:set(2, 1, 1 / 3)
    g:set(3, 1, 1e-3)
    g:set(1, 2, 12345.678)
    g:set(2, 2, true)
    g:set(3, 3, 0.5)
    g:set(3, 3, false)
    g:set(3, 2, false)
    g:set(3, 2, 2)
    assert_cells(g, {
      { false, 1 / 3, 1e-3 },
      { 12345.678, 1, 2 },
      { 1, 1, false },
    }, 3, 3)
  end)

  it("set changes what find sees", function()
    local g = astar.grid(3, 1)
    assert(g:find(1, 1, 3, 1))
    g:set(2, 1, false)
    local p, _, code = g:find(1, 1, 3, 1)
    assert.is_nil(p)
    assert.are.equal("no_path", code)
    g:set(2, 1, 1)
    p = assert(g:find(1, 1, 3, 1))
    assert.are.equal(3, #p)
  end)

  it("fill sets exactly the rectangle", function()
    local rng = H.rng(99)
    local w, h = 9, 7
    local g = astar.grid(w, h)
    local model = H.copy_cells(H.random_cells(rng, w, h, 0, { 1 }), w, h)
    for _ = 1, 200 do
      local rw, rh = rng.int(1, w), rng.int(1, h)
      local x, y = rng.int(1, w - rw + 1), rng.int(1, h - rh + 1)
      local v = rng.pick({ false, true, 1, 2, 0.5, 7.25 })
      g:fill(x, y, rw, rh, v)
      for yy = y, y + rh - 1 do
        for xx = x, x + rw - 1 do model[yy][xx] = (v == true) and 1 or v end
      end
      assert_cells(g, model, w, h)
    end
    g:fill(1, 1, w, h, false)
    for y = 1, h do
      for x = 1, w do assert.are.equal(false, g:get(x, y)) end
    end
    g:fill(w, h, 1, 1, 3)
    assert.are.equal(3, g:get(w, h))
    assert.are.equal(false, g:get(w - 1, h))
  end)
end)

describe("grid:find on hand-checked grids", function()
  it("goes straight across an open grid", function()
    local g = astar.grid(5, 5)
    local p = assert(g:find(1, 1, 5, 5))
    assert.are.equal(5, #p)
    assert.is_true(H.close(4 * S2, p:cost()))
    for i = 1, 5 do
      local x, y = p:get(i)
      assert.are.same({ i, i }, { x, y })
    end
    p = assert(g:find(1, 1, 5, 5, { diagonal = "never" }))
    assert.are.equal(9, #p)
    assert.are.equal(8, p:cost())
    p = assert(g:find(5, 3, 1, 3))
    assert.are.equal(5, #p)
    assert.are.equal(4, p:cost())
  end)

  it("a path from a cell to itself has one point and costs 0", function()
    local g = astar.grid(3, 3, 2)
    for _, pol in ipairs(H.POLICIES) do
      for _, alg in ipairs({ "astar", "dijkstra", "bfs", "greedy" }) do
        local p = assert(g:find(2, 3, 2, 3, { diagonal = pol, algorithm = alg }))
        assert.are.equal(1, #p)
        assert.are.equal(0, p:cost())
        assert.are.same({ 2, 3 }, { p:get(1) })
      end
    end
  end)

  -- .#
  -- #.
  it("applies the corner rules when both orthogonal neighbours are blocked", function()
    local g = astar.grid.parse(".#\n#.", { ["#"] = false, ["."] = 1 })
    local want = { never = false, always = S2, no_corner_cutting = false, one_obstacle = false }
    for pol, cost in pairs(want) do
      local p, msg, code = g:find(1, 1, 2, 2, { diagonal = pol })
      if cost then
        assert.is_not_nil(p, pol .. ": " .. tostring(msg))
        assert.is_true(H.close(cost, p:cost()), pol)
        assert.are.equal(2, #p)
      else
        assert.is_nil(p, pol)
        assert.are.equal("no_path", code, pol)
      end
    end
  end)

  -- ..
  -- #.
  it("applies the corner rules when one orthogonal neighbour is blocked", function()
    local g = astar.grid.parse("..\n#.", { ["#"] = false, ["."] = 1 })
    local want = {
      never = { 2, 3 }, always = { S2, 2 }, no_corner_cutting = { 2, 3 }, one_obstacle = { S2, 2 },
    }
    for pol, w in pairs(want) do
      local p = assert(g:find(1, 1, 2, 2, { diagonal = pol }))
      assert.is_true(H.close(w[1], p:cost()), pol .. " cost " .. p:cost())
      assert.are.equal(w[2], #p, pol)
    end
    -- the same from the other side
    local p = assert(g:find(2, 2, 1, 1))
    assert.are.equal(3, #p)
    assert.are.same({ 2, 1 }, { p:get(2) })
  end)

  it("charges len * cost of the cell entered", function()
    -- entering the 5 costs 5; leaving it costs the next cell's cost
    local g = astar.grid.parse("15111", { ["1"] = 1, ["5"] = 5 })
    local p = assert(g:find(1, 1, 5, 1))
    assert.are.equal(5 + 3, p:cost())
    p = assert(g:find(2, 1, 1, 1))
    assert.are.equal(1, p:cost())
    p = assert(g:find(1, 1, 2, 1))
    assert.are.equal(5, p:cost())
    -- diagonal into a cost-3 cell: 3 * sqrt 2 (the orthogonal way costs 9 + 3)
    g = astar.grid.parse(".9\n93", { ["."] = 1, ["3"] = 3, ["9"] = 9 })
    p = assert(g:find(1, 1, 2, 2))
    assert.is_true(H.close(3 * S2, p:cost()), tostring(p:cost()))
  end)

  it("walks around expensive terrain when that is cheaper", function()
    local text = table.concat({
      ".....",
      ".~~~.",
      ".~~~.",
      ".~~~.",
      ".....",
    }, "\n")
    local legend = { ["."] = 1, ["~"] = 10 }
    local g = astar.grid.parse(text, legend)
    local cells, w, h = H.cells_from_text(text, legend)
    for _, pol in ipairs(H.POLICIES) do
      local p = assert(g:find(1, 3, 5, 3, { diagonal = pol }))
      local sum = H.check_path(cells, w, h, p, 1, 3, 5, 3, pol)
      assert.is_true(H.close(sum, p:cost()))
      assert.is_true(H.close(H.dijkstra(cells, w, h, 1, 3, 5, 3, pol), p:cost()), pol)
    end
  end)

  it("stays optimal after set/fill lower the smallest cell cost (heuristic scale)", function()
    -- A heuristic still scaled by the old minimum (1) overestimates once cheap cells exist.
    local w, h = 15, 7
    local g = astar.grid(w, h)
    local cells = H.random_cells(H.rng(1), w, h, 0, { 1 })
    local function check(tag)
      for _, pol in ipairs(H.POLICIES) do
        local p = assert(g:find(1, 4, w, 4, { diagonal = pol }))
        local want = H.dijkstra(cells, w, h, 1, 4, w, 4, pol)
        H.check_path(cells, w, h, p, 1, 4, w, 4, pol)
        assert.is_true(H.close(want, p:cost()),
          ("%s %s: cost %.17g, optimal %.17g"):format(tag, pol, p:cost(), want))
      end
    end
    check("all 1")
    for x = 1, w do
      g:set(x, 1, 0.1)
      cells[1][x] = 0.1
    end
    check("after set")
    g:fill(1, 7, w, 1, 0.01)
    for x = 1, w do cells[7][x] = 0.01 end
    check("after fill")
    -- and raising every cost again (the minimum goes up)
    g:fill(1, 1, w, h, 4)
    cells = H.random_cells(H.rng(1), w, h, 0, { 4 })
    check("all 4")
  end)

  it("is optimal on a grid whose cheapest cell costs more than 1", function()
    local rng = H.rng(5)
    local w, h = 25, 25
    local cells = H.random_cells(rng, w, h, 0.2, { 2, 3, 5 })
    local g = astar.grid.from_table(cells)
    for _ = 1, 50 do
      local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
      local want = H.dijkstra(cells, w, h, sx, sy, gx, gy, "no_corner_cutting")
      local p, _, code = g:find(sx, sy, gx, gy)
      if want then
        assert.is_not_nil(p, code)
        assert.is_true(H.close(want, p:cost()))
      else
        assert.is_nil(p)
      end
    end
  end)

  it("returns nil, message, 'blocked' when an end is blocked", function()
    local g = astar.grid.parse("..#\n...", { ["#"] = false, ["."] = 1 })
    for _, q in ipairs({ { 3, 1, 1, 1 }, { 1, 1, 3, 1 }, { 3, 1, 3, 1 } }) do
      local p, msg, code = g:find(q[1], q[2], q[3], q[4])
      assert.is_nil(p)
      assert.are.equal("string", type(msg))
      assert.are.equal("blocked", code)
    end
  end)

  it("returns nil, message, 'no_path' when the goal is walled off", function()
    local g = astar.grid.parse("..#..\n..#..\n..#..", { ["#"] = false, ["."] = 1 })
    for _, pol in ipairs(H.POLICIES) do
      for _, alg in ipairs({ "astar", "dijkstra", "bfs", "greedy" }) do
        local p, msg, code = g:find(1, 1, 5, 3, { diagonal = pol, algorithm = alg })
        assert.is_nil(p)
        assert.are.equal("string", type(msg))
        assert.are.equal("no_path", code, pol .. "/" .. alg)
      end
    end
  end)

  it("stops with 'limit' on max_expansions", function()
    local g = astar.grid(40, 40)
    local p, msg, code = g:find(1, 1, 40, 40, { max_expansions = 0 })
    assert.is_nil(p)
    assert.are.equal("string", type(msg))
    assert.are.equal("limit", code)
    p, msg, code = g:find(1, 1, 40, 40, { max_expansions = 5, algorithm = "dijkstra" })
    assert.is_nil(p)
    assert.are.equal("string", type(msg))
    assert.are.equal("limit", code)
    p = assert(g:find(1, 1, 40, 40, { max_expansions = 100000 }))
    assert.is_true(H.close(39 * S2, p:cost()))
  end)
end)

describe("grid:render", function()
  local legend = { ["#"] = false, ["."] = 1, ["2"] = 2, ["3"] = 3 }

  it("draws # for blocked, . for cost 1 and digits for other costs", function()
    local text = "#.2\n3..\n.#9"
    local g = astar.grid.parse(text, { ["#"] = false, ["."] = 1, ["2"] = 2, ["3"] = 3, ["9"] = 9 })
    assert.are.equal(text, strip_nl(g:render()))
  end)

  it("marks the path with * and its ends with S and G", function()
    local g = astar.grid.parse("....\n.##.\n.2..", legend)
    local p = assert(g:find(1, 3, 4, 1, { diagonal = "never" }))
    -- (1,3) (2,3) (3,3) (4,3) (4,2) (4,1) costs 2+1+1+1+1 = 6; via the top: 1+1+1+1+1 = 5 wins
    assert.are.equal(5, p:cost())
    assert.are.equal(table.concat({ "***G", "*##.", "S2.." }, "\n"), strip_nl(g:render(p)))
    p = assert(g:find(2, 3, 4, 3, { diagonal = "never" }))
    assert.are.equal("....\n.##.\n.S*G", strip_nl(g:render(p)))
    g:set(1, 1, false)
    p = assert(g:find(1, 2, 4, 3, { diagonal = "never" }))
    -- (1,2) (1,3) (2,3)=2 (3,3) (4,3)
    assert.are.equal("#...\nS##.\n***G", strip_nl(g:render(p)))
  end)

  it("is unchanged by rendering and leaves the grid as it was", function()
    local g = astar.grid.parse("..\n.#", legend)
    local p = assert(g:find(1, 1, 2, 1))
    g:render(p)
    assert_cells(g, { { 1, 1 }, { 1, false } }, 2, 2)
    assert.are.equal("..\n.#", strip_nl(g:render()))
  end)
end)

describe("grid:clone", function()
  it("copies size and every cell", function()
    local rng = H.rng(12)
    local cells = H.random_cells(rng, 13, 9, 0.3, { 1, 2, 0.5, 1.25 })
    local g = astar.grid.from_table(cells)
    local c = g:clone()
    assert_cells(c, cells, 13, 9)
    assert.are_not.equal(g, c)
  end)

  it("is independent of the original, both ways", function()
    local cells = H.random_cells(H.rng(13), 10, 10, 0, { 1 })
    local g = astar.grid.from_table(cells)
    local c = g:clone()
    g:set(5, 5, false)
    g:fill(1, 1, 3, 3, 7)
    assert_cells(c, cells, 10, 10)
    local model = H.copy_cells(cells, 10, 10)
    model[5][5] = false
    for y = 1, 3 do for x = 1, 3 do model[y][x] = 7 end end
    assert_cells(g, model, 10, 10)
    c:set(10, 10, false)
    assert.are.equal(1, g:get(10, 10))
    assert.are.equal(false, c:get(10, 10))
  end)

  it("answers queries like the original (reference)", function()
    local rng = H.rng(14)
    local w, h = 20, 15
    local cells = H.random_cells(rng, w, h, 0.25, { 1, 1, 3, 0.5 })
    local g = astar.grid.from_table(cells)
    g:find(1, 1, w, h) -- warm the original's search state first
    local c = g:clone()
    for _ = 1, 100 do
      local sx, sy, gx, gy = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
      local want = H.dijkstra(cells, w, h, sx, sy, gx, gy, "no_corner_cutting")
      local a, b = H.summary(g:find(sx, sy, gx, gy)), H.summary(c:find(sx, sy, gx, gy))
      if want then
        assert.is_true(H.close(want, a.cost or -1) and H.close(want, b.cost or -1))
        assert.is_true(H.same_points(a.pts, b.pts))
      else
        assert.is_nil(a.pts)
        assert.is_nil(b.pts)
        assert.are.equal(a.code, b.code)
      end
    end
  end)

  it("keeps the smallest cost for the heuristic scale", function()
    local g = astar.grid(12, 3)
    g:fill(1, 1, 12, 1, 0.1)
    local c = g:clone()
    local cells = H.random_cells(H.rng(1), 12, 3, 0, { 1 })
    for x = 1, 12 do cells[1][x] = 0.1 end
    local p = assert(c:find(1, 3, 12, 3))
    assert.is_true(H.close(H.dijkstra(cells, 12, 3, 1, 3, 12, 3, "no_corner_cutting"), p:cost()))
  end)
end)

describe("grid:stats", function()
  it("gives allocations and edits as non-negative integers", function()
    local g = astar.grid(10, 10)
    local s = g:stats()
    assert.are.equal("table", type(s))
    assert.is_true(H.is_int(s.allocations) and s.allocations >= 0, tostring(s.allocations))
    assert.is_true(H.is_int(s.edits) and s.edits >= 0, tostring(s.edits))
  end)

  it("counts edits made by set and fill, not by reading or searching", function()
    local g = astar.grid(10, 10)
    local e0 = g:stats().edits
    g:get(1, 1)
    g:walkable(2, 2)
    g:find(1, 1, 10, 10)
    g:render()
    assert.are.equal(e0, g:stats().edits)
    g:set(3, 3, false)
    local e1 = g:stats().edits
    assert.is_true(e1 > e0, "set did not count as an edit")
    g:fill(1, 1, 2, 2, 4)
    local e2 = g:stats().edits
    assert.is_true(e2 > e1, "fill did not count as an edit")
    pcall(g.set, g, 0, 0, 1)
    pcall(g.fill, g, 1, 1, 20, 20, 1)
  end)

  it("shows no allocation when queries are repeated once the search context is warm", function()
    local rng = H.rng(21)
    local w, h = 40, 40
    local g = astar.grid.from_table(H.random_cells(rng, w, h, 0.2, { 1, 2 }))
    local queries = {}
    for i = 1, 300 do
      queries[i] = { rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h), {
        algorithm = rng.pick({ "astar", "dijkstra", "bfs", "greedy" }),
        diagonal = H.POLICIES[rng.int(1, 4)] } }
    end
    local function run_all()
      for _, q in ipairs(queries) do g:find(q[1], q[2], q[3], q[4], q[5]) end
    end
    run_all() -- the buffers grow to what these queries need
    local a0 = g:stats().allocations
    run_all()
    run_all()
    assert.are.equal(a0, g:stats().allocations)
  end)
end)
