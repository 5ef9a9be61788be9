import { useRef } from "preact/hooks";

/**
 * For reads whose answers may arrive out of order or after the screen moved on: a filter changed
 * while the read of the one before was on its way (or a re-read timed under the old filter fired
 * after), and that answer, later, would show the old filter's rows. `useLatest(key)` (the screen's
 * filters, or the id it shows) gives `ask()`, called before each read: its `take()` says whether the
 * answer may be shown, and marks it shown: the screen still shows what it was asked for, and no
 * answer asked after it was shown already (so re-reads of one filter never starve each other: the
 * newest answer to come wins, an older one after it is dropped). `still()` says whether a follow-up
 * of a shown answer (a second read made with it) may be shown: nothing asked later was shown since.
 */
export function useLatest(key: string): () => { take: () => boolean; still: () => boolean } {
  const now = useRef(key);
  now.current = key;
  const asked = useRef(0);
  const shown = useRef(0);
  return () => {
    const mine = ++asked.current;
    return {
      take: () => key === now.current && mine > shown.current && ((shown.current = mine), true),
      still: () => key === now.current && mine === shown.current,
    };
  };
}
