-- Connected components of grids and graphs against the flood fills of spec/helper.lua
-- (H.grid_components: cells joined by a legal step under the diagonal policy; H.graph_components:
-- weakly connected components), kept current after edits; and find's early "no_path" across
-- components (with max_expansions = 1 it must still say "no_path", not "limit").

local astar = require "astar"
local H = require "spec.helper"

local MAX_REPORT = 6

-- The code and message of a find outcome (for assert.are.equal(code, outcome(find(...)))).
local function outcome(_, msg, code) return code, tostring(msg) end
local floor = math.floor

local function report(fails, total) return H.report(fails, total, MAX_REPORT) end

-- Compares the grid's labels with the reference for policy `pol`; nil or a problem.
local function check_grid(grid, cells, w, h, pol, rng, ask_count)
  local ref, count = H.grid_components(cells, w, h, pol)
  if ask_count then
    local n = grid:components(pol)
    if n ~= count then return ("components(%q) = %s, expected %d"):format(pol, tostring(n), count) end
  end
  local keys, got = {}, {}
  for y = 1, h do
    for x = 1, w do
      local k = (y - 1) * w + x
      keys[#keys + 1] = k
      got[k] = grid:component(x, y, pol)
    end
  end
  local function fmt(k) return ("component(%d, %d, %q)"):format((k - 1) % w + 1, floor((k - 1) / w) + 1, pol) end
  local diff = H.partition_diff(keys, got, ref, fmt)
  if diff then return diff end
  -- documented (LDoc): labels 1 .. components(), numbered in reading order of each component's
  -- first cell - the order of the reference's scan
  for _, k in ipairs(keys) do
    if got[k] ~= ref[k] then
      return ("%s = %s, expected %s (reading order)"):format(fmt(k), tostring(got[k]), tostring(ref[k]))
    end
  end
  for _ = 1, 20 do
    local x1, y1, x2, y2 = rng.int(1, w), rng.int(1, h), rng.int(1, w), rng.int(1, h)
    local a, b = ref[(y1 - 1) * w + x1], ref[(y2 - 1) * w + x2]
    local want = a ~= nil and a == b
    local same = grid:same_component(x1, y1, x2, y2, pol)
    if same ~= want then
      return ("same_component(%d, %d, %d, %d) = %s, expected %s"):format(x1, y1, x2, y2, tostring(same), tostring(want))
    end
  end
  return nil
end

describe("grid components", function()
  it("match a flood fill under every diagonal policy, and follow edits", function()
    local rng = H.rng(112233)
    local fails, total = {}, 0
    for gi = 1, 80 do
      local w, h = rng.int(1, 25), rng.int(1, 25)
      local cells = H.random_cells(rng, w, h, rng.pick({ 0.2, 0.35, 0.45, 0.55 }), { 1, 2, 0.5 })
      local grid = astar.grid.from_table(cells)
      for _, pol in ipairs(H.POLICIES) do
        total = total + 1
        local ok, err = pcall(check_grid, grid, cells, w, h, pol, rng, true)
        if not ok then err = "raised: " .. tostring(err) end
        -- edits, then the labels without calling components() again
        for _ = 1, 3 do
          if err then break end
          for _ = 1, rng.int(1, 4) do
            local x, y = rng.int(1, w), rng.int(1, h)
            if rng.float() < 0.8 then
              local v = rng.pick({ false, 1, 2 })
              grid:set(x, y, v)
              cells[y][x] = v
            else
              local fw, fh = rng.int(0, w - x + 1), rng.int(0, h - y + 1)
              local v = rng.pick({ false, 1 })
              grid:fill(x, y, fw, fh, v)
              for yy = y, y + fh - 1 do for xx = x, x + fw - 1 do cells[yy][xx] = v end end
            end
          end
          ok, err = pcall(check_grid, grid, cells, w, h, pol, rng, rng.float() < 0.5)
          if not ok then err = "raised: " .. tostring(err) end
          if err then err = "after edits: " .. err end
        end
        if err then
          fails[#fails + 1] = ("%s\ngrid #%d (%dx%d), diagonal = %q\n%s"):format(err, gi, w, h, pol,
            H.fmt_grid(cells, w, h))
        end
      end
      grid:close()
    end
    report(fails, total)
  end)

  it("the default is the default diagonal policy (no_corner_cutting)", function()
    local grid = astar.grid.parse("..#\n..#\n##.", { ["."] = 1, ["#"] = false })
    assert.are.equal(2, grid:components())
    assert.are.equal(2, grid:components("no_corner_cutting"))
    assert.is_false(grid:same_component(1, 1, 3, 3))
    assert.are.equal(1, grid:components("always"))
    assert.is_true(grid:same_component(1, 1, 3, 3, "always"))
    assert.are.equal(grid:component(1, 1, "always"), grid:component(3, 3, "always"))
    assert.is_false(grid:same_component(1, 1, 3, 3))             -- the default policy again
    assert.are_not.equal(grid:component(1, 1), grid:component(3, 3))
    assert.are.equal(2, grid:components("never"))
    assert.are.equal(2, grid:components("one_obstacle"))
    assert.is_nil(grid:component(3, 1))
    assert.is_false(grid:same_component(3, 1, 3, 1))
    grid:close()
  end)

  it("find answers 'no_path' across components at once, and only when it is true", function()
    local W, HH = 300, 300
    local grid = astar.grid(W, HH)
    grid:fill(150, 1, 1, HH, false)                  -- a wall from top to bottom
    assert.are.equal(2, grid:components())
    local p, msg, code = grid:find(1, 1, W, HH, { max_expansions = 1 })
    assert.is_nil(p)
    assert.are.equal("no_path", code, tostring(msg))
    assert.are.equal("no_path", outcome(grid:find(1, 1, W, HH)))
    -- same component: the limit still applies (A*: jump point search sees this goal at once)
    assert.are.equal("limit", outcome(grid:find(1, 1, 100, 100, { max_expansions = 1, algorithm = "astar" })))
    -- an edit that opens the wall: the labels follow
    grid:set(150, 200, 1)
    p = assert(grid:find(1, 1, W, HH))
    H.check_path((function()
      local cells = {}
      for y = 1, HH do
        local row = {}
        for x = 1, W do row[x] = (x == 150 and y ~= 200) and false or 1 end
        cells[y] = row
      end
      return cells
    end)(), W, HH, p, 1, 1, W, HH)
    assert.is_true(grid:same_component(1, 1, W, HH))
    -- and one that closes it again
    grid:set(150, 200, false)
    assert.are.equal("no_path", outcome(grid:find(1, 1, W, HH, { max_expansions = 1 })))
    assert.is_false(grid:same_component(1, 1, W, HH))
    -- within: a goal across the wall whose range reaches this side is not "another component"
    p = assert(grid:find(1, 1, 151, 1, { within = 2 }))
    assert.are.same({ 149, 1 }, { p:get(-1) })
    -- partial: the closest reachable cell, not a bare "no_path"
    p, msg, code = grid:find(1, 1, 151, 1, { partial = true })
    assert.are.equal("partial", code, tostring(msg))
    assert.are.same({ 149, 1 }, { p:get(-1) })
    -- several goals, all on the other side
    assert.are.equal("no_path", outcome(grid:find(1, 1, { goals = { { W, 1 }, { W, HH } },
      max_expansions = 1 })))
    grid:close()
  end)

  it("find is not misled by components of another diagonal policy", function()
    -- two regions that touch only at a corner: separate unless diagonal = "always"
    local text = "...#\n...#\n...#\n###."
    local cells = H.cells_from_text(text, { ["."] = 1, ["#"] = false })
    local grid = astar.grid.parse(text, { ["."] = 1, ["#"] = false })
    assert.are.equal(2, grid:components())
    assert.are.equal("no_path", outcome(grid:find(1, 1, 4, 4, { max_expansions = 1 })))
    local p = grid:find(1, 1, 4, 4, { diagonal = "always" })
    assert.is_not_nil(p, "diagonal = 'always' must find the corner passage")
    H.check_path(cells, 4, 4, p, 1, 1, 4, 4, "always")
    assert.is_true(H.close(3 * math.sqrt(2), p:cost()))
    assert.is_not_nil(grid:find(1, 1, 4, 4, { diagonal = "always", max_expansions = 100 }))
    assert.are.equal(1, grid:components("always"))
    -- after asking for "always", the other policies still say no
    for _, pol in ipairs({ "no_corner_cutting", "never", "one_obstacle" }) do
      assert.are.equal("no_path", outcome(grid:find(1, 1, 4, 4, { diagonal = pol })))
      local code = outcome(grid:find(1, 1, 4, 4, { diagonal = pol, max_expansions = 1 }))
      assert.is_truthy(code == "no_path" or code == "limit", pol .. ": " .. tostring(code))
    end
    grid:close()
  end)

  it("rejects bad arguments", function()
    local grid = astar.grid(3, 3)
    H.checkerr_fn("components", 1, grid.components, grid, "sometimes")
    H.checkerr_fn("components", 1, grid.components, grid, 5)
    H.checkerr_fn("component", 1, grid.component, grid, 0, 1)
    H.checkerr_fn("component", 2, grid.component, grid, 1, 4)
    H.checkerr_fn("same_component", 3, grid.same_component, grid, 1, 1, 1.5, 1)
    H.checkerr_fn("same_component", 4, grid.same_component, grid, 1, 1, 1, nil)
    H.checkerr_fn("component", 3, grid.component, grid, 1, 1, "sometimes")
    H.checkerr_fn("same_component", 5, grid.same_component, grid, 1, 1, 1, 1, 5)
    grid:close()
    H.checkerr("attempt to use a closed grid", grid.components, grid)
    H.checkerr("attempt to use a closed grid", grid.component, grid, 1, 1)
  end)
end)

---------------------------------------------------------------------------------------------------

local function build(ops, directed)
  local g = astar.graph({ directed = directed })
  for _, t in ipairs(ops) do
    local name = t[1]
    if name == "add_node" then
      if t[2] == nil then g:add_node()
      elseif t[4] == nil then g:add_node(t[2], t[3])
      else g:add_node(t[2], t[3], t[4]) end
    elseif name == "add_edge" then
      if t[4] == nil then g:add_edge(t[2], t[3]) else g:add_edge(t[2], t[3], t[4]) end
    elseif name == "set_edge_cost" then
      g:set_edge_cost(t[2], t[3], t[4])
    elseif name == "remove_edge" then
      g:remove_edge(t[2], t[3])
    else
      g[name](g, t[2])
    end
  end
  return g
end

-- Disabled nodes are like blocked cells: no label, and they join nothing.
local function check_graph(g, M, rng, ask_count)
  local ref, count = H.graph_components(M, true)
  if ask_count then
    local n = g:components()
    if n ~= count then return ("components() = %s, expected %d"):format(tostring(n), count) end
  end
  local ids, got = M:ids(), {}
  for _, id in ipairs(ids) do got[id] = g:component(id) end
  local diff = H.partition_diff(ids, got, ref, function(id) return "component(" .. id .. ")" end)
  if diff then return diff end
  for _ = 1, 20 do
    local a, b = ids[rng.int(1, #ids)], ids[rng.int(1, #ids)]
    local want = ref[a] ~= nil and ref[a] == ref[b]
    local same = g:same_component(a, b)
    if same ~= want then
      return ("same_component(%d, %d) = %s, expected %s"):format(a, b, tostring(same), tostring(want))
    end
  end
  return nil
end

describe("graph components", function()
  it("are the weakly connected components of the enabled nodes, kept current after edits", function()
    local rng = H.rng(445566)
    local fails, total = {}, 0
    for gi = 1, 80 do
      local directed = gi % 2 == 0
      local n = rng.int(1, 40)
      local ops, M = H.random_graph(rng, { n = n, m = rng.int(0, n + 5), directed = directed,
        p_pos = 0.5, p_remove_edge = 0.2, p_remove_node = 0.1, p_disable = 0.1 })
      local g = build(ops, directed)
      total = total + 1
      local ok, err = pcall(check_graph, g, M, rng, true)
      if not ok then err = "raised: " .. tostring(err) end
      for _ = 1, 4 do
        if err or #M:ids() == 0 then break end
        local ids = M:ids()
        for _ = 1, rng.int(1, 3) do
          local r = rng.float()
          local a, b = ids[rng.int(1, #ids)], ids[rng.int(1, #ids)]
          if r < 0.4 and a ~= b then
            g:add_edge(a, b, 1); M:add_edge(a, b, 1); ops[#ops + 1] = { "add_edge", a, b, 1 }
          elseif r < 0.7 then
            g:remove_edge(a, b); M:remove_edge(a, b); ops[#ops + 1] = { "remove_edge", a, b }
          elseif r < 0.8 then
            local id = g:add_node(); M:add_node(); ops[#ops + 1] = { "add_node" }
            assert(id == M.n)
          elseif r < 0.9 then
            local name = M.disabled[a] and "enable_node" or "disable_node"
            g[name](g, a); M[name](M, a); ops[#ops + 1] = { name, a }
          elseif #ids > 1 then
            g:remove_node(a); M:remove_node(a); ops[#ops + 1] = { "remove_node", a }
            ids = M:ids()
          end
        end
        ok, err = pcall(check_graph, g, M, rng, rng.float() < 0.5)
        if not ok then err = "raised: " .. tostring(err) end
        if err then err = "after edits: " .. err end
      end
      if err then fails[#fails + 1] = ("%s\n%s"):format(err, H.fmt_graph_ops(ops, directed)) end
      g:close()
    end
    report(fails, total)
  end)

  it("a directed chain is one weak component; removed ids raise", function()
    local g = astar.graph({ directed = true })
    for _ = 1, 5 do g:add_node() end
    g:add_edge(1, 2, 1); g:add_edge(3, 2, 1); g:add_edge(4, 5, 1)
    assert.are.equal(2, g:components())
    assert.is_true(g:same_component(1, 3))
    assert.is_false(g:same_component(1, 4))
    assert.are.equal(g:component(1), g:component(3))
    g:remove_node(2)
    assert.are.equal(3, g:components())
    assert.is_false(g:same_component(1, 3))
    H.checkerr("bad argument #1 to 'component' (node 2 was removed)", g.component, g, 2)
    H.checkerr("bad argument #2 to 'same_component' (node 2 was removed)", g.same_component, g, 1, 2)
    H.checkerr_fn("component", 1, g.component, g, 9)
    H.checkerr_fn("component", 1, g.component, g, 1.5)
    g:close()
    H.checkerr("attempt to use a closed graph", g.components, g)
  end)

  it("find answers 'no_path' across components at once, and only when it is true", function()
    local g = astar.graph({ directed = false })
    local N = 20000
    for i = 1, N do g:add_node(i, 0) end
    for i = 1, N - 1 do
      if i ~= N / 2 then g:add_edge(i, i + 1) end
    end
    assert.are.equal(2, g:components())
    assert.are.equal("no_path", outcome(g:find(1, N, { max_expansions = 1 })))
    assert.are.equal("no_path", outcome(g:find(1, N, { algorithm = "bidirectional", max_expansions = 1 })))
    assert.are.equal("limit", outcome(g:find(1, N / 2, { max_expansions = 1 })))
    g:add_edge(N / 2, N / 2 + 1)
    local p = assert(g:find(1, N))
    assert.are.equal(N - 1, p:cost())
    g:remove_edge(N / 2, N / 2 + 1)
    assert.are.equal("no_path", outcome(g:find(1, N, { max_expansions = 1 })))
    -- a directed graph: weakly connected is not reachable, so find must still search
    local d = astar.graph({ directed = true })
    for i = 1, 3 do d:add_node(i, 0) end
    d:add_edge(1, 2); d:add_edge(3, 2)
    assert.are.equal(1, d:components())
    assert.are.equal("no_path", outcome(d:find(1, 3)))
    -- disabling a node that cuts the graph: find stays right, with components asked or not
    d:add_edge(2, 3)
    assert.are.equal(2, assert(d:find(1, 3)):cost())
    d:disable_node(2)
    d:components()
    assert.are.equal("no_path", outcome(d:find(1, 3)))
    d:enable_node(2)
    d:components()
    assert.are.equal(2, assert(d:find(1, 3)):cost())
    d:close()
    g:close()
  end)
end)
