import type { Config } from "../config/schema";
import type { Clock } from "../lib/clock";
import { notFound } from "../lib/errors";
import { restAfter } from "../lib/pace";
import type { ChannelRow, HookStore } from "./store";

/**
 * Channels: the stored rows plus an in-memory map of name -> {paused, guards} that the
 * catching endpoint reads without touching the database. The map holds one entry per channel
 * (never per hook), so start-up stays independent of the number of stored hooks.
 */
export type ChannelState = { paused: boolean; guards: readonly string[] };

/** Hooks deleted per transaction when a channel is deleted: the write lock is never held for long. */
export const CHANNEL_DELETE_BATCH = 100;

export function createChannelService(deps: {
  config: Config;
  store: HookStore;
  clock: Clock;
  /** Tests shrink it to see the batches with few hooks. */
  deleteBatch?: number;
}) {
  const { config, store, clock } = deps;
  const deleteBatch = deps.deleteBatch ?? CHANNEL_DELETE_BATCH;
  const states = new Map<string, ChannelState>();

  function declareConfigured(): void {
    store.transaction(() => {
      for (const c of config.channels) store.upsertChannel(c.name, c.guards, clock.now());
    });
  }
  declareConfigured();
  for (const c of store.listChannels()) states.set(c.name, { paused: c.paused, guards: c.guards });

  function require(name: string): ChannelRow {
    const row = store.getChannel(name);
    if (!row) throw notFound(`channel "${name}" not found`);
    return row;
  }

  function setPaused(name: string, paused: boolean): ChannelRow {
    require(name);
    store.setPaused(name, paused);
    const row = require(name);
    states.set(name, { paused: row.paused, guards: row.guards });
    return row;
  }

  return {
    /** Hot path: the channel's state, or the state a channel created by this hook would get. */
    stateOf(name: string): ChannelState {
      return states.get(name) ?? { paused: false, guards: config.hooks.default_guards };
    },
    /** Guards a channel created by its first hook gets; also records it in the map. */
    guardsForNew(name: string): string[] {
      if (!states.has(name)) states.set(name, { paused: false, guards: config.hooks.default_guards });
      return [...states.get(name)!.guards];
    },
    list: () => store.listChannels(),
    get: require,
    pause: (name: string) => setPaused(name, true),
    resume: (name: string) => setPaused(name, false),
    /**
     * Deletes the channel with all its hooks, their events and attempts (foreign key cascade), and
     * resolves once they are gone. The hooks caught before the call go first, oldest first, in
     * transactions of `deleteBatch`, resting as long as each took (lib/pace.ts), so that catching
     * and the API go on however large the channel is; the counters stay right after each one. Then one
     * transaction removes what was caught meanwhile and the channel itself. A channel declared in
     * the config file exists from start-up, so it is declared again, empty, right away.
     */
    async delete(name: string): Promise<void> {
      require(name);
      const last = store.newestId(name);
      if (last !== undefined) {
        for (;;) {
          const startedAt = performance.now();
          const n = store.transaction(() =>
            store.deleteHooks(store.hookKeys(store.oldestIds(name, deleteBatch).filter((id) => id <= last))),
          );
          if (n < deleteBatch) break;
          await restAfter(startedAt);
        }
      }
      store.transaction(() => store.deleteChannel(name));
      states.delete(name);
      const configured = config.channels.find((c) => c.name === name);
      if (configured) {
        store.upsertChannel(name, configured.guards, clock.now());
        states.set(name, { paused: false, guards: configured.guards });
      }
    },
  };
}

export type ChannelService = ReturnType<typeof createChannelService>;
