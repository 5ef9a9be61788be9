/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type HandlerInfo } from "../api";
import { link } from "../router";
import { headersOf } from "../body";
import { fieldOf } from "../guard-fields";
import { useConfirm } from "../parts/dialog";
import { FormEnd, Notice } from "../parts/notice";
import { type FieldErrors, fieldErrors } from "../parts/field";

const DURATION = /^\d+(ms|s|m|h|d)$/;
/** "10/s", "600/m", "5/10s" (the server says the same of what it refuses). */
const RATE = /^[1-9]\d*\s*\/\s*(\d+(\.\d+)?)?(ms|s|m|h|d)$/;

export type Forward = {
  name: string;
  channel: string;
  url: string;
  headers: Record<string, string>;
  max_attempts: number;
  backoff: { initial: string; max: string };
  timeout: string;
  chaos: Record<string, unknown> | null;
  /** The hooks it runs on, a search query; null for every hook. */
  when: string | null;
  rate: string | null;
  breaker: { failures: number; cool_down: string } | null;
};

/** What each delivery state is called in the handler list's badge. */
const STATE_LABEL: Record<HandlerInfo["state"], string> = {
  active: "active",
  paused: "paused",
  breaker_open: "breaker open",
  breaker_half_open: "breaker half-open",
};
const STATE_CLASS: Record<HandlerInfo["state"], string> = { active: "handled", paused: "paused", breaker_open: "failed", breaker_half_open: "pending" };

/**
 * Every handler of the channel (the config file's and those added here) with its delivery state as
 * a badge, its attempts waiting and rate, and Pause or Resume (paused handlers keep their attempts).
 */
