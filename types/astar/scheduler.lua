---@meta astar.scheduler
-- `require "astar.scheduler"`: its functions are annotated in ../astar.lua (class astar.scheduler_module).

---@type astar.scheduler_module
local M = {}

return M
