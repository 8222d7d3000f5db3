-- Finalizers during a call (issue 16). Any Lua allocation may run finalizers, and a finalizer
-- may close, edit or search the very map whose method is building its results, or change the
-- table a constructor is reading. Each case runs in a fresh process (spec/finalizer_child.lua:
-- in a small heap the finalizers do run inside the calls) with the collector at its most eager:
-- the method returns the right answer (costs worked out by hand) or raises one of the
-- library's own messages, never corrupts memory (the ASan run passes LD_PRELOAD on to the
-- child), and the map answers correctly afterwards.
local H = require "spec.helper"

local CALLS = {
  "grid:find", "grid:find with a cost callback", "grid:distance_field", "grid:clone",
  "grid:to_path", "grid:replanner and path", "grid:stats", "query:explored", "navmesh.from_grid", "graph:find",
  "graph:distance_field", "mesh:polygons, polygon, vertices, neighbours, stats", "grid:class",
  "mesh:link, find through it and links",
  "grid:to_field and an overlay", "grid:find with a size", "path:smooth",
}
local INPUTS = { "astar.navmesh", "grid.from_table", "find's goals", "distance_field's sources" }

local function run(child)
  local ok, out = H.isolated(("CHILD = { %q, %q, %q }\ndofile(%q)"):format(child[1], child[2],
    child[3] or "", "spec/finalizer_child.lua"))
  assert.is_true(ok, out)
  local fired, oks = out:match("fired=(%d+) ok=(%d+)")
  assert.is_truthy(fired, out)
  assert.is_true(tonumber(fired) > 0, "no finalizer ran during a call: " .. out)
  assert.is_true(tonumber(oks) > 0, "no call succeeded: " .. out)
end

describe("finalizers during a call", function()
  for _, name in ipairs(CALLS) do
    for _, action in ipairs({ "close", "edit", "search" }) do
      it(("%s, a finalizer trying to %s the map"):format(name, action), function()
        run({ "call", name, action })
      end)
    end
  end
end)

describe("finalizers that change the input being read", function()
  for _, name in ipairs(INPUTS) do
    it(name .. ": a right result for the input as first seen, or a clear error", function()
      run({ "input", name })
    end)
  end
end)
