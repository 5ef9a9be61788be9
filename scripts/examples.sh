#!/bin/sh
# Runs every project in examples/ as a user would: packs Mailroom (npm pack, which builds the
# executable and the helper), copies each example into a fresh temp folder with the tarball as
# mailroom.tgz, installs it (from the npm cache when it can) and runs `npm test` there.
# Exits non-zero if packing, an install or any example's tests fail.
# Bun examples run with the Bun of this repository's node_modules; Node examples with `node`.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-examples-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export PATH="$root/node_modules/.bin:$PATH"

echo "examples: packing Mailroom"
(cd "$root" && npm pack --silent --pack-destination "$work" >"$work/pack.txt")
tarball="$work/$(tail -n 1 "$work/pack.txt")"

failed=""
for example in "$root"/examples/*/; do
  name=$(basename "$example")
  project="$work/$name"
  cp -R "$example" "$project"
  cp "$tarball" "$project/mailroom.tgz"
  echo "examples: $name: npm install"
  if ! (cd "$project" && npm install --silent --no-audit --no-fund --prefer-offline); then
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
