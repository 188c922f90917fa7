#!/usr/bin/env bash
# Why: runs one host-built program (a Rust test binary, usually) inside the Debian trixie root
# from .ci/trixie-root.sh, so it talks to trixie's Vulkan loader, VK_LAYER_KHRONOS_validation
# 1.4.309 (which knows VK_EXT_device_generated_commands) and trixie's lavapipe. The host's own
# Vulkan stack is never touched.
#
# Shape:
# - The repo and the cargo target dir are bind-mounted at the same absolute paths inside the
#   root, so the binary, its fixtures and CARGO_MANIFEST_DIR-relative paths work unchanged.
# - Everything happens in a private mount namespace (unshare --mount): the mounts are invisible
#   to the host and vanish with the process even if it is killed; the exit trap unmounts
#   anyway, which also covers the fallback where unshare is unavailable.
# - The environment is rebuilt from scratch (env -i): only what the tests need is passed on, so
#   host Vulkan settings (VK_DRIVER_FILES pointing at host paths, VK_LAYER_PATH) cannot leak in.
# - The layer's default reporting prints each message on the program's stdout (below Rust's
#   test-output capture, which only sees print!). CMD's stdout is copied to a log as it
#   streams; any "Validation Error" there fails the run, so a test binary without its own debug
#   messenger still cannot pass with validation errors. A log file set through the layer's
#   log_filename setting would not do: every vkCreateInstance reopens it with "w", so parallel
#   tests truncate each other's messages.
#
# Usage: with-validation.sh CMD [ARG...]
# Environment: DGCC_TRIXIE_ROOT (default /opt/dgcc/trixie-root), CARGO_TARGET_DIR (default
# REPO/target), DGCC_VALIDATION_BIND (extra colon-separated host paths to bind at the same path).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
root=${DGCC_TRIXIE_ROOT:-/opt/dgcc/trixie-root}
log() { echo "with-validation: $*" >&2; }

[ $# -gt 0 ] || { log "usage: with-validation.sh CMD [ARG...]"; exit 2; }
if [ ! -f "$root/.dgcc-root" ]; then
  log "no complete trixie root at $root; build it first: bash .ci/trixie-root.sh $root"; exit 2
fi
if [ "$(id -u)" != 0 ]; then
  log "needs root (bind mounts and chroot)"; exit 2
fi

# Re-enter in a private mount namespace once, unless that is not permitted here.
if [ -z "${DGCC_WITH_VALIDATION_NS:-}" ] && command -v unshare >/dev/null \
   && unshare --mount --propagation private true 2>/dev/null; then
  DGCC_WITH_VALIDATION_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi

target=${CARGO_TARGET_DIR:-$repo/target}
mkdir -p "$target"
target=$(cd "$target" && pwd -P)

mounted=()
cleanup() {
  local i
  for (( i = ${#mounted[@]} - 1; i >= 0; i-- )); do
    umount -R "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null || true
  done
  rm -f "${vvl_log:-}"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# bind SRC: mount host path SRC at the same path inside the root (recursive for /dev, /sys).
bind() {
  local src=$1 dst=$root$1 kind=${2:---bind}
  if [ -d "$src" ]; then mkdir -p "$dst"; else mkdir -p "$(dirname "$dst")"; touch "$dst"; fi
  mount "$kind" "$src" "$dst"
  mounted+=("$dst")
}
mkdir -p "$root/proc"
mount -t proc proc "$root/proc"; mounted+=("$root/proc")
bind /dev --rbind
bind /sys --rbind
bind "$repo"
case "$target/" in "$repo"/*) ;; *) bind "$target" ;; esac
# A program given by absolute path that the root lacks (a binary in another target dir) brings
# its own folder, unless that is a system folder: the root's own /usr/bin must stay the root's.
if [ "${1#/}" != "$1" ] && [ ! -e "$root$1" ] && [ -f "$1" ]; then
  prog_dir=$(cd "$(dirname "$1")" && pwd -P)
  case "$prog_dir" in
    /|/usr|/usr/*|/bin|/sbin|/lib*|/etc|/etc/*|/var|/var/*|/proc|/proc/*|/sys|/sys/*|/dev|/dev/*|/opt|/tmp)
      log "$1 is not in the root and its folder is a system folder; not mounting it" ;;
    "$repo"|"$repo"/*|"$target"|"$target"/*) ;;
    *) bind "$prog_dir" ;;
  esac
fi
if [ -n "${DGCC_VALIDATION_BIND:-}" ]; then
  IFS=: read -r -a extra <<< "$DGCC_VALIDATION_BIND"
  for path in "${extra[@]}"; do [ -n "$path" ] && bind "$(cd "$path" && pwd -P)"; done
fi

icd=$(sed -n 's/^icd=//p' "$root/.dgcc-root")
vvl_log=$(mktemp "${TMPDIR:-/tmp}/dgcc-vvl-XXXXXX.log")

envs=(
  PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 TMPDIR=/tmp
  VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
  VK_DRIVER_FILES="$icd"
  DGCC_VALIDATION=1
)
# Pass-through: dgcc's own switches, llvmpipe/lavapipe tuning, Rust's, and CI/cargo test context.
while IFS= read -r name; do
  case "$name" in
    DGCC_VALIDATION|DGCC_TRIXIE_ROOT|DGCC_VALIDATION_BIND|DGCC_WITH_VALIDATION_NS) ;;
    DGCC_*|LP_*|RUST_*|CARGO_*|INSTA_*|VK_LOADER_DEBUG|VK_KHRONOS_VALIDATION_*|CI|TERM|NO_COLOR)
      envs+=("$name=${!name}") ;;
  esac
done < <(compgen -e)

# Keep the working directory when it exists inside the root (the repo, the target dir).
cwd=$(pwd -P)
[ -d "$root$cwd" ] || cwd=$repo

log "$(sed -n 2p "$root/.dgcc-root")"
set +e
chroot "$root" /usr/bin/env -i "${envs[@]}" /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$cwd" "$@" \
  | tee "$vvl_log"
status=${PIPESTATUS[0]}
set -e

errors=$(grep -c 'Validation Error' "$vvl_log" || true)
if [ "$errors" -gt 0 ]; then
  log "the validation layer reported $errors error(s) on stdout (above); failing"
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
