/**
 * scripts/release.ts: `--targets host` builds this machine's archive and npm package only, and no
 * release leaves its staging folder behind, finished or interrupted. Each run writes into a
 * temporary folder (`--out`), never the repository's dist/.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { currentTarget, TARGETS } from "../../src/testing/platform";
import { VERSION } from "../../scripts/npm-packages";
import { selectTargets } from "../../scripts/release";
import { removeTempDirs, tempDir } from "../helpers/binary";

afterAll(removeTempDirs);
// A host release compresses its 100 MB executable twice: about 30 s on two busy cores.
setDefaultTimeout(180_000);

const RELEASE = join(import.meta.dir, "../../scripts/release.ts");

test("--targets: host is this machine's target; a list is checked, each target once", () => {
  expect(selectTargets("host", () => "linux-arm64-musl")).toEqual(["linux-arm64-musl"]);
  expect(() => selectTargets("host", () => undefined)).toThrow(/^--targets host: no target fits /);
  expect(selectTargets("linux-x64,darwin-arm64,linux-x64")).toEqual(["linux-x64", "darwin-arm64"]);
  expect(() => selectTargets("linux-x64,freebsd-x64")).toThrow("--targets: not a target: freebsd-x64");
  expect(selectTargets(TARGETS.join(","))).toEqual([...TARGETS]);
});

test.skipIf(!currentTarget())("--targets host: the host's archive and npm package, the main package, SHA256SUMS; no staging folder left", async () => {
  const dir = tempDir("mailroom-release-");
  const proc = Bun.spawn([process.execPath, RELEASE, "--targets", "host", "--out", join(dir, "release")], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  expect(out).toStartWith(`release: mailroom ${VERSION}, targets ${currentTarget()}\n`);
  const host = currentTarget()!;
  expect(readdirSync(join(dir, "release")).sort()).toEqual(
    ["SHA256SUMS", `mailroom-${VERSION}-${host}.tar.gz`, `mailroom-webhooks-${VERSION}.tgz`, `mailroom-webhooks-${host}-${VERSION}.tgz`].sort(),
  );
  // The stage is dist/stage/ beside dist/release/: here, beside --out.
  expect(readdirSync(dir)).toEqual(["release"]);
});

test.skipIf(!currentTarget())("an interrupted release removes its staging folder", async () => {
  const dir = tempDir("mailroom-release-");
  const proc = Bun.spawn([process.execPath, RELEASE, "--targets", "host", "--out", join(dir, "release")], { stdout: "ignore", stderr: "pipe" });
  // Interrupted once it staged something (the executable is built into the stage first).
  for (let i = 0; !existsSync(join(dir, "stage")); i++) {
    if (i > 3000) throw new Error("the release staged nothing");
    await Bun.sleep(10);
  }
  proc.kill("SIGINT");
  expect(await proc.exited).toBe(130);
  expect(readdirSync(dir)).toEqual(["release"]);
});
