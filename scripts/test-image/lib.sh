# Helpers for scripts/test-image*.sh (sourced after podman-env.sh).
elapsed() { echo "$(($(date +%s) - $1)) s"; }

fail() {
  echo "    FAILED: $*"
  exit 1
}

# Runs the image's own HEALTHCHECK until it passes: wait_healthy <container> [seconds] [restarts]
# ("restarts": the container may exit and be restarted by its policy meanwhile).
wait_healthy() {
  local name=$1 deadline=$(($(date +%s) + ${2:-240})) restarts=${3:-}
  until podman healthcheck run "$name" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge $deadline ] ||
      { [ -z "$restarts" ] && [ "$(podman inspect --format '{{.State.Running}}' "$name" 2>/dev/null)" != true ]; }; then
      podman logs --tail 30 "$name" 2>&1 | sed 's/^/      /'
      fail "$name not healthy"
    fi
    sleep 2
  done
}

# scripts/test-image/checks.ts against a running container: checks <url> <container> fresh|kept
checks() {
  BASE_URL=$1 EXEC="podman exec $2" STATE="$run_dir/$2.json" node_modules/.bin/tsx scripts/test-image/checks.ts "$3"
}
