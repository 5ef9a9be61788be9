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
