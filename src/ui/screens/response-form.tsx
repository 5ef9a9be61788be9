/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { fieldOf } from "../guard-fields";
import { type FieldErrors, fieldErrors } from "../parts/field";
import { headersOf } from "../body";
import { FormEnd } from "../parts/notice";

/** A channel's custom response as PUT /channels/{name}/response takes it (docs/misbehave.md). */
export type ResponseSetting = {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delay?: string;
  store?: boolean;
  sequence?: { status?: number; headers?: Record<string, string>; body?: string; delay?: string }[];
};
type Step = { status: string; body: string; delay: string };

const DURATION = /^\d+(ms|s|m|h)$/;
const str = (v: unknown) => (v === undefined ? "" : String(v));

/**
 * The custom response as a form: status, content type, headers, body, delay, whether the hook is
 * stored, and a sequence of answers for the next requests. Problems show next to their field.
 */
export function ResponseForm({
  channel,
  value,
  onSave,
  onCancel,
}: {
  channel: string;
  value: ResponseSetting;
  onSave: (r: ResponseSetting) => Promise<void>;
  onCancel: () => void;
}) {
  const { "content-type": type = "", ...rest } = value.headers ?? {};
  const [v, setV] = useState({
    status: str(value.status),
    type,
    headers: Object.entries(rest)
      .map(([k, x]) => `${k}: ${x}`)
      .join("\n"),
    body: value.body ?? "",
    delay: value.delay ?? "",
    store: value.store !== false,
  });
  const [steps, setSteps] = useState<Step[]>((value.sequence ?? []).map((s) => ({ status: str(s.status), body: s.body ?? "", delay: s.delay ?? "" })));
  const [errors, setErrors] = useState<FieldErrors>({});
  const { invalid, message } = fieldErrors(`response-${channel}`, errors);
  const set = (k: keyof typeof v) => (e: Event) => setV({ ...v, [k]: (e.target as HTMLInputElement).value });
  const setStep = (i: number, k: keyof Step) => (e: Event) =>
    setSteps(steps.map((s, j) => (j === i ? { ...s, [k]: (e.target as HTMLInputElement).value } : s)));
  async function submit(e: Event) {
    e.preventDefault();
    const found: FieldErrors = {};
    const status = (text: string, at: string) => {
      if (!text) return undefined;
      const n = Number(text);
      if (!Number.isInteger(n) || n < 200 || n > 599) found[at] = "A status from 200 to 599.";
      return n;
    };
    const delay = (text: string, at: string) => {
      if (text && !DURATION.test(text.trim())) found[at] = 'A duration such as "500ms", "2s" or "1m" (at most 5m).';
      return text.trim() || undefined;
    };
    let headers: Record<string, string> = {};
    try {
      headers = headersOf(v.headers);
    } catch (err) {
      found.headers = (err as Error).message;
    }
    if (v.type.trim()) headers["content-type"] = v.type.trim();
    const out: ResponseSetting = { status: status(v.status, "status"), delay: delay(v.delay, "delay"), body: v.body || undefined };
    if (Object.keys(headers).length > 0) out.headers = headers;
    if (!v.store) out.store = false;
    if (steps.length > 0)
      out.sequence = steps.map((s, i) => ({ status: status(s.status, `step${i}-status`), body: s.body || undefined, delay: delay(s.delay, `step${i}-delay`) }));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await onSave(JSON.parse(JSON.stringify(out)));
    } catch (err) {
      const text = (err as Error).message;
      const seq = /sequence\/(\d+)\/(status|delay)/.exec(text);
      setErrors({ [seq ? `step${seq[1]}-${seq[2]}` : (fieldOf(text, ["status", "headers", "body", "delay"]) ?? "form")]: text });
    }
  }
  return (
    <form onSubmit={submit} noValidate aria-label={`Response of ${channel}`}>
      <div class="row">
        <label>
          Status
          <input inputMode="numeric" placeholder="200" value={v.status} onInput={set("status")} {...invalid("status")} />
          {message("status")}
        </label>
        <label>
          Delay
          <input placeholder="none, or 2s" value={v.delay} onInput={set("delay")} {...invalid("delay")} />
          {message("delay")}
        </label>
      </div>
      <label>
        Content type
        <input placeholder="text/plain; charset=utf-8" value={v.type} onInput={set("type")} />
      </label>
      <label>
        Other headers (one "Name: value" a line)
        <textarea rows={2} value={v.headers} onInput={set("headers")} {...invalid("headers")} />
        {message("headers")}
      </label>
      <label>
        Body
        <textarea rows={3} placeholder='{"id":"{{id}}"} (the default); {{id}} is the hook id' value={v.body} onInput={set("body")} {...invalid("body")} />
        {message("body")}
      </label>
      <label class="inline">
        <input type="checkbox" checked={v.store} onChange={() => setV({ ...v, store: !v.store })} /> Store the hooks (off: answer only)
      </label>
      <fieldset>
        <legend>Sequence: answers for the next requests, in order, then the above</legend>
        {steps.map((s, i) => (
          <div class="row" key={i}>
            <label>
              Step {i + 1} status
              <input inputMode="numeric" value={s.status} onInput={setStep(i, "status")} {...invalid(`step${i}-status`)} />
              {message(`step${i}-status`)}
            </label>
            <label>
              Step {i + 1} body
              <input value={s.body} onInput={setStep(i, "body")} />
            </label>
            <label>
              Step {i + 1} delay
              <input value={s.delay} onInput={setStep(i, "delay")} {...invalid(`step${i}-delay`)} />
              {message(`step${i}-delay`)}
            </label>
            <button type="button" aria-label={`Remove step ${i + 1}`} onClick={() => setSteps(steps.filter((_, j) => j !== i))}>
              Remove
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setSteps([...steps, { status: "500", body: "", delay: "" }])}>
          Add a step
        </button>
      </fieldset>
      <FormEnd error={errors.form} submit={`Save response of ${channel}`} onCancel={onCancel} />
    </form>
  );
}
