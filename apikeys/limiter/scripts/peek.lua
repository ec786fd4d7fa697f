-- One peek: the subject's windows and the caller's ban, read without counting anything
-- against them, and the peek counted against its own window instead.
if generation ~= '' and redis.call('GET', key.generation) ~= generation then
  return {STALE_KEY, 0, 0, 0, 0}
end
local minute = tonumber(redis.call('GET', key.minute) or '0')
local day = tonumber(redis.call('GET', key.day) or '0')
local banned_until = tonumber(redis.call('GET', key.ban) or '0')
if banned_until <= now then banned_until = 0 end
local peeks = tonumber(redis.call('GET', key.peeks) or '0')
if peeks >= limit then
  return {REFUSED, peeks, minute, day, banned_until}
end
peeks = redis.call('INCR', key.peeks)
if peeks == 1 then redis.call('EXPIRE', key.peeks, ttl) end
return {ADMITTED, peeks, minute, day, banned_until}
