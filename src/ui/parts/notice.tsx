/** @jsxImportSource preact */

/**
 * What a screen or form says after an action: an error (role alert, read out at once) and a note
 * (role status). Nothing is rendered for an empty text.
 *
 * @example <Notice error={error} note={note} />
 */
export function Notice({ error, note }: { error?: string; note?: string }) {
  return (
    <>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {note && <p role="status">{note}</p>}
    </>
  );
}

/**
 * What a screen shows until its data has come: "Loading…", or the error that stopped it.
 *
 * @example if (!hook) return <Loading error={error} />;
 */
export function Loading({ error }: { error?: string }) {
  return error ? <Notice error={error} /> : <p class="muted">Loading…</p>;
}

/**
 * The end of a form: the error of the whole form, then its submit button (and Cancel, with
 * `onCancel`, labelled `cancel`); `busy` disables the submit button while the form is sent. Errors of one field are shown next to it (parts/field.tsx).
 */
export function FormEnd(props: { error?: string; submit: string; onCancel?: () => void; cancel?: string; busy?: boolean }) {
  const { error, submit, onCancel, busy } = props;
  return (
    <>
      <Notice error={error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {submit}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {props.cancel ?? "Cancel"}
          </button>
        )}
      </div>
    </>
  );
}
