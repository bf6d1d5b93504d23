-- wrk script for the catalogue benchmark.
-- Arguments (after `--`): a path, in which "{id}" is replaced on every request by a random whole number
-- from the second to the third argument (book ids), so requests spread over the whole table.
-- Headers given with -H (Accept, Authorization) are sent with every request.
-- At the end it prints one line "WRK_JSON {...}" that scripts/bench/wrk.ts reads.

local path, first, last = "/", 1, 1
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("seed", counter)
  table.insert(threads, thread)
end

function init(args)
  path = args[1] or "/"
  first = tonumber(args[2] or "1")
  last = tonumber(args[3] or "1")
  math.randomseed(os.time() * 1000 + (seed or 0))
end

function request()
  local target = path:gsub("{id}", tostring(math.random(first, last)))
  return wrk.format(nil, target)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"latency_us":{"p50":%d,"p90":%d,"p99":%d,"mean":%.1f}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.mean))
end
