/**
 * The contract checks' thread (a Bun Worker): parses caught bodies, checks them against their
 * schemas and walks their field paths (analyse.ts), so that this CPU work never runs on the thread
 * that serves HTTP. The database claims and writes stay on the main thread (index.ts).
 *
 * Messages in: "init" once (the channels' own schemas, as JSON: compiled here again), then
 * "batch" (hooks in catch order). Out: "done" with the batch's analyses, or "fatal".
 */
import { createAnalyse, type Analyse, type Analysed, type AnalyseInput } from "./analyse";
import { type ChannelSchemas, compileUserSchema, createContractChecker } from "./check";

declare const self: Worker;

/** A channel's schemas as sent: the JSON Schema each pattern was compiled from. */
export type SchemaSources = Record<string, { pattern: string; schema: unknown }[]>;
export type ToChecker = { type: "init"; schemas: SchemaSources } | { type: "batch"; seq: number; hooks: AnalyseInput[] };
export type FromChecker = { type: "done"; seq: number; analysed: Analysed[] } | { type: "fatal"; seq?: number; error: string };

let analyse: Analyse | undefined;

self.onmessage = (event: MessageEvent<ToChecker>) => {
  const m = event.data;
  try {
    if (m.type === "init") {
      const own: Record<string, ChannelSchemas> = {};
      for (const [channel, list] of Object.entries(m.schemas)) own[channel] = list.map((s) => ({ pattern: s.pattern, validate: compileUserSchema(s.schema) }));
      analyse = createAnalyse(createContractChecker((channel) => own[channel]));
      return;
    }
    if (!analyse) throw new Error("no init");
    self.postMessage({ type: "done", seq: m.seq, analysed: analyse(m.hooks) as Analysed[] } satisfies FromChecker);
  } catch (error) {
    self.postMessage({ type: "fatal", ...(m.type === "batch" ? { seq: m.seq } : {}), error: String(error) } satisfies FromChecker);
  }
};
