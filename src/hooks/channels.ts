import type { Config } from "../config/schema";
import type { Clock } from "../lib/clock";
import { notFound, precondition } from "../lib/errors";
import { restAfter } from "../lib/pace";
import type { HookRunner } from "../runner/types";
import { heldBy, type ChannelRow, type HookStore } from "./store";

/**
 * Channels: the stored rows plus an in-memory map of name -> {paused, guards} that the
 * catching endpoint reads without touching the database. The map holds one entry per channel
 * (never per hook), so start-up stays independent of the number of stored hooks.
 */
export type ChannelState = { paused: boolean; guards: readonly string[] };

/**
 * A channel's deletion mark older than this is taken over by the next delete: the instance that
 * made it is presumed gone (it stopped mid-way). Deletions rest between batches, so a large one
 * may outlast it; a second deletion then running beside it deletes the same hooks harmlessly.
 */
export const DELETION_STALE_MS = 10 * 60_000;

/** Hooks deleted per transaction when a channel is deleted: the write lock is never held for long. */
export const CHANNEL_DELETE_BATCH = 100;

export function createChannelService(deps: {
  config: Config;
  store: HookStore;
  clock: Clock;
  runner: Pick<HookRunner, "cancelChannel">;
  /** Tests shrink it to see the batches with few hooks. */
  deleteBatch?: number;
  /** Guards of new channels set in the dashboard (stored); [hooks] default_guards of the config file win when not empty. */
  defaultGuards?: readonly string[];
}) {
  const { config, store, clock, runner } = deps;
  const deleteBatch = Math.max(1, deps.deleteBatch ?? CHANNEL_DELETE_BATCH);
  /** Deletions in progress, by channel name. */
  const deleting = new Map<string, Promise<void>>();
  const states = new Map<string, ChannelState>();
  /** The state of a channel not created yet (one object, so what the catching endpoint derives from it is kept). */
  let unknown: ChannelState = { paused: false, guards: configDefaults(config) ?? deps.defaultGuards ?? [] };

  /** Declares the configured channels and loads every channel's state; start-up awaits it before serving. */
  async function init(): Promise<void> {
    await store.transaction(async () => {
      for (const c of config.channels) await store.upsertChannel(c.name, c.guards, clock.now());
    });
    await reload();
  }

  /** Reads every channel's state again (another instance may have changed it). */
  async function reload(): Promise<void> {
    const rows = await store.listChannels();
    const seen = new Set(rows.map((c) => c.name));
    for (const c of rows) states.set(c.name, { paused: c.paused, guards: c.guards });
    for (const name of states.keys()) if (!seen.has(name) && !deleting.has(name)) states.delete(name);
  }

  async function require(name: string): Promise<ChannelRow> {
    const row = await store.getChannel(name);
    if (!row) throw notFound(`channel "${name}" not found`);
    return row;
  }

  /**
   * Throws not_found, or failed_precondition for a pause while the channel is being deleted (on
   * any instance: the mark is in the database): the deletion ends with the channel gone or started
   * over not paused, so the pause would be lost. A resume is kept either way.
   */
  async function setPaused(name: string, paused: boolean): Promise<ChannelRow> {
    if (!(await store.setPaused(name, paused))) await refused(name, paused ? "pause" : "resume");
    const row = await require(name);
    states.set(name, { paused: row.paused, guards: row.guards });
    return row;
  }

  /** Why the store changed nothing: throws not_found, or failed_precondition while the channel is being deleted. */
  async function refused(name: string, what: string): Promise<never> {
    await require(name);
    throw precondition(`channel "${name}" is being deleted; ${what} it once the deletion has finished`);
  }

  return {
    init,
    reload,
    /** Hot path: the channel's state, or the state a channel created by this hook would get. */
    stateOf(name: string): ChannelState {
      return states.get(name) ?? unknown;
    },
    /** Guards a channel created by its first hook gets; also records it in the map. */
    guardsForNew(name: string): string[] {
      if (!states.has(name)) states.set(name, unknown);
      return [...states.get(name)!.guards];
    },
    list: () => store.listChannels(),
    /** Whether the config file declares this channel (its guards and handlers are read-only elsewhere). */
    declared: (name: string) => config.channels.some((c) => c.name === name),
    /**
     * Sets a channel's guards (the dashboard); throws not_found, or failed_precondition for a
     * channel of the config file or one being deleted.
     */
    async setGuards(name: string, guards: readonly string[]): Promise<ChannelRow> {
      await require(name);
      if (config.channels.some((c) => c.name === name)) throw precondition(`channel "${name}" is declared in the config file: set its guards there`);
      if (!(await store.upsertChannel(name, [...guards], clock.now()))) await refused(name, "set its guards");
      const row = await require(name);
      states.set(name, { paused: row.paused, guards: row.guards });
      return row;
    },
    /** The guards a channel created by its first hook gets, and whether the config file fixes them. */
    defaultGuards: () => ({ guards: [...unknown.guards], read_only: configDefaults(config) !== undefined }),
    /** Sets them (the dashboard stores them); throws failed_precondition when the config file sets them. */
    setDefaultGuards(guards: readonly string[]): void {
      if (configDefaults(config)) throw precondition("[hooks] default_guards is set in the config file: change it there");
      unknown = { paused: false, guards: [...guards] };
    },
    get: require,
    pause: (name: string) => setPaused(name, true),
    resume: (name: string) => setPaused(name, false),
    /**
     * Deletes the channel's hooks with their events and attempts, and the channel, resolving once
     * they are gone. Hooks caught while the call runs are kept: they create the channel again (not
     * paused, with the configured or default guards), as a hook sent afterwards would. A second call
     * for the same channel meanwhile shares the first one; on another instance it is refused. The
     * channel is marked as being deleted in the database until the end, so that a pause or a change
     * of guards on any instance is refused meanwhile rather than lost. Throws not_found, or
     * failed_precondition while another instance deletes it.
     */
    delete(name: string): Promise<void> {
      const running = deleting.get(name);
      if (running) return running;
      const done = (async () => {
        const row = await require(name);
        const now = clock.now();
        const begun = await store.beginDeletion(name, now, now - DELETION_STALE_MS);
        if (begun === "missing") throw notFound(`channel "${name}" not found`);
        if (begun === "busy") throw precondition(`channel "${name}" is being deleted already (by another instance); it is gone once that finishes`);
        try {
          await deleteNow(name, heldBy(row.stats));
        } catch (error) {
          // The channel stays: it must not stay refusing pauses (best effort; a later delete takes it over).
          await store.endDeletion(name).catch(() => {});
          throw error;
        }
      })().finally(() => deleting.delete(name));
      deleting.set(name, done);
      return done;
    },
  };

  /**
   * The hooks caught before the call go oldest first, in transactions of `deleteBatch`, resting as
   * long as each took (lib/pace.ts), so that catching and the API go on however large the channel
   * is; the counters stay right after each one. Their queued handler attempts are cancelled first,
   * so no handler runs for a hook that is being deleted.
   */
  async function deleteNow(name: string, held: number): Promise<void> {
    const last = await store.newestId(name);
    if (last !== undefined) {
      await store.transaction(() => runner.cancelChannel(name, last));
      // Ids sort by catch time; the cap ends the loop even if some were stored with a later clock.
      for (let batches = Math.ceil(held / deleteBatch) + 1; batches > 0; batches--) {
        const startedAt = performance.now();
        const n = await store.transaction(async () => store.deleteHooks((await store.oldestKeys(name, deleteBatch)).filter((k) => k.id <= last)));
        if (n < deleteBatch) break;
        await restAfter(startedAt);
      }
    }
    const configured = config.channels.find((c) => c.name === name);
    const guards = configured?.guards ?? [...unknown.guards];
    const kept = await store.transaction(async () => {
      const row = await store.getChannel(name);
      if ((row ? heldBy(row.stats) : 0) === 0 && !configured) {
        await store.deleteChannel(name);
        return false;
      }
      // A configured channel exists from start-up; one that caught hooks meanwhile starts over.
      await store.endDeletion(name);
      await store.upsertChannel(name, guards, clock.now());
      await store.setPaused(name, false);
      return true;
    });
    if (kept) states.set(name, { paused: false, guards });
    else states.delete(name);
  }
}

export type ChannelService = ReturnType<typeof createChannelService>;

/** [hooks] default_guards of the config file when it names any (then they cannot be changed elsewhere). */
function configDefaults(config: Config): readonly string[] | undefined {
  return config.hooks.default_guards.length > 0 ? config.hooks.default_guards : undefined;
}
