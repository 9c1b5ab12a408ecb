#!/usr/bin/env bash
# Part of `npm run test:image`: the compose files through podman-compose. Both parsed (a dry run)
# with their 30 s grace to drain; docker-compose.yml up with the image just built, seeded, read through
# `npm run outbox`, down and up again with its data kept, then down -v. The cluster file's MinIO and
# nginx images are only parsed here (nginx.conf itself is tested by server-check.sh).
set -euo pipefail
. scripts/test-image/podman-env.sh
. scripts/test-image/lib.sh
dir="$run_dir/compose" repo=$(pwd)
base=$(awk 'toupper($1) == "FROM" { print $2; exit }' Dockerfile)
case "$base" in */*) ;; *) base="docker.io/library/$base" ;; esac
mkdir -p "$dir"
# A copy, so the .env compose reads is the test's and never a developer's own.
cp docker-compose.yml docker-compose.cluster.yml "$dir/" && cp -r deploy "$dir/"
cat >"$dir/.env" <<EOF
POSTGRES_PASSWORD=$(openssl rand -hex 16)
MINIO_ROOT_PASSWORD=$(openssl rand -hex 16)
SESSION_SECRET=$(openssl rand -hex 32)
APP_URL=http://127.0.0.1:$compose_port
HOST_PORT=127.0.0.1:$compose_port
EOF
# The image built above instead of building it again.
printf 'services:\n  app:\n    image: %s\n' "$image" >"$dir/image.yml"
cd "$dir"
compose() { podman-compose -f docker-compose.yml -f image.yml "$@"; }
trap 'compose down -v >/dev/null 2>&1' EXIT

# podman-compose 1.0.3 has no `config`: a dry run parses, interpolates (`${VAR:?}` included) and
# prints the `podman run` of every container without starting one.
for file in docker-compose.yml docker-compose.cluster.yml; do
  podman-compose --dry-run -f "$file" up -d --no-build >"$file.dry-run" 2>&1 || fail "$file: $(tail -3 "$file.dry-run")"
  podman-compose -f "$file" down -v >/dev/null 2>&1 # the volumes and network a dry run makes anyway
  containers=$(grep -o -- '--name=[^ ]*' "$file.dry-run" | cut -d= -f2 | sort | tr '\n' ' ')
  graced=$(grep -c "stop_grace_period: 30s" "$file" || true)
  [ "$graced" -ge 1 ] || fail "$file: no stop_grace_period of 30 s"
  echo "    ok  $file parsed: $containers(stop_grace_period 30s: $graced)"
done

postgres=$(awk '/image: postgres/ { print $2; exit }' docker-compose.yml)
case "$postgres" in */*) qualified="$postgres" ;; *) qualified="docker.io/library/$postgres" ;; esac
if ! podman image exists "$qualified" && ! timeout 300 podman pull -q "$qualified" >/dev/null 2>&1; then
  echo "    $qualified cannot be pulled: Debian's PostgreSQL 15 stands in for it"
  podman build -q --build-arg BASE="$base" -t "$qualified" "$repo/scripts/test-image/postgres-stand-in" >postgres-build.log 2>&1 ||
    fail "the PostgreSQL stand-in: $(tail -5 postgres-build.log)"
fi

app_container() { podman ps -a --filter label=com.docker.compose.service=app --format '{{.Names}}' | head -1; }
up() {
  compose up -d >up.log 2>&1 || fail "compose up: $(tail -5 up.log)"
  # podman-compose 1.0.3 starts the app without waiting for the database's health: it restarts.
  wait_healthy "$(app_container)" 300 restarts
}
compose down -v >/dev/null 2>&1 || true
# A network left by an earlier run may predate the dnsname plugin: made afresh.
podman network ls -q --filter label=io.podman.compose.project=compose | xargs -r podman network rm -f >/dev/null
up_started=$(date +%s)
up
curl -fsS "http://127.0.0.1:$compose_port/healthz" >/dev/null || fail "/healthz on HOST_PORT"
app=$(app_container)
podman exec "$app" npm run --silent db:seed >seed.log 2>&1 || fail "db:seed: $(tail -3 seed.log)"
podman exec "$app" npm run --silent outbox -- --limit 50 >outbox.log 2>&1 || true
grep -q "email to" outbox.log || fail "npm run outbox shows no email: $(tail -3 outbox.log)"
echo "    ok  up, healthy on HOST_PORT, seeded, outbox read with npm run outbox ($(elapsed "$up_started"))"
compose down >down.log 2>&1 || fail "compose down: $(tail -3 down.log)"
up
podman exec "$(app_container)" npm run --silent db:seed >seed-again.log 2>&1 || true
grep -q "Already there" seed-again.log || fail "the data did not survive down/up: $(tail -5 seed-again.log)"
echo "    ok  down and up again: the family is still there"
compose down -v >/dev/null 2>&1
