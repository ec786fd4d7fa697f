-- One count given back to each window a 304 does not count in (Limiter.spare_304;
-- backends.memory takes the same steps), all of them or none: never below nothing, and never
-- from a count a threshold event was written at, so that no threshold is passed twice; the
-- key's tally of admitted requests with them.
local names = {}
for n, give in ipairs(windows) do
  if give == 1 then
    local count = tonumber(redis.call('GET', key.windows[n]) or '0')
    if count <= 0 or string.find(',' .. thresholds[n] .. ',', ',' .. count .. ',', 1, true) then
      return 0
    end
    names[#names + 1] = key.windows[n]
  end
end
if #names == 0 then return 0 end
for _, name in ipairs(names) do redis.call('DECR', name) end
if usage_field ~= '' and redis.call('HEXISTS', key.usage, usage_field) == 1 then
  redis.call('HINCRBY', key.usage, usage_field, -1)
end
return 1
