import { readdirSync } from "node:fs";
import type { Registry } from "./registry";

/**
 * The process's own gauges, read at scrape time. prom-client's default process metrics are not
 * used: under Bun they report Node-compat values and empty GC timings.
 */
export function registerProcessMetrics(registry: Registry, now: () => number = Date.now): void {
  const startSeconds = now() / 1000 - process.uptime();
  const cpu = () => process.cpuUsage();
  registry.gauge("process_cpu_user_seconds_total", "user CPU time spent, in seconds", [], () => [[[], cpu().user / 1e6]], "counter");
  registry.gauge("process_cpu_system_seconds_total", "system CPU time spent, in seconds", [], () => [[[], cpu().system / 1e6]], "counter");
  registry.gauge(
    "process_cpu_seconds_total",
    "user and system CPU time spent, in seconds",
    [],
    () => {
      const c = cpu();
      return [[[], (c.user + c.system) / 1e6]];
    },
    "counter",
  );
  registry.gauge("process_resident_memory_bytes", "resident memory size, in bytes", [], () => [[[], process.memoryUsage.rss()]]);
  registry.gauge("process_heap_bytes", "JavaScript heap in use, in bytes", [], () => [[[], process.memoryUsage().heapUsed]]);
  registry.gauge("process_start_time_seconds", "start time of the process since the Unix epoch, in seconds", [], () => [[[], Math.round(startSeconds)]]);
  if (process.platform === "linux") {
    registry.gauge("process_open_fds", "open file descriptors", [], () => [[[], openFds()]]);
  }
}

function openFds(): number {
  try {
    return readdirSync("/proc/self/fd").length;
  } catch {
    return NaN;
  }
}
