-- graph:query: stepping a time-sliced graph search to its end gives what find gives, and both
-- equal the reference Dijkstra of spec/helper.lua over random graphs with edits.
local H = require "spec.helper"

describe("graph:query", function()
  it("stepped with random budgets equals find and the reference on random graphs", function()
    local rng = H.rng(555)
    local checks = 0
    for _ = 1, 60 do
      local n = rng.int(2, 40)
      local directed = rng.float() < 0.5
      local ops, M = H.random_graph(rng, {
        n = n, m = rng.int(n, 3 * n), directed = directed, p_pos = rng.pick({ 0, 0.7, 1 }),
        p_default = 0.3, p_remove_edge = 0.1, p_set_cost = 0.1, p_disable = 0.05,
      })
      local g = H.build_graph(ops, directed)
      for _ = 1, 5 do
        local a, b = rng.int(1, n), rng.int(1, n)
        local opts = { algorithm = rng.pick({ "astar", "dijkstra" }) }
        if M:usable(a) and M:usable(b) then
          local q = g:query(a, b, opts)
          local status, spent
          repeat
            local budget = rng.int(1, 20)
            status, spent = q:step(budget)
            assert.is_true(spent <= budget)
          until status ~= "running"
          local qp, _, qcode = q:result()
          local fp, _, fcode = g:find(a, b, opts)
          local want = H.graph_dijkstra(M, a)[b]
          checks = checks + 1
          if want == nil then
            assert.is_nil(qp)
            assert.are.equal("none", status)
            assert.are.equal(fcode, qcode)
          else
            assert.are.equal("found", status)
            assert.is_true(H.close(qp:cost(), want), ("query %s, reference %s"):format(qp:cost(), want))
            assert.is_true(H.close(fp:cost(), qp:cost()))
            assert.are.same(H.path_ids(fp), H.path_ids(qp))
            assert.is_true(H.close(H.check_graph_path(M, H.path_ids(qp), a, b), want))
          end
        end
      end
      g:close()
    end
    assert.is_true(checks >= 150)
  end)

  it("edits between steps: the answer is the reference's on the graph as last edited; edits " ..
    "away from what it searched do not restart it", function()
    local rng = H.rng(4242)
    local ignored, restarted, checks = 0, 0, 0
    for _ = 1, 120 do
      local n = rng.int(10, 60)
      local directed = rng.float() < 0.5
      local ops, M = H.random_graph(rng, { n = n, m = rng.int(n, 3 * n), directed = directed,
        p_pos = rng.pick({ 0.8, 1, 1 }), p_default = 0.3 })
      local g = H.build_graph(ops, directed)
      local a, b = rng.int(1, n), rng.int(1, n)
      local opts = { algorithm = rng.pick({ "astar", "dijkstra" }) }
      local function edit()
        local r, x, y = rng.float(), rng.int(1, M.n), rng.int(1, M.n)
        if r < 0.35 and x ~= y then
          local c = rng.pick({ 0.5, 2, 7, nil })
          if c == nil and not (M:length(x, y) or 0) > 1e-9 then c = 3 end
          M:add_edge(x, y, c)
          g:add_edge(x, y, c)
        elseif r < 0.55 and x ~= y and M:cost(x, y) then
          M:remove_edge(x, y)
          g:remove_edge(x, y)
        elseif r < 0.75 and x ~= y and M:cost(x, y) then
          local c = 0.25 + 5 * rng.float()
          M:set_edge_cost(x, y, c)
          g:set_edge_cost(x, y, c)
        elseif r < 0.85 then
          if M.disabled[x] then M:enable_node(x); g:enable_node(x)
          else M:disable_node(x); g:disable_node(x) end
        elseif r < 0.95 then
          local px, py = rng.int(0, 1000) / 10, rng.int(0, 1000) / 10
          M:add_node(px, py)
          g:add_node(px, py)
        else
          M:add_node()
          g:add_node()
        end
      end
      local q = g:query(a, b, opts)
      local status, edited = "running", false
      while status == "running" do
        local before = q:stats().restarts
        status = q:step(rng.int(1, 6))
        local d = q:stats().restarts - before
        assert.is_true(d == 0 or (edited and d == 1), "restarts without an edit")
        if edited then
          if d == 0 then ignored = ignored + 1 else restarted = restarted + 1 end
        end
        edited = false
        if status == "running" and rng.float() < 0.5 then
          for _ = 1, rng.int(1, 3) do edit() end
          edited = true
        end
      end
      local want = M:usable(a) and M:usable(b) and H.graph_dijkstra(M, a)[b] or nil
      local p = q:result()
      if want == nil then
        assert.is_nil(p)
      else
        assert.is_not_nil(p, "no path; the reference costs " .. want)
        assert.is_true(H.close(H.check_graph_path(M, H.path_ids(p), a, b), want),
          ("query %s, reference %s"):format(p:cost(), want))
        assert.is_true(H.close(p:cost(), want))
      end
      checks = checks + 1
      g:close()
    end
    assert.is_true(ignored > 30 and restarted > 30, ("edits ignored %d, restarts %d"):format(
      ignored, restarted))
  end)

  it("restarts after an edit, or reports stale", function()
    local g = H.new_graph(false)
    for i = 1, 30 do g:add_node(i, 0) end
    for i = 1, 29 do g:add_edge(i, i + 1) end
    local q = g:query(1, 30)
    q:step(3)
    g:add_edge(1, 30, 5)                    -- a shortcut appears while the query runs
    repeat until q:step(1000) ~= "running"
    assert.are.equal(5, q:result():cost())
    assert.are.equal(1, q:stats().restarts)
    g:remove_edge(1, 30)
    local s = g:query(1, 30, { on_change = "stale" })
    assert.are.equal("running", (s:step(2)))
    g:add_edge(1, 30, 5)
    assert.are.equal("stale", (s:step(1000)))
    H.checkerr("bad argument #3 to 'query' (option 'algorithm': bidirectional searches cannot be "
      .. "time-sliced)", g.query, g, 1, 30, { algorithm = "bidirectional" })
    g:remove_edge(1, 30)
    local r = g:query(1, 30)
    assert.are.equal("running", (r:step(1)))
    g:close()
    H.checkerr("attempt to use a closed graph", r.step, r, 10)
    assert.are.equal("found", (q:step(10)))    -- a finished query keeps its answer
  end)
end)

describe("graph:check", function()
  it("finds removed and disabled nodes, removed edges and changed costs at the right point", function()
    local g = H.new_graph(false)
    for i = 1, 6 do g:add_node(i, 0) end
    for i = 1, 5 do g:add_edge(i, i + 1) end
    local p = assert(g:find(1, 6))
    assert.is_true(g:check(p))
    g:set_edge_cost(3, 4, 7)
    assert.are.same({ false, 4, "changed" }, { g:check(p) })
    g:set_edge_cost(3, 4, 1)
    assert.is_true(g:check(p))
    g:disable_node(5)
    assert.are.same({ false, 5, "blocked" }, { g:check(p) })
    g:enable_node(5)
    g:remove_edge(2, 3)
    assert.are.same({ false, 3, "blocked" }, { g:check(p) })
    g:add_edge(2, 3)
    assert.is_true(g:check(p))
    g:remove_node(6)
    assert.are.same({ false, 6, "blocked" }, { g:check(p) })
    local small = H.new_graph(false)
    small:add_node(0, 0)
    H.checkerr("bad argument #1 to 'check' (the path does not fit this graph)", small.check, small, p)
    H.checkerr("bad argument #1 to 'check' (astar.Path of a graph expected, got string)",
      small.check, small, "x")
  end)
end)
