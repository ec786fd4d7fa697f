-- One count given back to a window (Limiter.spare_day; backends.memory takes the same steps):
-- never below nothing, and never from a count a threshold event was written at, so that no
-- threshold is passed twice; the key's tally of admitted requests with it.
local name = key.windows[window]
local count = tonumber(redis.call('GET', name) or '0')
if count <= 0 or string.find(',' .. thresholds .. ',', ',' .. count .. ',', 1, true) then
  return 0
end
redis.call('DECR', name)
if usage_field ~= '' and redis.call('HEXISTS', key.usage, usage_field) == 1 then
  redis.call('HINCRBY', key.usage, usage_field, -1)
end
return 1
