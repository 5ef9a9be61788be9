import { printable } from "./printable";

/** One problem of a config: its key path (empty for the root) and what is wrong. */
export type Problem = { path: string; message: string };

/**
 * Every problem of a config; paths and messages are printable (control characters escaped, see
 * printable.ts). Apart from the loader, so that the checks the loader runs (guards) can throw it
 * without importing the loader.
 */
export class ConfigError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    const shown = problems.map((p) => ({ path: printable(p.path), message: printable(p.message) }));
    super(shown.map((p) => `${p.path || "(root)"}: ${p.message}`).join("\n"));
    this.problems = shown;
    this.name = "ConfigError";
  }
}
