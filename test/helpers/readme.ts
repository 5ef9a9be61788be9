/** The README's shell blocks and the script that runs them in order (test/readme.test.ts says how). */

export type Block = { line: number; code: string; mode: "run" | "background" | "skip"; ready?: string; name?: string; stop?: string };

const NOTE = /^<!-- readme: (?:skip, (?<reason>.+)|(?:stop (?<stop>[a-z]+), )?background "(?<ready>[^"]+)" as (?<name>[a-z]+)) -->$/;

/** The README's shell blocks with how each runs. */
export function readmeBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i]!)) continue;
    const end = lines.indexOf("```", i + 1);
    if (end < 0) throw new Error(`README.md:${i + 1}: a code block that does not end`);
    const code = lines.slice(i + 1, end).join("\n");
    const note = NOTE.exec(lines[i - 1]?.trim() ?? "")?.groups;
    if (lines[i - 1]?.startsWith("<!-- readme") && !note) throw new Error(`README.md:${i}: unknown readme note ${lines[i - 1]}`);
    const mode = !note ? "run" : note.reason ? "skip" : "background";
    blocks.push({ line: i + 1, code, mode, ...(mode === "background" ? { ready: note!.ready, name: note!.name, stop: note!.stop } : {}) });
    i = end;
  }
  return blocks;
}

/** One bash script that runs the blocks in order and stops what it started in the background. */
export function scriptOf(blocks: Block[]): string {
  const out = [
    "set -euo pipefail",
    "declare -A bg=()",
    // Each background block runs in its own process group (set -m): stopping it stops what it started.
    // npx may exit before the server it started has let go of its data file: wait until no process
    // of the group is left (at most 30 s), as a user waits for the prompt of the stopped one.
    'stop_bg() { local p="${bg[$1]:-}" i=0; [ -n "$p" ] || return 0; kill -TERM -- -"$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; while kill -0 -- -"$p" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; unset "bg[$1]"; }',
    'stop_all() { for n in "${!bg[@]}"; do stop_bg "$n"; done; }',
    "trap 'rc=$?; stop_all; exit $rc' EXIT",
    // Waits up to 180 s for a background block's text (the first one runs npm install); shows its output if it never comes.
    'ready() { for _ in $(seq 1800); do grep -qF -- "$2" "$1" && return 0; sleep 0.1; done; echo "never printed: $2"; cat "$1"; return 1; }',
  ];
  blocks.forEach((b, n) => {
    if (b.mode === "skip") return;
    out.push(`printf '\\n== README.md:${b.line}\\n'`);
    if (b.stop) out.push(`stop_bg ${b.stop}`);
    if (b.mode === "background") {
      out.push(`set -m; ( ${b.code.trim()} ) > .readme-bg-${n}.log 2>&1 & bg[${b.name}]=$!; set +m`);
      out.push(`ready .readme-bg-${n}.log ${JSON.stringify(b.ready)}`);
    } else {
      out.push(b.code);
    }
  });
  out.push("printf '\\n== README done\\n'");
  return out.join("\n") + "\n";
}
