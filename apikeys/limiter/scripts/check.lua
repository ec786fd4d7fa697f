-- One check, atomic across every process: the key generation, the ban, both windows and the
-- strikes, and the usage tally, in one call (apikeys.limiter.backends.memory takes the same
-- steps in process memory).

-- A check by record (key.record names one): the key, which this process has not read, is found
-- and counted in the same call. The counters were named for account 0 and key 0
-- (counters.UNREAD) and take the record's ids. A digest Redis does not know, and a record that
-- may not be counted by its expiry alone (records.KeyRecord.countable_until), count nothing:
-- the caller decides, with the record.
local record, current = false, false
local function answer(verdict, minute, day, ban_ends_at, ban_number, record_use)
  return {verdict, minute, day, ban_ends_at, ban_number, record_use or 0, record, current}
end
if key.record ~= '' then
  record = redis.call('GET', key.record)
  current = redis.call('GET', key.generation)
  if not record or record == no_key then return answer(NOT_COUNTED, 0, 0, 0, 0) end
  local fields = cjson.decode(record)
  -- A second's margin: the caller's clock has fractions, and it decides the last second.
  if (fields[wire.countable_until] or 0) <= now + 1 then return answer(NOT_COUNTED, 0, 0, 0, 0) end
  local account = (unread_account:gsub('0', fields[wire.account_id]))
  local own_key = (unread_key:gsub('0', fields[wire.id]))
  -- Plain finds, not gsub's patterns: this runs for a dozen names on every such check.
  for field, name in pairs(key) do
    local from, to = name:find(unread_account, 1, true)
    if from then
      local rest = name:sub(to + 1)
      if rest:sub(1, #unread_key) == unread_key then rest = own_key .. rest:sub(#unread_key + 1) end
      key[field] = name:sub(1, from - 1) .. account .. rest
    end
  end
  per_minute, per_day = fields[wire.per_minute], fields[wire.per_day]
  usage_key, usage_account = own_key:sub(2, -2), tostring(fields[wire.account_id])
end

-- The key's tally for the day's usage; the rest only on its first request of a kind that day.
local function tally(kind)
  if usage_key == '' then return end
  if redis.call('HINCRBY', key.usage, usage_key .. ':' .. kind, 1) == 1 then
    redis.call('HSET', key.usage, 'per_minute', per_minute, 'per_day', per_day)
    redis.call('EXPIRE', key.usage, usage_ttl)
    redis.call('SADD', key.usage_index, usage_account)
    redis.call('EXPIRE', key.usage_index, usage_ttl)
  end
end

-- Everything a check reads, in one call: generation, ban, minute, day.
local read = redis.call('MGET', key.generation, key.ban, key.minute, key.day)
if generation ~= '' and read[1] ~= generation then
  return answer(STALE_KEY, 0, 0, 0, 0)
end
local banned_until = tonumber(read[2] or '0')
local minute = tonumber(read[3] or '0')
local day = 0
if per_day > 0 then day = tonumber(read[4] or '0') end
if banned_until <= now and minute < per_minute and (per_day == 0 or day < per_day) then
  minute = redis.call('INCR', key.minute)
  if minute == 1 then redis.call('EXPIRE', key.minute, minute_ttl) end
  if per_day > 0 then
    day = redis.call('INCR', key.day)
    if day == 1 then redis.call('EXPIRE', key.day, day_ttl) end
  end
  tally('admitted')
  local record_use = 0
  if usage_key ~= '' and redis.call('SET', key.used, 1, 'EX', last_use_seconds, 'NX') then
    record_use = 1
  end
  return answer(ADMITTED, minute, day, 0, 0, record_use)
end
if redis.call('INCR', key.refused) == 1 then redis.call('EXPIRE', key.refused, day_ttl) end
if banned_until > now then
  tally('banned')
  return answer(BANNED, minute, day, banned_until, 0)
end
if strikes == 0 then
  tally('refused')
  return answer(REFUSED, minute, day, 0, 0)
end
local struck = redis.call('INCR', key.strikes)
if struck == 1 then redis.call('EXPIRE', key.strikes, minute_ttl) end
if struck < strikes then
  tally('refused')
  return answer(REFUSED, minute, day, 0, 0)
end
-- The request that earns the ban is answered as banned, and tallied so.
tally('banned')
redis.call('DEL', key.strikes)
local number = redis.call('INCR', key.bans)
redis.call('EXPIRE', key.bans, ban_memory)
local seconds = ban_seconds[math.min(number, #ban_seconds)]
local ends_at = now + seconds
redis.call('SET', key.ban, ends_at, 'EX', seconds)
return answer(NEWLY_BANNED, minute, day, ends_at, number)
