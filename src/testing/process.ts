import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, chmodSync, constants, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ExecutableNotFound, findExecutable, MAIN_PACKAGE } from "./platform";

/** Temp folders are named after the test process, so a later start can remove those of a killed one. */
const PREFIX = "mailroom-test-";
const KEPT_OUTPUT = 64 * 1024;
/** Environment overrides of the server that would win over the helper's config (port 0, the temp data file). */
const OVERRIDES = ["MAILROOM_CONFIG", "MAILROOM_HOST", "MAILROOM_PORT", "MAILROOM_DB", "MAILROOM_DURABILITY", "MAILROOM_PARENT_PID"];

/** Defined (as true) when the helper is bundled for the npm package (scripts/release.ts); then no source is near. */
declare const MAILROOM_BUNDLED: boolean | undefined;

/**
 * How to run Mailroom: `command` if given, else $MAILROOM_BIN, else, under Bun inside Mailroom's
 * own repository, its source, else the executable of this platform's package (platform.ts).
 * Throws when none is there, saying what to install.
 */
export function mailroomCommand(command?: string[]): string[] {
  if (command?.length) return command;
  if (process.env.MAILROOM_BIN) return [process.env.MAILROOM_BIN];
  if (typeof MAILROOM_BUNDLED === "undefined" && process.versions.bun) {
    const main = fileURLToPath(new URL("../main.ts", import.meta.url));
    if (existsSync(main)) return [process.execPath, main];
  }
  try {
    const bin = findExecutable();
    makeExecutable(bin);
    return [bin];
  } catch (error) {
    if (error instanceof ExecutableNotFound) throw new Error(`${MAIN_PACKAGE}/testing: ${error.message}`);
    throw error;
  }
}

/** Package managers other than npm may unpack the executable without its x bit. */
function makeExecutable(path: string): void {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    chmodSync(path, 0o755);
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
};

/** A fresh private folder for one instance; removes the folders of test processes that are gone. */
export function instanceDir(): string {
  const root = tmpdir();
  for (const name of safeReaddir(root)) {
    const pid = Number(/^mailroom-test-(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(root, name), { recursive: true, force: true });
  }
  return mkdtempSync(join(root, `${PREFIX}${process.pid}-`));
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export type Server = {
  url: string;
  pid: number;
  /** What the server printed so far (stdout and stderr, the last 64 KiB). */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL after `graceMs`) and removes its folder. Safe to call again. */
  stop(graceMs?: number): Promise<void>;
};

const running = new Set<{ child: ChildProcess; dir: string }>();
let exitHandler = false;

/**
 * Starts `serve` with this config file and resolves once the server printed the address it
 * listens on (it prints that line last, when everything is ready). The server watches this
 * process (--parent-pid) and stops when it ends, even by SIGKILL; on a normal exit it is killed
 * and its folder removed here. Rejects with the server's output if it exits or is not ready
 * within `timeoutMs`.
 */
export function startServer(argv: string[], configPath: string, dir: string, timeoutMs: number, flags: readonly string[] = []): Promise<Server> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  for (const name of OVERRIDES) delete env[name];
  const child = spawn(argv[0]!, [...argv.slice(1), "serve", "--config", configPath, "--parent-pid", String(process.pid), ...flags], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const entry = { child, dir };
  running.add(entry);
  if (!exitHandler) {
    exitHandler = true;
    process.on("exit", () => {
      for (const { child, dir } of running) {
        child.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-KEPT_OUTPUT);
  };
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  let stopping: Promise<void> | undefined;
  const server = (url: string): Server => ({
    url,
    pid: child.pid ?? 0,
    output: () => output,
    stop(graceMs = 5_000) {
      stopping ??= (async () => {
        child.ref();
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
          await exited;
          clearTimeout(timer);
        }
        running.delete(entry);
        rmSync(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  });

  return new Promise<Server>((resolve, reject) => {
    const fail = async (why: string) => {
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      await server("").stop(0);
      reject(new Error(`${MAIN_PACKAGE}/testing: Mailroom ${why}:\n${output}`));
    };
    const timer = setTimeout(() => void fail(`was not ready within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null, signal: string | null) => void fail(`exited (${signal ?? `code ${code}`}) before it was ready`);
    child.once("exit", onExit);
    child.once("error", (error) => void fail(`could not be started (${argv[0]}: ${error.message})`));
    const onData = (chunk: Buffer) => {
      keep(chunk);
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.off("exit", onExit);
      child.stdout!.off("data", onData);
      child.stdout!.on("data", keep);
      // From here the server must not keep the test process alive: stop() or the exit handler ends it.
      child.unref();
      (child.stdout as unknown as { unref?: () => void }).unref?.();
      (child.stderr as unknown as { unref?: () => void }).unref?.();
      resolve(server(url));
    };
    child.stdout!.on("data", onData);
  });
}
