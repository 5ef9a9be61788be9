import { readFileSync } from "node:fs";
import { dlopen, FFIType, ptr } from "bun:ffi";

/** Linux's scheduling policy for work that runs only when a core has nothing else to run. */
const SCHED_IDLE = 5;

/**
 * The C library this process runs on, by the absolute path of its mapping in `maps` (the text of
 * /proc/self/maps): glibc's libc.so.6 or musl's loader, which is its C library. A bare name would
 * not do: where dlopen finds no such library (musl has no libc.so.6), Bun tries the name in the
 * working directory, and a file planted there would be loaded and run.
 */
export function loadedLibc(maps: string): string | undefined {
  for (const line of maps.split("\n")) {
    const path = line.slice(line.indexOf("/"));
    if (line.includes("/") && /\/(libc\.so\.6|libc\.musl-[^/]*\.so\.1|ld-musl-[^/]*\.so\.1)$/.test(path)) return path;
  }
  return undefined;
}

/**
 * Makes the calling thread run only on CPU nothing else wants (Linux: SCHED_IDLE on its thread
 * id; if refused, nice 19 with setpriority): when every core is busy, catching gets them, and this
 * thread the rest. Best effort: false where it cannot (another system, no C library found, refused).
 */
export function lowerThreadPriority(): boolean {
  if (process.platform !== "linux") return false;
  try {
    const path = loadedLibc(readFileSync("/proc/self/maps", "utf8"));
    if (!path) return false;
    const libc = dlopen(path, {
      gettid: { args: [], returns: FFIType.i32 },
      sched_setscheduler: { args: [FFIType.i32, FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
      setpriority: { args: [FFIType.i32, FFIType.u32, FFIType.i32], returns: FFIType.i32 },
    });
    try {
      const tid = libc.symbols.gettid();
      const param = new Int32Array(1); // struct sched_param { int sched_priority = 0 }
      if (libc.symbols.sched_setscheduler(tid, SCHED_IDLE, ptr(param)) === 0) return true;
      const PRIO_PROCESS = 0; // with a thread id, Linux sets that thread's priority only
      return libc.symbols.setpriority(PRIO_PROCESS, tid, 19) === 0;
    } finally {
      libc.close();
    }
  } catch {
    return false;
  }
}
