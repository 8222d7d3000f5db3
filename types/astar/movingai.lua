---@meta astar.movingai
-- `require "astar.movingai"`: its functions are annotated in ../astar.lua (class astar.movingai_module).

---@type astar.movingai_module
local M = {}

return M
