import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildBinary, startProcess, tempDir, type Running } from "../helpers/binary";
import { storageToml } from "../helpers/target";

export const ADMIN = { email: "inspector@example.com", password: "a long admin password" };
/** A bearer token of the config file, for reading through /v1 what a test set up. */
export const TOKEN = "inspector-token-0123456789";
export const ATTACK = `<script>alert(1)</script><img src=x onerror=alert(1)>`;

/**
 * The executable with an admin of the config file and a channel `signed` behind an hmac guard `sig`
 * (secret "s3cret", header x-sig), and `moreToml`, for the inspector's browser tests.
 */
export async function startInspectorApp(prefix: string, moreToml = ""): Promise<Running> {
  const bin = await buildBinary();
  const dir = tempDir(prefix);
  await Bun.write(
    join(dir, "mailroom.toml"),
    `[server]\nport = 0\n${await storageToml("data/m.db")}` +
      `[[users]]\nemail = "${ADMIN.email}"\nrole = "admin"\npassword_env = "ADMIN_PASSWORD"\n` +
      `[[api_keys]]\nlabel = "tests"\ntoken = "${TOKEN}"\n` +
      `[[guards]]\nname = "sig"\nkind = "hmac"\nsecret = "s3cret"\nheader = "x-sig"\n` +
      `[[channels]]\nname = "signed"\nguards = ["sig"]\n${moreToml}`,
  );
  return startProcess([bin, "--config", "mailroom.toml"], dir, { ADMIN_PASSWORD: ADMIN.password });
}

/** Catches a hook (answered 200) and gives its id. */
export async function sendHook(app: Running, query: string, body: string | Uint8Array, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${app.url}/?${query}`, { method: "POST", body, headers });
  if (res.status !== 200) throw new Error(`the hook was answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

export async function signIn(app: Running, page: Page): Promise<void> {
  await page.goto(`${app.url}/ui/`);
  await page.getByLabel("E-mail").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
}

export async function stop(app: Running | undefined, browser: Browser | undefined): Promise<void> {
  await browser?.close();
  app?.proc.kill();
  await app?.proc.exited;
}
