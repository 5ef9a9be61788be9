import type { Clock } from "../lib/clock";
import { detectEventType } from "../hooks/event-type";
import { invalid, notFound } from "../lib/errors";
import { requestPartsProblem } from "../lib/http-syntax";
import type { HookRunner } from "../hooks/runner";
import type { ChannelService } from "../hooks/channels";
import type { Search } from "../search";
import type { HookStore } from "../hooks/store";
import type { ContractReader } from "../hooks/service";
import type { TransferHook, TransferStore } from "./store";
import { exportLine, parseLine } from "./wire";

export type ImportReport = { imported: number; skipped: number; failed: { line: number; message: string }[] };
/** Lines stored per transaction. */
const IMPORT_BATCH = 200;
/** Failed lines reported, at most (the count of failures is `failed.length` up to this). */
const MAX_FAILURES = 100;

/** What edit-and-send changes of its source; absent fields keep the source's. */
export type SendInput = { channel: string; method?: string; headers?: Record<string, string>; body?: Uint8Array };

/**
 * Hooks in and out whole: read for export, imported from JSON lines (ids, statuses, times, exact
 * bytes and events kept; a taken id skipped, so importing twice changes nothing), and sent into a
 * channel as a new hook that links to its source (edit and send).
 */
export function createTransfer(deps: {
  store: TransferStore;
  hooks: HookStore;
  channels: ChannelService;
  search: Search;
  runner: HookRunner;
  clock: Clock;
  nextId: () => string;
  /** The hooks' contract checks, for export lines (contracts/wire.ts); none when checks are off. */
  contracts?: ContractReader;
  /** Hooks' tags (tags/): read into export lines, put back on import. */
  tags?: {
    tagsOf(ids: readonly string[]): Promise<Map<string, string[]>>;
    addTags(ids: readonly string[], tags: readonly string[], at: number): Promise<number>;
  };
}) {
  const { store, hooks, channels, search, runner, clock } = deps;

  async function read(id: string): Promise<TransferHook | undefined> {
    const hook = await hooks.getHook(id);
    if (!hook) return undefined;
    const [events, tags] = await Promise.all([hooks.eventsOf([id]), deps.tags?.tagsOf([id])]);
    const tagged = tags?.get(id);
    return { ...hook, events: events.get(id) ?? [], sourceId: hook.sourceId ?? null, ...(tagged ? { tags: tagged } : {}) };
  }

  /** Stores hooks (a new channel is known at once, as the catching writer's are), then has them indexed. */
  async function put(rows: TransferHook[]): Promise<string[]> {
    const stored = await hooks.transaction(() => store.importHooks(rows, channels.guardsForNew));
    const ids = new Set(stored);
    if (stored.length > 0) search.enqueue(rows.filter((r) => ids.has(r.id)));
    // The tags of the hooks stored (a hook skipped as already there keeps its own).
    const byTag = new Map<string, string[]>();
    for (const r of rows) if (ids.has(r.id)) for (const tag of r.tags ?? []) byTag.set(tag, [...(byTag.get(tag) ?? []), r.id]);
    for (const [tag, tagged] of byTag) await deps.tags?.addTags(tagged, [tag], clock.now());
    return stored;
  }

  return {
    read,
    /** A hook read for export as its JSON line, with its contract check when it has one. */
    async line(hook: TransferHook): Promise<string> {
      return exportLine(hook, (await deps.contracts?.of([hook]))?.get(hook.id));
    },
    /** Imports JSON lines (export's format); empty lines are ignored. Rejects with the database's error. */
    async importLines(bytes: Uint8Array): Promise<ImportReport> {
      const report: ImportReport = { imported: 0, skipped: 0, failed: [] };
      const lines = new TextDecoder().decode(bytes).split("\n");
      let batch: TransferHook[] = [];
      const flush = async () => {
        const stored = await put(batch);
        report.imported += stored.length;
        report.skipped += batch.length - stored.length;
        batch = [];
      };
      for (let i = 0; i < lines.length; i++) {
        const text = lines[i]!.trim();
        if (text === "") continue;
        try {
          batch.push(parseLine(text));
        } catch (error) {
          if (report.failed.length < MAX_FAILURES) report.failed.push({ line: i + 1, message: (error as Error).message });
          continue;
        }
        if (batch.length >= IMPORT_BATCH) await flush();
      }
      if (batch.length > 0) await flush();
      return report;
    },
    /**
     * A new hook in `input.channel` made from hook `sourceId` (method, headers, body as given, else
     * the source's), caught now from `ip`, linked to its source; the channel's handlers run for it.
     * Throws not_found for an unknown source, invalid_argument for a method or headers an HTTP
     * parser would refuse (lib/http-syntax.ts) or a paused channel.
     */
    async send(sourceId: string, input: SendInput, ip: string): Promise<string> {
      const source = await hooks.getHook(sourceId);
      if (!source) throw notFound(`hook "${sourceId}" not found`);
      const problem = requestPartsProblem(input.method ?? source.method, input.headers ?? {});
      if (problem) throw invalid(problem);
      if (channels.stateOf(input.channel).paused) throw invalid(`channel "${input.channel}" is paused`);
      const id = deps.nextId();
      const row: TransferHook = {
        id,
        channel: input.channel,
        status: "pending",
        method: input.method ?? source.method,
        query: source.query,
        headers: input.headers ?? source.headers,
        body: input.body ?? source.body,
        ip,
        createdAt: clock.now(),
        finalizedAt: null,
        // An edited hook says what it is as a caught one would.
        eventType: input.headers || input.body ? detectEventType(input.headers ?? source.headers, input.body ?? source.body) : source.eventType,
        sourceId,
        events: [],
      };
      const queued = await hooks.transaction(async () => {
        await store.importHooks([row], channels.guardsForNew);
        return runner.queueCaught([row]);
      });
      search.enqueue([row]);
      if (queued) runner.notify();
      return id;
    },
  };
}

export type Transfer = ReturnType<typeof createTransfer>;
