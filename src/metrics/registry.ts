/**
 * A small Prometheus registry: counters and gauges with fixed label names, and histograms, written
 * in the text exposition format 0.0.4. Counting is a Map lookup and an addition, so the catching
 * endpoint pays nothing more; gauges are read by their collect function only when scraped.
 */
export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

type Sample = { labels: readonly string[]; value: number };
type Family = { name: string; help: string; type: "counter" | "gauge" | "histogram"; labelNames: readonly string[]; samples(): Iterable<Sample> };

export type Counter = {
  /** Adds `by` (default 1) to the series of these label values, in labelNames order. */
  inc(values: readonly string[], by?: number): void;
  /** The series' current value (tests and the cardinality check). */
  get(values: readonly string[]): number;
  /** How many series exist. */
  size(): number;
};
export type Histogram = { observe(value: number): void };
/** A gauge's values at scrape time: label values (labelNames order) and value. */
export type GaugeCollect = () => Iterable<readonly [readonly string[], number]>;

export function createRegistry() {
  const families: Family[] = [];
  const names = new Set<string>();

  function add(family: Family): void {
    if (names.has(family.name)) throw new Error(`metric ${family.name} registered twice`);
    names.add(family.name);
    families.push(family);
  }

  /** A counter; its name should end in `_total`. */
  function counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    const series = new Map<string, Sample>();
    add({ name, help, type: "counter", labelNames, samples: () => series.values() });
    return {
      inc(values, by = 1) {
        const key = values.length === 1 ? values[0]! : values.join("\u0000");
        const s = series.get(key);
        if (s) s.value += by;
        else series.set(key, { labels: [...values], value: by });
      },
      get: (values) => series.get(values.length === 1 ? values[0]! : values.join("\u0000"))?.value ?? 0,
      size: () => series.size,
    };
  }

  /** A gauge read at scrape time; `type` "counter" for monotonic values read from elsewhere (CPU seconds). */
  function gauge(name: string, help: string, labelNames: readonly string[], collect: GaugeCollect, type: "gauge" | "counter" = "gauge"): void {
    add({
      name,
      help,
      type,
      labelNames,
      *samples() {
        for (const [labels, value] of collect()) yield { labels, value };
      },
    });
  }

  /** An unlabelled histogram with these upper bounds (ascending; +Inf is added). */
  function histogram(name: string, help: string, buckets: readonly number[]): Histogram {
    const counts = new Float64Array(buckets.length + 1);
    let sum = 0;
    add({
      name,
      help,
      type: "histogram",
      labelNames: [],
      *samples() {
        let cumulative = 0;
        for (let i = 0; i <= buckets.length; i++) {
          cumulative += counts[i]!;
          yield { labels: [i < buckets.length ? String(buckets[i]) : "+Inf"], value: cumulative };
        }
        yield { labels: ["_sum"], value: sum };
        yield { labels: ["_count"], value: cumulative };
      },
    });
    return {
      observe(value) {
        let i = 0;
        while (i < buckets.length && value > buckets[i]!) i++;
        counts[i]!++;
        sum += value;
      },
    };
  }

  /** Every family in the text format, in registration order. */
  function render(): string {
    let out = "";
    for (const f of families) {
      out += `# HELP ${f.name} ${escapeHelp(f.help)}\n# TYPE ${f.name} ${f.type}\n`;
      for (const s of f.samples()) {
        if (f.type === "histogram") {
          const tag = s.labels[0]!;
          out += tag === "_sum" || tag === "_count" ? `${f.name}${tag} ${num(s.value)}\n` : `${f.name}_bucket{le="${tag}"} ${num(s.value)}\n`;
        } else {
          out += `${f.name}${labelText(f.labelNames, s.labels)} ${num(s.value)}\n`;
        }
      }
    }
    return out;
  }

  return { counter, gauge, histogram, render };
}

export type Registry = ReturnType<typeof createRegistry>;

function labelText(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return "";
  return `{${names.map((n, i) => `${n}="${escapeLabel(values[i] ?? "")}"`).join(",")}}`;
}

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const escapeHelp = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

function num(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}
