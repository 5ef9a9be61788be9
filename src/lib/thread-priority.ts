import { dlopen, FFIType, ptr } from "bun:ffi";

/** Linux's scheduling policy for work that runs only when a core has nothing else to run. */
const SCHED_IDLE = 5;

/**
 * Makes the calling thread run only on CPU nothing else wants (Linux: SCHED_IDLE on its thread
 * id; if refused, nice 19 with setpriority): when every core is busy, catching gets them, and this
 * thread the rest. Best effort: false where it cannot (another system, no glibc, refused).
 */
export function lowerThreadPriority(): boolean {
  if (process.platform !== "linux") return false;
  try {
    const libc = dlopen("libc.so.6", {
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
