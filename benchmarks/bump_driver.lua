-- Runs a collide2d benchmark scene in bump.lua 3.1.7, frame for frame as
-- benchmarks/bench_world.py runs it in collide2d, and prints the timings and the
-- final positions.
--
--   luajit bump_driver.lua BUMP_DIR SCENE_FILE [frame]
--
-- SCENE_FILE (written by bench_world.py), one record per line:
--   scene <platformer|bullets> <warmup frames> <timed frames>
--   bounds <left> <top> <right> <bottom>     (bullets: where they turn back)
--   tile <x> <y> <w> <h>
--   actor <x> <y> <w> <h> <vx> <vy>          (platformer: moved; bullets: targets)
--   bullet <x> <y> <w> <h> <vx> <vy>
local bump_dir, scene_file = arg[1], arg[2]
package.path = bump_dir .. "/?.lua;" .. package.path
local bump = require("bump")

local GRAVITY, TERMINAL, BOTTOM, RESPAWN = 0.5, 12.0, 4200.0, 0.0

local world = bump.newWorld(64)
local actors, bullets = {}, {}
local name, warmup, timed
local left, top, right, bottom
for line in io.lines(scene_file) do
  local kind, rest = line:match("^(%a+) (.*)$")
  local f = {}
  for v in rest:gmatch("%S+") do f[#f + 1] = v end
  if kind == "scene" then
    name, warmup, timed = f[1], tonumber(f[2]), tonumber(f[3])
  elseif kind == "bounds" then
    left, top, right, bottom = tonumber(f[1]), tonumber(f[2]), tonumber(f[3]), tonumber(f[4])
  elseif kind == "tile" then
    world:add({tile = true}, tonumber(f[1]), tonumber(f[2]), tonumber(f[3]), tonumber(f[4]))
  elseif kind == "actor" or kind == "bullet" then
    local a = {vx = tonumber(f[5]), vy = tonumber(f[6]), actor = kind == "actor"}
    world:add(a, tonumber(f[1]), tonumber(f[2]), tonumber(f[3]), tonumber(f[4]))
    if kind == "actor" then actors[#actors + 1] = a else bullets[#bullets + 1] = a end
  end
end

local function filter(item, other)
  if other.tile then return "slide" end
  return nil
end

local frame
frame = function()
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

local function bullet_filter(item, other)
  if other.tile then return "touch" end
  if other.actor then return "cross" end
  return nil
end

local hits = 0

-- A bullet turns back from a tile it touches (each axis once, however many tiles
-- it touched) and at the bounds; it crosses actors, counting the hits.
local function bullet_frame()
  for i = 1, #bullets do
    local b = bullets[i]
    local x, y = world:getRect(b)
    local nx, ny, cols, len = world:move(b, x + b.vx, y + b.vy, bullet_filter)
    local flip_x, flip_y = false, false
    for j = 1, len do
      local col = cols[j]
      if col.type == "touch" then
        if col.normal.x ~= 0 then flip_x = true end
        if col.normal.y ~= 0 then flip_y = true end
      elseif col.type == "cross" then
        hits = hits + 1
      end
    end
    if flip_x then b.vx = -b.vx end
    if flip_y then b.vy = -b.vy end
    if (nx < left and b.vx < 0) or (nx > right and b.vx > 0) then b.vx = -b.vx end
    if (ny < top and b.vy < 0) or (ny > bottom and b.vy > 0) then b.vy = -b.vy end
  end
end

if name == "bullets" then frame = bullet_frame end
local moved = name == "bullets" and bullets or actors

-- "frame" as a third argument: hand the frame function to the caller (lupa_lua.frame)
-- instead of timing it here.
if arg[3] == "frame" then return frame end

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
io.write(string.format("hits %d\n", hits))
for i = 1, #moved do
  local x, y = world:getRect(moved[i])
  io.write(string.format("pos %.17g %.17g\n", x, y))
end
