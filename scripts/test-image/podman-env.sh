# Source this (`. scripts/test-image/podman-env.sh`): podman with its storage and settings under
# IMAGE_CACHE, so the images, layers and the stand-in base stay between runs, and between clones
# (default: the machine's Heirloom cache, beside the speech engine's; HEIRLOOM_CACHE_DIR=off keeps
# it in the clone's .cache/test-image), and nothing touches the machine's own podman settings. The
# settings are the ones these machines need: runc (crun refuses hybrid cgroups), explicit
# ulimits (the defaults fail with "setrlimit … Operation not permitted"), cgroupfs and file events
# (no systemd here).
heirloom_cache="${HEIRLOOM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/heirloom}"
[ "$heirloom_cache" = off ] && heirloom_cache="$(pwd)/.cache"
export IMAGE_CACHE="${IMAGE_CACHE:-$heirloom_cache/test-image}"
mkdir -p "$IMAGE_CACHE/storage" "$IMAGE_CACHE/run" "$IMAGE_CACHE/networks" "$IMAGE_CACHE/tmp"
cat >"$IMAGE_CACHE/storage.conf" <<CONF
[storage]
driver = "overlay"
graphroot = "$IMAGE_CACHE/storage"
runroot = "$IMAGE_CACHE/run"
CONF
cat >"$IMAGE_CACHE/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
image_copy_tmp_dir = "$IMAGE_CACHE/tmp"
[network]
network_config_dir = "$IMAGE_CACHE/networks"
# Not podman's usual 10.88/16, so this does not meet another podman on the machine.
default_subnet = "${IMAGE_TEST_SUBNET:-10.89.41.0/24}"
CONF
export CONTAINERS_STORAGE_CONF="$IMAGE_CACHE/storage.conf"
export CONTAINERS_CONF="$IMAGE_CACHE/containers.conf"
export TMPDIR="$IMAGE_CACHE/tmp"
