/** @jsxImportSource preact */
import { useState } from "preact/hooks";

/** Copies text to the clipboard and says so for two seconds (in the button, read by screen readers). */
export function CopyButton({ text, label, children }: { text: string | (() => string); label: string; children?: string }) {
  const [done, setDone] = useState<"" | "Copied" | "Copy failed">("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(typeof text === "function" ? text() : text);
      setDone("Copied");
    } catch {
      setDone("Copy failed");
    }
    setTimeout(() => setDone(""), 2000);
  }
  return (
    <button type="button" aria-label={label} onClick={copy}>
      <span aria-live="polite">{done || children || "Copy"}</span>
    </button>
  );
}
