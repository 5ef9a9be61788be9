import { dlopen, FFIType } from "bun:ffi";

/**
 * Lowers the calling thread's scheduling priority to `nice` (Linux: setpriority on its thread id),
 * so that when every core is busy the kernel gives the other threads (catching) the CPU first and
 * this one the rest. Best effort: false where it cannot (another system, no glibc, refused).
 */
export function lowerThreadPriority(nice = 10): boolean {
  if (process.platform !== "linux") return false;
  try {
    const libc = dlopen("libc.so.6", {
      gettid: { args: [], returns: FFIType.i32 },
      setpriority: { args: [FFIType.i32, FFIType.u32, FFIType.i32], returns: FFIType.i32 },
    });
    try {
      const PRIO_PROCESS = 0; // with a thread id, Linux sets that thread's priority only
      return libc.symbols.setpriority(PRIO_PROCESS, libc.symbols.gettid(), nice) === 0;
    } finally {
      libc.close();
    }
  } catch {
    return false;
  }
}
