import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { expect } from "bun:test";

type Family = {
  name: string;
  help: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string; sum?: string }[];
};

/** A line of the text format 0.0.4: a comment, or a sample (name, labels, value, no timestamp). */
const LINE =
  /^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*",?)*\})? (-?[0-9.e+-]+|NaN|[+-]Inf))$/;

/**
 * Parses a scrape with parse-prometheus-text-format, after checking each line strictly (that
 * parser forgives malformed lines) and that every family is typed before its samples.
 */
export function parseScrape(text: string): Map<string, Family> {
  expect(text.endsWith("\n")).toBe(true);
  const typed = new Set<string>();
  for (const line of text.slice(0, -1).split("\n")) {
    if (!LINE.test(line)) throw new Error(`not a text-format line: ${JSON.stringify(line)}`);
    const type = /^# TYPE (\S+) /.exec(line);
    if (type) typed.add(type[1]!);
    else if (!line.startsWith("#")) {
      const name = /^[^{ ]+/.exec(line)![0];
      if (![name, name.replace(/_(bucket|sum|count)$/, "")].some((n) => typed.has(n))) throw new Error(`sample before its TYPE: ${line}`);
    }
  }
  const families = parsePrometheusTextFormat(text) as Family[];
  return new Map(families.map((f) => [f.name, f]));
}

/** The value of the sample of `name` with exactly these labels (0 when absent, as Prometheus reads a missing counter). */
export function sample(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = families.get(name);
  if (!family) throw new Error(`no metric ${name}`);
  const found = family.metrics.find((m) => JSON.stringify(m.labels ?? {}) === JSON.stringify(labels));
  return found ? Number(found.value) : 0;
}
