/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import { useLatest } from "../latest";
import { api, type HandlerInfo } from "../api";
import { link } from "../router";
import { headersOf } from "../body";
import { fieldOf } from "../guard-fields";
import { useConfirm } from "../parts/dialog";
import { FormEnd, Notice } from "../parts/notice";
import { Time } from "../parts/time";
import { useStream } from "../live";
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

/** "30000ms" as the config file would write it: "30s", "5m", "1h", else as is. */
function duration(ms: string): string {
  const n = /^(\d+)ms$/.exec(ms)?.[1];
  if (n === undefined) return ms;
  const v = Number(n);
  for (const [unit, size] of [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
  ] as const)
    if (v > 0 && v % size === 0) return `${v / size}${unit}`;
  return ms;
}

/** A handler's delivery state as a badge; an open breaker says when one attempt goes through. */
function StateBadge({ info }: { info: HandlerInfo }) {
  return (
    <>
      <span class={`status status-${STATE_CLASS[info.state]}`}>{STATE_LABEL[info.state]}</span>
      {info.state === "breaker_open" && info.breaker?.reopens_at && (
        <span class="muted">
          {" "}
          half-open <Time at={info.breaker.reopens_at} />
        </span>
      )}
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
 * The handlers of one channel (admins), one row each: those of the config file and the forwards
 * added here, each with its delivery state as a badge, its attempts waiting, and Pause or Resume
 * (paused handlers keep their attempts). Forwards added here show their settings and can be removed;
 * the config file's are changed there. Add a forward (URL, headers, max attempts, backoff, the hooks
 * it runs on, rate and circuit breaker, chaos). Header values are sent, never shown (they often hold
 * a token). The states follow the stream: a breaker opening or closing, a hook caught or handled.
 */
export function ChannelHandlers({ channel }: { channel: string }) {
  const [handlers, setHandlers] = useState<Forward[] | null>(null);
  const [loadError, setLoadError] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [ask, asking] = useConfirm();
  const [note, setNote] = useState("");
  const [chaosOn, setChaosOn] = useState(false);
  /** Every handler's delivery state, of this channel's handlers (the config file's and those added here). */
  const [infos, setInfos] = useState<HandlerInfo[] | null>(null);
  // The forwards added here and every handler's state are read and shown together: a forward just
  // added is in the states before it is in an older list of forwards, and was shown, for a moment,
  // as one of the config file's.
  const latest = useLatest(channel);
  const load = () => {
    const answer = latest();
    return Promise.all([api<Forward[]>("GET", `/channels/${channel}/handlers`), api<HandlerInfo[]>("GET", "/handlers")]).then(
      ([forwards, all]) => {
        if (!answer.take()) return;
        setHandlers(forwards);
        setInfos(all.filter((h) => h.channels.includes(channel)));
      },
      (e) => answer.take() && setLoadError(e.message),
    );
  };
  const loadStates = load;
  useEffect(() => void load(), [channel]);
  // Waiting counts move as the channel's hooks are caught and handled: read again at most once a second.
  const later = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A re-read timed for another channel is not made.
  useEffect(
    () => () => {
      clearTimeout(later.current);
      later.current = undefined;
    },
    [channel],
  );
  const soon = () => {
    later.current ??= setTimeout(() => {
      later.current = undefined;
      void loadStates();
    }, 1000);
  };
  useStream(
    { channel },
    {
      channel: (c) => (c as { name: string }).name === channel && soon(),
      handler: () => void loadStates(),
      reset: () => void load(),
    },
    [channel],
  );
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
  async function toggle(h: HandlerInfo) {
    const action = h.state === "paused" ? "resume" : "pause";
    try {
      await api("POST", `/handlers/${h.name}/${action}`);
      setNote(`Handler ${h.name} ${action === "pause" ? "paused: its attempts wait until it is resumed" : "resumed"}.`);
      await loadStates();
    } catch (e) {
      setErrors({ form: (e as Error).message });
    }
  }
  const stateOf = new Map((infos ?? []).map((h) => [h.name, h]));
  const added = new Set((handlers ?? []).map((h) => h.name));
  /** The config file's handlers of the channel, then those added here. */
  const rows: { name: string; info?: HandlerInfo; forward?: Forward }[] = [
    ...(infos ?? []).filter((h) => !added.has(h.name)).map((info) => ({ name: info.name, info })),
    ...(handlers ?? []).map((forward) => ({ name: forward.name, info: stateOf.get(forward.name), forward })),
  ];
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
      {rows.length > 0 && (
        <div class="scroll">
          <table class="cards" aria-label="Handlers">
            <thead>
              <tr>
                <th>Name</th>
                <th>State</th>
                <th>Waiting</th>
                <th>Rate</th>
                <th>Breaker</th>
                <th>URL</th>
                <th>Headers</th>
                <th>Max attempts</th>
                <th>Backoff</th>
                <th>Timeout</th>
                <th>When</th>
                <th>Chaos</th>
                <th>
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ name, info, forward: f }) => {
                const breaker = f ? f.breaker : info?.breaker && { failures: info.breaker.threshold, cool_down: duration(info.breaker.cool_down) };
                const rate = f ? f.rate : info?.rate;
                return (
                  <tr key={name}>
                    <td data-label="Name">
                      {name}
                      {!f && <div class="hint">{info?.kind}, config file</div>}
                    </td>
                    <td data-label="State">{info ? <StateBadge info={info} /> : <span class="muted">unknown</span>}</td>
                    <td data-label="Waiting">{info?.waiting ?? <span class="muted">unknown</span>}</td>
                    <td data-label="Rate">{rate ?? <span class="muted">none</span>}</td>
                    <td data-label="Breaker">
                      {breaker ? `after ${breaker.failures} failures, ${breaker.cool_down} cool-down` : <span class="muted">off</span>}
                    </td>
                    {f ? (
                      <>
                        <td data-label="URL">
                          <code>{f.url}</code>
                        </td>
                        <td data-label="Headers">{Object.keys(f.headers).join(", ") || <span class="muted">none</span>}</td>
                        <td data-label="Max attempts">{f.max_attempts}</td>
                        <td data-label="Backoff">
                          {duration(f.backoff.initial)} to {duration(f.backoff.max)}
                        </td>
                        <td data-label="Timeout">{duration(f.timeout)}</td>
                        <td data-label="When">{f.when ? <code>{f.when}</code> : <span class="muted">every hook</span>}</td>
                        <td data-label="Chaos">{f.chaos ? chaosText(f.chaos) : <span class="muted">off</span>}</td>
                      </>
                    ) : (
                      <td colSpan={7} data-label="Settings" class="muted">
                        In the config file: changed there, not here.
                      </td>
                    )}
                    <td>
                      {info && (
                        <button type="button" aria-label={`${info.state === "paused" ? "Resume" : "Pause"} ${name}`} onClick={() => toggle(info)}>
                          {info.state === "paused" ? "Resume" : "Pause"}
                        </button>
                      )}{" "}
                      {f && (
                        <button type="button" aria-label={`Remove ${name}`} onClick={() => remove(f)}>
                          Remove
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {handlers && infos && rows.length === 0 && <p class="muted">No forward handler added here: hooks of {channel} get only the config file's handlers.</p>}
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
