---@meta astar.navmesh
-- `require "astar.navmesh"`: its functions are annotated in ../astar.lua (class astar.navmesh_module).

---@type astar.navmesh_module
local M = {}

return M
