-- ui.lua - the lab's side panel: rows of labelled buttons laid out top to bottom each frame.
-- Drawing a panel also records where its buttons are, so the next click finds its button.
-- luacheck: globals love
local ui = {}

local ROW, GAP = 22, 4
local hits = {}                 -- the buttons of the last frame: {x, y, w, h, fn}
local cur = { x = 0, y = 0, w = 0 }

function ui.begin(x, y, w)
  hits = {}
  cur.x, cur.y, cur.w = x, y, w
end

local function button(x, y, w, text, on, fn)
  local g = love.graphics
  g.setColor(on and { 0.95, 0.78, 0.25 } or { 0.25, 0.27, 0.32 })
  g.rectangle("fill", x, y, w, ROW - 2, 3, 3)
  g.setColor(on and { 0.1, 0.1, 0.1 } or { 0.92, 0.92, 0.92 })
  g.printf(text, x, y + 3, w, "center")
  hits[#hits + 1] = { x, y, w, ROW - 2, fn }
end

-- A heading line.
function ui.label(text, colour)
  love.graphics.setColor(colour or { 0.75, 0.8, 0.9 })
  love.graphics.printf(text, cur.x, cur.y + 3, cur.w, "left")
  local _, lines = love.graphics.getFont():getWrap(text, cur.w)
  cur.y = cur.y + math.max(1, #lines) * 15 + 4
end

-- One row of choices: choices = {{text, value}, ...}; pick(value) runs on a click.
function ui.choices(choices, current, pick, per_row)
  per_row = per_row or #choices
  local bw = (cur.w - GAP * (per_row - 1)) / per_row
  for i, c in ipairs(choices) do
    local col = (i - 1) % per_row
    if i > 1 and col == 0 then cur.y = cur.y + ROW end
    button(cur.x + col * (bw + GAP), cur.y, bw, c[1], c[2] == current, function() pick(c[2]) end)
  end
  cur.y = cur.y + ROW + GAP
end

-- A value stepped by two buttons: "-  text  +".
function ui.stepper(text, down, up)
  local bw = 28
  button(cur.x, cur.y, bw, "-", false, down)
  love.graphics.setColor(0.92, 0.92, 0.92)
  love.graphics.printf(text, cur.x + bw, cur.y + 3, cur.w - 2 * bw, "center")
  button(cur.x + cur.w - bw, cur.y, bw, "+", false, up)
  cur.y = cur.y + ROW + GAP
end

-- Runs the button under (x, y), if any; true if there was one.
function ui.click(x, y)
  for _, b in ipairs(hits) do
    if x >= b[1] and y >= b[2] and x < b[1] + b[3] and y < b[2] + b[4] then
      b[5]()
      return true
    end
  end
  return false
end

return ui
