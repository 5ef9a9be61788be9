/**
 * Writes src/triggers/github-examples.json from @octokit/webhooks-examples (a devDependency): one
 * example per event and action ("push", "issues.opened"), minified, for `mailroom trigger github`.
 * Community examples lag the schemas of @octokit/webhooks-schemas (a property made required later,
 * a time written another way): each example is completed until it validates against its event's
 * schema, adding what is missing with a neutral value (false, null, 0, "", the example's own time).
 * Run `bun scripts/github-examples.ts` after upgrading the packages; test/triggers checks the file.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import definitions from "@octokit/webhooks-examples";
import schema from "@octokit/webhooks-schemas";
import Ajv, { type ErrorObject } from "ajv";
import addFormats from "ajv-formats";

type Json = Record<string, unknown>;
const defs = (schema as { definitions: Record<string, Json> }).definitions;

/** The definition that describes `event.action` (or the event as a whole). */
export function definitionOf(key: string): string {
  const [event, action] = key.split(".");
  for (const name of [action && `${event}$${action}`, `${event}$event`, `${event}_event`]) if (name && defs[name]) return name;
  throw new Error(`no schema for ${key}`);
}

function resolve(s: Json): Json {
  let at = s;
  while (typeof at.$ref === "string") at = defs[(at.$ref as string).replace("#/definitions/", "")]!;
  if (Array.isArray(at.allOf)) {
    // Later parts narrow earlier ones (workflow_run's conclusion): their properties win.
    const parts = (at.allOf as Json[]).map(resolve);
    return { ...Object.assign({}, ...parts), properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})) };
  }
  const alt = (at.oneOf ?? at.anyOf) as Json[] | undefined;
  return alt ? resolve(alt.find((x) => (x as Json).type !== "null") ?? alt[0]!) : at;
}

/** A neutral value a schema accepts. */
function neutral(s: Json, nullable = true): unknown {
  const r = resolve(s);
  const types = ([] as unknown[]).concat(r.type ?? []);
  if (Array.isArray(r.enum)) return r.enum.find((v) => v !== null || nullable) ?? r.enum[0];
  if ("const" in r) return r.const;
  if (types.includes("null") && (nullable || types.length === 1)) return null;
  if (types.includes("boolean")) return false;
  if (types.includes("integer") || types.includes("number")) return 0;
  if (types.includes("string"))
    return r.format === "date-time" ? "2024-01-01T00:00:00Z" : r.format === "uri" ? "https://example.com/" : r.format === "email" ? "octocat@example.com" : "";
  if (types.includes("array")) return [];
  return {};
}

/** The schema at a data path of `root`'s definition (following refs and the first alternatives). */
function schemaAt(definition: string, path: string[]): Json {
  let at: Json = defs[definition]!;
  for (const key of path) {
    const r = resolve(at);
    at = (/^\d+$/.test(key) ? (r.items as Json) : ((r.properties as Record<string, Json>)?.[key] ?? (r.additionalProperties as Json))) ?? {};
  }
  return at;
}

function repair(example: Json, definition: string, errors: ErrorObject[]): boolean {
  let changed = false;
  for (const e of errors) {
    const path = e.instancePath
      .split("/")
      .slice(1)
      .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    let parent: unknown = example;
    for (const k of path) parent = (parent as Json)[k];
    if (e.keyword === "required") {
      const name = (e.params as { missingProperty: string }).missingProperty;
      (parent as Json)[name] = neutral(schemaAt(definition, [...path, name]));
      changed = true;
    } else if (e.keyword === "type" && (e.params as { type: unknown }).type === "null" && errors.some((o) => o !== e && o.instancePath === e.instancePath)) {
      // An object in a "that, or null" place that the examples left incomplete: null is what it may be.
      const last = path.pop()!;
      let holder: unknown = example;
      for (const k of path) holder = (holder as Json)[k];
      if ((holder as Json)[last] !== null) ((holder as Json)[last] = null), (changed = true);
      break;
    } else if (e.keyword === "const" && path.length > 0) {
      const last = path.pop()!;
      let holder: unknown = example;
      for (const k of path) holder = (holder as Json)[k];
      (holder as Json)[last] = (e.params as { allowedValue: unknown }).allowedValue;
      changed = true;
    } else if (e.keyword === "additionalProperties") {
      delete (parent as Json)[(e.params as { additionalProperty: string }).additionalProperty];
      changed = true;
    } else if ((e.keyword === "format" || e.keyword === "type" || e.keyword === "enum") && path.length > 0) {
      // A value of the wrong shape: one the schema accepts, not null (the example had one).
      const last = path.pop()!;
      let holder: unknown = example;
      for (const k of path) holder = (holder as Json)[k];
      (holder as Json)[last] = neutral(schemaAt(definition, [...path, last]), false);
      changed = true;
    }
  }
  return changed;
}

export function githubExamples(): Record<string, unknown> {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(schema as object, "webhooks");
  const out: Record<string, unknown> = {};
  for (const d of definitions) {
    for (const original of d.examples as Json[]) {
      const key = typeof original.action === "string" ? `${d.name}.${original.action}` : d.name;
      if (key in out) continue;
      const example = structuredClone(original);
      const definition = definitionOf(key);
      const validate = ajv.getSchema(`webhooks#/definitions/${definition}`)!;
      for (let round = 0; round < 20 && !validate(example); round++) if (!repair(example, definition, validate.errors ?? [])) break;
      out[key] = example;
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

if (import.meta.main) writeFileSync(join(import.meta.dir, "..", "src", "triggers", "github-examples.json"), `${JSON.stringify(githubExamples())}\n`);
