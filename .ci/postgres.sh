#!/usr/bin/env bash
# Installs Debian's PostgreSQL (15 or newer) for the tests on PostgreSQL when initdb is missing.
# Debian keeps initdb and pg_ctl in /usr/lib/postgresql/<version>/bin, outside PATH; the tests'
# helper (test/helpers/postgres.ts) looks there too. No cluster is created or started here.
set -euo pipefail
find_initdb() {
  command -v initdb 2>/dev/null || ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1
}
initdb=$(find_initdb || true)
if [ -z "$initdb" ]; then
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update
  # postgresql-common would create and start a cluster in /var/lib/postgresql: the tests start their
  # own, so ask it not to.
  $SUDO mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" | $SUDO tee /etc/postgresql-common/createcluster.d/mailroom-ci.conf >/dev/null
  $SUDO apt-get install -y --no-install-recommends postgresql
  initdb=$(find_initdb || true)
  if [ -z "$initdb" ]; then echo "postgresql installed, but no initdb found"; exit 1; fi
fi
version=$("$initdb" --version | grep -Eo '[0-9]+' | head -1)
echo "initdb: $initdb (PostgreSQL $version)"
if [ "$version" -lt 15 ]; then
  echo "PostgreSQL $version is too old: Mailroom needs 15 or newer"
  exit 1
fi
