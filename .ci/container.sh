#!/usr/bin/env bash
# The container image, tested without running a container (which this machine cannot do): Debian's
# podman builds the Containerfile (vfs storage and chroot isolation work here as root), its size is
# checked against the executable's (at most 5 MB more), then its filesystem is exported and its
# entrypoint run under chroot, as the image's user, with the image's environment: --version, serve,
# one hook caught, and the image's HEALTHCHECK command. Needs dist/mailroom (npm run build).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v podman >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends podman >/dev/null
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-container-XXXXXX")
rootfs="$work/rootfs"
server=""
podman=(podman --storage-driver vfs --root "$work/storage" --runroot "$work/run")
cleanup() {
  [ -n "$server" ] && kill -KILL "$server" 2>/dev/null
  umount "$rootfs/proc" 2>/dev/null || true
  umount "$rootfs/dev" 2>/dev/null || true
  "${podman[@]}" rm -af >/dev/null 2>&1 || true
  "${podman[@]}" rmi -af >/dev/null 2>&1 || true
  rm -rf "$work" 2>/dev/null || true
}
trap cleanup EXIT
ok() { echo "container: $1: ok"; }
fail() { echo "container: $1: FAILED" >&2; exit 1; }

bash scripts/container-rootfs.sh
"${podman[@]}" build --isolation chroot --format docker -q -f Containerfile -t mailroom:ci . >/dev/null || fail "podman build"
size=$("${podman[@]}" image inspect --format '{{.Size}}' mailroom:ci)
exe=$(stat -c %s dist/mailroom)
extra=$(((size - exe) / 1024))
echo "container: image $((size / 1024 / 1024)) MB, the executable $((exe / 1024 / 1024)) MB, the rest $extra KiB"
[ "$extra" -le $((5 * 1024)) ] || fail "the image is at most the executable plus 5 MB"
ok "image size"

inspect=$("${podman[@]}" image inspect mailroom:ci)
# A field of the image's inspection: c is its config, h its health check.
field() { node -e "const [i] = JSON.parse(process.argv[1]); const c = i.Config, h = i.Healthcheck; const v = ($1); console.log(Array.isArray(v) ? v.join('\n') : v)" "$inspect"; }
user=$(field 'c.User')
mapfile -t entrypoint < <(field 'c.Entrypoint')
mapfile -t env < <(field 'c.Env')
mapfile -t health < <(field 'h.Test.slice(1)')
[ "$user" = "10001:10001" ] || fail "runs as the non-root user 10001 (User is $user)"
[ "$(field 'c.Volumes && Object.keys(c.Volumes).join()')" = "/data" ] || fail "a /data volume"
[ "$(field 'h.Test[0]')" = "CMD" ] && [ "${health[*]}" = "/mailroom healthcheck" ] || fail "HEALTHCHECK runs mailroom healthcheck (${health[*]})"
printf '%s\n' "${env[@]}" | grep -qx 'MAILROOM_HOST=0.0.0.0' && printf '%s\n' "${env[@]}" | grep -qx 'MAILROOM_PORT=8080' || fail "listens on 0.0.0.0:8080"
ok "user $user, volume /data, MAILROOM_HOST=0.0.0.0, MAILROOM_PORT=8080, HEALTHCHECK ${health[*]}"

mkdir -p "$rootfs"
cid=$("${podman[@]}" create mailroom:ci)
"${podman[@]}" export "$cid" | tar -x -C "$rootfs"
[ "$(stat -c %u "$rootfs/data")" = 10001 ] || fail "/data belongs to the image's user"
# What a container runtime gives every container: /proc and /dev.
mount -t proc proc "$rootfs/proc"
mount --bind /dev "$rootfs/dev"
# Below, the entrypoint runs as the image's user, with the image's environment and nothing of this shell's.
said=$(env -i "${env[@]}" chroot --userspec="$user" "$rootfs" "${entrypoint[@]}" --version 2>&1 | tail -1) || true
[ "$said" = "$(node -p "require('./package.json').version")" ] || fail "--version printed: $said"
ok "--version: $said"

# Port 0 instead of the image's 8080 (tests never take a fixed port); the health check is then told the port.
env -i "${env[@]}" MAILROOM_PORT=0 chroot --userspec="$user" "$rootfs" "${entrypoint[@]}" serve >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 300); do grep -q "listening on http://" "$work/serve.log" && break; sleep 0.1; done
port=$(grep -o "listening on http://0.0.0.0:[0-9]*" "$work/serve.log" | grep -o '[0-9]*$') || { cat "$work/serve.log"; fail "serve listens on 0.0.0.0"; }
id=$(node -e "fetch('http://127.0.0.1:' + process.argv[1] + '/?channel=container', { method: 'POST', body: '{\"a\":1}' }).then(async (r) => { if (r.status !== 200) throw new Error(r.status); console.log((await r.json()).id); })" "$port") ||
  fail "a hook caught"
[ -f "$rootfs/data/mailroom.db" ] && [ "$(stat -c %u "$rootfs/data/mailroom.db")" = 10001 ] || fail "the data file is in /data, the user's"
ok "serve on 0.0.0.0:$port caught hook $id into /data/mailroom.db"

env -i "${env[@]}" MAILROOM_PORT="$port" chroot --userspec="$user" "$rootfs" "${health[@]}" || fail "the HEALTHCHECK command against the running serve"
ok "HEALTHCHECK (${health[*]})"
kill -TERM "$server"
wait "$server" || fail "serve stops on SIGTERM"
server=""
env -i "${env[@]}" MAILROOM_PORT="$port" chroot --userspec="$user" "$rootfs" "${health[@]}" >/dev/null 2>&1 && fail "the HEALTHCHECK command fails once serve stopped"
ok "HEALTHCHECK fails once serve stopped"
echo "container: all passed"
