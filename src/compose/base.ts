import type { Config } from "../config/schema";
import type { Storage } from "../db/storage";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import type { Activity } from "../lib/terminal";
import type { Metrics } from "../metrics";
import type { Runner } from "../runner";

/**
 * What every service is composed from (createApp's deps with their defaults filled in): each
 * `create...Service` of compose/ takes it, and the services composed before it that it needs.
 */
export type Base = {
  config: Config;
  storage: Storage;
  clock: Clock;
  log: Log;
  runner: Runner;
  /** Where the app counts; the runner is given the same one. */
  metrics: Metrics;
  /** The live terminal's caught and refused lines. */
  activity: Activity;
};
