---@meta astar.tiled
-- `require "astar.tiled"`: its functions are annotated in ../astar.lua (class astar.tiled_module).

---@type astar.tiled_module
local M = {}

return M
