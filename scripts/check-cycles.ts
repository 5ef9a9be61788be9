/**
 * `bun scripts/check-cycles.ts`: finds import cycles among the files under src/ and prints each one;
 * exits 1 when there is any. The files are those of the TypeScript programs of tsconfig.json and
 * src/ui/tsconfig.json (the dashboard has its own), and each import is resolved as tsc resolves it.
 * A type-only import counts (it still ties the two files' types together), but each edge says what
 * it is, so a cycle that bites at run time stands out:
 *
 *   src/config/load.ts -> src/hooks/guards/index.ts  import
 *   src/hooks/guards/index.ts -> src/config/load.ts  import type
 *
 * Options: `--project <tsconfig>` (repeatable; replaces the two above), `--root <dir>` (only files
 * under it; default src), and two checks that also fail the run:
 *
 * - `--folders`: no group of top-level units under root may import each other (a unit is a folder
 *   directly under root, or a file directly under it such as run.ts), type-only imports included.
 *   Each group is printed with every file import behind each of its edges.
 * - `--layers <file.md>`: every import between two units goes down or sideways in the layer list of
 *   that file (see parseLayers; docs/architecture.md has it), never up; a unit no layer names fails.
 *   Each upward import is printed.
 */
import { readFileSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** How one file imports another: `import` and `dynamic import()` load it at run time, the rest do not. */
export type EdgeKind = "import" | "import type" | "type names" | "export from" | "export type" | "dynamic import()" | "import() type";
export type Graph = Map<string, Map<string, EdgeKind>>;

const TYPE_KINDS: ReadonlySet<EdgeKind> = new Set(["import type", "type names", "export type", "import() type"]);
export const isTypeOnly = (kind: EdgeKind) => TYPE_KINDS.has(kind);

/** The module specifiers of one file with how each is imported; a runtime kind wins over a type-only one. */
export function importsOf(file: ts.SourceFile): Map<string, EdgeKind> {
  const found = new Map<string, EdgeKind>();
  const add = (specifier: string, kind: EdgeKind) => {
    const had = found.get(specifier);
    if (!had || (isTypeOnly(had) && !isTypeOnly(kind))) found.set(specifier, kind);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const onlyTypeNames =
        clause && !clause.name && bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier.text, clause?.isTypeOnly ? "import type" : onlyTypeNames ? "type names" : "import");
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const onlyTypeNames = clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier.text, node.isTypeOnly || onlyTypeNames ? "export type" : "export from");
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) add(arg.text, "dynamic import()");
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, "import() type");
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The import graph of the files of these tsconfig projects that lie under `root`, keyed by absolute path. */
export function buildGraph(projects: readonly string[], root: string): Graph {
  const graph: Graph = new Map();
  const inRoot = (f: string) => f.startsWith(root + sep) && !f.endsWith(".d.ts");
  for (const project of projects) {
    const read = ts.readConfigFile(project, ts.sys.readFile);
    if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, "\n"));
    const config = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(project));
    const host = ts.createCompilerHost(config.options);
    const cache = ts.createModuleResolutionCache(dirname(project), (s) => s, config.options);
    for (const name of config.fileNames.map((f) => resolve(f)).filter(inRoot)) {
      if (graph.has(name)) continue;
      const text = ts.sys.readFile(name) ?? "";
      const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, name.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
      const edges = new Map<string, EdgeKind>();
      for (const [specifier, kind] of importsOf(source)) {
        const resolved = ts.resolveModuleName(specifier, name, config.options, host, cache).resolvedModule?.resolvedFileName;
        if (!resolved) continue;
        const target = resolve(resolved);
        if (!inRoot(target)) continue;
        const had = edges.get(target);
        if (!had || (isTypeOnly(had) && !isTypeOnly(kind))) edges.set(target, kind);
      }
      graph.set(name, edges);
    }
  }
  // Files reached only through imports (not listed by a project) still take part.
  for (const edges of [...graph.values()]) for (const target of edges.keys()) if (!graph.has(target)) graph.set(target, new Map());
  return graph;
}

/** Strongly connected components with more than one node, or one that imports itself (Tarjan). */
export function cycleGroups(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next), low.set(v, next), next++;
    stack.push(v), onStack.add(v);
    for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
      if (!index.has(w)) connect(w), low.set(v, Math.min(low.get(v)!, low.get(w)!));
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do (w = stack.pop()!), onStack.delete(w), group.push(w);
    while (w !== v);
    if (group.length > 1 || graph.get(v)?.has(v)) groups.push(group.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * The cycles a depth-first walk meets (one per edge back to a file on the walk's path), in a
 * stable order: the count madge reports. Each cycle starts and ends at its first file.
 */
export function findCycles(graph: Graph): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const done = new Set<string>();
  const path: string[] = [];
  const walk = (v: string) => {
    seen.add(v), path.push(v);
    for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
      if (!seen.has(w)) walk(w);
      else if (!done.has(w)) cycles.push([...path.slice(path.indexOf(w)), w]);
    }
    path.pop(), done.add(v);
  };
  for (const v of [...graph.keys()].sort()) if (!seen.has(v)) walk(v);
  return cycles;
}

