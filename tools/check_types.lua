-- check_types.lua - checks the LuaCATS annotations (types/) against the built module.
--
--   LUA_PATH_5_4='./lua/?.lua;./lua/?/init.lua;;' LUA_CPATH_5_4='./build/5.4/?.so;;' \
--     lua5.4 tools/check_types.lua [types-dir]
--
-- From the repository's root, after `make build`. Fails (exit 1, with a list) when a
-- function or method of the module has no annotation, or when an annotation names one that
-- does not exist (stale). What it compares:
--
--   * every module of the tree (lua/**/*.lua) against the class its annotation file
--     (types/<module path>.lua) returns, key by key: functions against `function C.name`,
--     other values against `---@field`, tables recursively through the class of their field,
--     callable tables against an `---@overload` of their class; and back: every annotated
--     function and field must exist;
--   * the methods of one sample object of every kind (the `__index` table of its metatable)
--     against `function C:name` of the class named like its metatable ("astar.Grid"), and
--     back, and the class's `---@field`s against the object; every "astar.*" metatable of
--     the registry must have a sample;
--   * a class table of a Lua module (a table that is its own `__index`, as Jumper's classes
--     in astar.compat.jumper) holds methods: its functions are `function C:name`, its
--     fields may be the objects' (checked on its sample, which it must have);
--   * every function of the C module astar.core must be reachable from the above, or be
--     listed in INTERNAL below;
--   * every annotated class that declares functions must be checked by one of the above.
--
-- The annotation files are read line by line, in the shape types/astar.lua uses:
-- `---@class C` (then `---@field`/`---@overload` lines) before `local V = {}` binds V to C,
-- `---@type C` before `local V` does the same, `function V.f(` / `function V:m(` declare
-- functions and methods, `return V` names the module's class.

local TYPES = arg[1] or "types"

-- Functions that are deliberately not part of the annotated API.
local INTERNAL = {
  ["astar.core.grid_splice_options"] = "Grid:splice's option check",
  ["astar.core.hexgrid_of"] = "astar.hexgrid.parse and .from_table's layout",
  ["astar.scheduler.show"] = "number formatting for error messages",
}

local problems = { missing = {}, stale = {}, other = {} }
local function report(kind, fmt, ...) table.insert(problems[kind], fmt:format(...)) end

