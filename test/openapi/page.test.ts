import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";

const app = createTestApp();
afterAll(() => app.close());

/** Just enough of a DOM for the page's script: elements with text, children and attributes. */
class FakeElement {
  children: FakeElement[] = [];
  text = "";
  className = "";
  id = "";
  href = "";
  dataset: Record<string, string> = {};
  /** Called on every appendChild: the test learns that the script has rendered. */
  onAppend?: () => void;
  constructor(readonly tag: string) {}
  set textContent(v: string) {
    this.text = v;
    this.children = [];
  }
  appendChild(c: FakeElement) {
    this.children.push(c);
    this.onAppend?.();
    return c;
  }
  all(): string {
    return [this.text, ...this.children.map((c) => c.all())].join(" ");
  }
}

/** Runs the served script against the fake DOM, with fetch going to the app; the page's text. */
async function renderPage(hash: string): Promise<string> {
  const js = (await app.call("GET", "/docs/docs.js", undefined, {})).text;
  const main = new FakeElement("main");
  const nav = new FakeElement("nav");
  const fetchApp = (url: string) => app.app.handle(new Request(`http://localhost${url}`));
  // render() fills main synchronously once it has a document: its first append means it is done.
  const rendered = new Promise<void>((resolve) => (main.onAppend = resolve));
  const document = {
    getElementById: (id: string) => (id === "main" ? main : nav),
    createElement: (tag: string) => new FakeElement(tag),
    createTextNode: (text: string) => Object.assign(new FakeElement("#text"), { text }),
  };
  const window = { addEventListener() {} };
  new Function("document", "window", "location", "fetch", js)(document, window, { hash }, fetchApp);
  await rendered;
  return main.all() + " " + nav.all();
}

describe("/docs", () => {
  test("the page, its script and its style sheet are served with a CSP that allows nothing inline or from elsewhere", async () => {
    for (const [path, type] of [
      ["/docs", "text/html"],
      ["/docs/docs.js", "text/javascript"],
      ["/docs/docs.css", "text/css"],
    ]) {
      const res = await app.call("GET", path!, undefined, {});
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith(type!);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("unsafe-inline");
      expect(res.text).not.toMatch(/https?:\/\/|url\(|@import|@font-face/);
    }
    const html = (await app.call("GET", "/docs", undefined, {})).text;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)|<style|\sstyle=|\son[a-z]+=/i);
  });

  test("the script lists every document and renders operations, parameters and schemas", async () => {
    const hooks = await renderPage("#webhooks");
    for (const word of ["Mailroom webhooks", "revision B", "HookService_RetryHook", "ChannelService_ListChannels", "limit", "Hook", "bearerAuth"]) {
      expect(hooks).toContain(word);
    }
    const b = await renderPage("#translate-b");
    for (const word of ["listOrders", "per_page", "TranslateResponse", "basicAuth", "/api/v1/orders/{id}"]) expect(b).toContain(word);
    expect(b).not.toContain("calculate");
  });

  test("the landing page at GET / links to the dashboard, /docs and /openapi/, and they answer", async () => {
    const landing = await app.call("GET", "/", undefined, {});
    expect(landing.status).toBe(200);
    const links = [...landing.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    expect(links).toEqual(["/ui/", "/docs", "/openapi/"]);
    // The page under /ui is served by the listener (server.ts), not the app: the browser tests open it.
    for (const link of links.filter((l) => l !== "/ui/")) expect((await app.call("GET", link, undefined, {})).status).toBe(200);
  });
});
