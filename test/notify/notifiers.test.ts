/**
 * Notifiers send each service's documented message to local receivers from the outbox (an
 * in-memory SQLite store here; the store's contract on both backends is test/db/contract/notices);
 * a failing one is retried by the clock.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { openDatabase } from "../../src/db/sqlite/open";
import { sqliteDialect } from "../../src/db/stores/dialect";
import { createNoticeStore } from "../../src/db/stores/notices";
import { silentLog } from "../../src/lib/log";
import type { IssueNotice } from "../../src/notify/notice";
import { ATTEMPTS, CLAIM_MS, createNotifiers } from "../../src/notify/notifiers";
import { createFakeClock } from "../helpers/clock";
import { removeSelfSigned, selfSigned, smtpServer } from "./smtp";

/** A fresh outbox in an in-memory SQLite database. */
const outbox = () => createNoticeStore(sqliteDialect(openDatabase({ path: ":memory:", durability: "normal" }).$client));

const notice: IssueNotice = {
  event: "opened",
  issue: {
    id: "01jdxq0000000000000000000a",
    rule: "quiet-stripe",
    kind: "silence",
    scope: "stripe",
    summary: "no hook on stripe for 30 min <@everyone>",
    state: "open",
    opened_at: "2026-11-28T10:00:00Z",
    last_seen_at: "2026-11-28T10:00:00Z",
    resolved_at: null,
    count: 1,
    hooks_query: null,
  },
  url: "https://mailroom.example/issues/01jdxq0000000000000000000a",
};
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const received: { path: string; headers: Headers; body: string }[] = [];
let failures = 2;
/** Answers to /held wait for it. */
const held = Promise.withResolvers<void>();
let down = false;
const server = Bun.serve({
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/flaky" && failures-- > 0) return new Response("no", { status: 503 });
    if (path === "/held") await held.promise;
    if (path === "/down" || (path === "/later" && down)) return new Response("no", { status: 502 });
    received.push({ path, headers: req.headers, body: await req.text() });
    return new Response("ok");
  },
});
afterAll(() => server.stop(true));
afterAll(removeSelfSigned);
const at = (p: string) => `http://127.0.0.1:${server.port}${p}`;
const body = (p: string) => JSON.parse(received.find((r) => r.path === p)?.body ?? "null");