/** The graph of folders directly under root (a file directly under root stands for itself). */
export function folderGraph(graph: Graph, root: string): Graph {
  const folder = (f: string) => relative(root, f).split(sep)[0]!;
  const folders: Graph = new Map();
  for (const [from, edges] of graph) {
    const a = folder(from);
    const out = folders.get(a) ?? new Map<string, EdgeKind>();
    folders.set(a, out);
    for (const [to, kind] of edges) {
      const b = folder(to);
      const had = out.get(b);
      if (a !== b && (!had || (isTypeOnly(had) && !isTypeOnly(kind)))) out.set(b, kind);
    }
  }
  return folders;
}

/** The top-level unit under root a file belongs to: its folder, or the file itself when it lies directly under root. */
export const unitOf = (file: string, root: string) => relative(root, file).split(sep)[0]!;
/** How a unit is written in the layer list and in messages: `lib/` for a folder, `run.ts` for a file. */
export const unitName = (unit: string) => (/\.[cm]?[jt]sx?$/.test(unit) ? unit : `${unit}/`);

/**
 * The layers written in a markdown file, bottom first: the fenced block after the line
 * `<!-- layers: bottom to top -->` (or `top to bottom`). In it, a line that does not start with a
 * space begins a layer: the units it names (`lib/` for a folder under root, `app.ts` for a file
 * directly under it, several separated by commas) up to the first run of two spaces, then what the
 * layer is; an indented line goes on with that description. Units are returned without the slash.
 */
export function parseLayers(markdown: string): string[][] {
  const lines = markdown.split("\n");
  const at = lines.findIndex((l) => /^<!--\s*layers:\s*(bottom to top|top to bottom)\s*-->\s*$/.test(l.trim()));
  if (at < 0) throw new Error("no line `<!-- layers: bottom to top -->` (or `top to bottom`) before the layer list");
  const topFirst = lines[at]!.includes("top to bottom");
  const open = lines.findIndex((l, i) => i > at && l.startsWith("```"));
  const close = lines.findIndex((l, i) => i > open && l.startsWith("```"));
  if (open < 0 || close < 0) throw new Error("the layers line is not followed by a fenced block");
  const layers: string[][] = [];
  const seen = new Set<string>();
  for (const line of lines.slice(open + 1, close)) {
    if (line.trim() === "" || /^\s/.test(line)) continue;
    const units = line
      .split(/ {2,}|\t/)[0]!
      .split(",")
      .map((u) => u.trim());
    for (const unit of units) {
      if (!/^[\w.-]+\/$/.test(unit) && !/^[\w.-]+\.[cm]?[jt]sx?$/.test(unit))
        throw new Error(`layer line "${line.trim()}": "${unit}" is neither a folder (name/) nor a file (name.ts)`);
      const name = unit.replace(/\/$/, "");
      if (seen.has(name)) throw new Error(`${unit} is in two layers`);
      seen.add(name);
    }
    layers.push(units.map((u) => u.replace(/\/$/, "")));
  }
  if (layers.length === 0) throw new Error("the layer list is empty");
  return topFirst ? layers.reverse() : layers;
}

export type LayerReport = {
  /** File imports from a unit to a unit of a higher layer, grouped by the pair of units. */
  upward: { from: string; to: string; imports: { from: string; to: string; kind: EdgeKind }[] }[];
  /** Units under root that no layer names, with their number of files. */
  unlisted: { unit: string; files: number }[];
  /** Units a layer names that are not under root (a layer still to be made, or a stale list). */
  absent: string[];
};

/** Checks every import between two units against the layers (bottom first): an import may go down or sideways, never up. */
export function checkLayers(graph: Graph, root: string, layers: string[][]): LayerReport {
  const level = new Map(layers.flatMap((units, i) => units.map((u) => [u, i] as const)));
  const upward = new Map<string, LayerReport["upward"][number]>();
  const counts = new Map<string, number>();
  for (const [from, edges] of graph) {
    const a = unitOf(from, root);
    counts.set(a, (counts.get(a) ?? 0) + 1);
    for (const [to, kind] of edges) {
      const b = unitOf(to, root);
      const la = level.get(a);
      const lb = level.get(b);
      if (a === b || la === undefined || lb === undefined || lb <= la) continue;
      const key = `${a}\0${b}`;
      const group = upward.get(key) ?? { from: a, to: b, imports: [] };
      upward.set(key, group);
      group.imports.push({ from, to, kind });
    }
  }
  return {
    upward: [...upward.values()].sort((x, y) => x.from.localeCompare(y.from) || x.to.localeCompare(y.to)),
    unlisted: [...counts]
      .filter(([u]) => !level.has(u))
      .map(([unit, files]) => ({ unit, files }))
      .sort((x, y) => x.unit.localeCompare(y.unit)),
    absent: [...level.keys()].filter((u) => !counts.has(u)).sort(),
  };
}

