/**
 * Every command Mailroom generates, pasted into a POSIX shell, runs curl and nothing else, with
 * exactly the arguments meant. A hostile corpus (methods, header names and values, queries, bodies
 * and channel names holding ', $(), backticks, ;, newlines, \) goes through the dashboard's
 * generators (src/ui/body.ts) and the landing page's command into `sh` (and bash), with a fake
 * `curl` on PATH that records its arguments, NUL-separated.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CATCH_COMMAND } from "../../src/hooks/landing";
import { curlOf, firstCurlOf } from "../../src/ui/body";

const root = mkdtempSync(join(tmpdir(), "mailroom-curl-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const bin = join(root, "bin");
mkdirSync(bin);
writeFileSync(join(bin, "curl"), `#!/bin/sh\nprintf 'CALL\\0' >> "$CURL_ARGV"\nfor a in "$@"; do printf '%s\\0' "$a" >> "$CURL_ARGV"; done\n`);
chmodSync(join(bin, "curl"), 0o755);
const SHELLS = ["sh", "bash"].filter((s) => Bun.which(s));

/** Pastes `command` into each shell in an empty folder; answers curl's calls (each its arguments) and what else the folder got. */
function paste(command: string) {
  return SHELLS.map((shell) => {
    const cwd = mkdtempSync(join(root, "run-"));
    const record = join(root, `${shell}-${Math.random().toString(36).slice(2)}.argv`);
    writeFileSync(record, "");
    const run = Bun.spawnSync([shell], {
      cwd,
      stdin: new TextEncoder().encode(`${command}\n`),
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: cwd, CURL_ARGV: record, MARK: "from-env" },
    });
    const parts = readFileSync(record, "utf8").split("\0").slice(0, -1);
    const calls: string[][] = [];
    for (const part of parts) part === "CALL" ? calls.push([]) : calls.at(-1)!.push(part);
    return { shell, calls, created: readdirSync(cwd), stderr: run.stderr.toString(), status: run.exitCode };
  });
}

const enc = (s: string) => new TextEncoder().encode(s);
/** Payloads that each leave a file behind if any shell runs them. */
const NASTY = [
  "';touch pwned1;'",
  "$(touch pwned2)",
  "`touch pwned3`",
  "x; touch pwned4 #",
  "a\ntouch pwned5\n",
  "\\';touch pwned6;#",
  "'\\''$(touch pwned7)'",
  "$MARK ${MARK} ~ * ? [a] !! & | > pwned8 < /dev/null",
  '"; touch pwned9; "',
];

describe("Copy as curl, pasted into a shell", () => {
  const base = "http://127.0.0.1:8080";
  // Methods an HTTP parser accepts, each with a character sh would act on unquoted.
  const methods = ["POST", "PO'ST", "`id`", "$HOME", "a|b", "x&y", "~root", "*", "M!x", "#x"];
  const cases: { name: string; hook: { id: string; method: string; headers: Record<string, string> }; url: string; body: string; args: string[] }[] = [];
  methods.forEach((method, i) => {
    const payload = NASTY[i % NASTY.length]!;
    const headers = { "content-type": "application/json", "x-note": payload.replace(/\n/g, " "), "x-`id`|$x": "v" };
    const url = `${base}/?channel=app&q=${encodeURIComponent(payload)}&raw=$(touch${"${IFS}"}pwnedq)'`;
    const body = `{"text":${JSON.stringify(payload)},"more":"${payload.replace(/["\\]/g, "")}"}`;
    cases.push({
      name: `method ${method}`,
      hook: { id: "01jd3q9x0c2m8t6v4r2k8p1w5z", method, headers },
      url,
      body,
      args: ["-X", method, url, "-H", "content-type: application/json", "-H", `x-note: ${headers["x-note"]}`, "-H", "x-`id`|$x: v", "--data-raw", body],
    });
  });
  for (const [i, payload] of NASTY.entries()) {
    cases.push({
      name: `body ${JSON.stringify(payload)}`,
      hook: { id: "01jd3q9x0c2m8t6v4r2k8p1w5z", method: "PUT", headers: {} },
      url: "https://app.example/hooks",
      body: `${payload}\\ ${i}`,
      args: ["-X", "PUT", "https://app.example/hooks", "--data-raw", `${payload}\\ ${i}`],
    });
  }

  for (const c of cases) {
    test(`${c.name}: only curl runs, with exactly its arguments`, () => {
      const command = curlOf(c.hook, c.url, enc(c.body));
      for (const run of paste(command)) expect(run).toEqual({ shell: run.shell, calls: [c.args], created: [], stderr: "", status: 0 });
    });
  }

  test("what an HTTP parser would refuse (only an old import could hold it) is left out; a body a paste would change is read from its file", () => {
    const hook = {
      id: "01jd3q9x0c2m8t6v4r2k8p1w5z",
      method: "POST;touch pwned;#",
      headers: { "x-a\r\ntouch pwned": "v", "x-b": "v\ntouch pwned", "x-c": "\u0015touch pwned", "x-ok": "yes" },
    };
    const command = curlOf(hook, `${base}/?a=1\ntouch pwned`, enc("a\r\nb"));
    for (const run of paste(command)) {
      expect(run).toEqual({
        shell: run.shell,
        calls: [[`${base}/?a=1%0Atouch%20pwned`, "-H", "x-ok: yes", "--data-binary", "@01jd3q9x0c2m8t6v4r2k8p1w5z.body"]],
        created: [],
        stderr: "",
        status: 0,
      });
    }
    // A target typed in that reads as an option is given as --url.
    for (const run of paste(curlOf({ ...hook, method: "GET", headers: {} }, "-o/tmp/x", new Uint8Array())))
      expect(run.calls).toEqual([["-X", "GET", "--url", "-o/tmp/x"]]);
  });

  test("the first curl of an empty list, for a channel name from the address bar, and the landing page's command", () => {
    for (const channel of [undefined, "orders", ...NASTY]) {
      const command = firstCurlOf(base, channel);
      const url = `${base}/?channel=${encodeURIComponent(channel ?? "demo")}`;
      for (const run of paste(command)) {
        expect(run).toEqual({
          shell: run.shell,
          calls: [["-X", "POST", url, "-H", "content-type: application/json", "-d", '{"type":"order.created","order":{"id":42,"total":"19.90"}}']],
          created: [],
          stderr: "",
          status: 0,
        });
      }
    }
    for (const run of paste(CATCH_COMMAND))
      expect(run.calls).toEqual([["-X", "POST", "http://HOST/?channel=demo", "-d", '{"hello":"world"}', "-H", "content-type: application/json"]]);
  });
});
