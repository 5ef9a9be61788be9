#!/usr/bin/env bash
# Stages what the Containerfile copies into its FROM-scratch image, in dist/container/:
# rootfs/ (the executable as /mailroom, the C library files it links to, found by ldd, a passwd and
# group naming the user mailroom, 10001, empty /tmp, /proc and /dev) and data/ (the /data volume).
# The executable is dist/mailroom (npm run build) unless one is given.
#   bash scripts/container-rootfs.sh [EXECUTABLE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-$root/dist/mailroom}
out="$root/dist/container"
[ -x "$exe" ] || { echo "container-rootfs: no executable at $exe (npm run build)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/rootfs/etc" "$out/rootfs/proc" "$out/rootfs/dev" "$out/data"
install -m 1777 -d "$out/rootfs/tmp"
cp "$exe" "$out/rootfs/mailroom"
chmod 0755 "$out/rootfs/mailroom"
# The dynamic loader and the libraries, as files at the paths the executable asks for.
for lib in $(ldd "$exe" | grep -o '/[^ ]*'); do
  mkdir -p "$out/rootfs$(dirname "$lib")"
  cp -L "$lib" "$out/rootfs$lib"
done
printf 'root:x:0:0:root:/root:/sbin/nologin\nmailroom:x:10001:10001:mailroom:/data:/sbin/nologin\n' >"$out/rootfs/etc/passwd"
printf 'root:x:0:\nmailroom:x:10001:\n' >"$out/rootfs/etc/group"
printf 'hosts: files dns\n' >"$out/rootfs/etc/nsswitch.conf"
echo "container-rootfs: $(du -sh "$out/rootfs" | cut -f1) in $out/rootfs ($(ldd "$exe" | grep -c '/') libraries)"
