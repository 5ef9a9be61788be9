#!/usr/bin/env bash
# Tests the release in dist/release/ (npm run release) as a user gets it, without the registry:
# - SHA256SUMS verifies (sha256sum -c);
# - each archive's executable has its platform's format, as `file` reports it;
# - the main package and this machine's platform package install from their tarballs into a fresh
#   project with `npm install --offline` (timed; target under 10 s), and nothing else is installed
#   (the test helper has no runtime dependency), and the helper's types check for import and require;
# - `npx mailroom --version`; `mailroom serve` (the npm launcher) catches a hook that `mailroom hooks
#   ls` then lists, and stops on SIGTERM passed on by the launcher.
# The examples (bun test, node --test, jest with the helper) run from the same tarballs in
# scripts/examples.sh. Prints "package-test: <check>: ok" per check; exits non-zero at the first failure.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
rel="$root/dist/release"
version=$(node -p "require('$root/package.json').version")
target=$(cd "$root" && node_modules/.bin/bun -e 'import { currentTarget } from "./src/testing/platform"; console.log(currentTarget())')
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-package-test-XXXXXX")
server=""
cleanup() { [ -n "$server" ] && kill -KILL "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

ok() { echo "package-test: $1: ok"; }
fail() { echo "package-test: $1: FAILED" >&2; exit 1; }

[ -f "$rel/SHA256SUMS" ] || fail "dist/release/SHA256SUMS is missing: run npm run release first"
(cd "$rel" && sha256sum -c --quiet SHA256SUMS) || fail "SHA256SUMS"
ok "SHA256SUMS verifies ($(wc -l <"$rel/SHA256SUMS") files)"

# What `file` says of each platform's executable.
declare -A format=(
  [linux-x64]='ELF 64-bit LSB .*x86-64.*interpreter /lib64/ld-linux-x86-64'
  [linux-arm64]='ELF 64-bit LSB .*ARM aarch64.*interpreter /lib/ld-linux-aarch64'
  [linux-x64-musl]='ELF 64-bit LSB .*x86-64.*interpreter /lib/ld-musl-x86_64'
  [linux-arm64-musl]='ELF 64-bit LSB .*ARM aarch64.*interpreter /lib/ld-musl-aarch64'
  [darwin-x64]='Mach-O 64-bit x86_64 executable'
  [darwin-arm64]='Mach-O 64-bit arm64 executable'
  [windows-x64]='PE32\+ executable .*x86-64'
)
for archive in "$rel"/mailroom-"$version"-*.tar.gz; do
  t=$(basename "$archive" .tar.gz)
  t=${t#mailroom-"$version"-}
  [ -n "${format[$t]:-}" ] || fail "unknown target $t"
  exe=mailroom
  [ "$t" = windows-x64 ] && exe=mailroom.exe
  tar -xzf "$archive" -C "$work"
  dir="$work/mailroom-$version-$t"
  for f in "$exe" LICENSE README.md; do [ -f "$dir/$f" ] || fail "$t archive: no $f"; done
  said=$(file -b "$dir/$exe")
  echo "$said" | grep -Eq "${format[$t]}" || fail "$t executable's format: $said"
  ok "$t archive: $exe ($said), LICENSE, README.md"
  rm -rf "$dir"
done

main="$rel/mailroom-webhooks-$version.tgz"
platform="$rel/mailroom-webhooks-$target-$version.tgz"
project="$work/project"
mkdir -p "$project"
cd "$project"
echo '{ "name": "fresh-project", "private": true }' >package.json
t0=$(date +%s.%N)
npm install --offline --no-audit --no-fund --loglevel=error "$main" "$platform" >/dev/null || fail "npm install --offline from the tarballs"
seconds=$(echo "$(date +%s.%N) - $t0" | bc)
ok "npm install --offline of mailroom-webhooks and mailroom-webhooks-$target from their tarballs in $(printf %.1f "$seconds") s"

installed=$(ls node_modules | grep -v '^\.' | sort | tr '\n' ' ')
[ "$installed" = "mailroom-webhooks mailroom-webhooks-$target " ] || fail "only the two packages are installed (found: $installed)"
ok "nothing else installed: $installed"

# The helper's types, for an ES module and a CommonJS consumer (nodenext), without @types/node.
cat >check.mts <<'TS'
import { startMailroom, type Hook, type Mailroom } from "mailroom-webhooks/testing";
const mr: Mailroom = await startMailroom({ config: { channels: [{ name: "a" }] } });
const hook: Hook = await mr.waitForHook({ channel: "a", timeout: 1 });
console.log(hook.id);
TS
cat >check.cts <<'TS'
import testing = require("mailroom-webhooks/testing");
export async function url(): Promise<string> {
  return (await testing.startMailroom()).url;
}
TS
echo '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022",
  "lib": ["es2022", "dom", "esnext.disposable"], "types": [] }, "files": ["check.mts", "check.cts"] }' >tsconfig.json
"$root/node_modules/.bin/tsc" -p . || fail "the helper's types (import and require, nodenext)"
ok "the helper's types check for import and require (nodenext)"

said=$(npx --offline mailroom --version) || fail "npx mailroom --version"
[ "$said" = "$version" ] || fail "npx mailroom --version printed $said, not $version"
ok "npx mailroom --version: $said"
said=$(npx --offline mailroom-webhooks --version) || fail "npx mailroom-webhooks --version"
[ "$said" = "$version" ] || fail "npx mailroom-webhooks --version printed $said"
ok "npx mailroom-webhooks --version (the package's name runs its one command): $said"

code=0
said=$(npx --offline mailroom hoks ls 2>&1) || code=$?
[ "$code" = 2 ] && [ "$said" = "$(printf "mailroom: unknown command: hoks (did you mean hooks?)\nRun 'mailroom --help' for usage.")" ] ||
  fail "a usage mistake through the launcher: exit code 2 and its one line (got $code: $said)"
ok "a usage mistake through the launcher: its line, exit code 2"

./node_modules/.bin/mailroom serve --port 0 >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 300); do grep -q "listening on http://" "$work/serve.log" && break; sleep 0.1; done
url=$(grep -o "listening on http://[^ ]*" "$work/serve.log" | sed 's/listening on //') || { cat "$work/serve.log"; fail "serve did not start"; }
id=$(node -e "fetch(process.argv[1] + '/?channel=first', { method: 'POST', body: '{\"hello\":1}' }).then(async (r) => { const j = await r.json(); if (r.status !== 200) throw new Error(r.status); console.log(j.id); })" "$url") ||
  fail "catching a hook at $url"
npx --offline mailroom hooks ls --channel first | grep -q "$id" || fail "mailroom hooks ls lists hook $id"
ok "npx mailroom serve caught hook $id at $url; mailroom hooks ls lists it"
kill -TERM "$server"
code=0
wait "$server" || code=$?
server=""
[ "$code" = 0 ] && grep -q "stopped" "$work/serve.log" || { cat "$work/serve.log"; fail "serve stops gracefully on SIGTERM through the launcher (exit $code)"; }
ok "SIGTERM to the launcher stops serve gracefully"
echo "package-test: all passed"
