-- Runs a collide2d benchmark scene in bump.lua 3.1.7, frame for frame as
-- benchmarks/bench_world.py runs it in collide2d, and prints the timings and the
-- final positions.
--
--   luajit bump_driver.lua BUMP_DIR SCENE_FILE
--
-- SCENE_FILE (written by bench_world.py), one record per line:
--   scene <name> <warmup frames> <timed frames>
--   tile <x> <y> <w> <h>
--   actor <x> <y> <w> <h> <vx> <vy>
local bump_dir, scene_file = arg[1], arg[2]
package.path = bump_dir .. "/?.lua;" .. package.path
local bump = require("bump")

local GRAVITY, TERMINAL, BOTTOM, RESPAWN = 0.5, 12.0, 4200.0, 0.0

local world = bump.newWorld(64)
local actors = {}
local name, warmup, timed
for line in io.lines(scene_file) do
  local kind, rest = line:match("^(%a+) (.*)$")
  local f = {}
  for v in rest:gmatch("%S+") do f[#f + 1] = v end
  if kind == "scene" then
    name, warmup, timed = f[1], tonumber(f[2]), tonumber(f[3])
  elseif kind == "tile" then
    world:add({tile = true}, tonumber(f[1]), tonumber(f[2]), tonumber(f[3]), tonumber(f[4]))
  elseif kind == "actor" then
    local a = {vx = tonumber(f[5]), vy = tonumber(f[6])}
    world:add(a, tonumber(f[1]), tonumber(f[2]), tonumber(f[3]), tonumber(f[4]))
    actors[#actors + 1] = a
  end
end

local function filter(item, other)
  if other.tile then return "slide" end
  return nil
end

local function frame()
  for i = 1, #actors do
    local a = actors[i]
    local x, y = world:getRect(a)
    a.vy = math.min(a.vy + GRAVITY, TERMINAL)
    local nx, ny, cols, len = world:move(a, x + a.vx, y + a.vy, filter)
    for j = 1, len do
      local n = cols[j].normal
      if n.y < 0 then a.vy = 0 end
      if n.x ~= 0 then a.vx = -a.vx end
    end
    if ny > BOTTOM then world:update(a, nx, RESPAWN) end
  end
end

for _ = 1, warmup do frame() end
local times = {}
for k = 1, timed do
  local start = os.clock()
  frame()
  times[k] = (os.clock() - start) * 1000.0
end
io.write("times")
for k = 1, #times do io.write(string.format(" %.4f", times[k])) end
io.write("\n")
for i = 1, #actors do
  local x, y = world:getRect(actors[i])
  io.write(string.format("pos %.17g %.17g\n", x, y))
end
