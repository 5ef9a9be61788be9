import type { Config } from "../config/schema";
import type { Clock } from "../lib/clock";
import type { AttemptResult, DeliveryPort, Outgoing } from "../runner/handlers";
import { errorMessage } from "../runner/handlers/types";
import { createChaos } from "./chaos";
import { type ResignSettings, resignRequest } from "./resign";
import { kindAuthenticates } from "../hooks/guards";

/** Where delivery counts what it did (the metrics). */
export type DeliveryCounts = {
  resigned(handler: string, kind: string): void;
  chaos(handler: string, action: string): void;
};

export type DeliveryDeps = {
  config: Pick<Config, "channels" | "handlers"> & Partial<Pick<Config, "guards">>;
  clock: Clock;
  counts?: DeliveryCounts;
};

/** Waits `ms` (a real timer: chaos happens in real time); false when `stopping` aborted first. */
function wait(ms: number, stopping?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (stopping?.aborted) return resolve(false);
    const timer = setTimeout(() => (stopping?.removeEventListener("abort", stop), resolve(true)), ms);
    const stop = () => (clearTimeout(timer), resolve(false));
    stopping?.addEventListener("abort", stop, { once: true });
  });
}

/**
 * The channels of the config file whose guards include one that authenticates the sender (a
 * signature, a token, basic auth; the guard kind says, hooks/guards/kinds.ts): for check-config's
 * warnings only. Delivery reads the fact each hook carries from its catch (`verified`).
 */
export function verifiedChannels(config: Pick<Config, "channels"> & Partial<Pick<Config, "guards">>): Set<string> {
  const signing = new Set((config.guards ?? []).filter((g) => kindAuthenticates(g.kind)).map((g) => g.name));
  return new Set(config.channels.filter((c) => c.guards.some((g) => signing.has(g))).map((c) => c.name));
}

/** What the attempt records when a hook was delivered as caught because it was never verified. */
export const NOT_RESIGNED_UNVERIFIED = "not re-signed: unverified";

/**
 * What forwards do on the way out, handed to the runner (Runner.useDelivery): re-sign as the
 * handler's `resign` says, else its hook's channel's; deliver with the handler's `chaos`. The
 * result says what was done (`resigned`, `chaos`), recorded on the attempt and counted.
 */
export function createDelivery({ config, clock, counts }: DeliveryDeps): DeliveryPort {
  const byChannel = new Map<string, ResignSettings>();
  for (const c of config.channels) if (c.resign) byChannel.set(c.name, c.resign);
  // Re-signing vouches for the hook with the app's real secret: only a hook a guard authenticated
  // on catch (recorded on it; dashboard-added guards count) is re-signed, else anyone reaching the
  // public catching endpoint would get forged events signed. Unknown (null: caught before this was
  // recorded) and hooks not caught (sent from the dashboard or API) are unverified.
  return (name, forward, origin) => {
    const own: ResignSettings | undefined = forward.resign;
    const chaos = forward.chaos ? createChaos(forward.chaos, wait) : undefined;
    // A channel's secret signs only what the config file's handlers send: a forward added in the
    // dashboard would otherwise carry it to a URL of an admin's choosing (secrets are write-only there).
    const channelResign = origin === "config" ? byChannel : new Map<string, ResignSettings>();
    if (!own && channelResign.size === 0 && !chaos) return undefined;
    return async (request, hook, context, send) => {
      const wanted = own ?? channelResign.get(hook.channel);
      const unverified = wanted !== undefined && hook.verified !== true;
      const resign = unverified ? undefined : wanted;
      // Signed at the moment it leaves (after any chaos delay): the timestamp is fresh; the ids stay per hook and handler.
      const prepare = (): Outgoing => (resign ? resignRequest(request, resign, clock.now(), `${hook.id}\0${name}`) : request);
      let result: AttemptResult;
      try {
        result = chaos ? await chaos(hook, context, prepare, send) : await send(prepare());
      } catch (error) {
        return { ok: false, excerpt: "", error: `not sent: cannot sign as ${resign?.kind}: ${errorMessage(error)}` };
      }
      if (result.interrupted) return result;
      if (resign) (result = { ...result, resigned: resign.kind }), counts?.resigned(name, resign.kind);
      else if (unverified) result = { ...result, resigned: NOT_RESIGNED_UNVERIFIED };
      for (const action of result.chaos?.split(",") ?? []) counts?.chaos(name, action);
      return result;
    };
  };
}
