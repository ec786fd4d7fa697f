-- One check, atomic across every process: the key generation, the ban, every window and the
-- strikes, and the usage tally, in one call (apikeys.limiter.backends.memory takes the same
-- steps in process memory).

-- A check by record (key.record names one): the key, which this process has not read, is found
-- and counted in the same call. The account's names are templates (counters.Keys.by_record)
-- that take the record's account id, then its key id. A digest Redis does not know, and a record
-- that may not be counted by its expiry alone (records.KeyRecord.countable_until), count
-- nothing: the caller decides, with the record.
local record, current = false, false
local function answer(verdict, counts, ban_ends_at, ban_number, record_use)
  return {verdict, counts, ban_ends_at, ban_number, record_use or 0, record, current}
end
local function none()
  local counts = {}
  for n = 1, #key.windows do counts[n] = 0 end
  return counts
end
if key.record ~= '' then
  record = redis.call('GET', key.record)
  current = redis.call('GET', key.generation)
  if not record or record == no_key then return answer(NOT_COUNTED, none(), 0, 0) end
  local fields = cjson.decode(record)
  -- A second's margin: the caller's clock has fractions, and it decides the last second.
  if fields.v ~= record_version or (fields.countable_until or 0) <= now + 1 then
    return answer(NOT_COUNTED, none(), 0, 0)
  end
  local account_id, key_id = fields.account_id, fields.id
  for n, name in ipairs(key.windows) do key.windows[n] = name:format(account_id, key_id) end
  for _, field in ipairs(account_names) do key[field] = key[field]:format(account_id, key_id) end
  limits = fields.limits
  usage_key, usage_account = 'k' .. string.format('%d', key_id), string.format('%d', account_id)
end

-- The key's tally for the day's usage; the rest only on its first request of a kind that day.
local function tally(kind)
  if usage_key == '' then return end
  if redis.call('HINCRBY', key.usage, usage_key .. ':' .. kind, 1) == 1 then
    local fields = {}
    for n, name in ipairs(window_names) do
      fields[#fields + 1] = 'per_' .. name
      fields[#fields + 1] = limits[n]
    end
    redis.call('HSET', key.usage, unpack(fields))
    redis.call('EXPIRE', key.usage, usage_ttl)
    redis.call('SADD', key.usage_index, usage_account)
    redis.call('EXPIRE', key.usage_index, usage_ttl)
  end
end

-- Everything a check reads, in one call: generation, ban, each window.
local read = redis.call('MGET', key.generation, key.ban, unpack(key.windows))
if generation ~= '' and read[1] ~= generation then
  return answer(STALE_KEY, none(), 0, 0)
end
local banned_until = tonumber(read[2] or '0')
local counts, room = {}, banned_until <= now
-- The first window always counts; each later one when its limit is not 0 (counters.Args).
for n, limit in ipairs(limits) do
  counts[n] = 0
  if n == 1 or limit > 0 then
    counts[n] = tonumber(read[n + 2] or '0')
    room = room and counts[n] < limit
  end
end
if room then
  for n, limit in ipairs(limits) do
    if n == 1 or limit > 0 then
      counts[n] = redis.call('INCR', key.windows[n])
      if counts[n] == 1 then redis.call('EXPIRE', key.windows[n], window_ttls[n]) end
    end
  end
  tally('admitted')
  local record_use = 0
  if usage_key ~= '' and redis.call('SET', key.used, 1, 'EX', last_use_seconds, 'NX') then
    record_use = 1
  end
  return answer(ADMITTED, counts, 0, 0, record_use)
end
if redis.call('INCR', key.refused) == 1 then redis.call('EXPIRE', key.refused, day_ttl) end
if banned_until > now then
  tally('banned')
  return answer(BANNED, counts, banned_until, 0)
end
if strikes == 0 then
  tally('refused')
  return answer(REFUSED, counts, 0, 0)
end
local struck = redis.call('INCR', key.strikes)
if struck == 1 then redis.call('EXPIRE', key.strikes, minute_ttl) end
if struck < strikes then
  tally('refused')
  return answer(REFUSED, counts, 0, 0)
end
-- The request that earns the ban is answered as banned, and tallied so.
tally('banned')
redis.call('DEL', key.strikes)
local number = redis.call('INCR', key.bans)
redis.call('EXPIRE', key.bans, ban_memory)
local seconds = ban_seconds[math.min(number, #ban_seconds)]
local ends_at = now + seconds
redis.call('SET', key.ban, ends_at, 'EX', seconds)
return answer(NEWLY_BANNED, counts, ends_at, number)
