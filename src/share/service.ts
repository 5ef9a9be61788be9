import type { HookSearch } from "../hooks/hook-search";
import type { HookExtendedWire } from "../hooks/model";
import { asCaller, callerChannels } from "../lib/caller";
import type { Clock } from "../lib/clock";
import { invalid, notFound } from "../lib/errors";
import { redactHeaders, redactRefusedQuery } from "../hooks/redact";
import { randomToken, sha256Hex, tokenMatchesHash } from "../lib/secrets";
import type { ViewRow } from "../views/store";
import type { ShareLinkRow, ShareLinkStore } from "./store";

/** A link's life when none is asked for, and the longest one, in days. */
export const SHARE_DEFAULT_DAYS = 7;
export const SHARE_MAX_DAYS = 90;
/** A view's link shows its newest hooks, at most this many. */
export const SHARED_VIEW_HOOKS = 100;
const DAY_MS = 86_400_000;

/** A share link as listed (never its token). */
export type ShareLinkWire = {
  id: string;
  kind: "hook" | "view";
  hook?: string;
  view?: string;
  created_by: string;
  created_at: string;
  expires_at: string;
};

export const toWireLink = (r: ShareLinkRow): ShareLinkWire => ({
  id: r.id,
  kind: r.kind,
  ...(r.kind === "hook" ? { hook: r.target } : { view: r.target }),
  created_by: r.createdBy,
  created_at: new Date(r.createdAt).toISOString(),
  expires_at: new Date(r.expiresAt).toISOString(),
});

/**
 * A hook as a link shows it: whoever holds the link is no one the hook's sender chose, so its
 * signature and credential headers (and cookies) are hidden as a refusal's are, and credential-like
 * query parameters; the body is the hook's.
 */
function shareable(hook: HookExtendedWire): HookExtendedWire {
  return { ...hook, headers: redactHeaders(new Headers(hook.headers)), query: redactRefusedQuery(hook.query) };
}

/**
 * Read-only share links: one hook, or a saved view's hooks (as they are when the link is opened),
 * for whoever holds the link, without signing in, until it expires (7 days unless asked, at most
 * 90) or is revoked. The token (32 random bytes) is shown once; only its SHA-256 is stored, and
 * the stored hash is compared in constant time. A link shows no more than its creator could see
 * (a member limited to channels shares only those). An unknown, expired or revoked link is
 * not_found, with no detail.
 */
export function createShareLinks(deps: {
  store: ShareLinkStore;
  clock: Clock;
  /** A hook as GET /v1/hooks/{id} answers it (not_found when the caller cannot see it). */
  hook: (id: string) => Promise<HookExtendedWire>;
  search: HookSearch;
  /** The views `actor` sees (shared and own). */
  views: (actor: string) => Promise<ViewRow[]>;
  /**
   * What a link's creator may see now: null for every channel, its channel patterns when limited,
   * undefined when the creator is gone (a removed user, a revoked key).
   */
  creatorAccess: (actor: string) => Promise<readonly string[] | null | undefined>;
}) {
  const { store, clock } = deps;
  const gone = () => notFound("not found");

  async function create(actor: string, what: { hook?: string; view?: string; days?: number }): Promise<ShareLinkWire & { token: string; url: string }> {
    if ((what.hook === undefined) === (what.view === undefined)) throw invalid("give either hook (an id) or view (a saved view's name)");
    const days = what.days ?? SHARE_DEFAULT_DAYS;
    if (!Number.isInteger(days) || days < 1 || days > SHARE_MAX_DAYS) throw invalid(`days: a whole number of days from 1 to ${SHARE_MAX_DAYS}`);
    let query: string | null = null;
    if (what.hook !== undefined) await deps.hook(what.hook);
    else {
      const view = (await deps.views(actor)).find((v) => v.name === what.view);
      if (!view) throw notFound(`view "${what.view}" not found`);
      query = view.query;
    }
    const token = randomToken("mrl_");
    const now = clock.now();
    const limit = callerChannels();
    const row: ShareLinkRow = {
      id: randomToken("sl_").slice(0, 19),
      tokenSha256: sha256Hex(token),
      kind: what.hook !== undefined ? "hook" : "view",
      target: (what.hook ?? what.view)!,
      query,
      channels: limit ? JSON.stringify(limit) : null,
      createdBy: actor,
      createdAt: now,
      expiresAt: now + days * DAY_MS,
    };
    await store.insert(row);
    await store.removeExpired(now);
    return { ...toWireLink(row), token, url: `/ui/share/${token}` };
  }

  /** The link of `token`, or not_found (unknown, expired, revoked). */
  async function find(token: string): Promise<ShareLinkRow> {
    if (!/^mrl_[\w-]{43}$/.test(token)) throw gone();
    const hash = sha256Hex(token);
    const row = await store.byTokenHash(hash);
    if (!row || !tokenMatchesHash(token, row.tokenSha256) || row.expiresAt <= clock.now()) throw gone();
    return row;
  }

  /** What a link shows: its hook, or its view's newest hooks now; not_found for a link that no longer opens (or a hook since deleted). */
  async function open(token: string) {
    const row = await find(token);
    const channels = row.channels ? (JSON.parse(row.channels) as string[]) : undefined;
    // A link shows no more than its creator may see now: it closes when the creator is gone or
    // was limited to other channels since (an unlimited creator's link keeps the limit it was made with).
    const now = await deps.creatorAccess(row.createdBy);
    if (now === undefined || (now !== null && JSON.stringify(now) !== JSON.stringify(channels ?? null))) throw gone();
    return asCaller(channels, async () => {
      const expires_at = new Date(row.expiresAt).toISOString();
      if (row.kind === "hook") {
        const hook = await deps.hook(row.target).catch(() => {
          throw gone();
        });
        return { kind: "hook" as const, expires_at, hook: shareable(hook) };
      }
      const ids = await deps.search.read(row.query ?? "")({ limit: SHARED_VIEW_HOOKS });
      const hooks = (await Promise.all(ids.map((id) => deps.hook(id).catch(() => undefined)))).filter((h) => h !== undefined).map(shareable);
      return { kind: "view" as const, expires_at, view: { name: row.target, query: row.query ?? "", hooks } };
    });
  }

  return {
    create,
    open,
    list: async () => (await store.list(clock.now())).map(toWireLink),
    async revoke(id: string): Promise<void> {
      if (!(await store.remove(id))) throw notFound(`share link "${id}" not found`);
    },
  };
}

export type ShareLinks = ReturnType<typeof createShareLinks>;
