/**
 * The contract checks' thread (a Bun Worker): parses caught bodies, checks them against their
 * schemas and walks their field paths (analyse.ts), so that this CPU work never runs on the thread
 * that serves HTTP. It runs at the lowest scheduling priority (lib/thread-priority.ts): while
 * catching takes a core, it takes none of it; and while hooks come in a flood it waits before each
 * batch (lib/serving-busy.ts), so that it is never preempted holding a lock the engine shares. The database claims and writes stay on the main
 * thread (index.ts).
 *
 * Messages in: "init" once (the channels' own schemas, as JSON: compiled here again), then
 * "batch" (hooks in catch order, packed: threaded.ts). Out: "done" with the batch's analyses, or
 * "fatal".
 */
import { createFloodWatch } from "../lib/serving-busy";
import { lowerThreadPriority } from "../lib/thread-priority";
import { createAnalyse, type Analyse, type Analysed, type AnalyseInput } from "./analyse";
import { type ChannelSchemas, compileUserSchema, createContractChecker } from "./check";

declare const self: Worker;

/** A channel's schemas as sent: the JSON Schema each pattern was compiled from. */
export type SchemaSources = Record<string, { pattern: string; schema: unknown }[]>;
/**
 * A batch's hooks packed: their text fields in arrays, their bodies one after the other in one
 * buffer that the message transfers (one copy on the serving thread, not one clone per body).
 */
export type PackedHooks = { ids: string[]; channels: string[]; eventTypes: string[]; headers: string[]; lengths: Uint32Array; bodies: ArrayBuffer };
export type ToChecker = { type: "init"; schemas: SchemaSources; flood: Int32Array } | ({ type: "batch"; seq: number } & PackedHooks);
export type FromChecker = { type: "done"; seq: number; analysed: Analysed[] } | { type: "fatal"; seq?: number; error: string };

let analyse: Analyse | undefined;
let flood: ReturnType<typeof createFloodWatch> | undefined;

/** The hooks of a packed batch; their bodies are views of its buffer. */
export function unpackHooks(p: PackedHooks): AnalyseInput[] {
  const out = new Array<AnalyseInput>(p.ids.length);
  let at = 0;
  for (let i = 0; i < out.length; i++) {
    const size = p.lengths[i]!;
    out[i] = { id: p.ids[i]!, channel: p.channels[i]!, eventType: p.eventTypes[i]!, headers: p.headers[i]!, body: new Uint8Array(p.bodies, at, size) };
    at += size;
  }
  return out;
}

self.onmessage = (event: MessageEvent<ToChecker>) => {
  const m = event.data;
  try {
    if (m.type === "init") {
      lowerThreadPriority();
      flood = createFloodWatch({ shared: m.flood });
      const own: Record<string, ChannelSchemas> = {};
      for (const [channel, list] of Object.entries(m.schemas)) own[channel] = list.map((s) => ({ pattern: s.pattern, validate: compileUserSchema(s.schema) }));
      analyse = createAnalyse(createContractChecker((channel) => own[channel]));
      return;
    }
    if (!analyse) throw new Error("no init");
    // While hooks come in a flood, wait (holding nothing) rather than run starved beside catching
    // (lib/serving-busy.ts): the checks of a flood come after it.
    flood?.wait();
    self.postMessage({ type: "done", seq: m.seq, analysed: analyse(unpackHooks(m)) as Analysed[] } satisfies FromChecker);
  } catch (error) {
    self.postMessage({ type: "fatal", ...(m.type === "batch" ? { seq: m.seq } : {}), error: String(error) } satisfies FromChecker);
  }
};
