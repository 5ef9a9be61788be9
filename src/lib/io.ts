/** Where a command writes: its text and exact bytes to stdout, messages to stderr. */
export type Io = {
  out(text: string): void;
  outBytes(bytes: Uint8Array): void;
  err(text: string): void;
  /** Resolves once all that was written so far has been taken by stdout's and stderr's file, pipe or terminal. */
  written(): Promise<void>;
  /** Standard input, read whole (send --data -). */
  stdin(): Promise<Uint8Array>;
  env: Record<string, string | undefined>;
  now(): number;
};

type Stream = Pick<NodeJS.WriteStream, "write" | "on">;

/**
 * One of the process's streams, written in order. A pipe takes 64 KiB at once and the rest as its
 * reader reads; until then the bytes wait in the process, which must not exit before written()
 * (exitAfterOutput). The first write that fails calls `failed` and the stream takes no more.
 */
function createSink(stream: () => Stream, failed: (error: NodeJS.ErrnoException) => void) {
  let pending = 0;
  let broken = false;
  let listening = false;
  let waiting: (() => void)[] = [];
  const settle = () => {
    if (pending > 0 && !broken) return;
    const resolve = waiting;
    waiting = [];
    for (const r of resolve) r();
  };
  return {
    write(chunk: string | Uint8Array): void {
      if (broken) return;
      const s = stream();
      // The failed write's callback reports it; unheard, the stream's error event would end the process with a stack.
      if (!listening) s.on("error", () => {});
      listening = true;
      pending++;
      s.write(chunk, (error) => {
        pending--;
        if (error && !broken) {
          broken = true;
          failed(error);
        }
        settle();
      });
    },
    written: (): Promise<void> => (pending === 0 || broken ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve))),
  };
}

const stderr = createSink(
  () => process.stderr,
  () => {},
);

/** The command's exit code once it returned (exitAfterOutput); the code to end with once stdout failed. */
let returned: number | undefined;
let failure: number | undefined;

/** Resolves once stdout, then stderr (where a failure of stdout is said), took what they were given. */
const written = async () => {
  await stdout.written();
  await stderr.written();
};

/**
 * A reader that went away (`| head -1`) ends the command at once, quietly, with its own code or 0:
 * it read what it wanted. Any other failure (a full disk, a closed terminal) is said and ends it
 * with a code that is not 0: the output is incomplete.
 */
const stdout = createSink(
  () => process.stdout,
  (error) => {
    failure = error.code === "EPIPE" ? (returned ?? 0) : returned || 1;
    if (error.code !== "EPIPE") stderr.write(`mailroom: could not write the output: ${error.message}\n`);
    void stderr.written().then(() => process.exit(failure));
  },
);

/** The process's own stdout, stderr and stdin. */
export const processIo: Io = {
  out: (text) => stdout.write(text),
  outBytes: (bytes) => stdout.write(bytes),
  err: (text) => stderr.write(text),
  written,
  stdin: async () => new Uint8Array(await Bun.stdin.arrayBuffer()),
  env: process.env,
  now: () => Date.now(),
};

/**
 * Exits with the command's code once its output was written, whether to a file, a terminal or a
 * pipe whose reader is slow: main.ts's one way out after a command.
 */
export async function exitAfterOutput(code: number): Promise<never> {
  returned = code;
  await written();
  process.exit(failure ?? code);
}
