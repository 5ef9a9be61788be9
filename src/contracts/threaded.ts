import type { Log } from "../lib/log";
import { createFloodCounters } from "../lib/serving-busy";
import { type Analyse, type Analysed, type AnalyseInput, createAnalyse } from "./analyse";
import type { ChannelSchemas, ContractChecker } from "./check";
import type { FromChecker, PackedHooks, SchemaSources, ToChecker } from "./thread";

/**
 * Runs the CPU side of contract checks (analyse.ts) on the checks' thread (`url`, the module
 * contracts/thread.ts): each batch's bodies are copied there, and its verdicts and fresh field
 * paths come back, so parsing, schema validation and the walk of field paths cost the serving
 * thread only the copy. If the thread cannot start or fails, the checks go on on this thread
 * (`checker`) from that batch on; a batch the thread lost is analysed here again (analysis
 * only reads, so nothing is counted twice). `close()` stops the thread.
 */
export function startAnalyseThread(opts: { url: string; schemas: Record<string, ChannelSchemas>; checker: ContractChecker; log: Pick<Log, "error"> }): {
  analyse: Analyse;
  /** Counts hooks caught (all of them, checked or not): the thread stands aside while they come in a flood. */
  caught(n: number): void;
  close(): void;
} {
  const flood = createFloodCounters();
  let local: Analyse | undefined;
  const here = () => (local ??= createAnalyse(opts.checker));
  const waiting = new Map<number, { hooks: readonly AnalyseInput[]; resolve: (a: Analysed[]) => void }>();
  let seq = 0;
  let worker: Worker | undefined;

  const fallBack = (why: string) => {
    if (!worker) return;
    opts.log.error("the contract checks' thread stopped; checking on the main thread", { error: why });
    worker.terminate();
    worker = undefined;
    // What the thread had not answered is analysed here, in order.
    for (const [, w] of [...waiting].sort(([a], [b]) => a - b)) w.resolve(here()(w.hooks) as Analysed[]);
    waiting.clear();
  };
  try {
    worker = new Worker(opts.url);
    // Not unref()'d: with an unref()'d worker, Bun's main thread spun (search/threaded.ts); close() ends it.

    worker.onmessage = (event: MessageEvent<FromChecker>) => {
      const m = event.data;
      if (m.type === "fatal") return fallBack(m.error);
      const w = waiting.get(m.seq);
      waiting.delete(m.seq);
      w?.resolve(m.analysed);
    };
    worker.onerror = (event) => fallBack(event.message);
    const schemas: SchemaSources = {};
    for (const [channel, list] of Object.entries(opts.schemas))
      schemas[channel] = list.map((s) => ({ pattern: s.pattern, schema: (s.validate as { schema?: unknown }).schema }));
    worker.postMessage({ type: "init", schemas, flood: flood.shared } satisfies ToChecker);
  } catch (error) {
    worker = undefined;
    opts.log.error("the contract checks' thread did not start; checking on the main thread", { error: String(error) });
  }

  return {
    analyse(hooks) {
      if (!worker) return here()(hooks);
      const n = ++seq;
      const packed = packHooks(hooks);
      return new Promise<Analysed[]>((resolve) => {
        waiting.set(n, { hooks, resolve });
        worker!.postMessage({ type: "batch", seq: n, ...packed } satisfies ToChecker, [packed.bodies]);
      });
    },
    caught: flood.caught,
    close() {
      worker?.terminate();
      worker = undefined;
    },
  };
}

/** Only what the analysis reads crosses (a caught row carries more), the bodies in one buffer that is transferred. */
function packHooks(hooks: readonly AnalyseInput[]): PackedHooks {
  const n = hooks.length;
  const ids = new Array<string>(n);
  const channels = new Array<string>(n);
  const eventTypes = new Array<string>(n);
  const headers = new Array<string>(n);
  const lengths = new Uint32Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) total += hooks[i]!.body.byteLength;
  const bytes = Bun.allocUnsafe(total);
  for (let i = 0, at = 0; i < n; i++) {
    const h = hooks[i]!;
    (ids[i] = h.id), (channels[i] = h.channel), (eventTypes[i] = h.eventType), (headers[i] = h.headers), (lengths[i] = h.body.byteLength);
    bytes.set(h.body, at);
    at += h.body.byteLength;
  }
  // allocUnsafe may hand out a slice of a shared pool: a buffer of its own is transferred.
  const bodies = bytes.byteOffset === 0 && bytes.buffer.byteLength === total ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
  return { ids, channels, eventTypes, headers, lengths, bodies };
}
