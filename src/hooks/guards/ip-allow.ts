import { kindAuthenticates } from "./kinds";
import type { IpAllowGuardConfig } from "./kinds";
import { cidrContains, parseCidr, parseIp, type Cidr } from "./cidr";
import type { Guard } from "./types";
import { GuardConfigError, PASS, refuse } from "./verdict";

/**
 * Lets through only senders whose ip is in one of the `allow` blocks (403 otherwise). The ip is
 * the one the catching endpoint resolved, through X-Forwarded-For only with [server] trust_proxy.
 */
export function createIpAllowGuard(config: IpAllowGuardConfig): Guard {
  const blocks: Cidr[] = [];
  const bad: { key: string; message: string }[] = [];
  config.allow.forEach((text, i) => {
    const block = parseCidr(text);
    if (block) blocks.push(block);
    else bad.push({ key: `allow[${i}]`, message: `"${text.slice(0, 100)}" is not an IP address or CIDR block` });
  });
  // Every bad entry at once, so that one check-config run lists them all.
  if (bad.length > 0) throw new GuardConfigError(bad[0]!.key, bad[0]!.message, bad.slice(1));
  return {
    name: config.name,
    kind: config.kind,
    authenticates: kindAuthenticates(config.kind),
    beforeBody: true,
    check({ ip }) {
      const address = parseIp(ip);
      const shown = ip.slice(0, 64) || "(unknown)";
      if (!address) return refuse(403, `sender ip ${shown} is not an IP address`);
      return blocks.some((b) => cidrContains(b, address)) ? PASS : refuse(403, `sender ip ${shown} is not allowed`);
    },
  };
}
