#!/usr/bin/env bash
# `npm run test:image` (run by .ci/run): builds the Docker image with podman as a self-hoster would
# and runs it alone, against a PostgreSQL server through nginx, and under compose
# (decision 031). Installs what it lacks from Debian (as root). Where the Dockerfile's base cannot be
# pulled (no registry reachable), a stand-in is made from Debian packages and Node 22
# (scripts/test-image/stand-in-base.sh). Images, layers and the stand-in live under IMAGE_CACHE
# (the machine's Heirloom cache: scripts/test-image/podman-env.sh), so a second run, from this clone
# or a fresh one, rebuilds only what changed.
# Host ports: IMAGE_TEST_PORT and the five after it (default 4101-4106).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
lap=$started
section() { echo "--- $* ($(elapsed "$lap") since the last step, $(elapsed "$started") in all)"; lap=$(date +%s); }

# --- what a fresh Debian lacks
need=()
for pair in podman:podman runc:runc debootstrap:debootstrap podman-compose:podman-compose nginx:nginx-light \
  pg_ctlcluster:postgresql newuidmap:uidmap; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
[ -x /usr/lib/postgresql/15/bin/initdb ] || need+=(postgresql-15)
# Containers of a compose project find each other by name through it (podman 4.3's CNI networks).
[ -x /usr/lib/cni/dnsname ] || need+=(golang-github-containernetworking-plugin-dnsname)
if [ ${#need[@]} -gt 0 ]; then
  section "installing ${need[*]} (Debian packages)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends "${need[@]}" >/dev/null
fi
. scripts/ensure-node22.sh
. scripts/test-image/podman-env.sh
. scripts/test-image/lib.sh
[ -x node_modules/.bin/tsx ] || npm ci --no-audit --no-fund

port=${IMAGE_TEST_PORT:-4101}
export alone_port=$port pg_port=$((port + 1)) web_port=$((port + 2)) proxy_port=$((port + 3)) tls_port=$((port + 4))
# This run's files (logs, a PostgreSQL cluster that runs as the postgres user, nginx) stay in the
# clone: the machine's cache sits in a home folder that user cannot enter.
export compose_port=$((port + 5)) image=localhost/heirloom:test run_dir="$(pwd)/.cache/test-image-run-$port"
rm -rf "$run_dir" && mkdir -p "$run_dir"
cleanup() {
  set +e
  podman rm -f -t 5 heirloom-image-alone >/dev/null 2>&1
}
trap cleanup EXIT

# --- the base: pulled where a registry answers, else the stand-in
base=$(awk 'toupper($1) == "FROM" { print $2; exit }' Dockerfile)
case "$base" in */*) qualified="$base" ;; *) qualified="docker.io/library/$base" ;; esac
if podman image exists "$qualified"; then
  stand_in=$(podman image inspect --format '{{index .Labels "heirloom.stand-in"}}' "$qualified" 2>/dev/null || true)
  section "base $qualified: already here${stand_in:+ (the stand-in: $stand_in)}"
elif timeout 300 podman pull -q "$qualified" >/dev/null 2>&1; then
  section "base $qualified: pulled"
else
  section "base $qualified cannot be pulled: making the stand-in from Debian packages"
  scripts/test-image/stand-in-base.sh "$qualified"
fi

# --- the image (docker format: OCI images drop the HEALTHCHECK)
section "podman build --format docker"
build_started=$(date +%s)
podman build --format docker --pull=never -t "$image" . >"$run_dir/build.log" 2>&1 || {
  tail -40 "$run_dir/build.log"
  exit 1
}
size=$(podman image inspect --format '{{.Size}}' "$image")
echo "    built in $(elapsed "$build_started"); image size $((size / 1000000)) MB"
podman history --format '{{.Size}}\t{{.CreatedBy}}' "$image" | awk -F'\t' '$1 ~ /MB|GB/ { printf "      %-9s %.90s\n", $1, $2 }'
[ -n "$(podman image inspect --format '{{.Config.Healthcheck}}' "$image" | grep -v '<nil>')" ] || {
  echo "    FAILED: the image has no HEALTHCHECK"
  exit 1
}

# --- alone: embedded PostgreSQL in the /data volume
section "alone (embedded PostgreSQL in a named volume)"
podman volume rm -f heirloom-image-alone-data >/dev/null 2>&1 || true
# (podman without systemd says it cannot schedule the health check: `podman healthcheck run` runs it.)
podman run -d --name heirloom-image-alone -p "127.0.0.1:$alone_port:3000" \
  -e APP_URL="http://127.0.0.1:$alone_port" -v heirloom-image-alone-data:/data "$image" 2>&1 >/dev/null | grep -v systemd || true
boot_started=$(date +%s)
wait_healthy heirloom-image-alone
echo "    healthy $(elapsed "$boot_started") after start (first boot: cluster made, migrated)"
checks "http://127.0.0.1:$alone_port" heirloom-image-alone fresh
stop_started=$(date +%s)
podman stop -t 30 heirloom-image-alone 2>&1 >/dev/null | grep -v systemd || true
echo "    stopped (SIGTERM, drained) in $(elapsed "$stop_started")"
podman start heirloom-image-alone 2>&1 >/dev/null | grep -v systemd || true
wait_healthy heirloom-image-alone
checks "http://127.0.0.1:$alone_port" heirloom-image-alone kept
podman rm -f heirloom-image-alone >/dev/null
podman volume rm -f heirloom-image-alone-data >/dev/null

# --- against a PostgreSQL server (Debian 12's 15, the oldest we claim), behind nginx
section "PostgreSQL 15 server, DATABASE_URL, behind deploy/nginx.conf and a TLS terminator"
scripts/test-image/server-check.sh

section "compose files"
scripts/test-image/compose-check.sh

section "all image checks passed"
