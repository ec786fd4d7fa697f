-- The roll-up's read of one account's day: its tallies, marked with the roll-up's epoch unless
-- an earlier roll-up marked them already. One script, so that a hash that expires or is new in
-- between is never re-created by the mark alone (it would then live for ever).
local tallies, epoch = KEYS[1], ARGV[1]
if redis.call('EXISTS', tallies) == 0 then return {} end
redis.call('HSETNX', tallies, 'epoch', epoch)
return redis.call('HGETALL', tallies)
