import { monotonicFactory } from "ulid";
import { AUTH, type Reply } from "../helpers/client";

type Caller = {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
};

const nextId = monotonicFactory();

/** Stores `n` hooks of `channel` in `status` at once (an import), caught just before now: their ids, oldest first. */
export async function importHooks(
  t: Caller & ({ fetch(path: string, init?: RequestInit): Promise<Response> } | { url: string }),
  channel: string,
  n: number,
  status = "failed",
) {
  const at = Date.now() - 60_000;
  const ids = Array.from({ length: n }, (_, i) => nextId(at + i).toLowerCase());
  const lines = ids.map((id, i) =>
    JSON.stringify({
      id,
      channel,
      status,
      method: "POST",
      query: "",
      headers: { "content-type": "application/json" },
      body: Buffer.from(JSON.stringify({ n: i })).toString("base64"),
      ip: "127.0.0.1",
      created_at: new Date(at + i).toISOString(),
      ...(status === "handled" || status === "discarded" ? { finalized_at: new Date(at + i).toISOString() } : {}),
      event_type: "",
      events: [],
    }),
  );
  const init = { method: "POST", headers: { ...AUTH, "content-type": "application/x-ndjson" }, body: `${lines.join("\n")}\n` };
  const base = (t as { url?: unknown }).url;
  const res =
    typeof base === "string"
      ? await fetch(`${base}/v1/hooks/import`, init)
      : await (t as { fetch(path: string, init?: RequestInit): Promise<Response> }).fetch("/v1/hooks/import", init);
  const report = (await res.json()) as { imported: number };
  if (report.imported !== n) throw new Error(`import: ${JSON.stringify(report)}`);
  return ids;
}

/** The job once it has stopped running (polled: it runs in the background of the instance that started it). */
export async function settled(t: Caller, id: string, headers: Record<string, string> = AUTH, ms = 60_000): Promise<Record<string, any>> {
  const t0 = performance.now();
  for (;;) {
    const job = (await t.call("GET", `/v1/hooks/bulk/${id}`, undefined, headers)).json;
    if (job.state !== "running") return job;
    if (performance.now() - t0 > ms) throw new Error(`bulk job ${id} still running after ${ms} ms: ${JSON.stringify(job)}`);
    await Bun.sleep(20);
  }
}

/** How many `retried` events each hook has. */
export async function retriedCounts(t: Caller, ids: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const id of ids) {
    const hook = (await t.call("GET", `/v1/hooks/${id}?include=extensions`)).json;
    out.set(id, (hook.events as { kind: string }[]).filter((e) => e.kind === "retried").length);
  }
  return out;
}
