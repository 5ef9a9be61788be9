/** @jsxImportSource preact */
import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";

/**
 * An in-page modal dialog (the browser's <dialog>: focus moves into it, Escape closes it, the page
 * behind is inert). Rendered only while open; `onClose` runs however it closes.
 */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.open && d.close();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

type Question = { title: string; text: string; yes: string; answer: (yes: boolean) => void };

/**
 * An in-page replacement for confirm(): `ask` resolves true when the user says yes; render `dialog`.
 *
 * @example
 * const [ask, dialog] = useConfirm();
 * if (!(await ask("Revoke key ci?", "Callers get 401.", "Revoke"))) return;
 */
export function useConfirm(): [(title: string, text: string, yes: string) => Promise<boolean>, ComponentChildren] {
  const [q, setQ] = useState<Question | undefined>();
  const ask = (title: string, text: string, yes: string) => new Promise<boolean>((answer) => setQ({ title, text, yes, answer }));
  const done = (yes: boolean) => (q?.answer(yes), setQ(undefined));
  const dialog = q && (
    <Dialog title={q.title} onClose={() => done(false)}>
      <p>{q.text}</p>
      <div class="actions">
        <button type="button" class="danger solid" onClick={() => done(true)}>
          {q.yes}
        </button>
        <button type="button" onClick={() => done(false)}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
  return [ask, dialog];
}
