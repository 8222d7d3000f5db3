-- doc_coverage.lua - fails when a method registered by the C binding, or a
-- function of the Lua modules, has no entry in the LDoc output (build/doc).
-- It lists src/lua/*.c and lua/**/*.lua itself (the tree is the list: tools/sources.lua).
local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

-- every page LDoc wrote: the modules and the classes
local pages = {}
for _, dir in ipairs({ "build/doc/modules", "build/doc/classes" }) do
  local p = io.popen('ls "' .. dir .. '"')
  for name in p:lines() do pages[#pages + 1] = read(dir .. "/" .. name) end
  p:close()
end
local html = table.concat(pages)
local missing, checked = {}, 0

local function need(anchor)
  checked = checked + 1
  if not html:find('name = "' .. anchor .. '"', 1, true) then
    missing[#missing + 1] = anchor
  end
end

-- luaL_Reg tables of methods: "<type>_methods" → "<Type>:<name>"
local cfiles = io.popen("ls src/lua/*.c")
for file in cfiles:lines() do
  local src = read(file)
  for tname, body in src:gmatch("static const luaL_Reg (%a+)_methods%[%] = (%b{})") do
    local T = tname:sub(1, 1):upper() .. tname:sub(2)
    for name in body:gmatch('{"([%w_]+)",') do need(T .. ":" .. name) end
  end
end
-- public functions of the Lua modules
local lfiles = io.popen("find lua -name '*.lua'")
for file in lfiles:lines() do
  local src = read(file)
  for name in src:gmatch("\nfunction ([%w_.:]+)%(") do
    name = name:gsub("^M%.", "")
    if name:match("^%u") then name = name:gsub("%.", ":") end   -- Grid.render is a method
    need(name)
  end
end
cfiles:close()
lfiles:close()

if #missing > 0 then
  io.stderr:write("undocumented: " .. table.concat(missing, ", ") .. "\n")
  os.exit(1)
end
print(("docs: all %d public functions documented"):format(checked))
