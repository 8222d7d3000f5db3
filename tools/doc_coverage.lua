-- doc_coverage.lua - fails when the reference LDoc wrote (build/doc) misses part of the API
-- or has broken pieces:
--   * a method that the C binding registers, or a function of the Lua modules, has no entry,
--     or has it on another page than its type's: Grid methods on classes/Grid.html whatever
--     file defines them, module functions on their module's page;
--   * a function the loaded `astar` table exports (astar.grid, astar.navmesh.from_grid, ...)
--     has no entry (aliases are named below);
--   * a link points to a page or an anchor that does not exist, LDoc could not resolve a
--     reference (it writes "???"), or Markdown turned a stray `*` or `_` into emphasis.
-- It lists src/lua/*.c and lua/**/*.lua itself (the tree is the list: tools/sources.lua), and
-- needs the built module on LUA_PATH/LUA_CPATH (make docs sets them).
local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

local function ls(cmd)
  local out, p = {}, assert(io.popen(cmd))
  for line in p:lines() do out[#out + 1] = line end
  p:close()
  table.sort(out)
  return out
end

-- every page LDoc wrote, by path under build/doc, and the anchors of each
local pages, anchors = {}, {}
for _, path in ipairs(ls("cd build/doc && ls index.html modules/*.html classes/*.html 2>/dev/null")) do
  pages[path] = read("build/doc/" .. path)
  anchors[path] = {}
  for name in pages[path]:gmatch('<a name%s*=%s*"([^"]*)"') do anchors[path][name] = true end
end
if not pages["index.html"] then
  io.stderr:write("doc_coverage: no build/doc/index.html (run ldoc first: make docs)\n")
  os.exit(1)
end

local problems, checked = {}, 0
local function problem(fmt, ...) problems[#problems + 1] = fmt:format(...) end

-- Is `anchor` documented on `page` (or, when page is nil, on any page)?
local function need(anchor, page, what)
  checked = checked + 1
  if page then
    if not anchors[page] or not anchors[page][anchor] then
      local elsewhere
      for p, a in pairs(anchors) do if a[anchor] then elsewhere = p end end
      problem("%s: no entry %q on %s%s", what, anchor, page,
        elsewhere and (" (it is on " .. elsewhere .. ")") or "")
    end
    return
  end
  for _, a in pairs(anchors) do if a[anchor] then return end end
  problem("%s: no entry %q on any page", what, anchor)
end

-- The C binding: each file's luaL_Reg tables of methods, through the astar_newclass and
-- astar_addmethods calls that give them to a type ("astar.Grid" -> Grid).
local mtname = {}
for _, file in ipairs(ls("ls src/lua/*.c src/lua/*.h")) do
  for const, tname in read(file):gmatch('#define%s+(ASTAR_[%w_]+_MT)%s+"astar%.(%w+)"') do
    mtname[const] = tname
  end
end
for _, file in ipairs(ls("ls src/lua/*.c")) do
  local src = read(file)
  local tables = {}
  for tbl, body in src:gmatch("static const luaL_Reg ([%w_]+)%[%] = (%b{})") do tables[tbl] = body end
  local function methods(const, tbl)
    local T = mtname[const]
    if not T then problem("%s: unknown metatable name %s", file, const) return end
    if not tables[tbl] then problem("%s: no luaL_Reg table %s", file, tbl) return end
    for name in tables[tbl]:gmatch('{"([%w_]+)",') do
      need(T .. ":" .. name, "classes/" .. T .. ".html", file)
    end
  end
  for const, tbl in src:gmatch("astar_newclass%(L, ([%w_]+), [^,]+, [%w_]+, ([%w_]+)%)") do
    methods(const, tbl)
  end
  for const, tbl in src:gmatch("astar_addmethods%(L, ([%w_]+), ([%w_]+)%)") do
    methods(const, tbl)
  end
end

-- The Lua modules: `function M.f` is f on the module's page; `function Grid.f` and
-- `function Grid:f` are Grid:f, on the Grid's page if there is one (and the module is not
-- one of astar.compat.*), else the module's.
for _, file in ipairs(ls("find lua -name '*.lua'")) do
  local mod = file:gsub("^lua/", ""):gsub("%.lua$", ""):gsub("/init$", ""):gsub("/", ".")
  for name in read(file):gmatch("\nfunction ([%w_.:]+)%(") do
    local T, f = name:match("^(%u[%w_]*)[.:]([%w_]+)$")
    if T and T ~= "M" then
      -- astar.compat.* have classes of their own (Jumper's Grid, Path): on their module's page
      local own = mod:find("^astar%.compat%.") == nil and pages["classes/" .. T .. ".html"]
      local page = own and ("classes/" .. T .. ".html") or ("modules/" .. mod .. ".html")
      need(T .. ":" .. f, page, file)
    else
      need((name:gsub("^M%.", "")), "modules/" .. mod .. ".html", file)
    end
  end
end

-- What `require "astar"` exports. Aliases: the name a function is documented under.
local ALIASES = {
  ["astar.grid.new"] = "astar.grid",
  ["astar.hexgrid.new"] = "astar.hexgrid",
  ["astar.navmesh.new"] = "astar.navmesh",
  ["astar.grid.load_movingai"] = "load_map",
  ["astar.grid.parse_movingai"] = "parse_map",
  ["astar.load_scenarios"] = "load_scenarios",
  ["astar.parse_scenarios"] = "parse_scenarios",
  ["astar.scheduler"] = "new",
  ["astar.await"] = "await",
  ["astar.follow"] = "new",
  ["astar.tiled.grid"] = "grid",
  ["astar.tiled.navmesh"] = "navmesh",
  ["astar.cooperative"] = "cooperative",
}
local ok, astar = pcall(require, "astar")
if not ok then
  problem("cannot load the module to list its API (make build; LUA_PATH/LUA_CPATH): %s", astar)
else
  local function callable(v)
    return type(v) == "function" or (getmetatable(v) or {}).__call ~= nil
  end
  local names = {}
  for k, v in pairs(astar) do
    if callable(v) then names[#names + 1] = "astar." .. k end
    if type(v) == "table" then
      for k2, v2 in pairs(v) do
        if callable(v2) then names[#names + 1] = "astar." .. k .. "." .. k2 end
      end
    end
  end
  table.sort(names)
  for _, name in ipairs(names) do need(ALIASES[name] or name, nil, "require \"astar\"") end
end

-- Links, references and emphasis on every page.
for path, html in pairs(pages) do
  local dir = path:match("^(.*/)") or ""
  for href in html:gmatch('href="([^"]*)"') do
    if not href:match("^%a+:") then                  -- not http: and the like
      local file, anchor = href:match("^([^#]*)#?(.*)$")
      local target = path
      if file ~= "" then
        target = dir .. file
        while target:find("[^/]+/%.%./") do target = target:gsub("[^/]+/%.%./", "", 1) end
      end
      if not pages[target] and not target:match("%.css$") then
        problem("%s: link to a missing page %s", path, href)
      elseif anchor ~= "" and pages[target] and not anchors[target][anchor] then
        problem("%s: link to a missing anchor %s", path, href)
      end
    end
  end
  if html:find("???", 1, true) then
    problem("%s: a reference LDoc could not resolve (\"???\"; see ldoc's output)", path)
  end
  for em in html:gmatch("<em>(.-)</em>") do
    if em ~= "optional" and em ~= "default" and em ~= "readonly" then
      problem("%s: emphasis from a stray * or _: <em>%s</em> (put it in backticks)", path,
        em:sub(1, 40))
    end
  end
end

if #problems > 0 then
  table.sort(problems)
  io.stderr:write("docs: " .. #problems .. " problem(s):\n  " .. table.concat(problems, "\n  ") .. "\n")
  os.exit(1)
end
print(("docs: all %d public functions documented on their pages; links resolve"):format(checked))
