-- The suite runs under the interpreter the Makefile claims (TOOLCHAIN.md §2: a `lua` key in
-- .busted or /usr/bin/lua pointing elsewhere silently switches VMs).

describe("interpreter", function()
  it("is the one named by EXPECT_INTERP", function()
    local want = os.getenv("EXPECT_INTERP")
    assert.is_not_nil(want, "EXPECT_INTERP is not set: run the specs through `make test54` / `make testjit`")
    if want:match("^Lua 5%.[1-4]$") then
      assert.are.equal(want, _VERSION)
      assert.is_nil(rawget(_G, "jit"), want .. " expected, but `jit` exists")
    elseif want == "LuaJIT" then
      local j = rawget(_G, "jit")
      assert.is_not_nil(j, "LuaJIT expected, but there is no `jit` table (" .. _VERSION .. ")")
      assert.is_truthy(tostring(j.version):find("^LuaJIT"), "jit.version: " .. tostring(j.version))
    else
      error("EXPECT_INTERP must be 'Lua 5.1' ... 'Lua 5.4' or 'LuaJIT', got '" .. want .. "'")
    end
  end)

  it("loads astar.core built for this VM", function()
    local astar = require "astar"
    assert.are.equal("table", type(astar))
    local core = require "astar.core"
    assert.is_truthy(type(core) == "table" or type(core) == "function", "astar.core is a " .. type(core))
  end)
end)
