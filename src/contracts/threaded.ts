import type { Log } from "../lib/log";
import { type Analyse, type Analysed, type AnalyseInput, createAnalyse } from "./analyse";
import type { ChannelSchemas, ContractChecker } from "./check";
import type { FromChecker, SchemaSources, ToChecker } from "./thread";

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
  close(): void;
} {
  let local: Analyse | undefined;
  const here = () => (local ??= createAnalyse(opts.checker));
  const waiting = new Map<number, { hooks: AnalyseInput[]; resolve: (a: Analysed[]) => void }>();
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
    worker.unref();
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
    worker.postMessage({ type: "init", schemas } satisfies ToChecker);
  } catch (error) {
    worker = undefined;
    opts.log.error("the contract checks' thread did not start; checking on the main thread", { error: String(error) });
  }

  return {
    analyse(hooks) {
      if (!worker) return here()(hooks);
      const n = ++seq;
      // Only what the analysis reads crosses (a caught row carries more).
      const list = hooks.map((h) => ({ id: h.id, channel: h.channel, eventType: h.eventType, headers: h.headers, body: h.body }));
      return new Promise<Analysed[]>((resolve) => {
        waiting.set(n, { hooks: list, resolve });
        worker!.postMessage({ type: "batch", seq: n, hooks: list } satisfies ToChecker);
      });
    },
    close() {
      worker?.terminate();
      worker = undefined;
    },
  };
}
