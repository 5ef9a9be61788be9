/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type Hook } from "../api";
import { bytesOf, HOP_HEADERS, headersOf, textOf, viewBody } from "../body";
import { size } from "../format";
import { fieldErrors } from "../parts/field";
import { KvTable } from "../parts/kv-table";
import { navigate } from "../router";
import { Scroller } from "../parts/scroller";
import { FormEnd } from "../parts/notice";

/** The answer of a replay: what the URL answered (its body base64), or why nothing came back. */
type Answer = { status: number; headers: Record<string, string>; body: string; duration_ms?: number };
type ReplayAnswer = Answer | { error: string };
/** A provider edit-and-send can sign as (GET /ui/api/resign-kinds), and the key it signs with. */
type ResignKind = { kind: string; key: "secret" | "private_key" };

const SIGNING_HINT = "A fresh timestamp and delivery id; the caught signature is replaced. Not stored.";

const METHODS = ["POST", "PUT", "PATCH", "DELETE", "GET", "HEAD", "OPTIONS"];

const base64 = (text: string) => btoa(Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join(""));

/**
 * Edit and send: the hook's method, headers and body, changed as the user likes, then sent to a URL
 * (a replay by the server, with its answer shown) or into a channel as a new hook that links to this one.
 */
export function EditSend({ hook, onClose }: { hook: Hook; onClose: () => void }) {
  const bytes = bytesOf(hook.body);
  const text = textOf(bytes);
  const [method, setMethod] = useState(hook.method);
  const [headers, setHeaders] = useState(
    Object.entries(hook.headers)
      .filter(([k]) => !HOP_HEADERS.has(k))
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n"),
  );
  const [body, setBody] = useState(text ?? "");
  const [to, setTo] = useState<"url" | "channel">("url");
  const [url, setUrl] = useState("");
  const [channel, setChannel] = useState(hook.channel);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<Answer | undefined>();
  const [busy, setBusy] = useState(false);
  const [kinds, setKinds] = useState<ResignKind[]>([]);
  const [resign, setResign] = useState("");
  const [secret, setSecret] = useState("");
  useEffect(() => void api<ResignKind[]>("GET", "/resign-kinds").then(setKinds, () => undefined), []);
  const keyOf = kinds.find((k) => k.kind === resign)?.key ?? "secret";
  async function send(e: Event) {
    e.preventDefault();
    const found: Record<string, string> = {};
    let parsed: Record<string, string> = {};
    try {
      parsed = headersOf(headers);
    } catch (err) {
      found.headers = (err as Error).message;
    }
    if (to === "url" && !/^https?:\/\/\S+$/.test(url.trim())) found.url = "An http or https URL, such as https://example.com/hooks";
    if (to === "channel" && !/^[a-z0-9]+([_-][a-z0-9]+)*$/.test(channel)) found.channel = "Lowercase letters and digits, words joined by - or _";
    if (to === "url" && resign && !secret.trim()) found.secret = keyOf === "secret" ? "The secret to sign with." : "The private key (PEM) to sign with.";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const payload = { method, headers: parsed, body: text === undefined ? hook.body : base64(body) };
    setBusy(true);
    try {
      if (to === "url") {
        const signing = resign ? { resign: { kind: resign, [keyOf]: keyOf === "secret" ? secret.trim() : secret } } : {};
        const answered = await api<ReplayAnswer>("POST", `/hooks/${hook.id}/replay`, { ...payload, url: url.trim(), ...signing });
        if ("error" in answered) setErrors({ url: `No answer: ${answered.error}` });
        setAnswer("error" in answered ? undefined : answered);
      } else {
        const made = await api<Hook>("POST", `/hooks/${hook.id}/send`, { ...payload, channel });
        navigate(`/ui/hooks/${made.id}${location.search}`);
      }
    } catch (err) {
      setErrors({ form: (err as Error).message });
    } finally {
      setBusy(false);
    }
  }
  const { invalid: field, message: error } = fieldErrors("edit", errors);
  const answered = answer && viewBody(bytesOf(answer.body), answer.headers["content-type"] ?? "");
  return (
    <form class="card" aria-label="Edit and send" onSubmit={send}>
      <h2>Edit and send</h2>
      <div class="row">
        <label>
          Method
          <select value={method} onChange={(e) => setMethod((e.target as HTMLSelectElement).value)}>
            {[...new Set([hook.method, ...METHODS])].map((m) => (
              <option value={m}>{m}</option>
            ))}
          </select>
        </label>
        <fieldset class="row">
          <legend>Send to</legend>
          <label class="inline">
            <input type="radio" name="to" checked={to === "url"} onChange={() => setTo("url")} /> a URL (replay)
          </label>
          <label class="inline">
            <input type="radio" name="to" checked={to === "channel"} onChange={() => setTo("channel")} /> a channel (a new hook)
          </label>
        </fieldset>
      </div>
      {to === "url" ? (
        <label>
          URL
          <input
            type="url"
            value={url}
            placeholder="https://localhost:3000/webhooks"
            onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
            {...field("url")}
          />
          {error("url")}
        </label>
      ) : (
        <label>
          Channel
          <input value={channel} onInput={(e) => setChannel((e.target as HTMLInputElement).value)} {...field("channel")} />
          {error("channel")}
        </label>
      )}
      {to === "url" && (
        <div class="row">
          <label>
            Re-sign as
            <select value={resign} onChange={(e) => setResign((e.target as HTMLSelectElement).value)}>
              <option value="">no one: send the caught signature</option>
              {kinds.map((k) => (
                <option value={k.kind}>{k.kind}</option>
              ))}
            </select>
          </label>
          {resign && keyOf === "secret" && (
            <label>
              Secret
              <input type="password" autoComplete="off" value={secret} onInput={(e) => setSecret((e.target as HTMLInputElement).value)} {...field("secret")} />
              {error("secret")}
              <span class="hint">{SIGNING_HINT}</span>
            </label>
          )}
          {resign && keyOf === "private_key" && (
            <label>
              Private key (PEM)
              <textarea rows={4} value={secret} onInput={(e) => setSecret((e.target as HTMLTextAreaElement).value)} {...field("secret")} />
              {error("secret")}
              <span class="hint">{SIGNING_HINT}</span>
            </label>
          )}
        </div>
      )}
      <label>
        Headers (one "Name: value" a line)
        <textarea
          rows={Math.min(10, headers.split("\n").length + 1)}
          value={headers}
          onInput={(e) => setHeaders((e.target as HTMLTextAreaElement).value)}
          {...field("headers")}
        />
        {error("headers")}
      </label>
      {text === undefined ? (
        <p class="hint">The body is binary ({size(bytes.length)}): it is sent exactly as caught.</p>
      ) : (
        <label>
          Body
          <textarea rows={8} value={body} onInput={(e) => setBody((e.target as HTMLTextAreaElement).value)} />
        </label>
      )}
      <FormEnd error={errors.form} submit={to === "url" ? "Send to the URL" : "Send into the channel"} onCancel={onClose} cancel="Close" busy={busy} />
      {answer && answered && (
        <section aria-label="Answer">
          <h3>
            Answered <span class={`status ${answer.status < 300 ? "status-handled" : "status-failed"}`}>{answer.status}</span>
            {answer.duration_ms !== undefined && <span class="muted"> in {answer.duration_ms} ms</span>}
          </h3>
          <KvTable label="Answer headers" rows={Object.entries(answer.headers)} empty="No headers." />
          <Scroller label="Answer body">
            <pre>{answered.text || "(no body)"}</pre>
          </Scroller>
        </section>
      )}
    </form>
  );
}