const USAGE = "usage: check-cycles [--project tsconfig.json]... [--root src] [--folders] [--layers docs/architecture.md]";

function main(argv: string[]): number {
  const projects: string[] = [];
  let root = "src";
  let folders = false;
  let layersFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--project" && argv[i + 1]) projects.push(argv[++i]!);
    else if (arg === "--root" && argv[i + 1]) root = argv[++i]!;
    else if (arg === "--folders") folders = true;
    else if (arg === "--layers" && argv[i + 1]) layersFile = argv[++i]!;
    else {
      console.error(`check-cycles: unknown argument ${arg}; ${USAGE}`);
      return 2;
    }
  }
  let layers: string[][] | undefined;
  if (layersFile) {
    try {
      layers = parseLayers(readFileSync(layersFile, "utf8"));
    } catch (error) {
      console.error(`check-cycles: ${layersFile}: ${(error as Error).message}`);
      return 2;
    }
  }
  if (projects.length === 0) projects.push("tsconfig.json", "src/ui/tsconfig.json");
  const rootDir = resolve(root);
  const graph = buildGraph(
    projects.map((p) => resolve(p)),
    rootDir,
  );
  const name = (f: string) => relative(process.cwd(), f);
  const imports = (list: { from: string; to: string; kind: EdgeKind }[], indent: string) => {
    const width = Math.max(...list.map((e) => name(e.from).length + name(e.to).length));
    for (const e of list) console.log(`${indent}${`${name(e.from)} -> ${name(e.to)}`.padEnd(width + 4)}  ${e.kind}`);
  };
  const cycles = findCycles(graph);
  for (const [i, cycle] of cycles.entries()) {
    const edges = cycle.slice(1).map((to, j) => ({ from: cycle[j]!, to, kind: graph.get(cycle[j]!)!.get(to)! }));
    // A cycle loads in a loop only when every edge of it loads the next file.
    const typeEdges = edges.filter((e) => isTypeOnly(e.kind)).length;
    console.log(`cycle ${i + 1} (${typeEdges === 0 ? "at run time" : `${typeEdges} of ${edges.length} edges type-only`}):`);
    imports(edges, "  ");
  }
  const groups = cycleGroups(graph);
  if (groups.length > 0) {
    console.log(`\n${cycles.length} cycle(s) in ${groups.length} group(s) of files that import each other:`);
    for (const group of groups) console.log(`  ${group.length} files: ${group.map(name).join(", ")}`);
  }
  if (cycles.length === 0) console.log(`no import cycles among ${graph.size} files under ${root}`);
  let failed = cycles.length > 0;

  if (folders) {
    const tops = folderGraph(graph, rootDir);
    const folderGroups = cycleGroups(tops);
    if (folderGroups.length === 0) console.log(`no cycles among the ${tops.size} folders and files directly under ${root}`);
    else console.log(`\n${folderGroups.length} group(s) of folders under ${root} that import each other:`);
    for (const group of folderGroups) {
      console.log(`  ${group.map(unitName).join(", ")}`);
      for (const from of group)
        for (const [to, kind] of [...tops.get(from)!].sort(([x], [y]) => x.localeCompare(y))) {
          if (!group.includes(to)) continue;
          // Every file import that makes this folder edge, so whoever breaks it knows where to look.
          const behind = [...graph].flatMap(([f, edges]) =>
            unitOf(f, rootDir) === from ? [...edges].filter(([t]) => unitOf(t, rootDir) === to).map(([t, k]) => ({ from: f, to: t, kind: k })) : [],
          );
          console.log(`    ${unitName(from)} -> ${unitName(to)}${isTypeOnly(kind) ? " (types only)" : ""}: ${behind.length} import(s)`);
          imports(behind, "      ");
        }
    }
    failed ||= folderGroups.length > 0;
  }

  if (layers && layersFile) {
    const report = checkLayers(graph, rootDir, layers);
    const count = report.upward.reduce((n, g) => n + g.imports.length, 0);
    if (report.upward.length > 0) {
      console.log(`\n${count} import(s) from a lower layer to a higher one (the layers of ${layersFile}):`);
      for (const group of report.upward) {
        console.log(`  ${unitName(group.from)} -> ${unitName(group.to)}: ${group.imports.length} import(s)`);
        imports(group.imports, "    ");
      }
    }
    if (report.unlisted.length > 0) {
      console.log(`\nunder ${root} but in no layer of ${layersFile}:`);
      for (const u of report.unlisted) console.log(`  ${unitName(u.unit)} (${u.files} file(s))`);
    }
    if (report.absent.length > 0) console.log(`\n(in the layers of ${layersFile}, not under ${root} yet: ${report.absent.map(unitName).join(", ")})`);
    if (report.upward.length === 0 && report.unlisted.length === 0)
      console.log(`every import under ${root} follows the ${layers.length} layers of ${layersFile}`);
    failed ||= report.upward.length > 0 || report.unlisted.length > 0;
  }
  return failed ? 1 : 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
