-- Large grids: 4096 x 4096 works; sizes whose memory would overflow are refused.
local astar = require "astar"

describe("large grids", function()
  it("searches a 4096 x 4096 grid top to bottom through a one-cell gap", function()
    local g = astar.grid(4096, 4096)
    -- row 2048 is a wall but for the gap at x = 2
    g:fill(1, 2048, 1, 1, false)
    g:fill(3, 2048, 4094, 1, false)
    local p = assert(g:find(1, 1, 1, 4096))
    -- Worked out by hand: the gap can only be entered and left orthogonally
    -- (no corner cutting past the wall), so the path goes (1,1) -> (2,2047):
    -- 2045 straight + 1 diagonal; two steps through the gap; (2,2049) ->
    -- (1,4096): 2046 straight + 1 diagonal.
    local want = 2045 + 2 + 2046 + 2 * math.sqrt(2)
    assert.is_true(math.abs(p:cost() - want) < 1e-9 * want,
      ("cost %.12g, expected %.12g"):format(p:cost(), want))
    local x, y = p:get(-1)
    assert.are.equal(1, x)
    assert.are.equal(4096, y)
    g:close()
  end)

  it("refuses sizes over 2^28 cells before allocating", function()
    local ok, err = pcall(astar.grid, 65536, 65536)
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'grid' (grid too large: 65536 x 65536 cells, "
      .. "at most 268435456 in all)", err)
    ok, err = pcall(astar.grid, 2147483647, 2147483647)
    assert.is_false(ok)
    assert.is_truthy(err:find("grid too large", 1, true))
  end)
end)
