#!/usr/bin/env bash
# Part of `npm run test:image`: the image against a PostgreSQL server (Debian 12's PostgreSQL 15, the
# oldest we claim) with DATABASE_URL, its /data a bind mount owned by uid 1000, reached through
# Debian's nginx running deploy/nginx.conf on a non-default port, itself behind a TLS terminator.
# First, a role without CREATE must be refused at boot with a clear message and no tables made.
set -euo pipefail
. scripts/test-image/podman-env.sh
. scripts/test-image/lib.sh
pg_bin=/usr/lib/postgresql/15/bin
pg_dir="$run_dir/pg" data="$run_dir/web-data" nginx_dir="$run_dir/nginx"
cleanup() {
  set +e
  podman rm -f -t 5 heirloom-image-web >/dev/null 2>&1
  [ -f "$nginx_dir/nginx.pid" ] && nginx -p "$nginx_dir" -c "$nginx_dir/nginx.conf" -s stop 2>/dev/null
  runuser -u postgres -- "$pg_bin/pg_ctl" -D "$pg_dir" -m fast stop >/dev/null 2>&1
}
trap cleanup EXIT

# A PostgreSQL 15 server on this machine, its own cluster under run_dir.
mkdir -p "$pg_dir" && chown postgres: "$pg_dir" && chmod 700 "$pg_dir"
runuser -u postgres -- "$pg_bin/initdb" -D "$pg_dir" -U postgres --auth-local=trust --auth-host=scram-sha-256 >/dev/null
runuser -u postgres -- "$pg_bin/pg_ctl" -D "$pg_dir" -l "$pg_dir/log" -w start \
  -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1" >/dev/null
psql_() { runuser -u postgres -- psql -h "$pg_dir" -p "$pg_port" -U postgres -v ON_ERROR_STOP=1 -qtA "$@"; }
echo "    $(psql_ -c 'show server_version' | cut -d' ' -f1), a role that owns nothing"
psql_ -c "create role heirloom login password 'image-check'" -c "create database heirloom"

mkdir -p "$data" && chown 1000:1000 "$data"
app_env=(-e DATABASE_URL="postgresql://heirloom:image-check@127.0.0.1:$pg_port/heirloom" -e PORT="$web_port"
  -e HOST=127.0.0.1 -e APP_URL="https://127.0.0.1:$tls_port" -e TRUST_PROXY=1 -e SESSION_SECRET="$(openssl rand -hex 32)"
  -v "$data:/data")

refused=$(timeout 120 podman run --rm --network host "${app_env[@]}" "$image" 2>&1) && fail "the app started without CREATE"
message=$(grep -m1 -o '"msg":"[^"]*CREATE[^"]*"' <<<"$refused" | cut -d'"' -f4 || true)
[ -n "$message" ] || fail "no word on the missing privilege: $(tail -3 <<<"$refused")"
[ "$(psql_ -d heirloom -c "select count(*) from pg_tables where schemaname not in ('pg_catalog', 'information_schema')")" = 0 ] ||
  fail "tables were made before the refusal"
echo "    ok  refused at boot, nothing made: ${message:0:160}…"
psql_ -c "grant create on database heirloom to heirloom" -d heirloom -c "grant create on schema public to heirloom"

podman run -d --name heirloom-image-web --network host "${app_env[@]}" "$image" 2>&1 >/dev/null | grep -v systemd || true
wait_healthy heirloom-image-web
echo "    ok  with CREATE on the database and on schema public: migrated and healthy"

# deploy/nginx.conf as it is, but for the upstream's address and the port it listens on.
mkdir -p "$nginx_dir/logs" "$nginx_dir/tmp"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -keyout "$nginx_dir/key.pem" \
  -out "$nginx_dir/cert.pem" 2>/dev/null
sed -e "s/server web:3000/server 127.0.0.1:$web_port/" -e "s/listen 80;/listen 127.0.0.1:$proxy_port;/" \
  deploy/nginx.conf >"$nginx_dir/heirloom.conf"
grep -q "127.0.0.1:$web_port" "$nginx_dir/heirloom.conf" && grep -q "listen 127.0.0.1:$proxy_port" "$nginx_dir/heirloom.conf" ||
  fail "deploy/nginx.conf no longer has 'server web:3000' and 'listen 80;' to point at the test's ports"
sed -e "s|@DIR@|$nginx_dir|g" -e "s/@TLS_PORT@/$tls_port/" -e "s/@PROXY_PORT@/$proxy_port/" \
  scripts/test-image/nginx-test.conf >"$nginx_dir/nginx.conf"
nginx -p "$nginx_dir" -c "$nginx_dir/nginx.conf" -e "$nginx_dir/logs/error.log"

# Through the TLS terminator and nginx: the whole journey; straight to nginx's own port: a form post.
NODE_TLS_REJECT_UNAUTHORIZED=0 NODE_NO_WARNINGS=1 checks "https://127.0.0.1:$tls_port" heirloom-image-web fresh
BASE_URL="http://127.0.0.1:$proxy_port" node_modules/.bin/tsx scripts/test-image/checks.ts proxy
