-- One peek: the subject's windows and the caller's ban, read without counting anything
-- against them, and the peek counted against its own window instead.
if generation ~= '' and redis.call('GET', key.generation) ~= generation then
  local counts = {}
  for n = 1, #key.windows do counts[n] = 0 end
  return {STALE_KEY, 0, counts, 0}
end
local read = redis.call('MGET', key.ban, key.peeks, unpack(key.windows))
local banned_until = tonumber(read[1] or '0')
if banned_until <= now then banned_until = 0 end
local peeks = tonumber(read[2] or '0')
local counts = {}
for n = 1, #key.windows do counts[n] = tonumber(read[n + 2] or '0') end
if peeks >= limit then
  return {REFUSED, peeks, counts, banned_until}
end
peeks = redis.call('INCR', key.peeks)
if peeks == 1 then redis.call('EXPIRE', key.peeks, ttl) end
return {ADMITTED, peeks, counts, banned_until}
