/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { exact, relative } from "../format";

// One timer for every relative time on the page: each second while any is shown.
const listeners = new Set<(now: number) => void>();
let timer: ReturnType<typeof setInterval> | undefined;
function subscribe(fn: (now: number) => void): () => void {
  listeners.add(fn);
  timer ??= setInterval(() => {
    const now = Date.now();
    for (const l of listeners) l(now);
  }, 1000);
  return () => {
    listeners.delete(fn);
    if (listeners.size === 0) clearInterval(timer), (timer = undefined);
  };
}

/** A time as "3 s ago", kept current, with the exact local time on hover (and for screen readers, in datetime). */
export function Time({ at, class: cls }: { at: string | null | undefined; class?: string }) {
  const [now, setNow] = useState(Date.now);
  // Only times of the last hour change each second; older ones are redrawn each minute.
  useEffect(() => subscribe((n) => (n - new Date(at ?? 0).getTime() < 3_600_000 || n % 60_000 < 1000) && setNow(n)), [at]);
  if (!at) return <span class="muted">never</span>;
  return (
    <time dateTime={at} title={exact(at)} class={cls}>
      {relative(at, now)}
    </time>
  );
}
