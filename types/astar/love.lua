---@meta astar.love
-- `require "astar.love"`: its functions are annotated in ../astar.lua (class astar.love_module).

---@type astar.love_module
local M = {}

return M
