-- loop_bench.lua - the game loop on the Moving AI DAO maps:
--
--  1. the time of one q:step(STEP) (default 1000 expansions) over the scenarios: mean, median, p95,
--     p99 and max, for the steps that ran their whole budget and for all steps (the last step of a
--     query also builds its Path);
--  2. the scheduler's overhead per update with LIVE (default 100) live requests: the time of
--     scheduler:update minus the time of the same expansions done by stepping the same queries
--     directly (q:step(n) with the n each query got, then q:result() for those that ended). The
--     first WARM (30) updates of each run are not counted (every new query's search context is
--     allocated and first touched there), and the garbage collector is stopped while timing.
--
--   lua5.4 bench/loop_bench.lua [--limit N] [--step N] [--live N] [--updates N]
--                               [--budgets 2000,10000] [--repeat R] [dao/map ...]
--
-- Maps come from $ASTAR_MOVINGAI (default ../shared/benchmarks/movingai); without them the bench
-- prints a note and exits. --limit N takes N scenarios per map, evenly spread over the file (all
-- path lengths), default 1000. Times are wall-clock (lua-system's monotime when available).
local astar = require "astar"

local ok, system = pcall(require, "system")        -- lua-system comes with busted
local now = (ok and system.monotime) or os.clock
local clock_name = ok and "lua-system monotime" or "os.clock (CPU time)"

local dir = os.getenv("ASTAR_MOVINGAI")
if dir == nil or dir == "" then dir = "../shared/benchmarks/movingai" end
local limit, STEP, LIVE, UPDATES, REP, WARM = 1000, 1000, 100, 300, 3, 30
local budgets = { 2000, 10000 }
local maps = {}
local i = 1
while arg and arg[i] do
  local a = arg[i]
  if a == "--limit" then limit = assert(tonumber(arg[i + 1])); i = i + 1
  elseif a == "--step" then STEP = assert(tonumber(arg[i + 1])); i = i + 1
  elseif a == "--live" then LIVE = assert(tonumber(arg[i + 1])); i = i + 1
  elseif a == "--updates" then UPDATES = assert(tonumber(arg[i + 1])); i = i + 1
  elseif a == "--repeat" then REP = assert(tonumber(arg[i + 1])); i = i + 1
  elseif a == "--budgets" then
    budgets = {}
    for b in arg[i + 1]:gmatch("%d+") do budgets[#budgets + 1] = tonumber(b) end
    i = i + 1
  else maps[#maps + 1] = a end
  i = i + 1
end

local function exists(p)
  local f = io.open(p, "rb")
  if f then f:close() return true end
  return false
end

if #maps == 0 then
  for _, m in ipairs({ "dao/arena2", "dao/brc202d", "dao/orz900d" }) do
    if exists(dir .. "/" .. m .. ".map") and exists(dir .. "/" .. m .. ".map.scen") then maps[#maps + 1] = m end
  end
end
if #maps == 0 then
  print("loop_bench: no Moving AI DAO maps under " .. dir .. " (set ASTAR_MOVINGAI); nothing to do")
  return
end

local interp = rawget(_G, "jit") and rawget(_G, "jit").version or _VERSION
local rss_mb
local function cpu_model()
  local f = io.open("/proc/cpuinfo")
  if not f then return "unknown CPU" end
  local s = f:read("*a")
  f:close()
  local n = 0
  for _ in s:gmatch("\nprocessor%s*:") do n = n + 1 end
  if s:match("^processor%s*:") then n = n + 1 end
  return ("%s, %d vCPU"):format(s:match("model name%s*:%s*([^\n]+)") or "unknown CPU", n)
end

-- Distribution of a list of seconds, in microseconds.
local function dist(t)
  local n = #t
  if n == 0 then return { n = 0, mean = 0 / 0, median = 0 / 0, p95 = 0 / 0, p99 = 0 / 0, max = 0 / 0, over = 0 } end
  local s = {}
  local sum = 0
  for k = 1, n do
    s[k] = t[k]
    sum = sum + t[k]
  end
  table.sort(s)
  local function pct(p) return s[math.max(1, math.min(n, math.ceil(p * n)))] * 1e6 end
  local over = 0
  for k = 1, n do if s[k] > 200e-6 then over = over + 1 end end
  local median = (s[math.floor((n + 1) / 2)] + s[math.floor(n / 2) + 1]) / 2 * 1e6
  return { n = n, mean = sum / n * 1e6, median = median, p95 = pct(0.95), p99 = pct(0.99), max = s[n] * 1e6,
    over = over }
end

-- The timer's own cost: a pair of now() calls.
local function timer_cost()
  local best = math.huge
  for _ = 1, 5 do
    local t0 = now()
    for _ = 1, 10000 do local a = now(); local b = now(); local _ = b - a end
    best = math.min(best, (now() - t0) / 10000)
  end
  return best * 1e6
end

-- Resident memory of this process in MB (Linux), or nil.
rss_mb = function()
  local f = io.open("/proc/self/status")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  local kb = s:match("VmRSS:%s*(%d+)")
  return kb and tonumber(kb) / 1024
end

local function sample(all, n)
  if n >= #all then return all end
  local out, stride = {}, #all / n
  for k = 0, n - 1 do out[#out + 1] = all[math.floor(k * stride) + 1] end
  return out
end

print(("# loop_bench: %s on %s, %s UTC, %s; clock: %s (a pair of reads costs %.2f us)"):format(
  astar._VERSION, interp, os.date("!%Y-%m-%d %H:%M"), cpu_model(), clock_name, timer_cost()))

---------------------------------------------------------------------------------------------------
-- 1. One q:step(STEP)

print()
print(("## One q:step(%d): time in us (full = the steps that expanded %d nodes; all = every step," ..
  " including each query's last, which builds its Path; >200us = how many steps took longer)"):format(STEP, STEP))
print(("%-14s %6s %7s | %8s %8s %8s %8s %8s | %8s %8s %8s %8s %8s | %s"):format("map", "scen", "steps",
  "mean", "median", "p95", "p99", "max", "mean", "median", "p95", "max", ">200us", "max dev"))

local total_full, total_all = {}, {}
local loaded = {}
for _, name in ipairs(maps) do
  local grid = assert(astar.grid.load_movingai(dir .. "/" .. name .. ".map"))
  local scen = sample(assert(astar.load_scenarios(dir .. "/" .. name .. ".map.scen")), limit)
  loaded[name] = { grid = grid, scen = scen }
  for k = 1, math.min(50, #scen) do                -- warm-up: the pool's contexts reach their size
    local s = scen[k]
    local q = grid:query(s.sx, s.sy, s.gx, s.gy)
    while q:step(STEP) == "running" do end
  end
  collectgarbage()
  local full, all, dev = {}, {}, 0
  for _, s in ipairs(scen) do
    local q = grid:query(s.sx, s.sy, s.gx, s.gy)
    local st, n
    repeat
      local t0 = now()
      st, n = q:step(STEP)
      local dt = now() - t0
      all[#all + 1] = dt
      if n == STEP then full[#full + 1] = dt end
    until st ~= "running"
    local p = assert(q:result())
    dev = math.max(dev, math.abs(p:cost() - s.optimal))
  end
  for _, v in ipairs(full) do total_full[#total_full + 1] = v end
  for _, v in ipairs(all) do total_all[#total_all + 1] = v end
  local f, a = dist(full), dist(all)
  print(("%-14s %6d %7d | %8.1f %8.1f %8.1f %8.1f %8.1f | %8.1f %8.1f %8.1f %8.1f %8d | %.2g"):format(name,
    #scen, a.n, f.mean, f.median, f.p95, f.p99, f.max, a.mean, a.median, a.p95, a.max, a.over, dev))
end
do
  local f, a = dist(total_full), dist(total_all)
  print(("%-14s %6s %7d | %8.1f %8.1f %8.1f %8.1f %8.1f | %8.1f %8.1f %8.1f %8.1f %8d |"):format("all DAO", "",
    a.n, f.mean, f.median, f.p95, f.p99, f.max, a.mean, a.median, a.p95, a.max, a.over))
end

---------------------------------------------------------------------------------------------------
-- 2. The scheduler's overhead per update

-- One run, in lockstep: the scheduler keeps LIVE requests live (topped up after each update from
-- the scenario list, in order); right after each of its updates, the same expansions are done
-- directly on a twin set of queries made from the same scenarios: q:step(n) with the n each query
-- expanded in that update (read from stats().expanded outside the timed parts), then q:result()
-- for those that ended. Timing both in the same loop keeps machine-load drift out of the
-- difference.
local function run(grid, scen, budget)
  local s = astar.scheduler { budget = budget }
  local qa, qb, live, next_scen = {}, {}, {}, 1
  local ta, tb, spent = {}, {}, {}
  local ended_now = {}
  local function add()
    local sc = scen[(next_scen - 1) % #scen + 1]
    next_scen = next_scen + 1
    local idx = #qa + 1
    qa[idx] = grid:query(sc.sx, sc.sy, sc.gx, sc.gy)
    qb[idx] = grid:query(sc.sx, sc.sy, sc.gx, sc.gy)
    live[idx] = true
    s:request(qa[idx], function() ended_now[#ended_now + 1] = idx end)
  end
  for _ = 1, LIVE do add() end
  collectgarbage()
  collectgarbage("stop")
  for u = 1, UPDATES do
    local before = {}
    for idx in pairs(live) do before[idx] = qa[idx]:stats().expanded end
    ended_now = {}
    local t0 = now()
    s:update()
    ta[u] = now() - t0
    local ended = {}
    for _, idx in ipairs(ended_now) do ended[idx] = true end
    local plan, total = {}, 0
    for idx in pairs(live) do
      local d = qa[idx]:stats().expanded - before[idx]
      if d > 0 or ended[idx] then plan[#plan + 1] = { qb[idx], d } end
      total = total + d
    end
    spent[u] = total
    t0 = now()
    for k = 1, #plan do
      local q = plan[k][1]
      if q:step(plan[k][2]) ~= "running" then q:result() end
    end
    tb[u] = now() - t0
    for idx in pairs(ended) do live[idx] = nil end
    for _ = 1, #ended_now do add() end
  end
  collectgarbage("restart")
  local rss = rss_mb()
  for idx = 1, #qa do
    assert(qa[idx]:stats().expanded == qb[idx]:stats().expanded, "the direct twin diverged from the scheduler")
    qa[idx]:cancel()
    qb[idx]:cancel()
  end
  return { ta = ta, tb = tb, spent = spent, rss = rss }
end

print()
print(("## Scheduler overhead per update, %d live requests, updates %d..%d counted (best of %d runs);" ..
  " us per update; exp/upd = expansions the update spent; RSS with both sets of requests live"):format(LIVE, WARM + 1,
  UPDATES, REP))
print(("%-14s %7s %9s | %9s %9s | %9s %9s %9s | %8s | %s"):format("map", "budget", "exp/upd",
  "update", "direct", "overhead", "median", "p95", "overhead", "RSS"))
for _, name in ipairs(maps) do
  local grid, scen = loaded[name].grid, loaded[name].scen
  for _, budget in ipairs(budgets) do
    local best
    for _ = 1, REP do
      local r = run(grid, scen, budget)
      r.a, r.b = 0, 0
      for u = WARM + 1, UPDATES do r.a, r.b = r.a + r.ta[u], r.b + r.tb[u] end
      if best == nil or r.a + r.b < best.a + best.b then best = r end
    end
    local diff, exp = {}, 0
    local counted = UPDATES - WARM
    for u = WARM + 1, UPDATES do
      diff[#diff + 1] = best.ta[u] - best.tb[u]
      exp = exp + best.spent[u]
    end
    local d = dist(diff)
    local mean_a, mean_b = best.a / counted * 1e6, best.b / counted * 1e6
    print(("%-14s %7d %9.0f | %9.1f %9.1f | %9.1f %9.1f %9.1f | %7.1f%% | %s"):format(name, budget,
      exp / counted, mean_a, mean_b, d.mean, d.median, d.p95, (mean_a - mean_b) / mean_b * 100,
      best.rss and ("%.0f MB"):format(best.rss) or "?"))
  end
end
for _, v in pairs(loaded) do v.grid:close() end
