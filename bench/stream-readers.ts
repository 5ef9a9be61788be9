/**
 * Live stream readers for bench/ingest.ts. Each opens GET /v1/stream, reads and drops what it gets
 * until stopped, counting bytes only (a reader that looks at every byte costs more than the server
 * it measures, and falls behind until the server drops it as too slow). They ask for deflate as
 * browsers do and, standing for dashboards on other machines, leave the bytes compressed unless
 * `decode` (inflating is the client's work, here on the server's two cores).
 *
 * Run as a script it holds them in its own process: it prints `ready` once they are open, and
 * `READ <bytes> <open>` when its standard input closes.
 *
 *   nice -n 19 bun bench/stream-readers.ts URL N QUERY [decode]
 */
import { AUTH } from "./lib";

export type Held = { stop(): Promise<{ bytes: number; open: number }> };
type Options = { query: string; decode: boolean };

export async function holdStreams(url: string, n: number, opts: Options): Promise<Held> {
  const abort = new AbortController();
  let bytes = 0;
  let open = n;
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${url}/v1/stream${opts.query ? `?${opts.query}` : ""}`, {
      headers: { ...AUTH, "accept-encoding": "gzip, deflate, br" },
      signal: abort.signal,
      decompress: opts.decode,
    });
    if (res.status !== 200) throw new Error(`stream ${i}: HTTP ${res.status}`);
    const reader = res.body!.getReader();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return void open--;
          bytes += value.byteLength;
        }
      } catch {
        // aborted at the end, or dropped
        if (!abort.signal.aborted) open--;
      }
    })();
  }
  return {
    async stop() {
      const result = { bytes, open };
      abort.abort();
      return result;
    },
  };
}

/**
 * holdStreams in a child process, started through `prefix`: by default `nice -n 19` (the lowest
 * CPU priority); bench/ingest.ts --pin gives taskset (and nice with --stream-nice).
 */
export async function holdStreamsNiced(url: string, n: number, opts: Options & { prefix?: string[] }): Promise<Held> {
  const proc = Bun.spawn(
    [...(opts.prefix ?? ["nice", "-n", "19"]), process.execPath, import.meta.path, url, String(n), opts.query, ...(opts.decode ? ["decode"] : [])],
    {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "inherit",
    },
  );
  const reader = proc.stdout.getReader();
  let out = "";
  const until = async (re: RegExp) => {
    while (!re.test(out)) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream readers exited: ${out}`);
      out += new TextDecoder().decode(value);
    }
    return re.exec(out)!;
  };
  await until(/ready/);
  return {
    async stop() {
      void proc.stdin.end();
      const m = await until(/READ (\d+) (\d+)/);
      await proc.exited;
      return { bytes: Number(m[1]), open: Number(m[2]) };
    },
  };
}

if (import.meta.main) {
  const [url, n, query, decode] = process.argv.slice(2);
  const held = await holdStreams(url!, Number(n), { query: query ?? "", decode: decode === "decode" });
  console.log("ready");
  for await (const _ of Bun.stdin.stream()) void _;
  const { bytes, open } = await held.stop();
  console.log(`READ ${bytes} ${open}`);
  process.exit(0);
}
