/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { api } from "../api";
import { fieldOf, formFields, type GuardKind, settingsOf } from "../guard-fields";
import { type FieldErrors, fieldErrors } from "../parts/field";
import { FormEnd } from "../parts/notice";

const NAME = /^[a-z0-9]+([_-][a-z0-9]+)*$/;

/**
 * Define a guard: its name, its kind, then the fields of that kind (no JSON to write) and its
 * write-only secret. A problem shows next to its field, the server's as well as the form's own.
 */
export function GuardForm({ kinds, onCreated }: { kinds: GuardKind[]; onCreated: (name: string) => void }) {
  const [kind, setKind] = useState(kinds[0]?.kind ?? "github");
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const chosen = kinds.find((k) => k.kind === kind);
  const fields = chosen ? formFields(chosen) : [];
  const secretKey = chosen?.secret ?? null;
  const set = (k: string) => (e: Event) => setValues({ ...values, [k]: (e.target as HTMLInputElement).value });
  const { invalid, message } = fieldErrors("guard", errors);
  async function submit(e: Event) {
    e.preventDefault();
    const name = (values.name ?? "").trim();
    const found: FieldErrors = {};
    if (!NAME.test(name) || name.length > 64) found.name = "Lowercase letters and digits, words joined by - or _ (at most 64 characters).";
    for (const f of fields) if (f.required && !(values[f.key] ?? "").trim()) found[f.key] = `${f.label} is needed for a ${kind} guard.`;
    if (secretKey && !values.secret) found.secret = `The ${secretKey} is needed.`;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const secret = values.secret ?? "";
      await api("POST", "/guards", { name, kind, settings: settingsOf(fields, values), ...(secret ? { secret } : {}) });
      setValues({});
      onCreated(name);
    } catch (err) {
      const text = (err as Error).message;
      const at = fieldOf(text, [...fields.map((f) => f.key), "name", "secret"]);
      setErrors({ [at ?? "form"]: text });
    }
  }
  return (
    <form class="card" onSubmit={submit} noValidate>
      <h2>Define a guard</h2>
      <div class="row">
        <label>
          Name
          <input name="name" value={values.name ?? ""} onInput={set("name")} maxLength={64} {...invalid("name")} />
          {message("name")}
        </label>
        <label>
          Kind
          <select name="kind" value={kind} onChange={(e) => (setKind((e.target as HTMLSelectElement).value), setErrors({}))}>
            {kinds.map((k) => (
              <option value={k.kind}>{k.kind}</option>
            ))}
          </select>
        </label>
      </div>
      {fields.map((f) => {
        const notes = (
          <>
            {f.type === "list" && <span class="hint">Several, separated by commas.</span>}
            {f.hint && <span class="hint">{f.hint}</span>}
            {message(f.key)}
          </>
        );
        return f.type === "select" ? (
          <label key={`${kind} ${f.key}`}>
            {f.label}
            <select value={values[f.key] ?? f.options![0]} onChange={set(f.key)} {...invalid(f.key)}>
              {f.options!.map((o) => (
                <option value={o}>{o}</option>
              ))}
            </select>
            {notes}
          </label>
        ) : (
          <label key={`${kind} ${f.key}`}>
            {f.label}
            <input value={values[f.key] ?? ""} placeholder={f.placeholder} onInput={set(f.key)} {...invalid(f.key)} />
            {notes}
          </label>
        );
      })}
      {fields.length === 0 && <p class="hint">A {kind} guard needs nothing but its secret.</p>}
      {secretKey && (
        <label>
          Secret ({secretKey}; write-only)
          <input name="secret" type="password" autocomplete="off" value={values.secret ?? ""} onInput={set("secret")} {...invalid("secret")} />
          {message("secret")}
        </label>
      )}
      <FormEnd error={errors.form} submit="Create guard" />
    </form>
  );
}
