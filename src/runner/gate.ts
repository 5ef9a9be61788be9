import type { Handler } from "./handlers";

/**
 * What decides, beside a handler's concurrency, whether its attempts may start: declared here so
 * runner/ never imports the service that implements it (delivery/controls.ts: pause, rate and
 * circuit breaker), which the composition hands in (Runner.control).
 */
export interface AttemptGate {
  /** Resolves once the gate has read what it keeps (the paused handlers): the runner starts nothing before. */
  ready(): Promise<void>;
  /** How many of `free` attempts of the handler may start at `now` (0 while paused, its breaker open, or its rate's next start later). */
  allow(handler: Handler, now: number, free: number): number;
  /** `count` attempts of the handler were claimed at `now`. */
  started(handler: Handler, now: number, count: number): void;
  /** The earliest time an attempt of the handler may start, at or after `now` (Infinity while it is paused). */
  nextStart(handler: Handler, now: number): number;
  /**
   * An attempt of the handler ended (before its result is recorded); resolves to a note added to
   * the attempt's error when it opened the breaker (what the hook's attempts then show).
   */
  finished(handler: Handler, ok: boolean, now: number): string | undefined;
}
