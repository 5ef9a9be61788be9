/** Where a command writes: its text and exact bytes to stdout, messages to stderr. */
export type Io = {
  out(text: string): void;
  outBytes(bytes: Uint8Array): void;
  err(text: string): void;
  /** Standard input, read whole (send --data -). */
  stdin(): Promise<Uint8Array>;
  env: Record<string, string | undefined>;
  now(): number;
};

/** The process's own stdout, stderr and stdin. */
export const processIo: Io = {
  out: (text) => void process.stdout.write(text),
  outBytes: (bytes) => void process.stdout.write(bytes),
  err: (text) => void process.stderr.write(text),
  stdin: async () => new Uint8Array(await Bun.stdin.arrayBuffer()),
  env: process.env,
  now: () => Date.now(),
};