local function lines_of(cmd)
  local p = assert(io.popen(cmd))
  local out = {}
  for line in p:lines() do out[#out + 1] = line end
  p:close()
  table.sort(out)
  return out
end

---------------------------------------------------------------------------------------------
-- The annotations
---------------------------------------------------------------------------------------------

local classes = {}      -- name -> {funcs = {name -> {method =, where =}}, fields = {}, callable =}
local aliases = {}      -- name -> true
local refs = {}         -- {name =, where =}: the astar.* type names the tags use
local files = {}        -- path -> {meta = name, returns = class name}
local nfuncs = 0

local function parse(path)
  local f = assert(io.open(path, "r"))
  local info = {}
  files[path] = info
  local vars = {}       -- local variable -> class name (this file)
  local pending         -- the class of the next `local V`
  local header          -- the class whose header (---@field / ---@overload lines) is open
  local params = {}     -- the ---@param names before the next function
  local n = 0
  for line in f:lines() do
    n = n + 1
    local where = path .. ":" .. n
    local tag = line:match("^%-%-%-@(%a+)")
    if tag and tag ~= "meta" then   -- type names in the tag (not in `quoted` descriptions)
      for name in line:gsub("`[^`]*`", ""):gmatch("astar%.[%w_.]*[%w_]") do
        refs[#refs + 1] = { name = name, where = where }
      end
    end
    if tag == "param" then
      params[#params + 1] = line:match("^%-%-%-@param%s+([%w_.]+)")
    elseif tag == "alias" then
      aliases[line:match("^%-%-%-@alias%s+([%w_.]+)")] = true
    elseif tag == "class" then
      local name = line:match("^%-%-%-@class%s+([%w_.]+)")
      if classes[name] then
        report("other", "%s: class %s is declared twice (also %s)", where, name, classes[name].where)
      end
      classes[name] = { name = name, funcs = {}, fields = {}, callable = false, where = where }
      pending, header = name, classes[name]
    elseif tag == "type" then
      pending, header = line:match("^%-%-%-@type%s+([%w_.]+)"), nil
    elseif tag == "meta" then
      info.meta = line:match("^%-%-%-@meta%s+(%S+)")
    elseif tag == "field" and header then
      local name, ftype = line:match("^%-%-%-@field%s+([%w_]+)%??%s+(.*)$")
      if name then header.fields[name] = { type = ftype:match("^[%w_.]+"), where = where } end
    elseif tag == "overload" and header then
      header.callable = true
    elseif not line:match("^%-%-%-") then
      header = nil
      local var = line:match("^local%s+([%w_]+)")
      if var and pending then
        vars[var] = pending
        pending = nil
      elseif line:match("%S") and not line:match("^%s*%-%-") then
        pending = nil
      end
      local v, sep, fname, args = line:match("^function%s+([%w_]+)([.:])([%w_]+)%s*(%b())")
      if v then
        local names = args:sub(2, -2):gsub("%s", "")
        if table.concat(params, ",") ~= names then
          report("other", "%s: the ---@param lines (%s) do not match the parameters (%s)", where,
            table.concat(params, ", "), (names:gsub(",", ", ")))
        end
        local cname = vars[v]
        if not cname then
          report("other", "%s: function %s%s%s: %s is not a local bound to a class", where, v, sep,
            fname, v)
        elseif classes[cname] then
          local funcs = classes[cname].funcs
          if funcs[fname] then
            report("other", "%s: %s.%s is annotated twice (also %s)", where, cname, fname,
              funcs[fname].where)
          else
            nfuncs = nfuncs + 1
          end
          funcs[fname] = { method = sep == ":", where = where }
        end
      end
      local r = line:match("^return%s+([%w_]+)%s*$")
      if r then info.returns = vars[r] end
      params = {}
    end
  end
  f:close()
end

local typefiles = lines_of(("find '%s' -name '*.lua' 2>/dev/null"):format(TYPES))
if #typefiles == 0 then
  io.stderr:write(("check_types: no annotation files under %s/\n"):format(TYPES))
  os.exit(1)
end
for _, path in ipairs(typefiles) do parse(path) end
for _, r in ipairs(refs) do
  if not classes[r.name] and not aliases[r.name] then
    report("other", "%s: type %s is neither a class nor an alias", r.where, r.name)
  end
end

---------------------------------------------------------------------------------------------
-- The module, against them
---------------------------------------------------------------------------------------------

local checked = {}      -- class name -> true once compared with a runtime table
local classtables = {}  -- class name -> label: class tables (own __index), need a sample
local reached = {}      -- function value -> true: the functions the checks saw
local nmod, nmeth = 0, 0

local function callable(v)
  if type(v) == "function" then return true end
  local mt = getmetatable(v)
  return type(mt) == "table" and type(rawget(mt, "__call")) == "function"
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do
    if type(k) == "string" and not k:match("^__") then keys[#keys + 1] = k end
  end
  table.sort(keys)
  return keys
end

-- A module (or a table in one) against class cname; label names it in messages.
local function check_table(label, tbl, cname, seen)
  local cls = classes[cname]
  if not cls then
    report("missing", "%s: its class %s is not declared", label, cname)
    return
  end
  seen = seen or {}
  if seen[tbl] then return end
  seen[tbl] = true
  checked[cname] = true
  local classtable = rawget(tbl, "__index") == tbl   -- its functions are the objects' methods
  if classtable then classtables[cname] = label end
  if callable(tbl) and type(tbl) == "table" and not cls.callable then
    report("missing", "%s is callable: class %s needs an ---@overload", label, cname)
  end
  for _, k in ipairs(sorted_keys(tbl)) do
    local v, name = tbl[k], label .. "." .. k
    if type(v) == "function" then
      reached[v] = true
      nmod = nmod + 1
      local a = cls.funcs[k]
      if not a then
        if not INTERNAL[name] then report("missing", "%s (function of class %s)", name, cname) end
      elseif a.method and not classtable then
        report("other", "%s: %s is a function: annotate it as %s.%s, not %s:%s", a.where, name,
          cname, k, cname, k)
      end
    elseif not cls.fields[k] then
      report("missing", "%s (a %s: ---@field of class %s)", name, type(v), cname)
    elseif type(v) == "table" then
      local fclass = cls.fields[k].type
      if classes[fclass] then
        check_table(name, v, fclass, seen)
      else
        report("other", "%s: field %s is a table: its type should be an annotated class, not %s",
          cls.fields[k].where, name, tostring(fclass))
      end
    end
  end
  for _, k in ipairs(sorted_keys(cls.funcs)) do
    if not callable(tbl[k]) then
      report("stale", "%s: %s.%s is annotated, but %s has no such function", cls.funcs[k].where,
        cname, k, label)
    end
  end
  for _, k in ipairs(sorted_keys(cls.fields)) do
    if tbl[k] == nil and not classtable then   -- (a class table's: on its sample)
      report("stale", "%s: field %s of class %s is annotated, but %s has none",
        cls.fields[k].where, k, cname, label)
    end
  end
end

-- The methods of an object kind: the __index table of its metatable, against class cname;
-- the class's fields against the object obj.
local function check_methods(cname, methods, obj)
  local cls = classes[cname]
  if not cls then
    report("missing", "class %s (objects of that kind exist) is not declared", cname)
    return
  end
  checked[cname] = true
  for _, k in ipairs(sorted_keys(methods)) do
    local v = methods[k]
    if type(v) == "function" then
      reached[v] = true
      nmeth = nmeth + 1
      local a = cls.funcs[k]
      if not a then
        report("missing", "%s:%s (method)", cname, k)
      elseif not a.method then
        report("other", "%s: %s:%s is a method: annotate it with ':', not '.'", a.where, cname, k)
      end
    end
  end
  for _, k in ipairs(sorted_keys(cls.funcs)) do
    if type(methods[k]) ~= "function" then
      report("stale", "%s: %s:%s is annotated, but the objects have no such method",
        cls.funcs[k].where, cname, k)
    end
  end
  for _, k in ipairs(sorted_keys(cls.fields)) do
    if obj[k] == nil then
      report("stale", "%s: field %s of class %s is annotated, but its sample object has none",
        cls.fields[k].where, k, cname)
    end
  end
end

-- 1. every module of the tree
local modules = {}
for _, path in ipairs(lines_of("find lua -name '*.lua'")) do
  modules[#modules + 1] = path:gsub("^lua/", ""):gsub("%.lua$", ""):gsub("/init$", "")
end
for _, path in ipairs(modules) do
  local mname = path:gsub("/", ".")
  local tfile = TYPES .. "/" .. path .. ".lua"
  local info = files[tfile]
  local ok, mod = pcall(require, mname)
  if not ok then
    report("other", "require %q failed (run `make build` and set LUA_PATH_5_4/LUA_CPATH_5_4): %s",
      mname, tostring(mod))
  elseif not info then
    report("missing", "module %s: no annotation file %s", mname, tfile)
  else
    if info.meta ~= mname then
      report("other", "%s: its first line should be ---@meta %s", tfile, mname)
    end
    if not info.returns then
      report("other", "%s: it should end with `return V`, V a local bound to the module's class",
        tfile)
    else
      check_table(mname, mod, info.returns)
    end
  end
end

-- 2. one object of every kind
local astar = require "astar"
local core = require "astar.core"
local samples = {}   -- {class name, object}
local ok, err = pcall(function()
  local function add(cname, obj) samples[#samples + 1] = { cname, obj } end
  local grid = astar.grid(4, 4)
  add("astar.Grid", grid)
  add("astar.Path", assert(grid:find(1, 1, 4, 4)))
  add("astar.Query", grid:query(1, 1, 4, 4))
  add("astar.Field", grid:distance_field({ { 1, 1 } }))
  add("astar.Replanner", grid:replanner(1, 1, 4, 4))
  add("astar.Curve", astar.curve(0, 0, 0, 3, 3, 1, 1))
  add("astar.Workers", astar.workers({ threads = 1 }))
  add("astar.Reservations", astar.reservations())
  local graph = astar.graph()
  local a, b = graph:add_node(0, 0), graph:add_node(1, 0)
  graph:add_edge(a, b)
  add("astar.Graph", graph)
  add("astar.Path", assert(graph:find(a, b)))
  add("astar.Query", graph:query(a, b))
  add("astar.Field", graph:distance_field({ a }))
  local implicit = { start = 1, goal = 3, neighbors = function(n, emit) emit(n + 1, 1) end }
  add("astar.Path", assert(astar.search(implicit)))
  add("astar.Query", astar.query(implicit))
  local mesh = astar.navmesh.from_grid(grid)
  add("astar.NavMesh", mesh)
  add("astar.NavMesh", astar.navmesh({ vertices = { 0, 0, 1, 0, 1, 1 }, polygons = { { 1, 2, 3 } } }))
  add("astar.Path", assert(mesh:find(0.5, 0.5, 3.5, 3.5)))
  add("astar.Query", mesh:query(0.5, 0.5, 3.5, 3.5))
  local scheduler = astar.scheduler({ budget = 100 })
  add("astar.Scheduler", scheduler)
  add("astar.Request", scheduler:request(grid, 1, 1, 4, 4, function() end))
  add("astar.Walker", astar.follow({ 0, 0, 1, 0 }, 1))
  local jumper = require "astar.compat.jumper"
  local jgrid = jumper.grid({ { 0, 0 }, { 0, 0 } })
  add("astar.compat.jumper.Grid", jgrid)
  add("astar.compat.jumper.Node", jgrid:getNodeAt(1, 1))
  local finder = jumper.pathfinder(jgrid, "ASTAR", 0)
  add("astar.compat.jumper.Pathfinder", finder)
  add("astar.compat.jumper.Path", assert(finder:getPath(1, 1, 2, 2)))
end)
if not ok then
  report("other", "could not make the sample objects (did the API change?): %s", tostring(err))
end

local by_class, registry = {}, debug.getregistry()
for _, s in ipairs(samples) do
  local cname, mt = s[1], getmetatable(s[2])
  local methods = type(mt) == "table" and rawget(mt, "__index")
  if type(methods) ~= "table" then
    report("other", "a sample %s has no method table (__index)", cname)
  elseif by_class[cname] == nil then
    by_class[cname] = methods
    if registry[cname] ~= nil and registry[cname] ~= mt then
      report("other", "the sample %s's metatable is not the registry's %q", cname, cname)
    end
    check_methods(cname, methods, s[2])
  elseif by_class[cname] ~= methods then
    report("other", "two samples of %s have different method tables", cname)
  end
end
for name, mt in pairs(registry) do
  if type(name) == "string" and name:match("^astar%.") and type(mt) == "table"
      and type(rawget(mt, "__index")) == "table" and not by_class[name] then
    report("missing", "objects with metatable %q: no sample in tools/check_types.lua, so their "
      .. "methods are not checked (add one, and annotate class %s)", name, name)
  end
end

for cname, label in pairs(classtables) do
  if not by_class[cname] then
    report("missing", "%s is a class table (its own __index): no sample object of class %s in "
      .. "tools/check_types.lua, so its methods are not checked", label, cname)
  end
end

-- 3. the C module's functions
for _, k in ipairs(sorted_keys(core)) do
  local v = core[k]
  if type(v) == "function" and not reached[v] and not INTERNAL["astar.core." .. k] then
    report("missing", "astar.core.%s is neither reachable from a module or object nor listed as "
      .. "INTERNAL in tools/check_types.lua", k)
  end
end

-- 4. annotated functions that nothing checked
local ncls = 0
for cname, cls in pairs(classes) do
  ncls = ncls + 1
  if next(cls.funcs) and not checked[cname] then
    report("stale", "%s: class %s declares functions but is no module, table or object kind of "
      .. "the library", cls.where, cname)
  end
end

---------------------------------------------------------------------------------------------

local failed = false
for _, kind in ipairs({ "missing", "stale", "other" }) do
  local list = problems[kind]
  if #list > 0 then
    failed = true
    local title = ({ missing = "not annotated", stale = "annotated but not in the module",
                     other = "other problems" })[kind]
    io.stderr:write(("check_types: %s (%d):\n"):format(title, #list))
    for _, p in ipairs(list) do io.stderr:write("  ", p, "\n") end
  end
end
if failed then os.exit(1) end
print(("types: %d classes, %d functions and methods annotated in %d files; all %d module "
  .. "functions and %d methods of %d object kinds match"):format(ncls, nfuncs, #typefiles, nmod,
  nmeth, #sorted_keys(by_class)))
