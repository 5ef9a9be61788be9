import { useRef } from "preact/hooks";

/**
 * For reads whose answers may arrive out of order: a filter changed while the read of the one
 * before was on its way, and that answer, later, would show the old filter's rows. `ask()` before
 * each read gives a check that is true while no later read was asked; an answer whose check is
 * false is dropped.
 */
export function useLatest(): () => () => boolean {
  const seq = useRef(0);
  return () => {
    const mine = ++seq.current;
    return () => mine === seq.current;
  };
}
