import type { ApiKeys } from "../hooks/api-keys";
import type { ListenState } from "../relay/client";
import { createRelayEndpoint } from "../relay/endpoint";
import { createRelayHub } from "../relay/hub";
import type { Base } from "./base";

/**
 * Relays: a handler per relay key and channel (the hub), the endpoint their listeners connect to
 * (server.ts routes it before the app), and this Mailroom's own listens ([[relays]], mailroom
 * listen), which run.ts starts and the dashboard and metrics show.
 */
export function createRelayService({ config, storage, clock, log, runner }: Base, { apiKeys, instance }: { apiKeys: ApiKeys; instance: string }) {
  const maxBody = config.hooks.max_body;
  const hub = createRelayHub({ store: storage.relays, runner, clock, log, instance, maxBody });
  const endpoint = createRelayEndpoint({
    keys: apiKeys.source,
    hub,
    channelKnown: async (name) => config.channels.some((c) => c.name === name) || (await storage.hooks.getChannel(name)) !== undefined,
    maxBody,
  });
  const listens: { state(): ListenState }[] = [];
  return {
    hub,
    endpoint,
    listens,
    /** The relays as the dashboards and metrics show them: upstream's, and this Mailroom's own listens. */
    state: async () => ({ upstream: await hub.state(), listening: listens.map((l) => l.state()) }),
    /** Attaches and detaches handlers for the relay keys as they are now. */
    sync: () => hub.sync(apiKeys.source.keys),
  };
}

export type RelayService = ReturnType<typeof createRelayService>;
