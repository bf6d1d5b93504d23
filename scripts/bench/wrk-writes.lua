-- wrk script for the catalogue benchmark's writes: every request is a POST of a new book.
-- Arguments (after `--`): the path, the first and last author id, and three comma-separated lists of
-- words (adjectives, common words, nouns). Titles are made as the generator makes them
-- ("<adjective> <common word> of the <noun>"), from words the catalogue already has; one in four also
-- carries a word of its own, as a new name or a rare word would. The author is random.
-- Headers given with -H (Content-Type, Authorization) are sent with every request.
-- At the end it prints one line "WRK_JSON {...}" that scripts/bench/wrk.ts reads.

local path, first, last = "/books", 1, 1
local adjectives, commons, nouns = {}, {}, {}
local threads = {}
local counter = 0

local function split(text)
  local list = {}
  for word in string.gmatch(text or "", "[^,]+") do table.insert(list, word) end
  return list
end

local function pick(list)
  return list[math.random(1, #list)]
end

function setup(thread)
  counter = counter + 1
  thread:set("seed", counter)
  table.insert(threads, thread)
end

function init(args)
  path = args[1] or "/books"
  first = tonumber(args[2] or "1")
  last = tonumber(args[3] or "1")
  adjectives, commons, nouns = split(args[4]), split(args[5]), split(args[6])
  math.randomseed(os.time() * 1000 + (seed or 0))
end

local function newWord()
  local letters = {}
  for i = 1, 8 do letters[i] = string.char(math.random(97, 122)) end
  return table.concat(letters)
end

function request()
  local title = pick(adjectives) .. " " .. pick(commons) .. " of the " .. pick(nouns)
  if math.random(1, 4) == 1 then title = title .. " " .. newWord() end
  local body = string.format('{"title":"%s","publication_year":%d,"author_id":%d}',
    title, math.random(1500, 2025), math.random(first, last))
  return wrk.format("POST", path, nil, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"latency_us":{"p50":%d,"p90":%d,"p99":%d,"mean":%.1f}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.mean))
end
