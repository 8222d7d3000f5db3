---@meta astar.follow
-- `require "astar.follow"`: its functions are annotated in ../astar.lua (class astar.follow_module).

---@type astar.follow_module
local M = {}

return M
