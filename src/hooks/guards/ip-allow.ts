import type { IpAllowGuardConfig } from "../../config/guards";
import { cidrContains, parseCidr, parseIp, type Cidr } from "./cidr";
import type { Guard } from "./types";
import { GuardConfigError, PASS, refuse } from "./verdict";

/**
 * Lets through only senders whose ip is in one of the `allow` blocks (403 otherwise). The ip is
 * the one the catching endpoint resolved, through X-Forwarded-For only with [server] trust_proxy.
 */
export function createIpAllowGuard(config: IpAllowGuardConfig): Guard {
  const blocks: Cidr[] = config.allow.map((text, i) => {
    const block = parseCidr(text);
    if (!block) throw new GuardConfigError(`allow[${i}]`, `"${text}" is not an IP address or CIDR block`);
    return block;
  });
  return {
    name: config.name,
    kind: config.kind,
    beforeBody: true,
    check({ ip }) {
      const address = parseIp(ip);
      const shown = ip.slice(0, 64) || "(unknown)";
      if (!address) return refuse(403, `sender ip ${shown} is not an IP address`);
      return blocks.some((b) => cidrContains(b, address)) ? PASS : refuse(403, `sender ip ${shown} is not allowed`);
    },
  };
}
