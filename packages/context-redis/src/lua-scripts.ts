// The Lua scripts that make each operation one atomic step on the server, whatever other writers do meanwhile.
// Keys: KEYS[1] the session's meta hash (generation, stateVersion, lastAddedAt), KEYS[2] its message list, KEYS[3] its
// state hash (field `strategy NUL key`, value `<version> <json>`).

/**
 * The session as of one instant: with ARGV the generation, message count and state version this store
 * last saw, returns { generation, stateVersion, isReset, messages, hasState, state, lastAddedAt }: the
 * messages after the count it saw (all of them on a reset: another generation, or fewer messages than it
 * saw), the state when it changed, and when the newest message was appended ('' when unknown: a nil would
 * end the reply there). Load is a sync that has seen nothing.
 */
export const SYNC_SCRIPT = `
local generation = tonumber(redis.call('HGET', KEYS[1], 'generation') or '0')
local stateVersion = tonumber(redis.call('HGET', KEYS[1], 'stateVersion') or '0')
local length = redis.call('LLEN', KEYS[2])
local isReset = generation ~= tonumber(ARGV[1]) or length < tonumber(ARGV[2])
local from = isReset and 0 or tonumber(ARGV[2])
local messages = {}
if length > from then messages = redis.call('LRANGE', KEYS[2], from, -1) end
local hasState = isReset or stateVersion ~= tonumber(ARGV[3])
local state = {}
if hasState then state = redis.call('HGETALL', KEYS[3]) end
local lastAddedAt = redis.call('HGET', KEYS[1], 'lastAddedAt') or ''
return { generation, stateVersion, isReset and 1 or 0, messages, hasState and 1 or 0, state, lastAddedAt }
`;

/**
 * A group of appends: ARGV is the time (epoch milliseconds, the appending worker's clock), then the
 * messages' JSON. One step, so the time lands with the messages; it never moves back, whatever a worker's
 * clock says. Returns 1.
 */
export const APPEND_SCRIPT = `
for first = 2, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, first, math.min(first + 999, #ARGV)))
end
local previous = tonumber(redis.call('HGET', KEYS[1], 'lastAddedAt') or '0') or 0
if tonumber(ARGV[1]) > previous then redis.call('HSET', KEYS[1], 'lastAddedAt', ARGV[1]) end
return 1
`;

/**
 * Compare-and-set of one state key: ARGV is the field, the version this store last saw of it (0: absent),
 * `1` to delete or `0` to set, and the value's JSON. Returns { -1 } when another writer changed the key
 * since (nothing written), else { the key's new version (0 once deleted), the session's state version }.
 * A key's version is the session's state version at its write, so a key deleted and written again never
 * comes back under a version a stale writer could still hold.
 */
export const WRITE_STATE_SCRIPT = `
local current = redis.call('HGET', KEYS[3], ARGV[1])
local version = 0
if current then
  -- A value edited by hand: a conflict would be retried forever, so say what is wrong with it.
  if not string.match(current, '^%d+ ') then
    return { 'corrupt', 'state ' .. string.gsub(ARGV[1], '%z', '/') .. ' (field of ' .. KEYS[3] .. ')', 'the value must be "<version> <JSON>"' }
  end
  version = tonumber(string.match(current, '^%d+'))
end
if version ~= tonumber(ARGV[2]) then return { -1 } end
local stateVersion = redis.call('HINCRBY', KEYS[1], 'stateVersion', 1)
if ARGV[3] == '1' then
  redis.call('HDEL', KEYS[3], ARGV[1])
  return { 0, stateVersion }
end
redis.call('HSET', KEYS[3], ARGV[1], stateVersion .. ' ' .. ARGV[4])
return { stateVersion, stateVersion }
`;

/**
 * The whole content swapped in one step: ARGV is the message count, the generation and message count the
 * caller expects (both empty for an unconditional replace), the messages' JSON, then the state as field,
 * JSON pairs. A new generation tells every other writer to reload; the new history's append time is
 * unknown. Returns { generation, stateVersion },
 * or { -1 } when the session is not the one expected (another writer appended, replaced or cleared it):
 * then nothing is written.
 */
export const REPLACE_SCRIPT = `
local count = tonumber(ARGV[1])
if ARGV[2] ~= '' then
  local current = tonumber(redis.call('HGET', KEYS[1], 'generation') or '0')
  if current ~= tonumber(ARGV[2]) or redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[3]) then return { -1 } end
end
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HDEL', KEYS[1], 'lastAddedAt')
local generation = redis.call('HINCRBY', KEYS[1], 'generation', 1)
local stateVersion = redis.call('HINCRBY', KEYS[1], 'stateVersion', 1)
for first = 4, count + 3, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, first, math.min(first + 999, count + 3)))
end
for index = count + 4, #ARGV, 2 do
  redis.call('HSET', KEYS[3], ARGV[index], stateVersion .. ' ' .. ARGV[index + 1])
end
return { generation, stateVersion }
`;
