import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ModuleConfig } from "../../config/handlers";
import type { RawHook } from "../../hooks/store";
import { clip, ERROR_MAX } from "../excerpt";
import { toHookJson, type HookJson } from "../hook-json";
import { errorMessage, type AttemptContext, type AttemptResult, type HandlerPolicy } from "./types";

export type ModuleHandlerFn = (hook: HookJson, context: { attempt: number; handler: string }) => unknown;

/** What the function returned, as text for the excerpt. */
function describe(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Loads a TypeScript or JavaScript file from disk (by absolute file URL, which also works from
 * a `bun build --compile` binary: Bun transpiles it at run time) and calls its default export
 * with the hook. Returning is success, throwing is a failure with the thrown message.
 * The file is loaded at the first attempt, so a missing file fails attempts instead of start-up.
 */
export function createModule(config: ModuleConfig, policy: HandlerPolicy, baseDir: string) {
  const file = isAbsolute(config.path) ? config.path : resolve(baseDir, config.path);
  // Kept once loaded; a failed load is retried at the next attempt (the file may be fixed by then).
  let loaded: ModuleHandlerFn | undefined;

  async function load(): Promise<ModuleHandlerFn> {
    const mod = await import(pathToFileURL(file).href);
    if (typeof mod.default !== "function") throw new Error(`${file} has no default export function`);
    return mod.default as ModuleHandlerFn;
  }

  return async function run(hook: RawHook, { attempt }: AttemptContext): Promise<AttemptResult> {
    try {
      loaded ??= await load();
    } catch (error) {
      return { ok: false, excerpt: "", error: clip(`could not load ${file}: ${errorMessage(error)}`, ERROR_MAX) };
    }
    const handler = loaded;
    let timer: Timer | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no result within ${policy.timeout} ms`)), policy.timeout);
    });
    try {
      // The call itself may throw synchronously: run it inside the promise chain.
      const call = Promise.resolve().then(() => handler(toHookJson(hook), { attempt, handler: config.name }));
      const value = await Promise.race([call, timeout]);
      return { ok: true, excerpt: clip(describe(value)), error: "" };
    } catch (error) {
      return { ok: false, excerpt: "", error: clip(errorMessage(error), ERROR_MAX) };
    } finally {
      clearTimeout(timer);
    }
  };
}