describe("notifiers", () => {
  test("Slack, Discord, Teams and a signed webhook get their formats; a failing receiver is retried when its backoff has passed", async () => {
    // Now: the standardwebhooks library checks the signed time against its own clock.
    const clock = createFakeClock(Date.now());
    const notify = createNotifiers(
      [
        { name: "s", kind: "slack", url: at("/slack") },
        { name: "d", kind: "discord", url: at("/discord") },
        { name: "t", kind: "teams", url: at("/teams") },
        { name: "w", kind: "webhook", url: at("/webhook"), secret },
        { name: "f", kind: "slack", url: at("/flaky") },
      ],
      { log: silentLog, backoff: { initial: 1000, max: 60_000 }, random: () => 1, clock, store: outbox() },
    );
    await notify.queue(["s", "d", "t", "w", "f", "unknown"], notice);
    // Queued, not sent: the rules' lease holder sends (its worker).
    expect(received).toHaveLength(0);
    expect((await notify.status()).map((s) => s.queued)).toEqual([1, 1, 1, 1, 1]);
    // The flaky one fails once and waits its backoff (1 s), by the clock: nothing is sent before.
    expect(await notify.worker.tick(clock.now())).toBe(clock.now() + 1000);
    expect((await notify.status()).find((s) => s.name === "f")).toMatchObject({ sent: 0, queued: 1, last_error: "HTTP 503" });
    expect(await notify.worker.tick(clock.now())).toBe(clock.now() + 1000);
    clock.advance(999);
    await notify.worker.tick(clock.now());
    expect(failures).toBe(1);
    clock.advance(1);
    // The second try fails too: the next waits 2 s (doubling), then it is sent.
    expect(await notify.worker.tick(clock.now())).toBe(clock.now() + 2000);
    expect(failures).toBe(0);
    clock.advance(2000);
    expect(await notify.worker.tick(clock.now())).toBeNull();
    expect(body("/slack").text).toContain("quiet-stripe on stripe");
    expect(body("/slack").blocks[0].type).toBe("header");
    expect(body("/slack").blocks[1].text.text).toContain("&lt;@everyone&gt;");
    expect(body("/discord")).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(body("/discord").content).toContain(notice.url);
    const card = body("/teams");
    expect(card.type).toBe("message");
    expect(card.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(card.attachments[0].content.type).toBe("AdaptiveCard");
    const hook = received.find((r) => r.path === "/webhook");
    if (!hook) throw new Error("webhook not received");
    expect(new Webhook(secret).verify(hook.body, Object.fromEntries(hook.headers))).toEqual(notice);
    expect(body("/flaky").text).toContain("opened");
    const flaky = (await notify.status()).find((s) => s.name === "f");
    expect(flaky).toMatchObject({ sent: 1, failed: 0, queued: 0, last_error: "HTTP 503" });
  });

  test("a notice failing every try is given up after the last, and the queue goes on; its retries never hold another notifier", async () => {
    const clock = createFakeClock();
    const notify = createNotifiers(
      [
        { name: "down", kind: "slack", url: at("/down") },
        { name: "later", kind: "slack", url: at("/later") },
      ],
      { log: silentLog, backoff: { initial: 1000, max: 4000 }, random: () => 1, clock, store: outbox() },
    );
    down = true;
    await notify.queue(["down", "later"], notice);
    await notify.queue(["down"], { ...notice, event: "resolved" });
    await notify.worker.tick(clock.now());
    expect((await notify.status()).map((s) => [s.name, s.queued, s.failed])).toEqual([
      ["down", 2, 0],
      ["later", 1, 0],
    ]);
    down = false;
    const before = received.length;
    clock.advance(1000);
    await notify.worker.tick(clock.now());
    expect(received.length).toBe(before + 1);
    expect((await notify.status()).find((s) => s.name === "later")).toMatchObject({ sent: 1, queued: 0 });
    // The first notice of "down" is tried ATTEMPTS times in all, the waits doubling up to the max.
    for (let i = 2; i < ATTEMPTS; i++) {
      const nextAt = (await notify.worker.tick(clock.now()))!;
      expect(nextAt - clock.now()).toBe(Math.min(4000, 1000 * 2 ** (i - 1)));
      clock.set(nextAt);
      await notify.worker.tick(clock.now());
    }
    const status = (await notify.status()).find((s) => s.name === "down")!;
    expect(status).toMatchObject({ failed: 1, sent: 0, last_error: "HTTP 502", last_error_at: new Date(clock.now()).toISOString() });
    // The next notice is tried at once, and fails the same way: it waits its first backoff.
    expect(status.queued).toBe(1);
    expect((await notify.worker.tick(clock.now()))! - clock.now()).toBe(1000);
  });

  test("while a send is under way, start never answers a time already past (the rules' worker would spin and starve the send)", async () => {
    const clock = createFakeClock();
    const notify = createNotifiers([{ name: "later", kind: "slack", url: at("/later") }], {
      log: silentLog,
      backoff: { initial: 1000, max: 4000 },
      random: () => 1,
      clock,
      store: outbox(),
    });
    down = true;
    await notify.queue(["later"], notice);
    expect(await notify.worker.tick(clock.now())).toBe(clock.now() + 1000);
    down = false;
    clock.advance(1000);
    // The retry is sent now; its notifier's last answer (the retry's time, now past) is not one.
    const next = await notify.start(clock.now());
    expect(next === null || next > clock.now()).toBe(true);
    await notify.idle();
    expect((await notify.status())[0]).toMatchObject({ sent: 1, queued: 0 });
  });

  test("a send whose instance died (its claim never reported) is sent again once the claim lapses; at the last try, given up", async () => {
    const clock = createFakeClock();
    const store = outbox();
    const options = { log: silentLog, backoff: { initial: 1000, max: 4000 }, random: () => 1, clock, store };
    const notify = createNotifiers([{ name: "later", kind: "slack", url: at("/later") }], options);
    down = false;
    await notify.queue(["later"], notice);
    // Another instance claimed it and died in the middle of its send.
    const head = (await store.next("later"))!;
    expect(await store.claim(head.id, 0, clock.now(), clock.now() + CLAIM_MS)).toBe(true);
    const before = received.length;
    expect(await notify.worker.tick(clock.now())).toBe(clock.now() + CLAIM_MS);
    clock.advance(CLAIM_MS - 1);
    await notify.worker.tick(clock.now());
    expect(received.length).toBe(before);
    clock.advance(1);
    await notify.worker.tick(clock.now());
    expect(received.length).toBe(before + 1);
    expect((await notify.status())[0]).toMatchObject({ sent: 1, queued: 0, failed: 0 });

    // A notice whose last try was claimed and never reported is given up, not tried a sixth time.
    await notify.queue(["later"], { ...notice, event: "resolved" });
    const last = (await store.next("later"))!;
    for (let i = 0; i < ATTEMPTS; i++) {
      expect(await store.claim(last.id, i, clock.now(), clock.now() + CLAIM_MS)).toBe(true);
      if (i < ATTEMPTS - 1) await store.failed(last.id, i + 1, "HTTP 502", clock.now(), clock.now());
    }
    clock.advance(CLAIM_MS);
    expect(await notify.worker.tick(clock.now())).toBeNull();
    expect(received.length).toBe(before + 1);
    expect((await notify.status())[0]).toMatchObject({ sent: 1, queued: 0, failed: 1, last_error: "HTTP 502" });
  });

  test("a stop waits for the sends under way and starts none after it: what is queued stays for the next start", async () => {
    const clock = createFakeClock();
    const notify = createNotifiers([{ name: "s", kind: "slack", url: at("/stopped") }], { log: silentLog, clock, store: outbox() });
    await notify.stop(1000);
    await notify.queue(["s"], notice);
    expect(await notify.start(clock.now())).toBeNull();
    await notify.idle();
    expect(received.some((r) => r.path === "/stopped")).toBe(false);
    expect((await notify.status())[0]).toMatchObject({ queued: 1, sent: 0 });
  });

  test("a stop lets the send under way finish and begins none of the notices queued after it", async () => {
    const clock = createFakeClock();
    const notify = createNotifiers([{ name: "h", kind: "slack", url: at("/held") }], { log: silentLog, clock, store: outbox() });
    await notify.queue(["h"], notice);
    await notify.queue(["h"], { ...notice, event: "resolved" });
    await notify.start(clock.now());
    const stopping = notify.stop(10_000);
    held.resolve();
    await stopping;
    await notify.idle();
    expect(received.filter((r) => r.path === "/held")).toHaveLength(1);
    expect((await notify.status())[0]).toMatchObject({ queued: 1, sent: 1 });
  });

  test("e-mail over plain SMTP: subject, text and escaped HTML", async () => {
    const smtp = await smtpServer({ tls: "none" });
    const port = smtp.port;
    const notify = createNotifiers([{ name: "m", kind: "email", host: "127.0.0.1", port, tls: "none", from: "m@example.com", to: ["a@example.com"] }], {
      log: silentLog,
      backoff: { initial: 1, max: 2 },
      store: outbox(),
    });
    await notify.queue(["m"], notice);
    await notify.worker.tick(Date.now());
    await smtp.close();
    const mails = smtp.mails.map((m) => m.data);
    expect((await notify.status())[0]).toMatchObject({ sent: 1, last_error: null });
    expect(mails[0]).toContain("Subject: [Mailroom] opened: quiet-stripe on stripe");
    expect(mails[0]).toContain("&lt;@everyone&gt;");
    // The notice's id as the Message-ID: the same on every try, so a repeat can be told apart.
    expect(mails[0]).toMatch(/^Message-ID: <[0-9a-z]{26}@mailroom>\r?$/im);
  });

  test("e-mail over STARTTLS with a self-signed certificate, with a login", async () => {
    const { cert } = selfSigned();
    const smtp = await smtpServer({ tls: "starttls", login: { user: "mailroom", password: "pw" } });
    const { mails, port } = smtp;
    const notify = createNotifiers(
      [{ name: "m", kind: "email", host: "127.0.0.1", port, tls: "starttls", user: "mailroom", password: "pw", from: "m@example.com", to: ["a@example.com"] }],
      { log: silentLog, backoff: { initial: 1, max: 2 }, smtpCa: cert, store: outbox() },
    );
    await notify.queue(["m"], { ...notice, event: "resolved" });
    await notify.worker.tick(Date.now());
    await smtp.close();
    expect((await notify.status())[0]).toMatchObject({ sent: 1, last_error: null });
    expect(mails[0]).toMatchObject({ secure: true, user: "mailroom" });
    expect(mails[0]?.data).toContain("Subject: [Mailroom] resolved: quiet-stripe on stripe");
  });

  test('e-mail over implicit TLS (tls = "tls") with a self-signed certificate; an untrusted one is refused', async () => {
    const { cert } = selfSigned();
    // The refused handshake below is an error of the server's connection: expected, kept (smtp.errors).
    const smtp = await smtpServer({ tls: "tls", login: { user: "mailroom", password: "pw" } });
    const { mails, port, errors: serverErrors } = smtp;
    const config = {
      name: "m",
      kind: "email",
      host: "127.0.0.1",
      port,
      tls: "tls",
      user: "mailroom",
      password: "pw",
      from: "m@example.com",
      to: ["a@example.com"],
    };
    const notify = createNotifiers([config], { log: silentLog, smtpCa: cert, store: outbox() });
    expect(await notify.test("m", notice)).toBeNull();
    // Without the certificate trusted, the TLS handshake itself is refused: nothing is sent in the clear.
    const untrusting = createNotifiers([config], { log: silentLog, store: outbox() });
    expect(await untrusting.test("m", notice)).toMatch(/self[- ]signed/i);
    await smtp.close();
    expect(mails).toHaveLength(1);
    expect(serverErrors.every((e) => /TLS/.test(e))).toBe(true);
    expect(mails[0]).toMatchObject({ secure: true, user: "mailroom" });
    expect(mails[0]?.data).toContain("Subject: [Mailroom] opened: quiet-stripe on stripe");
  });
});
