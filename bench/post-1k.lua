-- wrk script: 1 KiB JSON POSTs; prints one RESULT line of JSON that bench/ingest.ts parses.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Bench-Event"] = "order.created"
local head = '{"event":"order.created","id":"evt_0123456789","data":"'
local tail = '"}'
wrk.body = head .. string.rep("x", 1024 - #head - #tail) .. tail

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"duration_us":%d,"bytes":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
