import type { IssueRow, IssueStore } from "../alerts/store";
import type { BulkJobRow, BulkJobStore } from "../bulk/store";
import { createChangeSink } from "../hooks/changes";
import type { HookStore, RawHook } from "../hooks/store";
import type { RefusalStore } from "../hooks/guards/refusal-store";
import { asCaller, callerChannels, callerSees, channelMatches, limitedActor } from "../lib/caller";
import { AppError } from "../lib/errors";
import type { SearchStore } from "../search/store";
import type { ReadStore, TagStore } from "../tags/store";
import type { TransferStore } from "../transfer/store";
import type { Storage } from "./storage";

/**
 * The storage bundle as a limited caller sees it (lib/caller.ts: a dashboard user with `channels`,
 * an API key scoped to channels): every read of hooks, channels, refusals, tags and read marks
 * answers only what lies in the caller's channels, as if nothing else existed (a hook of another
 * channel is not found, so a route answers 404 and its existence does not leak), and writes by id
 * skip hooks it cannot see. Lists and searches without a channel run once per visible channel and
 * merge newest first, so pages stay full and cursors exact. An unlimited caller (and work outside
 * a request: catching, the runner, retention) goes straight to the stores.
 */
export function filteredByCaller(storage: Storage): Storage {
  const hooks = storage.hooks;
  /** The names of the existing channels the caller may see. */
  const visibleChannels = async (limit: readonly string[]) => (await hooks.listChannels()).map((c) => c.name).filter((n) => channelMatches(limit, n));
  /**
   * A list newest first over the caller's channels: `channel` given, the list itself when visible
   * (else nothing); absent, the list of each visible channel, merged by `key` descending.
   */
  async function perChannel<Q extends { channel?: string; limit: number }, R>(query: Q, list: (q: Q) => Promise<R[]>, key: (r: R) => string): Promise<R[]> {
    const limit = callerChannels();
    if (!limit) return list(query);
    if (query.channel !== undefined) return channelMatches(limit, query.channel) ? list(query) : [];
    const lists = await Promise.all((await visibleChannels(limit)).map((channel) => list({ ...query, channel })));
    return lists
      .flat()
      .sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0))
      .slice(0, query.limit);
  }
  /** The ids among `ids` of hooks the caller may see (all of them for an unlimited caller). */
  async function visibleIds(ids: readonly string[]): Promise<string[]> {
    if (!callerChannels() || ids.length === 0) return [...ids];
    return (await hooks.getHooks(ids)).filter((h) => callerSees(h.channel)).map((h) => h.id);
  }
  const seen = <T extends { channel: string }>(row: T | undefined) => (row && callerSees(row.channel) ? row : undefined);
  /** A change to a channel the caller cannot see: as if it did not exist. */
  const unseenChannel = (name: string) => {
    if (!callerSees(name)) throw new AppError("not_found", `channel "${name}" not found`);
  };

  const filteredHooks: HookStore = Object.assign(Object.create(hooks) as HookStore, {
    getHook: async (id: string) => seen(await hooks.getHook(id)),
    getHooks: async (ids: readonly string[]) => (await hooks.getHooks(ids)).filter((h) => callerSees(h.channel)),
    getHookSummary: async (id: string) => seen(await hooks.getHookSummary(id)),
    listHookIds: (q: Parameters<HookStore["listHookIds"]>[0]) =>
      perChannel(
        q,
        (c) => hooks.listHookIds(c),
        (id) => id,
      ),
    listHooks: (q: Parameters<HookStore["listHooks"]>[0]) =>
      perChannel(
        q,
        (c) => hooks.listHooks(c),
        (h: RawHook) => h.id,
      ),
    listChannels: async () => (await hooks.listChannels()).filter((c) => callerSees(c.name)),
    channelsOldestFirst: async () => (await hooks.channelsOldestFirst()).filter((c) => callerSees(c.name)),
    getChannel: async (name: string) => (callerSees(name) ? hooks.getChannel(name) : undefined),
    newestId: async (channel: string) => (callerSees(channel) ? hooks.newestId(channel) : undefined),
    oldestKeys: async (channel: string, limit: number) => (callerSees(channel) ? hooks.oldestKeys(channel, limit) : []),
    keysBelow: async (id: string, limit: number) => (await hooks.keysBelow(id, limit)).filter((k) => callerSees(k.channel)),
    deleteHooks: (keys: Parameters<HookStore["deleteHooks"]>[0]) => hooks.deleteHooks(keys.filter((k) => callerSees(k.channel))),
    moveMany: (...[ids, move, keep]: Parameters<HookStore["moveMany"]>) =>
      hooks.moveMany(ids, move, (k) => callerSees(k.channel) && (keep === undefined || keep(k))),
    eventsOf: async (ids: readonly string[]) => hooks.eventsOf(await visibleIds(ids)),
    upsertChannel: (name: string, guards: string[], now: number) => (unseenChannel(name), hooks.upsertChannel(name, guards, now)),
    setPaused: (name: string, paused: boolean) => (unseenChannel(name), hooks.setPaused(name, paused)),
    beginDeletion: (name: string, at: number, staleBefore: number) => (unseenChannel(name), hooks.beginDeletion(name, at, staleBefore)),
    deleteChannel: (name: string) => (unseenChannel(name), hooks.deleteChannel(name)),
  });
  // Methods not replaced above are the store's own, called on it (Object.create keeps `this` right for classes too).
  for (const name of [
    "transaction",
    "caughtTransaction",
    "insertHooks",
    "setStatus",
    "addEvent",
    "overfull",
    "deleteHook",
    "retractCaught",
    "storageBytes",
    "endDeletion",
    "dialect",
  ] as const) {
    const value = (hooks as any)[name];
    (filteredHooks as any)[name] = typeof value === "function" ? value.bind(hooks) : value;
  }

  const search = storage.search;
  const filteredSearch: SearchStore = Object.assign(Object.create(search) as SearchStore, {
    search: (q: Parameters<SearchStore["search"]>[0]) =>
      perChannel(
        q,
        (c) => search.search(c),
        (id) => id,
      ),
    // Summed over the visible channels (or the one asked, when visible), each counted up to what is left.
    count: async (q: Parameters<SearchStore["count"]>[0], max: number) => {
      const limit = callerChannels();
      if (!limit) return search.count(q, max);
      if (q.channel !== undefined) return channelMatches(limit, q.channel) ? search.count(q, max) : 0;
      let n = 0;
      for (const channel of await visibleChannels(limit)) {
        n += await search.count({ ...q, channel }, max - n);
        if (n > max) break;
      }
      return n;
    },
  });
  for (const name of ["index", "unindexed", "sizeBytes", "purge", "transaction"] as const) {
    const value = (search as any)[name];
    if (typeof value === "function") (filteredSearch as any)[name] = value.bind(search);
  }

  const refusals = storage.refusals;
  const filteredRefusals: RefusalStore = {
    insert: (batch, kept, keptBytes) => refusals.insert(batch, kept, keptBytes),
    list: (q) =>
      perChannel(
        q,
        (c) => refusals.list(c),
        (r) => r.id,
      ),
    get: async (id) => seen(await refusals.get(id)),
    savedRequest: async (id) => (!callerChannels() || seen(await refusals.get(id)) ? refusals.savedRequest(id) : undefined),
    setDiagnosis: (id, diagnosis) => refusals.setDiagnosis(id, diagnosis),
  };

  const tags = storage.tags;
  const filteredTags: TagStore = {
    addTags: async (ids, t, at) => tags.addTags(await visibleIds(ids), t, at),
    removeTags: async (ids, t) => tags.removeTags(await visibleIds(ids), t),
    tagsOf: async (ids) => tags.tagsOf(await visibleIds(ids)),
    idsWith: async (tag) => visibleIds(await tags.idsWith(tag)),
    // Counted in one statement over the visible channels' hooks: never every tagged hook read.
    counts: async (channels) => {
      const limit = callerChannels();
      if (!limit) return tags.counts(channels);
      const visible = await visibleChannels(limit);
      return tags.counts(channels === undefined ? visible : channels.filter((c) => visible.includes(c)));
    },
  };

  const reads = storage.reads;
  const filteredReads: ReadStore = {
    markRead: async (user, ids, at) => reads.markRead(user, await visibleIds(ids), at),
    markUnread: async (user, ids) => reads.markUnread(user, await visibleIds(ids)),
    readOf: async (user, ids) => reads.readOf(user, await visibleIds(ids)),
    readByChannel: async (user) => new Map([...(await reads.readByChannel(user))].filter(([channel]) => callerSees(channel))),
  };

  const transfer = storage.transfer;
  const filteredTransfer: TransferStore = {
    importHooks(rows, guardsOfNewChannel) {
      const outside = rows.find((r) => !callerSees(r.channel));
      if (outside) throw new AppError("permission_denied", `channel "${outside.channel}" is not one of yours`);
      return transfer.importHooks(rows, guardsOfNewChannel);
    },
  };

  // An alert's issue is about a channel ("orders", "orders/invoice.paid") or a handler: a limited
  // caller sees those of its channels only.
  const issues = storage.issues;
  const issueSeen = (row: IssueRow | undefined) => {
    if (!row || !callerChannels()) return row;
    const channel = row.scope.split("/")[0]!;
    return !channel.includes(":") && callerSees(channel) ? row : undefined;
  };
  const filteredIssues: IssueStore = Object.assign(Object.create(issues) as IssueStore, {
    get: async (id: string) => issueSeen(await issues.get(id)),
    list: async (filter: Parameters<IssueStore["list"]>[0]) => {
      if (!callerChannels()) return issues.list(filter);
      // Filtered a page at a time, so that a page holds `limit` issues of the caller's channels when there are.
      const out: IssueRow[] = [];
      let before = filter.before;
      for (;;) {
        const page = await issues.list({ ...filter, before, limit: filter.limit });
        out.push(...page.filter((r) => issueSeen(r)));
        if (page.length < filter.limit || out.length >= filter.limit) return out.slice(0, filter.limit);
        before = page[page.length - 1]!.id;
      }
    },
    countOpen: async () => (callerChannels() ? (await issues.unresolved()).filter((r) => r.state === "open" && issueSeen(r)).length : issues.countOpen()),
    transition: async (...args: Parameters<IssueStore["transition"]>) => (issueSeen(await issues.get(args[0])) ? issues.transition(...args) : undefined),
  });
  for (const name of ["open", "active", "unresolved", "seen", "notified"] as const) (filteredIssues as any)[name] = (issues as any)[name].bind(issues);

  // A limited caller's bulk jobs are its own: another's query would tell of other channels.
  const jobs = storage.bulkJobs;
  const ownJob = (row: BulkJobRow | undefined) => (row && callerChannels() && row.actor !== limitedActor() ? undefined : row);
  const filteredJobs: BulkJobStore = Object.assign(Object.create(jobs) as BulkJobStore, {
    get: async (id: string) => ownJob(await jobs.get(id)),
    list: async (filter: Parameters<BulkJobStore["list"]>[0]) => (await jobs.list(filter)).filter((r) => ownJob(r)),
  });
  for (const name of ["create", "progress", "finish"] as const) (filteredJobs as any)[name] = (jobs as any)[name].bind(jobs);

  // What follows a committed change (streams, alerts, relays, delivery) works for everyone, whoever's
  // request reported it: subscribers run with no caller's limits. One scope a change for all of them,
  // not one each (a bulk job's batch reports a change a hook: a scope each was a few µs a hook). They
  // run in the order they subscribed, together where the first of them did among the sink's own
  // subscribers (every subscriber in src comes through here).
  const changes = storage.changes;
  const unlimited = createChangeSink();
  let fannedOut = false;
  const unlimitedChanges: Storage["changes"] = {
    emit: (change, origin) => changes.emit(change, origin),
    subscribe(fn) {
      if (!fannedOut) changes.subscribe((change, origin) => asCaller(undefined, () => unlimited.emit(change, origin)));
      fannedOut = true;
      return unlimited.subscribe(fn);
    },
    setLog: (log) => (changes.setLog(log), unlimited.setLog(log)),
  };

  return Object.assign(Object.create(storage) as Storage, {
    changes: unlimitedChanges,
    bulkJobs: filteredJobs,
    issues: filteredIssues,
    hooks: filteredHooks,
    search: filteredSearch,
    refusals: filteredRefusals,
    tags: filteredTags,
    reads: filteredReads,
    transfer: filteredTransfer,
  });
}
