/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { jsonString } from "../format";
import { Scroller } from "./scroller";

/** Children shown at once under one node; more on request (a 1 MB array would be tens of thousands of rows). */
const PAGE = 100;
/** Characters of a string shown at first. */
const LONG = 400;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * A JSON document as a collapsible, highlighted tree. Every value is rendered as text (never HTML);
 * strings keep their JSON escapes, so control characters show. Nodes deeper than `depth` start closed.
 */
export function JsonTree({ value, depth, label }: { value: unknown; depth: number; label: string }) {
  return (
    <Scroller label={label} class="tree">
      <Node name={undefined} value={value as Json} level={0} depth={depth} last />
    </Scroller>
  );
}

function Node({ name, value, level, depth, last }: { name: string | undefined; value: Json; level: number; depth: number; last: boolean }) {
  const [open, setOpen] = useState(level < depth);
  // A node the user opens shows its children open too (a list of folded items says little).
  const [inner, setInner] = useState(depth);
  const [shown, setShown] = useState(PAGE);
  const comma = last ? "" : ",";
  const key =
    name === undefined ? null : (
      <>
        <span class="k">{jsonString(name)}</span>
        <span class="p">: </span>
      </>
    );
  if (value === null || typeof value !== "object")
    return (
      <li>
        {key}
        <Scalar value={value} />
        <span class="p">{comma}</span>
      </li>
    );
  const array = Array.isArray(value);
  const entries: [string, Json][] = array ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const [o, c] = array ? ["[", "]"] : ["{", "}"];
  const count = `${entries.length} ${array ? (entries.length === 1 ? "item" : "items") : entries.length === 1 ? "key" : "keys"}`;
  const Tag = level === 0 ? "ul" : "li";
  const toggle = (
    <button
      type="button"
      class="toggle"
      aria-expanded={open}
      aria-label={`${open ? "Collapse" : "Expand"} ${name ?? "document"}`}
      onClick={() => (setOpen(!open), setInner(Math.max(depth, level + 2)))}
    >
      {open ? "▾" : "▸"}
    </button>
  );
  const body = !open ? (
    <>
      {toggle}
      {key}
      <span class="p">
        {o}…{c}
      </span>{" "}
      <span class="muted">{count}</span>
      <span class="p">{comma}</span>
    </>
  ) : (
    <>
      {toggle}
      {key}
      <span class="p">{o}</span>
      <ul>
        {entries.slice(0, shown).map(([k, v], i) => (
          <Node key={k} name={array ? undefined : k} value={v} level={level + 1} depth={inner} last={i === entries.length - 1} />
        ))}
        {entries.length > shown && (
          <li>
            <button type="button" onClick={() => setShown(shown + PAGE * 10)}>
              Show {Math.min(PAGE * 10, entries.length - shown)} more of {entries.length - shown}
            </button>
          </li>
        )}
      </ul>
      <span class="p">
        {c}
        {comma}
      </span>
    </>
  );
  return Tag === "ul" ? (
    <ul class="root">
      <li>{body}</li>
    </ul>
  ) : (
    <li>{body}</li>
  );
}

function Scalar({ value }: { value: null | boolean | number | string }) {
  const [all, setAll] = useState(false);
  if (value === null) return <span class="z">null</span>;
  if (typeof value === "boolean") return <span class="b">{String(value)}</span>;
  if (typeof value === "number") return <span class="n">{String(value)}</span>;
  const text = jsonString(value);
  if (all || text.length <= LONG) return <span class="s">{text}</span>;
  return (
    <>
      <span class="s">{text.slice(0, LONG)}…</span>{" "}
      <button type="button" onClick={() => setAll(true)}>
        all {text.length.toLocaleString("en")} characters
      </button>
    </>
  );
}
