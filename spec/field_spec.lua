-- Distance fields (grid:distance_field, graph:distance_field) against references computed
-- forward: the distance of a cell is the minimum over the sources of (the source's value + the
-- cost of the cheapest path FROM the cell TO the source), each path cost from an independent
-- forward Dijkstra started at the cell (spec/helper.lua, H.all_pairs / H.field_ref). Then next()
-- must step downhill by exactly the step's cost, path_from must cost the distance, and flee maps
-- (a field as sources, scaled) must match the same reference with every reached cell a source.

local astar = require "astar"
local H = require "spec.helper"

local NAN, INF = 0 / 0, math.huge
local MAX_REPORT = 6
local floor = math.floor
local COSTS = { 1, 1, 1, 2, 3, 0.5, 1.25 }

local function report(fails, total) return H.report(fails, total, MAX_REPORT) end

local function step_hash(seed, x1, y1, x2, y2)
  local v = (seed * 7919 + x1 * 104729 + y1 * 1299709 + x2 * 15485863 + y2 * 32452843) % 2147483647
  v = (v * 16807) % 2147483647
  v = (v * 16807) % 2147483647
  return v / 2147483647
end

local function fmt_sources(sources)
  local out = {}
  for _, s in ipairs(sources) do out[#out + 1] = "{" .. table.concat(s, ", ") .. "}" end
  return "{" .. table.concat(out, ", ") .. "}"
end

-- Checks field `f` of the grid `cells` against the reference `dist` (key -> distance) with `own`
-- (key -> the cell's own source value). Returns nil or the first problem.
local function check_grid_field(f, cells, w, h, pol, costfn, dist, own)
  for y = 1, h do
    for x = 1, w do
      local k = (y - 1) * w + x
      local want = dist[k]
      local okd, got = pcall(f.distance, f, x, y)
      if not okd then return ("distance(%d, %d) raised %s"):format(x, y, tostring(got)) end
      if want == nil then
        if got ~= nil then return ("distance(%d, %d) = %s, expected nil (unreached)"):format(x, y, tostring(got)) end
        local nx = f:next(x, y)
        if nx ~= nil then return ("next(%d, %d) = %s, expected nil (unreached)"):format(x, y, tostring(nx)) end
        local p, msg, code = f:path_from(x, y)
        if p ~= nil or (code ~= "no_path" and code ~= "blocked") then
          return ("path_from(%d, %d) of an unreached cell: %s, %s, %s"):format(x, y, tostring(p), tostring(msg),
            tostring(code))
        end
      else
        if type(got) ~= "number" or not H.close(got, want, 1e-9) and math.abs(got - want) > 1e-9 then
          return ("distance(%d, %d) = %s, expected %.17g"):format(x, y, tostring(got), want)
        end
        local nx, ny = f:next(x, y)
        if nx == nil then
          if own[k] == nil or math.abs(own[k] - want) > 1e-9 * math.max(1, math.abs(want)) then
            return ("next(%d, %d) = nil, but the cell is not a source at its distance %.17g"):format(x, y, want)
          end
        else
          local dx, dy = (nx or 0) - x, (ny or 0) - y
          if not (H.is_int(nx) and H.is_int(ny) and H.walk(cells, w, h, nx, ny)
              and H.legal_step(cells, w, h, x, y, dx, dy, pol)) then
            return ("next(%d, %d) = %s, %s: not a legal step"):format(x, y, tostring(nx), tostring(ny))
          end
          local c = H.step_cost(cells, nx, ny, dx, dy)
          if costfn then c = H.cb_cost(costfn, x, y, nx, ny, c) end
          if c == nil then
            return ("next(%d, %d) = %d, %d: the cost callback forbids that step"):format(x, y, nx, ny)
          end
          local dn = dist[(ny - 1) * w + nx]
          if dn == nil or not H.close(dn + c, want, 1e-9) and math.abs(dn + c - want) > 1e-9 then
            return ("next(%d, %d) = %d, %d: distance there %s + step %.17g ~= %.17g"):format(x, y, nx, ny,
              tostring(dn), c, want)
          end
        end
        local p, msg, code = f:path_from(x, y)
        if p == nil then
          return ("path_from(%d, %d): nil, %s, %s"):format(x, y, tostring(msg), tostring(code))
        end
        local ex, ey = p:get(-1)
        local ek = (ey - 1) * w + ex
        if own[ek] == nil then return ("path_from(%d, %d) ends at (%d, %d), not a source"):format(x, y, ex, ey) end
        local ok, sum = pcall(H.check_path, cells, w, h, p, x, y, ex, ey, pol, costfn)
        if not ok then return ("path_from(%d, %d): %s"):format(x, y, tostring(sum)) end
        if math.abs(sum + own[ek] - want) > 1e-9 * math.max(1, math.abs(want))
            or math.abs(p:cost() - sum) > 1e-9 * math.max(1, sum) then
          return ("path_from(%d, %d): cost %.17g (steps %.17g) + source value %.17g ~= distance %.17g"):format(
            x, y, p:cost(), sum, own[ek], want)
        end
      end
    end
  end
  return nil
end

local function make_cases(seed, n, maxw)
  local rng = H.rng(seed)
  local out = {}
  for i = 1, n do
    local w, h = rng.int(1, maxw), rng.int(1, maxw)
    local cells = H.random_cells(rng, w, h, rng.pick({ 0, 0.1, 0.2, 0.3 }), COSTS)
    local open = {}
    for y = 1, h do for x = 1, w do if cells[y][x] then open[#open + 1] = { x, y } end end end
    out[i] = { id = i, w = w, h = h, cells = cells, open = open, rng = rng }
  end
  return out
end

---------------------------------------------------------------------------------------------------

describe("grid distance fields", function()
  local cases
  local function get() cases = cases or make_cases(13579, 60, 9) return cases end

  it("match the reference: distances, next steps and paths, with values, max_cost and cost callbacks", function()
    local fails, total = {}, 0
    for _, c in ipairs(get()) do
      if #c.open > 0 then
        local rng = c.rng
        local grid = astar.grid.from_table(c.cells)
        for round = 1, 2 do
          local pol = rng.pick(H.POLICIES)
          local costfn
          if round == 2 then
            local seed = c.id
            costfn = function(x1, y1, x2, y2, base)
              local r = step_hash(seed, x1, y1, x2, y2)
              if r < 0.1 then return false end
              return base * (0.5 + 2 * r)
            end
          end
          local sources = {}
          for i = 1, rng.int(1, 3) do
            local p = c.open[rng.int(1, #c.open)]
            if rng.float() < 0.5 then
              sources[i] = { p[1], p[2] }
            else
              sources[i] = { p[1], p[2], rng.pick({ 0, 1.5, 4, 10 }) }
            end
          end
          local max_cost = rng.float() < 0.3 and rng.pick({ 0, 2, 5, 8 }) or nil
          local opts = { diagonal = pol, cost = costfn, max_cost = max_cost }
          local fwd = H.all_pairs(c.cells, c.w, c.h, pol, costfn)
          local dist, own = H.field_ref(fwd, c.w, c.h, sources, max_cost)
          total = total + 1
          local ok, f = pcall(grid.distance_field, grid, sources, opts)
          local err
          if not ok then err = "raised: " .. tostring(f)
          else err = check_grid_field(f, c.cells, c.w, c.h, pol, costfn, dist, own) end
          if err then
            fails[#fails + 1] = ("%s\ngrid #%d (%dx%d) distance_field(%s, {diagonal = %q%s%s})\n%s"):format(err, c.id,
              c.w, c.h, fmt_sources(sources), pol, max_cost and (", max_cost = " .. max_cost) or "",
              costfn and ", cost = <callback>" or "", H.fmt_grid(c.cells, c.w, c.h))
          end
        end
        grid:close()
      end
    end
    report(fails, total)
    assert.is_true(total > 80, "too few fields: " .. total)
  end)

  it("flee fields: every reached cell a source with value scale * distance", function()
    local fails, total = {}, 0
    for _, c in ipairs(get()) do
      if #c.open > 0 and c.id % 2 == 0 then
        local rng = c.rng
        local grid = astar.grid.from_table(c.cells)
        local pol = rng.pick(H.POLICIES)
        local p = c.open[rng.int(1, #c.open)]
        local sources = { { p[1], p[2] } }
        local fwd = H.all_pairs(c.cells, c.w, c.h, pol)
        local dist = H.field_ref(fwd, c.w, c.h, sources)
        local scale = rng.pick({ -1.2, -2, -0.5 })
        local fsources = {}
        for k, d in pairs(dist) do
          fsources[#fsources + 1] = { (k - 1) % c.w + 1, floor((k - 1) / c.w) + 1, scale * d }
        end
        local fdist, fown = H.field_ref(fwd, c.w, c.h, fsources)
        total = total + 1
        local ok, f = pcall(grid.distance_field, grid, sources, { diagonal = pol })
        local err
        if not ok then err = "raised: " .. tostring(f) end
        local flee
        if not err then
          ok, flee = pcall(grid.distance_field, grid, f, { diagonal = pol, scale = scale })
          if not ok then err = "flee raised: " .. tostring(flee) end
        end
        if not err then err = check_grid_field(flee, c.cells, c.w, c.h, pol, nil, fdist, fown) end
        if err then
          fails[#fails + 1] = ("%s\ngrid #%d (%dx%d) source (%d, %d), diagonal = %q, scale = %g\n%s"):format(err,
            c.id, c.w, c.h, p[1], p[2], pol, scale, H.fmt_grid(c.cells, c.w, c.h))
        end
        grid:close()
      end
    end
    report(fails, total)
  end)

  it("a small example by hand", function()
    local grid = astar.grid.parse("...\n.#.\n...", { ["."] = 1, ["#"] = false })
    local f = grid:distance_field({ { 1, 1 } })
    assert.are.equal(0, f:distance(1, 1))
    assert.are.equal(1, f:distance(2, 1))
    assert.are.equal(2, f:distance(3, 1))
    assert.are.equal(4, f:distance(3, 3))
    assert.is_nil(f:distance(2, 2))
    assert.is_nil(f:next(1, 1))
    assert.are.same({ 2, 1 }, { f:next(3, 1) })
    local p = assert(f:path_from(3, 3))
    assert.are.equal(4, p:cost())
    assert.are.same({ 1, 1 }, { p:get(-1) })
    assert.are.same({ 3, 3 }, { p:get(1) })
    -- values: the cheaper total wins
    f = grid:distance_field({ { 1, 1, 10 }, { 3, 3 } })
    assert.are.equal(4, f:distance(1, 1)) -- from (1, 1) to (3, 3) costs 4 < 10
    assert.are.same({ 3, 3 }, { (f:path_from(1, 1)):get(-1) })
    -- diagonal option
    f = grid:distance_field({ { 1, 1 } }, { diagonal = "always" })
    assert.is_true(H.close(2 + math.sqrt(2), f:distance(3, 3)), tostring(f:distance(3, 3)))
    f = grid:distance_field({ { 1, 1 } }, { max_cost = 2 })
    assert.are.equal(2, f:distance(3, 1))
    assert.is_nil(f:distance(3, 2))
    grid:close()
  end)

  it("the cost callback sees the real direction of each step (toward the source)", function()
    -- moving right costs 1, moving left costs 5: from (1, 1) to the source (3, 1) costs 2,
    -- from (5, 1) to it costs 10
    local grid = astar.grid(5, 1)
    local f = grid:distance_field({ { 3, 1 } }, { cost = function(x1, _, x2, _, base)
      return x2 > x1 and base or 5 * base
    end })
    assert.are.equal(2, f:distance(1, 1))
    assert.are.equal(10, f:distance(5, 1))
    assert.are.equal(2, (f:path_from(1, 1)):cost())
    assert.are.equal(10, (f:path_from(5, 1)):cost())
    grid:close()
  end)

  it("outlives its grid, and rejects bad input", function()
    local grid = astar.grid(4, 3)
    local D = "distance_field"
    H.checkerr_fn(D, 1, grid.distance_field, grid)
    H.checkerr_fn(D, 1, grid.distance_field, grid, 5)
    H.checkerr_fn(D, 1, grid.distance_field, grid, {})
    H.checkerr_fn(D, 1, grid.distance_field, grid, { { 0, 1 } })
    H.checkerr_fn(D, 1, grid.distance_field, grid, { { 5, 1 } })
    H.checkerr_fn(D, 1, grid.distance_field, grid, { { 1.5, 1 } })
    H.checkerr_fn(D, 1, grid.distance_field, grid, { { 1, 1, NAN } })
    H.checkerr_fn(D, 1, grid.distance_field, grid, { { 1, 1, INF } })
    H.checkerr_fn(D, 1, grid.distance_field, grid, { { 1, 1, "x" } })
    H.checkerr_fn(D, 1, grid.distance_field, grid, { 7 })
    H.checkerr_fn(D, 2, grid.distance_field, grid, { { 1, 1 } }, { wieght = 2 })
    H.checkerr_fn(D, 2, grid.distance_field, grid, { { 1, 1 } }, { diagonal = "sometimes" })
    H.checkerr_fn(D, 2, grid.distance_field, grid, { { 1, 1 } }, { max_cost = -1 })
    H.checkerr_fn(D, 2, grid.distance_field, grid, { { 1, 1 } }, { cost = 3 })
    local f = grid:distance_field({ { 1, 1 } })
    H.checkerr_fn("distance", 1, f.distance, f, 0, 1)
    H.checkerr_fn("distance", 2, f.distance, f, 1, 4)
    H.checkerr_fn("next", 1, f.next, f, "a", 1)
    H.checkerr_fn("path_from", 2, f.path_from, f, 1, 1.5)
    local other = astar.grid(5, 5)
    H.checkerr_fn(D, 1, other.distance_field, other, f, { scale = -1 }) -- a field of another size
    other:close()
    -- a callback error passes through unchanged, and the grid still works
    local e = {}
    H.checkerr_value(e, grid.distance_field, grid, { { 1, 1 } }, { cost = function() error(e) end })
    -- callbacks may not yield, nor search or edit the grid; the grid stays usable
    local ok, err = pcall(coroutine.wrap(function()
      return grid:distance_field({ { 1, 1 } }, { cost = function(_, _, _, _, b) coroutine.yield() return b end })
    end))
    assert.is_false(ok)
    assert.is_true(H.is_yield_error(err), tostring(err))
    H.checkerr("cannot search: a search on this grid is already running", grid.distance_field, grid, { { 1, 1 } },
      { cost = function() return grid:find(1, 1, 2, 2) end })
    H.checkerr("cannot search: a search on this grid is already running", grid.find, grid, 1, 1, 4, 3,
      { cost = function() return grid:distance_field({ { 1, 1 } }) end })
    H.checkerr_prefix("cannot edit the grid: ", grid.distance_field, grid, { { 1, 1 } },
      { cost = function() grid:set(1, 1, 2) end })
    assert.are.equal(3, grid:distance_field({ { 1, 1 } }):distance(4, 1))
    grid:set(2, 1, false)
    grid:close()
    assert.are.equal(3, f:distance(4, 1)) -- computed before the edit, and the grid is gone
    assert.is_true(H.close(1 + 2 * math.sqrt(2), f:distance(4, 3)))
    local p = assert(f:path_from(4, 3))
    assert.is_true(H.close(1 + 2 * math.sqrt(2), p:cost()))
    assert.are.same({ 1, 1 }, { p:get(-1) })
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

describe("graph distance fields", function()
  it("match the reference (distance along edge directions, next, path_from)", function()
    local rng = H.rng(24680)
    local fails, total = {}, 0
    for gi = 1, 60 do
      local directed = gi % 3 ~= 0
      local n = rng.int(2, 30)
      local ops, M = H.random_graph(rng, { n = n, m = rng.int(n, 3 * n), directed = directed,
        p_pos = rng.pick({ 0, 1 }), p_remove_edge = 0.1, p_disable = 0.05, p_remove_node = 0.05 })
      local ok, g = pcall(build, ops, directed)
      if not ok then
        fails[#fails + 1] = "building raised: " .. tostring(g)
        break
      end
      local ids = M:ids()
      local usable = {}
      for _, id in ipairs(ids) do if M:usable(id) then usable[#usable + 1] = id end end
      if #usable > 0 then
        local costfn
        if gi % 2 == 0 then
          costfn = function(a, b, base)
            local r = step_hash(gi, a, b, 0, 0)
            if r < 0.1 then return nil end
            return base * (0.5 + 2 * r)
          end
        end
        local srcs, own = {}, {}
        for i = 1, rng.int(1, 3) do
          local id = usable[rng.int(1, #usable)]
          local v = rng.float() < 0.5 and 0 or rng.pick({ 1, 5, 20 })
          srcs[i] = v == 0 and id or { id, v }
          if own[id] == nil or v < own[id] then own[id] = v end
        end
        local max_cost = rng.float() < 0.25 and rng.pick({ 10, 50 }) or nil
        local dist = {}
        for _, u in ipairs(usable) do
          local d = H.graph_dijkstra(M, u, costfn)
          local best
          for s, v in pairs(own) do
            if d[s] and (best == nil or d[s] + v < best) then best = d[s] + v end
          end
          if best and (max_cost == nil or best <= max_cost) then dist[u] = best end
        end
        total = total + 1
        local okf, f = pcall(g.distance_field, g, srcs, { cost = costfn, max_cost = max_cost })
        local err
        if not okf then err = "raised: " .. tostring(f) end
        for _, u in ipairs(ids) do
          if err then break end
          local want, got = dist[u], f:distance(u)
          if want == nil then
            if got ~= nil then err = ("distance(%d) = %s, expected nil"):format(u, tostring(got)) end
            if f:next(u) ~= nil then err = err or ("next(%d) of an unreached node is not nil"):format(u) end
            local p, _, code = f:path_from(u)
            if p ~= nil or (code ~= "no_path" and code ~= "blocked") then
              err = err or ("path_from(%d) of an unreached node: %s, %s"):format(u, tostring(p), tostring(code))
            end
          elseif type(got) ~= "number" or math.abs(got - want) > 1e-9 * math.max(1, want) then
            err = ("distance(%d) = %s, expected %.17g"):format(u, tostring(got), want)
          else
            local nx = f:next(u)
            if nx == nil then
              if own[u] == nil or math.abs(own[u] - want) > 1e-9 * math.max(1, want) then
                err = ("next(%d) = nil, but it is not a source at its distance"):format(u)
              end
            else
              local c = M:cost(u, nx)
              if c and costfn then c = costfn(u, nx, c) or nil end
              if not c or not M:usable(nx) or not dist[nx]
                  or math.abs(dist[nx] + c - want) > 1e-9 * math.max(1, want) then
                err = ("next(%d) = %s: edge cost %s, distance there %s, here %.17g"):format(u, tostring(nx),
                  tostring(c), tostring(dist[nx]), want)
              end
            end
            local p, msg, code = f:path_from(u)
            if p == nil then
              err = err or ("path_from(%d): nil, %s, %s"):format(u, tostring(msg), tostring(code))
            else
              local pids = H.path_ids(p)
              local e = pids[#pids]
              local okp, sum = pcall(H.check_graph_path, M, pids, u, nil, costfn)
              if not okp then err = err or ("path_from(%d): %s"):format(u, tostring(sum))
              elseif own[e] == nil then err = err or ("path_from(%d) ends at %d, not a source"):format(u, e)
              elseif math.abs(sum + own[e] - want) > 1e-9 * math.max(1, want) then
                err = err or ("path_from(%d): cost %.17g + value %.17g ~= %.17g"):format(u, sum, own[e], want)
              end
            end
          end
        end
        if err then
          local s = {}
          for i, v in ipairs(srcs) do
            s[i] = type(v) == "table" and ("{" .. v[1] .. ", " .. v[2] .. "}") or tostring(v)
          end
          fails[#fails + 1] = ("%s\ng:distance_field({%s}, {%s%s})\n%s"):format(err, table.concat(s, ", "),
            costfn and "cost = <callback>, " or "", max_cost and ("max_cost = " .. max_cost) or "",
            H.fmt_graph_ops(ops, directed))
        end
      end
      g:close()
    end
    report(fails, total)
    assert.is_true(total > 40, "too few fields: " .. total)
  end)

  it("flee fields on random graphs match the reference", function()
    local rng = H.rng(8642)
    local fails, total = {}, 0
    for gi = 1, 40 do
      local directed = gi % 2 == 0
      local n = rng.int(2, 25)
      local ops, M = H.random_graph(rng, { n = n, m = rng.int(n, 3 * n), directed = directed,
        p_pos = 1, p_disable = 0.05 })
      local g = build(ops, directed)
      local usable = {}
      for _, id in ipairs(M:ids()) do if M:usable(id) then usable[#usable + 1] = id end end
      if #usable > 0 then
        local src = usable[rng.int(1, #usable)]
        local scale = rng.pick({ -1.2, -2, -0.5 })
        local to = {} -- to[u][v]: cost from u to v
        for _, u in ipairs(usable) do to[u] = H.graph_dijkstra(M, u) end
        local f0 = {}
        for _, u in ipairs(usable) do f0[u] = to[u][src] end
        local want = {}
        for _, u in ipairs(usable) do
          local best
          for v, dv in pairs(f0) do
            local c = to[u][v]
            if c and (best == nil or scale * dv + c < best) then best = scale * dv + c end
          end
          want[u] = best
        end
        total = total + 1
        local ok, err = pcall(function()
          local f = g:distance_field({ src })
          local flee = g:distance_field(f, { scale = scale })
          for _, u in ipairs(usable) do
            local got = flee:distance(u)
            local tol = want[u] and 1e-9 * math.max(1, math.abs(want[u]))
            if (got == nil) ~= (want[u] == nil) or (got and math.abs(got - want[u]) > tol) then
              return ("flee:distance(%d) = %s, expected %s"):format(u, tostring(got), tostring(want[u]))
            end
            local nx = flee:next(u)
            if nx ~= nil then
              local c = M:cost(u, nx)
              if not c or not want[nx] or math.abs(want[nx] + c - want[u]) > 1e-9 * math.max(1, math.abs(want[u])) then
                return ("flee:next(%d) = %d does not step downhill by the edge's cost"):format(u, nx)
              end
            elseif want[u] ~= nil and (f0[u] == nil or math.abs(scale * f0[u] - want[u]) > tol) then
              return ("flee:next(%d) = nil, but the node is not its own best refuge"):format(u)
            end
          end
        end)
        if not ok then err = "raised: " .. tostring(err) end
        if err then
          fails[#fails + 1] = ("%s\nsource %d, scale %g\n%s"):format(err, src, scale, H.fmt_graph_ops(ops, directed))
        end
      end
      g:close()
    end
    report(fails, total)
  end)

  it("flee fields on graphs", function()
    local g = astar.graph({ directed = false })
    for i = 1, 6 do g:add_node(i, 0) end
    for i = 1, 5 do g:add_edge(i, i + 1) end
    local f = g:distance_field({ 3 })
    assert.are.same({ 2, 1, 0, 1, 2, 3 }, { f:distance(1), f:distance(2), f:distance(3), f:distance(4),
      f:distance(5), f:distance(6) })
    local flee = g:distance_field(f, { scale = -2 })
    -- every node u: min over v of (-2 * f(v) + |u - v|): the far end 6 is the best refuge, but
    -- node 1 is already a corner worth -4
    local want = { -4, -3, -3, -4, -5, -6 }
    for u = 1, 6 do assert.are.equal(want[u], flee:distance(u)) end
    assert.are.equal(6, flee:path_from(3):get(-1))
    assert.are.equal(4, flee:next(3))
    assert.are.equal(1, flee:next(2))
    assert.is_nil(flee:next(6))
    assert.is_nil(flee:next(1))
    g:close()
  end)

  it("rejects bad input", function()
    local g = astar.graph({ directed = true })
    g:add_node(0, 0); g:add_node(1, 0); g:add_edge(1, 2)
    H.checkerr_fn("distance_field", 1, g.distance_field, g, { 3 })
    H.checkerr_fn("distance_field", 1, g.distance_field, g, { 0 })
    H.checkerr_fn("distance_field", 1, g.distance_field, g, { { 1, NAN } })
    H.checkerr_fn("distance_field", 1, g.distance_field, g, {})
    H.checkerr_fn("distance_field", 2, g.distance_field, g, { 1 }, { wieght = 1 })
    local f = g:distance_field({ 2 })
    assert.are.equal(1, f:distance(1))
    assert.are.equal(0, f:distance(2))
    H.checkerr_fn("distance", 1, f.distance, f, 3)
    H.checkerr_fn("next", 1, f.next, f, 0)
    g:remove_node(1)
    g:close()
    assert.are.equal(1, f:distance(1)) -- the field is a snapshot
  end)
end)