function Delivery({ channel, onError }: { channel: string; onError: (message: string) => void }) {
  const [handlers, setHandlers] = useState<HandlerInfo[] | null>(null);
  const load = () =>
    api<HandlerInfo[]>("GET", "/handlers").then(
      (all) => setHandlers(all.filter((h) => h.channels.includes(channel))),
      (e) => onError(e.message),
    );
  useEffect(() => void load(), [channel]);
  async function toggle(h: HandlerInfo) {
    try {
      await api("POST", `/handlers/${h.name}/${h.state === "paused" ? "resume" : "pause"}`);
      await load();
    } catch (e) {
      onError((e as Error).message);
    }
  }
  if (!handlers || handlers.length === 0) return null;
  return (
    <>
      <h2>Delivery</h2>
      <div class="scroll">
        <table class="cards" aria-label="Delivery">
          <thead>
            <tr>
              <th>Handler</th>
              <th>State</th>
              <th>Waiting</th>
              <th>Rate</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {handlers.map((h) => (
              <tr key={h.name}>
                <td data-label="Handler">
                  {h.name} <span class="muted">{h.kind}</span>
                </td>
                <td data-label="State">
                  <span
                    class={`status status-${STATE_CLASS[h.state]}`}
                    title={h.breaker?.reopens_at ? `one attempt goes through at ${h.breaker.reopens_at}` : undefined}
                  >
                    {STATE_LABEL[h.state]}
                  </span>
                </td>
                <td data-label="Waiting">{h.waiting}</td>
                <td data-label="Rate">{h.rate ?? <span class="muted">none</span>}</td>
                <td>
                  <button type="button" aria-label={`${h.state === "paused" ? "Resume" : "Pause"} ${h.name}`} onClick={() => toggle(h)}>
                    {h.state === "paused" ? "Resume" : "Pause"}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The chaos fields of the form: the `chaos` table's keys, each as the config file writes it. */
const CHAOS_FIELDS = [
  { key: "duplicate", label: "Duplicate share", placeholder: "e.g. 0.2", number: true },
  { key: "reorder", label: "Reorder window", placeholder: "e.g. 2s", number: false },
  { key: "delay", label: "Delay range", placeholder: "e.g. 0-500ms", number: false },
  { key: "drop_first", label: "Drop first attempts", placeholder: "e.g. 1", number: true },
  { key: "seed", label: "Seed", placeholder: "e.g. 42", number: true },
] as const;

/** "duplicate 0.2, reorder 2s" */
const chaosText = (chaos: Record<string, unknown>) =>
  Object.entries(chaos)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(", ");

/**
 * Forward handlers of one channel (admins): list, add (URL, headers, max attempts, backoff, the
 * hooks it runs on, rate and circuit breaker, chaos), remove. Header values are sent, never shown (they often hold a token). Configured handlers live in
 * the config file: they are listed with the others only under Delivery (state, pause and resume).
 */
export function ChannelHandlers({ channel }: { channel: string }) {
  const [handlers, setHandlers] = useState<Forward[] | null>(null);
  const [loadError, setLoadError] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [ask, asking] = useConfirm();
  const [note, setNote] = useState("");
  const [chaosOn, setChaosOn] = useState(false);
  const load = () => api<Forward[]>("GET", `/channels/${channel}/handlers`).then(setHandlers, (e) => setLoadError(e.message));
  useEffect(() => void load(), [channel]);
  async function add(e: Event) {
    e.preventDefault();
    const formEl = e.currentTarget as HTMLFormElement;
    const form = new FormData(formEl);
    const text = (k: string) => String(form.get(k) ?? "").trim();
    const found: FieldErrors = {};
    if (!/^[a-z0-9]+([_-][a-z0-9]+)*$/.test(text("name"))) found.name = "Lowercase letters and digits, words joined by - or _.";
    if (!/^https?:\/\/\S+$/.test(text("url"))) found.url = "An http or https URL, such as https://example.com/hooks.";
    if (text("max_attempts") && !/^[1-9]\d*$/.test(text("max_attempts"))) found.max_attempts = "A whole number of at least 1.";
    for (const k of ["initial", "max", "timeout", "breaker_cool_down"])
      if (text(k) && !DURATION.test(text(k))) found[k] = 'A duration such as "5s", "10m" or "1h".';
    if (text("rate") && !RATE.test(text("rate"))) found.rate = 'A rate such as "10/s", "600/m" or "5/10s".';
    if (text("breaker_failures") && !/^[1-9]\d*$/.test(text("breaker_failures"))) found.breaker_failures = "A whole number of at least 1.";
    let headers: Record<string, string> = {};
    try {
      headers = headersOf(String(form.get("headers") ?? ""));
    } catch (err) {
      found.headers = (err as Error).message;
    }
    const chaos: Record<string, string | number> = {};
    if (chaosOn) {
      for (const f of CHAOS_FIELDS) {
        const v = text(`chaos_${f.key}`);
        if (!v) continue;
        if (f.number && !/^\d+(\.\d+)?$/.test(v)) found[`chaos_${f.key}`] = "A number.";
        chaos[f.key] = f.number ? Number(v) : v;
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return setNote("");
    try {
      const backoff = { ...(text("initial") ? { initial: text("initial") } : {}), ...(text("max") ? { max: text("max") } : {}) };
      const breaker = {
        ...(text("breaker_failures") ? { failures: Number(text("breaker_failures")) } : {}),
        ...(text("breaker_cool_down") ? { cool_down: text("breaker_cool_down") } : {}),
      };
      await api("POST", `/channels/${channel}/handlers`, {
        name: text("name"),
        url: text("url"),
        headers,
        ...(text("max_attempts") ? { max_attempts: Number(text("max_attempts")) } : {}),
        ...(Object.keys(backoff).length > 0 ? { backoff } : {}),
        ...(text("timeout") ? { timeout: text("timeout") } : {}),
        ...(text("when") ? { when: text("when") } : {}),
        ...(text("rate") ? { rate: text("rate") } : {}),
        ...(Object.keys(breaker).length > 0 ? { breaker } : {}),
        ...(chaosOn ? { chaos } : {}),
      });
      formEl.reset();
      setChaosOn(false);
      setErrors({});
      setNote(`Forward handler ${text("name")} added.`);
      await load();
    } catch (err) {
      setNote("");
      const message = (err as Error).message;
      const chaosKey = /chaos[./](\w+)/.exec(message)?.[1];
      const breakerKey = /breaker[./](failures|cool_down)/.exec(message)?.[1];
      const field = chaosKey
        ? `chaos_${chaosKey}`
        : breakerKey
          ? `breaker_${breakerKey}`
          : /backoff[./]max/.test(message)
            ? "max"
            : /backoff[./]initial/.test(message)
              ? "initial"
              : fieldOf(message, ["name", "url", "headers", "max_attempts", "timeout", "when", "rate"]);
      setErrors({ [field ?? "form"]: message });
    }
  }
  async function remove(h: Forward) {
    if (!(await ask(`Remove forward handler ${h.name}?`, `Hooks of ${channel} are no longer sent to ${h.url}.`, "Remove the handler"))) return;
    try {
      await api("DELETE", `/channels/${channel}/handlers/${h.name}`);
      setNote(`Forward handler ${h.name} removed.`);
      await load();
    } catch (e) {
      setErrors({ form: (e as Error).message });
    }
  }
  const { invalid, message } = fieldErrors("handler", errors);
  const error = errors.form ?? loadError;
  return (
    <section>
      <p>
        <a href="/ui/channels" onClick={link}>
          ← Channels
        </a>
      </p>
      <h1>Forward handlers of {channel}</h1>
      <Notice error={error} note={note} />
      <Delivery key={(handlers ?? []).map((h) => h.name).join(" ")} channel={channel} onError={(message) => setErrors({ form: message })} />
      <div class="scroll">
        <table class="cards" aria-label="Forward handlers">
          <thead>
            <tr>
              <th>Name</th>
              <th>URL</th>
              <th>Headers</th>
              <th>Max attempts</th>
              <th>Backoff</th>
              <th>Timeout</th>
              <th>When</th>
              <th>Rate</th>
              <th>Breaker</th>
              <th>Chaos</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {(handlers ?? []).map((h) => (
              <tr key={h.name}>
                <td data-label="Name">{h.name}</td>
                <td data-label="URL">
                  <code>{h.url}</code>
                </td>
                <td data-label="Headers">{Object.keys(h.headers).join(", ") || <span class="muted">none</span>}</td>
                <td data-label="Max attempts">{h.max_attempts}</td>
                <td data-label="Backoff">
                  {h.backoff.initial} to {h.backoff.max}
                </td>
                <td data-label="Timeout">{h.timeout}</td>
                <td data-label="When">{h.when ? <code>{h.when}</code> : <span class="muted">every hook</span>}</td>
                <td data-label="Rate">{h.rate ?? <span class="muted">none</span>}</td>
                <td data-label="Breaker">
                  {h.breaker ? `after ${h.breaker.failures} failures, ${h.breaker.cool_down} cool-down` : <span class="muted">off</span>}
                </td>
                <td data-label="Chaos">{h.chaos ? chaosText(h.chaos) : <span class="muted">off</span>}</td>
                <td>
                  <button type="button" aria-label={`Remove ${h.name}`} onClick={() => remove(h)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {handlers?.length === 0 && <p class="muted">No forward handler added here: hooks of {channel} get only the config file's handlers.</p>}
      {asking}
      <form class="card" onSubmit={add} noValidate>
        <h2>Add a forward handler</h2>
        <div class="row">
          <label>
            Name
            <input name="name" maxLength={64} {...invalid("name")} />
            {message("name")}
          </label>
          <label>
            URL
            <input name="url" type="url" placeholder="https://example.com/hooks" {...invalid("url")} />
            {message("url")}
          </label>
        </div>
        <label>
          Headers (one "Name: value" a line; values are not shown again)
          <textarea name="headers" rows={3} {...invalid("headers")} />
          {message("headers")}
        </label>
        <div class="row">
          <label>
            Max attempts
            <input name="max_attempts" inputMode="numeric" placeholder="5" {...invalid("max_attempts")} />
            {message("max_attempts")}
          </label>
          <label>
            Backoff initial
            <input name="initial" placeholder="e.g. 5s" {...invalid("initial")} />
            {message("initial")}
          </label>
          <label>
            Backoff max
            <input name="max" placeholder="e.g. 10m" {...invalid("max")} />
            {message("max")}
          </label>
          <label>
            Timeout
            <input name="timeout" placeholder="e.g. 10s" {...invalid("timeout")} />
            {message("timeout")}
          </label>
        </div>
        <label>
          When (a search query: the hooks it runs on; every hook when empty)
          <input name="when" placeholder="e.g. type:invoice.* payload.data.object.livemode:false" {...invalid("when")} />
          {message("when")}
        </label>
        <div class="row">
          <label>
            Rate
            <input name="rate" placeholder="e.g. 10/s" {...invalid("rate")} />
            {message("rate")}
          </label>
          <label>
            Breaker failures
            <input name="breaker_failures" inputMode="numeric" placeholder="e.g. 5" {...invalid("breaker_failures")} />
            {message("breaker_failures")}
          </label>
          <label>
            Breaker cool-down
            <input name="breaker_cool_down" placeholder="e.g. 30s" {...invalid("breaker_cool_down")} />
            {message("breaker_cool_down")}
          </label>
        </div>
        <label class="inline">
          <input type="checkbox" name="chaos_on" checked={chaosOn} onChange={(e) => setChaosOn((e.target as HTMLInputElement).checked)} /> Delivery chaos:
          deliver twice, late or out of order on purpose, as providers may
        </label>
        {chaosOn && (
          <div class="row">
            {CHAOS_FIELDS.map((f) => (
              <label key={f.key}>
                {f.label}
                <input name={`chaos_${f.key}`} placeholder={f.placeholder} inputMode={f.number ? "decimal" : undefined} {...invalid(`chaos_${f.key}`)} />
                {message(`chaos_${f.key}`)}
              </label>
            ))}
          </div>
        )}
        <FormEnd submit="Add handler" />
      </form>
    </section>
  );
}
