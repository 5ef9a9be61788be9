/** @jsxImportSource preact */
import { useMemo, useState } from "preact/hooks";
import type { Hook } from "../api";
import { curlOf, HEX_BYTES, viewBody } from "../body";
import { size, visible } from "../format";
import { CopyButton } from "../parts/copy";
import { useBaseUrl } from "../parts/first-curl";
import { JsonTree } from "../parts/json-tree";
import { KvTable } from "../parts/kv-table";
import { Scroller } from "../parts/scroller";

/** Shown at first: a long text is cut (at a line end) after this many characters; "Show all" shows the rest. */
const SHOWN = 64 * 1024;

/**
 * A hook's body, shown once: JSON as a tree (or its raw text), form fields as a table, text as
 * text, binary as hex. Copy the body, download it, or copy a curl command aimed at any URL.
 */
export function HookBody({ hook, bytes }: { hook: Hook; bytes: Uint8Array<ArrayBuffer> }) {
  const body = useMemo(() => viewBody(bytes, hook.content_type), [bytes, hook.content_type]);
  const parsed = useMemo(() => (body.kind === "json" ? JSON.parse(body.text) : undefined), [body]);
  const [raw, setRaw] = useState(false);
  const [generation, setGeneration] = useState({ n: 0, depth: bytes.length > 256 * 1024 ? 1 : 3 });
  const base = useBaseUrl();
  const [typed, setTarget] = useState<string | undefined>();
  const target = typed ?? `${base}/?${hook.query || `channel=${hook.channel}`}`;
  // Made only once "Copy as curl" is opened: a megabyte body costs milliseconds to quote.
  const [curlOpen, setCurlOpen] = useState(false);
  const curl = useMemo(() => (curlOpen ? curlOf(hook, target, bytes) : ""), [curlOpen, hook, target, bytes]);
  function download() {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
    a.download = `${hook.id}.body`;
    a.click();
    URL.revokeObjectURL(a.href);
  }
  const text = () => (body.kind === "hex" ? body.text : new TextDecoder().decode(bytes));
  return (
    <>
      <div class="section-head">
        <h2>
          Body{" "}
          <span class="muted">
            ({body.kind}, {size(bytes.length)}
            {body.kind === "hex" && bytes.length > HEX_BYTES ? `, first ${size(HEX_BYTES)} shown` : ""})
          </span>
        </h2>
        {(body.kind === "json" || body.kind === "form") && (
          <span class="tabs">
            <button type="button" aria-pressed={!raw} onClick={() => setRaw(false)}>
              {body.kind === "json" ? "Tree" : "Fields"}
            </button>
            <button type="button" aria-pressed={raw} onClick={() => setRaw(true)}>
              Raw
            </button>
          </span>
        )}
        {body.kind === "json" && !raw && (
          <>
            <button type="button" onClick={() => setGeneration({ n: generation.n + 1, depth: 99 })}>
              Expand all
            </button>
            <button type="button" onClick={() => setGeneration({ n: generation.n + 1, depth: 1 })}>
              Collapse
            </button>
          </>
        )}
        {body.kind !== "empty" && <CopyButton text={text} label="Copy the body" />}
        {body.kind !== "empty" && (
          <button type="button" onClick={download}>
            Download
          </button>
        )}
      </div>
      {body.kind === "empty" && <p class="muted">No body.</p>}
      {body.kind === "json" && !raw && <JsonTree key={generation.n} value={parsed} depth={generation.depth} label="Body" />}
      {body.kind === "form" && !raw && <KvTable label="Body" rows={body.fields!} empty="No fields." />}
      {(raw || body.kind === "text" || body.kind === "hex") && <Clipped key={`${hook.id} ${raw}`} text={body.text} wide={body.kind === "hex"} />}
      <details class="curl" onToggle={(e) => setCurlOpen((e.currentTarget as HTMLDetailsElement).open)}>
        <summary>Copy as curl</summary>
        <div class="row">
          <label>
            Send it to
            <input type="url" value={target} onInput={(e) => setTarget((e.target as HTMLInputElement).value)} />
          </label>
          <CopyButton text={curl} label="Copy the curl command">
            Copy curl
          </CopyButton>
        </div>
        <Scroller label="Curl command">
          <pre>{visible(curl.length > 4096 ? `${curl.slice(0, 4096)}…\n(shortened here; the copy has all of it)` : curl)}</pre>
        </Scroller>
      </details>
    </>
  );
}

/** A long text in a <pre>, first SHOWN characters only until asked: laying out a megabyte of text takes the browser seconds. */
function Clipped({ text, wide = false }: { text: string; wide?: boolean }) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > SHOWN;
  const shown = cut ? text.slice(0, Math.max(text.lastIndexOf("\n", SHOWN), SHOWN / 2)) : text;
  return (
    <>
      <Scroller label="Body">
        {/* A sender's characters that turn text around are shown as escapes (the copy is the bytes). */}
        <pre class={wide ? "hex" : undefined}>{visible(shown)}</pre>
      </Scroller>
      {cut && (
        <p class="clipped muted">
          Showing {shown.length.toLocaleString("en")} of {text.length.toLocaleString("en")} characters.{" "}
          <button type="button" onClick={() => setAll(true)}>
            Show all of the body
          </button>
        </p>
      )}
    </>
  );
}
