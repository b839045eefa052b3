"""The Lua scripts of the leases, run in Redis: each does its reads and writes in one step, so
two nodes never both take one lease. (The per-address limits' scripts are with the limits, in
``adapters.py``.)"""

from __future__ import annotations

RENEW_SCRIPT = """
local owner = redis.call('get', KEYS[1])
if owner == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not owner then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]); return 1 end
return 0
"""
"""Renew this node's lease of a table; one that is gone (Redis restarted) is taken again, one that
another node holds is not."""

RELEASE_SCRIPT = """
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end
return redis.call('srem', 'ct:live', ARGV[2])
"""
"""End this node's lease of a table it let go (one another node holds is left alone) and its
place among the live tables."""

LOOK_SCRIPT = """
local me, ttl, sweep, round_ms, grace_ms = ARGV[1], ARGV[2], ARGV[3] == '1', tonumber(ARGV[4]), tonumber(ARGV[5])
local nodes = redis.call('smembers', 'ct:nodes')
local dead = {}
for _, node in ipairs(nodes) do
  if node ~= me and redis.call('exists', 'ct:count:' .. node) == 0 then table.insert(dead, node) end
end
if #dead == 0 and not sweep then return {dead, {}} end
local orphans = {}
for _, t in ipairs(redis.call('smembers', 'ct:live')) do
  if redis.call('exists', 'ct:lease:' .. t) == 0 then table.insert(orphans, t) end
end
if #orphans == 0 then
  if #dead > 0 then redis.call('srem', 'ct:nodes', unpack(dead)) end
  return {dead, {}}
end
local alive = math.max(1, #nodes - #dead)
local want = math.ceil(#orphans / alive)
if #dead > 0 then
  table.sort(dead)
  local round = 'ct:round:' .. table.concat(dead, ',')
  local others, mine = 0, false
  for _, node in ipairs(redis.call('smembers', round)) do
    if node == me then mine = true else others = others + 1 end
  end
  if not mine then
    want = math.ceil(#orphans / math.max(1, alive - others))
    redis.call('sadd', round, me)
    if others == 0 then redis.call('pexpire', round, round_ms) end
  elseif others >= alive - 1 or redis.call('pttl', round) <= round_ms - grace_ms then
    want = #orphans
  else
    return {dead, {}}
  end
end
local got = {}
for i = 1, want do
  redis.call('set', 'ct:lease:' .. orphans[i], me, 'PX', ttl)
  table.insert(got, orphans[i])
end
return {dead, got}
"""
"""A look for tables to take over, in one round trip (the keys it reads are found, not declared:
a standalone Redis, as the cluster uses). The nodes whose counts' hash ran out are dead. Unless
one is, or ``sweep`` is asked, nothing more. Otherwise the live tables without a lease are
orphans. When nodes died the living nodes share them in a round (``ct:round:{the dead nodes}``,
the nodes that took their part): a node takes the orphans' fair part among the living nodes that
have not taken theirs, rounded up, so the last of them takes all that is left, and each node's
first look takes its whole share. A node that took its part takes more only once every living
node took theirs, or :data:`~.settings.ROUND_GRACE` seconds after the round began (a node that does not
look, its loop stuck). Orphans a sweep found with no node dead (a lease lost in a Redis restart)
are taken a fair part, rounded up, a look. Leases are set as the script looks, so two nodes'
looks never take one table. A dead node whose tables all have owners again is forgotten. Returns
the dead nodes and the tables taken."""
