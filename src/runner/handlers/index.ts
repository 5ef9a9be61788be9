import type { Config } from "../../config/schema";
import type { HandlerConfig } from "../../config/handlers";
import { createCommand } from "./command";
import { createForward, type Outbound } from "./forward";
import { createModule } from "./module";
import type { Handler, HandlerPolicy } from "./types";

export type { AttemptContext, AttemptResult, Handler, HandlerPolicy } from "./types";

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
 * (the config file's directory); `outbound` is where forwards may send (`[server] allow_link_local`).
 */
export function createHandlers(configs: Config["handlers"], baseDir: string, outbound: Outbound = { allowLinkLocal: false }): Map<string, Handler> {
  const out = new Map<string, Handler>();
  for (const raw of configs) {
    const config = raw as unknown as HandlerConfig;
    const policy = policyOf(config);
    let run: Handler["run"];
    switch (config.kind) {
      case "forward":
        run = createForward(config, policy, outbound);
        break;
      case "command":
        run = createCommand(config, policy, baseDir);
        break;
      case "module":
        run = createModule(config, policy, baseDir);
        break;
    }
    out.set(config.name, { name: config.name, kind: config.kind, policy, run, ...(config.when ? { when: config.when } : {}) });
  }
  return out;
}
