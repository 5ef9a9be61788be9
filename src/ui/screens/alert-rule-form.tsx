/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { type AlertRuleInfo, api } from "../api";
import { type FieldErrors, fieldErrors } from "../parts/field";
import { FormEnd } from "../parts/notice";

export const RULE_KINDS = {
  silence: "Silence: no hook for a while",
  refusals: "Refusals: too many refused requests",
  handler: "Handler: failures in a row, or a backlog",
  new_event_type: "New event type",
  rate: "Rate: too many hooks",
  relay: "Relay: no listener, or hooks waiting",
} as const;
type Kind = keyof typeof RULE_KINDS;

/** The form's fields: key, label, the kinds that take it, whether it is a list (comma-separated), a hint. */
const FIELDS: { key: string; label: string; kinds: readonly Kind[]; list?: boolean; hint?: string; number?: boolean }[] = [
  {
    key: "channels",
    label: "Channels",
    kinds: Object.keys(RULE_KINDS) as Kind[],
    list: true,
    hint: 'Names or patterns with * ("stripe-*"); every channel when empty.',
  },
  { key: "query", label: "Search query", kinds: ["silence", "rate"], hint: "Only hooks this search finds (the search box's language), e.g. event:invoice.*" },
  { key: "event_types", label: "Event types", kinds: ["silence", "rate"], list: true },
  {
    key: "for",
    label: "For",
    kinds: ["silence", "handler", "relay"],
    hint: "A duration such as \"30m\": the silence, a backlog's age, a relay's time without listener.",
  },
  { key: "threshold", label: "Threshold", kinds: ["refusals", "rate", "handler"], number: true, hint: "More than this many (handler: failures in a row)." },
  { key: "window", label: "Window", kinds: ["refusals", "rate"], hint: 'The span counted over, e.g. "10m".' },
  { key: "schedule", label: "Schedule", kinds: ["silence"], hint: 'Only within it, e.g. "mon-fri 08:00-20:00 Europe/Berlin".' },
  { key: "reasons", label: "Reasons", kinds: ["refusals"], list: true, hint: "signature, guard, size, paused; all when empty." },
  { key: "handlers", label: "Handlers", kinds: ["handler"], list: true, hint: "Only these handlers' backlogs." },
  { key: "notify", label: "Notify", kinds: Object.keys(RULE_KINDS) as Kind[], list: true, hint: "Names of notifiers (the Notifiers screen)." },
  {
    key: "repeat",
    label: "Remind every",
    kinds: Object.keys(RULE_KINDS) as Kind[],
    hint: 'Remind the notifiers this often while the issue is open, e.g. "2h".',
  },
];

/** A rule's values as the form's text. */
function valuesOf(rule?: AlertRuleInfo): Record<string, string> {
  if (!rule) return { kind: "silence" };
  const out: Record<string, string> = { name: rule.name, kind: rule.kind };
  for (const f of FIELDS) {
    const v = (rule as Record<string, unknown>)[f.key];
    if (v !== undefined) out[f.key] = Array.isArray(v) ? v.join(", ") : String(v);
  }
  if (out.channels === "*") out.channels = "";
  return out;
}

/** The server's "invalid rule: key: message; key[1]: message" as errors by field. */
export function errorsOf(message: string): FieldErrors {
  const out: FieldErrors = {};
  const rest = message.replace(/^invalid rule: /, "");
  for (const part of rest.split("; ")) {
    const m = /^([a-z_]+)(?:\[\d+\])?: (.*)$/.exec(part);
    const key = m && (m[1] === "name" || m[1] === "kind" || FIELDS.some((f) => f.key === m[1])) ? m[1]! : "form";
    out[key] = out[key] ? `${out[key]}; ${m && key !== "form" ? m[2] : part}` : m && key !== "form" ? m[2]! : part;
  }
  return out;
}

/**
 * Make a rule, or change one made here (`editing`): its name and kind, then the keys that kind
 * takes (no JSON to write). The server checks it as check-config checks the file; each problem
 * shows next to its field.
 */
export function AlertRuleForm({ editing, onSaved, onCancel }: { editing?: AlertRuleInfo; onSaved: (name: string) => void; onCancel?: () => void }) {
  const [values, setValues] = useState<Record<string, string>>(() => valuesOf(editing));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const kind = (values.kind ?? "silence") as Kind;
  const fields = FIELDS.filter((f) => f.kinds.includes(kind));
  const set = (k: string) => (e: Event) => setValues({ ...values, [k]: (e.target as HTMLInputElement).value });
  const { invalid, message } = fieldErrors("rule", errors);
  async function submit(e: Event) {
    e.preventDefault();
    const body: Record<string, unknown> = editing ? {} : { name: (values.name ?? "").trim() };
    body.kind = kind;
    for (const f of FIELDS) {
      const text = (values[f.key] ?? "").trim();
      const shown = f.kinds.includes(kind);
      const value =
        !shown || text === ""
          ? undefined
          : f.list
            ? text
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean)
            : f.number
              ? Number(text)
              : text;
      if (value !== undefined) body[f.key] = value;
      // A key emptied (or of another kind) is removed from the rule being changed.
      else if (editing && (editing as Record<string, unknown>)[f.key] !== undefined) body[f.key] = f.key === "channels" || f.key === "notify" ? [] : null;
    }
    if (body.channels !== undefined && (body.channels as string[]).length === 0) body.channels = ["*"];
    setBusy(true);
    try {
      if (editing) await api("PATCH", `/alerts/${encodeURIComponent(editing.name)}`, body);
      else await api("POST", "/alerts", body);
      setErrors({});
      onSaved(editing?.name ?? (body.name as string));
    } catch (err) {
      setErrors(errorsOf((err as Error).message));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form class="card" onSubmit={submit} noValidate aria-label={editing ? `Change rule ${editing.name}` : "Make a rule"}>
      <h2>{editing ? `Change ${editing.name}` : "Make a rule"}</h2>
      <div class="row">
        {!editing && (
          <label>
            Name
            <input name="name" value={values.name ?? ""} onInput={set("name")} maxLength={64} {...invalid("name")} />
            {message("name")}
          </label>
        )}
        <label>
          Kind
          <select
            name="kind"
            value={kind}
            onChange={(e) => (setValues({ ...values, kind: (e.target as HTMLSelectElement).value }), setErrors({}))}
            {...invalid("kind")}
          >
            {Object.entries(RULE_KINDS).map(([k, label]) => (
              <option value={k}>{label}</option>
            ))}
          </select>
          {message("kind")}
        </label>
      </div>
      {fields.map((f) => (
        <label key={`${kind} ${f.key}`}>
          {f.label}
          <input name={f.key} inputMode={f.number ? "numeric" : undefined} value={values[f.key] ?? ""} onInput={set(f.key)} {...invalid(f.key)} />
          {f.list && <span class="hint">Several, separated by commas.</span>}
          {f.hint && <span class="hint">{f.hint}</span>}
          {message(f.key)}
        </label>
      ))}
      <FormEnd error={errors.form} submit={editing ? "Save the rule" : "Make the rule"} onCancel={onCancel} busy={busy} />
    </form>
  );
}
