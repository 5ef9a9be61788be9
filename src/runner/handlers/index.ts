import type { Config } from "../../config/schema";
import type { HandlerConfig } from "../../config/handlers";
import { createCommand } from "./command";
import { createForward, type Outbound } from "./forward";
import { createModule } from "./module";
import type { DeliveryPort, Handler, HandlerOrigin, HandlerPolicy } from "./types";

export type { AttemptContext, AttemptResult, Deliver, DeliveryPort, Handler, HandlerOrigin, HandlerPolicy, Outgoing, Send } from "./types";

function policyOf(c: HandlerConfig): HandlerPolicy {
  return {
    maxAttempts: c.max_attempts,
    backoff: { initial: c.backoff.initial, max: c.backoff.max },
    concurrency: c.concurrency,
    timeout: c.timeout,
    ...("rate" in c && c.rate ? { rate: c.rate } : {}),
    ...(c.breaker ? { breaker: { failures: c.breaker.failures, coolDown: c.breaker.cool_down } } : {}),
  };
}

/**
 * Builds every configured handler by name. The config was validated by the loader (each entry
 * against its kind's schema), so nothing here throws; `baseDir` resolves relative paths
 * (the config file's directory); `outbound` is where forwards may send (`[server] allow_link_local`);
 * `delivery` is read at each attempt (the composition hands it in after the runner is built).
 */
export function createHandlers(
  configs: Config["handlers"],
  baseDir: string,
  outbound: Outbound = { allowLinkLocal: false },
  delivery: () => DeliveryPort | undefined = () => undefined,
  origin: HandlerOrigin = "config",
): Map<string, Handler> {
  const out = new Map<string, Handler>();
  for (const raw of configs) {
    const config = raw as unknown as HandlerConfig;
    const policy = policyOf(config);
    let run: Handler["run"];
    switch (config.kind) {
      case "forward":
        {
          const forward = config;
          let built: { port: DeliveryPort; deliver: ReturnType<DeliveryPort> } | undefined;
          // Built once per port: a Deliver keeps state across attempts (a reorder window, the seeded draws).
          const deliver = () => {
            const port = delivery();
            if (!port) return undefined;
            if (built?.port !== port) built = { port, deliver: port(forward.name, forward, origin) };
            return built.deliver;
          };
          run = createForward(config, policy, outbound, deliver);
        }
        break;
      case "command":
        run = createCommand(config, policy, baseDir);
        break;
      case "module":
        run = createModule(config, policy, baseDir);
        break;
    }
    out.set(config.name, { name: config.name, kind: config.kind, origin, policy, run, ...(config.when ? { when: config.when } : {}) });
  }
  return out;
}
