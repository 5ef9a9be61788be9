import { jsonCaller, MailroomApiError, query } from "./http";
import type { Attempt, Channel, ErrorBody, Hook, HookExtended, HookStatus, Refusal } from "./types";

/** `include: "extensions"` answers HookExtended items (with `event_type`), else the spec's Hook. */
export type ListHooks = {
  channel?: string;
  status?: HookStatus;
  limit?: number;
  after?: string;
  include?: "extensions";
  /** A search in the search grammar (`type:push payload.ref:refs/heads/main`; docs/search.md). */
  q?: string;
};
type Plain = Record<never, never>;
type Shown<Q> = Q extends { include: "extensions" } ? HookExtended : Hook;

/**
 * A typed client of the management API under /v1 (bearer token). Every method resolves with the
 * answered resource, or throws MailroomApiError with the status and the error body.
 *
 * @example const [hook] = await mr.api.hooks.list({ channel, status: "pending" });
 */
export function managementClient(url: string, token: string) {
  const call = jsonCaller(
    `${url}/v1`,
    `Bearer ${token}`,
    (status, body, _h, method, path) => new MailroomApiError(status, body as ErrorBody, method, `/v1${path}`),
  );
  const name = encodeURIComponent;
  return {
    channels: {
      list: () => call<Channel[]>("GET", "/channels"),
      get: (channel: string) => call<Channel>("GET", `/channels/${name(channel)}`),
      pause: (channel: string) => call<Channel>("POST", `/channels/${name(channel)}/pause`),
      resume: (channel: string) => call<Channel>("POST", `/channels/${name(channel)}/resume`),
      delete: (channel: string) => call<Record<string, never>>("DELETE", `/channels/${name(channel)}`),
    },
    hooks: {
      /** Newest first; pass the last id as `after` for the next page. */
      list: <Q extends ListHooks = Plain>(q: Q = {} as Q) => call<Shown<Q>[]>("GET", `/hooks${query(q)}`),
      /** `{ include: "extensions" }` answers HookExtended (with `event_type`). */
      get: <Q extends { include?: "extensions" } = Plain>(id: string, q: Q = {} as Q) => call<Shown<Q>>("GET", `/hooks/${name(id)}${query(q)}`),
      discard: (id: string) => call<Hook>("POST", `/hooks/${name(id)}/discard`),
      retry: (id: string) => call<Hook>("POST", `/hooks/${name(id)}/retry`),
      delete: (id: string) => call<Record<string, never>>("DELETE", `/hooks/${name(id)}`),
      /** Every handler attempt of the hook, oldest first. */
      attempts: (id: string) => call<Attempt[]>("GET", `/hooks/${name(id)}/attempts`),
    },
    /** Requests refused by a guard (and handshakes answered: `kind`), newest first, with the reason. */
    refusals: (q: { channel?: string; guard?: string; status?: number; kind?: Refusal["kind"]; limit?: number } = {}) =>
      call<Refusal[]>("GET", `/refusals${query(q)}`),
  };
}

export type ManagementClient = ReturnType<typeof managementClient>;
