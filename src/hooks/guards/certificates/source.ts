import type { KeyObject } from "node:crypto";
import { GuardConfigError } from "../config-error";
import { type CertificateFetcher, configuredKey, defaultFetcher } from "./fetcher";

/** Keys shared by the certificate-signed kinds (aws-sns, paypal). */
export type CertificateConfig = { name: string; kind: string; certificate?: string; fetch_certificate?: boolean; tolerance?: number };

/**
 * Where a certificate-signed guard gets its key: the configured certificate, or (only with
 * `fetch_certificate = true`) the message's certificate URL when `allowed` accepts it.
 */
export type KeySource = (url: string | undefined) => Promise<KeyObject | string>;

export function keySource(config: CertificateConfig, allowed: (url: string) => string | undefined, fetcher?: CertificateFetcher): KeySource {
  const given = config.certificate !== undefined && config.certificate !== "";
  if (given && config.fetch_certificate) {
    throw new GuardConfigError("fetch_certificate", "give either certificate (or certificate_env) or fetch_certificate = true, not both");
  }
  if (given) {
    let key: KeyObject;
    try {
      key = configuredKey(config.certificate!);
    } catch {
      throw new GuardConfigError("certificate", "does not parse as a PEM certificate or public key");
    }
    if (key.asymmetricKeyType !== "rsa") throw new GuardConfigError("certificate", `is a ${key.asymmetricKeyType} key; the provider signs with RSA`);
    return async () => key;
  }
  if (!config.fetch_certificate) {
    throw new GuardConfigError("certificate", "give certificate or certificate_env (PEM), or fetch_certificate = true to fetch it from the provider");
  }
  return async (url) => {
    if (url === undefined) return "no certificate URL";
    const problem = allowed(url);
    if (problem !== undefined) return problem;
    try {
      return await (fetcher ?? defaultFetcher()).key(url);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
}

/** An https URL on one of `hosts` (exact names or patterns); else the reason it is refused. */
export function hostProblem(url: string, what: string, hosts: (host: string) => boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${what} is not a URL`;
  }
  if (parsed.protocol !== "https:") return `${what} is not https`;
  if (parsed.username || parsed.password || parsed.port) return `${what} has a user, password or port`;
  if (!hosts(parsed.hostname)) return `${what} is not on the provider's documented hosts`;
  return undefined;
}

/** `make()`'s result, or every problem at once: its GuardConfigError and `others` (so one run reports all). */
export function checked<T>(make: () => T, others: { key: string; message: string }[]): T {
  let made: T | undefined;
  const problems = [...others];
  try {
    made = make();
  } catch (error) {
    if (!(error instanceof GuardConfigError)) throw error;
    problems.unshift({ key: error.key, message: error.message }, ...error.more);
  }
  if (problems.length > 0) throw new GuardConfigError(problems[0]!.key, problems[0]!.message, problems.slice(1));
  return made as T;
}
