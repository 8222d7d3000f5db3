-- doc_examples.lua - the reference's examples are code that runs: every `@usage` block of
-- src/lua/*.c and lua/**/*.lua is run against the built module, and what it prints must be
-- what its `-->` comments say. Also fails when a constructor (a function returning a Grid,
-- Graph, NavMesh, Query, Field, Replanner or Scheduler) or a `find` has no example.
--
--   make docs runs it under lua5.4 and luajit, with LUA_PATH/LUA_CPATH set to the build.
--   lua5.4 tools/doc_examples.lua -v     also lists each example as it runs
--
-- An example sees `astar` (require "astar") and the usual globals; it runs in a table of its
-- own, so its globals go nowhere. Its output is checked against its `-->` comments, in order:
-- `print(x)   --> 3` expects the line "3"; a line of its own, `--> text`, expects "text" next
-- (for several lines from one print, or one line per loop turn). Before comparing, runs of
-- spaces and tabs become one space and a number's `.0` goes (LuaJIT prints 10 where Lua 5.4
-- prints 10.0). An example with no `-->` must print nothing.
local verbose = arg[1] == "-v"
local astar = require "astar"

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

local function lines(cmd)
  local out, p = {}, assert(io.popen(cmd))
  for line in p:lines() do out[#out + 1] = line end
  p:close()
  table.sort(out)
  return out
end

-- The doc blocks of a file, each {file =, line =, text =, name =}: the text of a C block is
-- what lies between `/***` and `*/`; a Lua block is a `---` line and the `--` lines after
-- it, without their dashes (and one space); its name is its @function, else the function
-- defined on the line after it.
local function blocks_of(file)
  local src, out = read(file), {}
  if file:match("%.c$") then
    local pos = 1
    while true do
      local a, b = src:find("/%*%*%*.-%*/", pos)
      if not a then break end
      local _, nl = src:sub(1, a):gsub("\n", "")
      out[#out + 1] = { file = file, line = nl + 1, text = src:sub(a + 4, b - 2) }
      pos = b + 1
    end
  else
    local n, cur = 0, nil
    for line in (src .. "\n"):gmatch("([^\n]*)\n") do
      n = n + 1
      local body = line:match("^%s*%-%-%-(.*)$")
      if body and not line:match("^%s*%-%-%-%-") then
        cur = { file = file, line = n, text = { (body:gsub("^ ", "")) } }
        out[#out + 1] = cur
      elseif cur and type(cur.text) == "table" and line:match("^%s*%-%-") then
        cur.text[#cur.text + 1] = (line:match("^%s*%-%-(.*)$"):gsub("^ ", ""))
      elseif cur and type(cur.text) == "table" then
        cur.text = table.concat(cur.text, "\n")
        cur.follows = line
        cur = nil
      end
    end
    if cur and type(cur.text) == "table" then cur.text = table.concat(cur.text, "\n") end
  end
  for _, b in ipairs(out) do
    b.name = b.text:match("\n%s*@function%s+([%w_.:]+)") or b.text:match("^%s*@function%s+([%w_.:]+)")
    if not b.name and b.follows then
      b.name = b.follows:match("^%s*function%s+([%w_.:]+)%s*%(")
      if b.name then b.name = b.name:gsub("^M%.", ""):gsub("^(%u%w*)%.", "%1:") end
    end
  end
  return out
end

-- The text of a tag: from `@tag` to the next line that starts with `@`.
local function tag(text, name)
  local found = {}
  local cur
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local t, rest = line:match("^%s*@([%w_]+)%s?(.*)$")
    if t then
      cur = nil
      if t == name then cur = { rest } ; found[#found + 1] = cur end
    elseif cur then
      cur[#cur + 1] = line
    end
  end
  for i, f in ipairs(found) do found[i] = table.concat(f, "\n") end
  return found
end

local OBJECTS = { Grid = true, Graph = true, NavMesh = true, Query = true, Field = true,
                  Replanner = true, Scheduler = true }

-- Does the block return an object (in its only or its first group of returns)?
local function constructor(text)
  for _, t in ipairs(tag(text, "treturn")) do
    local group, ty = t:match("^%[?(%d*)%]?%s*(%w+)")
    if ty and OBJECTS[ty] and (group == "" or group == "1") then return true end
  end
  return false
end

local function normalize(s)
  s = s:gsub("[ \t]+", " "):gsub("^ ", ""):gsub(" $", "")
  s = s:gsub("(%d)%.0$", "%1"):gsub("(%d)%.0([^%d])", "%1%2")
  return s
end

-- Runs one example; returns nil or a message.
local function run(code, chunkname)
  local out = {}
  local env = setmetatable({
    astar = astar,
    print = function(...)
      local parts = {}
      for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
      local text = table.concat(parts, "\t")
      for line in (text .. "\n"):gmatch("([^\n]*)\n") do out[#out + 1] = line end
    end,
  }, { __index = _G })
  local fn, err
  if setfenv then                                    -- LuaJIT / 5.1
    fn, err = loadstring(code, chunkname)
    if fn then setfenv(fn, env) end
  else
    fn, err = load(code, chunkname, "t", env)
  end
  if not fn then return "does not compile: " .. err end
  local ok, rerr = pcall(fn)
  if not ok then return "raised: " .. tostring(rerr) end
  local want = {}
  for line in (code .. "\n"):gmatch("([^\n]*)\n") do
    local exp = line:match("%-%->%s?(.*)$")
    if exp then want[#want + 1] = exp end
  end
  for i = 1, math.max(#want, #out) do
    local w, o = want[i], out[i]
    if w == nil then
      return ("printed more than its --> comments say: \"%s\""):format(normalize(o))
    end
    if o == nil then return ("printed %d line(s), its --> comments expect %d"):format(#out, #want) end
    if normalize(w) ~= normalize(o) then
      return ("line %d of its output: expected \"%s\", got \"%s\""):format(i, normalize(w),
        normalize(o))
    end
  end
end

local files = lines("ls src/lua/*.c")
for _, f in ipairs(lines("find lua -name '*.lua'")) do files[#files + 1] = f end

local failed, ran, missing = {}, 0, {}
for _, file in ipairs(files) do
  for _, b in ipairs(blocks_of(file)) do
    local usages = tag(b.text, "usage")
    local name = b.name or "?"
    -- astar.compat.* return their own Grid and Path (Jumper's): doc/migrating-from-jumper.md
    -- shows them in use
    local own = not file:find("/compat/", 1, true)
    if #usages == 0 and own and (constructor(b.text) or name:match("[:.]find$")
        or name == "astar.search") then
      missing[#missing + 1] = ("%s:%d: %s"):format(file, b.line, name)
    end
    for _, code in ipairs(usages) do
      ran = ran + 1
      local where = ("%s:%d (%s)"):format(file, b.line, name)
      if verbose then print(where) end
      local err = run(code, "=" .. name .. " @usage")
      if err then failed[#failed + 1] = where .. ": " .. err end
    end
  end
end

if #missing > 0 then
  io.stderr:write("no @usage example for a constructor or find:\n  "
    .. table.concat(missing, "\n  ") .. "\n")
end
if #failed > 0 then
  io.stderr:write(("%d of %d examples failed (%s):\n  "):format(#failed, ran, _VERSION)
    .. table.concat(failed, "\n  ") .. "\n")
end
if #missing > 0 or #failed > 0 then os.exit(1) end
print(("docs: all %d examples run as documented (%s)"):format(ran,
  type(jit) == "table" and jit.version or _VERSION))
