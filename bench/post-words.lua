-- wrk script: JSON POSTs of about 1 KiB whose words vary (140 of 1,000 made-up words each), so
-- each body holds about as many distinct trigrams as real JSON does; prints one RESULT line.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local letters = "abcdefghijklmnopqrstuvwxyz"
local words = {}
math.randomseed(42)
for i = 1, 1000 do
  local w = ""
  for j = 1, 6 do
    local k = math.random(1, 26)
    w = w .. letters:sub(k, k)
  end
  words[i] = w
end
local n = 0
-- With an argument (bench/search-lag.ts --rate), each connection waits that many ms between requests.
local wait = nil
function init(args)
  if args[1] then wait = tonumber(args[1]) end
end
function delay()
  return wait or 0
end
function request()
  n = n + 1
  local picked = {}
  for i = 1, 140 do picked[i] = words[math.random(1, 1000)] end
  local body = '{"event":"order.created","id":"evt_' .. n .. '","data":"' .. table.concat(picked, " ") .. '"}'
  return wrk.format(nil, nil, nil, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"duration_us":%d,"status":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.status + e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
