#!/bin/sh
# Runs every project in examples/ as a user would, without the registry: each is copied into a fresh
# temp folder, its devDependencies dropped (the test runners are this repository's: bun, node, jest),
# and the release's npm tarballs installed with `npm install --offline` (the main package and this
# machine's platform package, from dist/release/; built with `npm run release -- --targets host`
# when they are not there), then `npm test` runs there.
# Exits non-zero if the release, an install or any example's tests fail.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-examples-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export PATH="$root/node_modules/.bin:$PATH"

version=$(node -p "require('$root/package.json').version")
target=$(cd "$root" && bun -e 'import { currentTarget } from "./src/testing/platform"; console.log(currentTarget())')
main="$root/dist/release/mailroom-webhooks-$version.tgz"
platform="$root/dist/release/mailroom-webhooks-$target-$version.tgz"
if [ ! -f "$main" ] || [ ! -f "$platform" ]; then
  echo "examples: building the release for $target (npm run release -- --targets host)"
  (cd "$root" && bun run scripts/release.ts --targets host >"$work/release.txt" 2>&1) || { cat "$work/release.txt"; exit 1; }
fi

failed=""
for example in "$root"/examples/*/; do
  name=$(basename "$example")
  project="$work/$name"
  cp -R "$example" "$project"
  cp "$main" "$platform" "$project/"
  echo "examples: $name: npm install --offline (the release's tarballs)"
  if ! (cd "$project" && npm pkg delete devDependencies && npm install --silent --offline --no-audit --no-fund "./$(basename "$main")" "./$(basename "$platform")"); then
    failed="$failed $name(install)"
    continue
  fi
  echo "examples: $name: npm test"
  if (cd "$project" && npm test); then echo "examples: $name: passed"; else failed="$failed $name"; echo "examples: $name: failed"; fi
done

if [ -n "$failed" ]; then
  echo "examples: FAILED:$failed" >&2
  exit 1
fi
echo "examples: all passed"
