#!/bin/sh
# The official postgres image's first start, in short: a cluster owned by POSTGRES_USER with
# POSTGRES_DB, password authentication over the network.
set -e
if [ "$1" = postgres ]; then
  shift
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres: "$PGDATA" /var/run/postgresql && chmod 700 "$PGDATA"
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/password && chown postgres /tmp/password
    runuser -u postgres -- initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/tmp/password \
      --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm /tmp/password
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    runuser -u postgres -- pg_ctl -D "$PGDATA" -o "-c listen_addresses=" -w start >/dev/null
    runuser -u postgres -- psql -U "$POSTGRES_USER" -d postgres -qc "create database \"$POSTGRES_DB\""
    runuser -u postgres -- pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
