#!/usr/bin/env bash
# Why: the runtime tests must run under VK_LAYER_KHRONOS_validation that knows
# VK_EXT_device_generated_commands. Bookworm's layers (1.3.239) predate it and raise false
# "unknown VkStructureType" errors; trixie's (1.4.309) know it but need glibc 2.38, newer than
# the host's 2.36. So we build a small Debian trixie root with its own loader, layers and
# lavapipe, and run host-built test binaries inside it (.ci/with-validation.sh). A binary linked
# against glibc 2.36 runs on 2.41; the reverse would not.
#
# Shape: idempotent and cached. The root is built in DIR.partial and renamed to DIR only once
# every check has passed, so an interrupted build never looks complete; DIR/.dgcc-root records
# the package set and is what "already complete" means. The mirror and its keyring come from
# the machine's own apt source entry at run time (no host is written here).
#
# Usage: trixie-root.sh DIR        (needs root; ~1-2 minutes and ~400 MB the first time)
set -euo pipefail

dir=${1:?usage: trixie-root.sh DIR}
dir=${dir%/}
suite=trixie
# What the root is for: the Vulkan loader, the validation layers, lavapipe and vulkaninfo.
packages=(libvulkan1 vulkan-validationlayers mesa-vulkan-drivers vulkan-tools)
stamp_want="suite=$suite packages=${packages[*]} layout=2"
stamp="$dir/.dgcc-root"

log() { echo "trixie-root: $*" >&2; }
# Mount points at or below $1, deepest first (mountinfo field 5; octal escapes left as is).
mounts_under() { awk -v p="$1" '$5 == p || index($5, p "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r; }
# Never rm -rf a tree with something mounted in it: a bind-mounted repo would be deleted with it.
safe_remove() {
  local m
  for m in $(mounts_under "$1"); do umount -l "$m" 2>/dev/null || true; done
  if [ -n "$(mounts_under "$1")" ]; then log "refusing to remove $1: still has mounts"; exit 1; fi
  rm -rf "$1"
}

if [ -f "$stamp" ] && [ "$(head -n1 "$stamp")" = "$stamp_want" ]; then
  log "$dir is already complete ($(sed -n 2p "$stamp"))"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  log "needs root (debootstrap and chroot)"; exit 1
fi
# One builder at a time per DIR; a second one waits, then finds the root complete.
mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock 9
if [ -f "$stamp" ] && [ "$(head -n1 "$stamp")" = "$stamp_want" ]; then
  log "$dir was completed by another run"; exit 0
fi

# The first 'deb' entry of the machine's apt sources: its first URI and its keyring. deb822
# (.sources) first, as Debian 12 images ship; the one-line format as a fallback.
mirror="" keyring=""
src822=/etc/apt/sources.list.d/debian.sources
if [ -f "$src822" ]; then
  read -r mirror keyring < <(awk '
    BEGIN { RS = ""; FS = "\n" }
    {
      types = ""; uri = ""; key = ""
      for (i = 1; i <= NF; i++) {
        if ($i ~ /^Types:/)     { types = $i }
        if ($i ~ /^URIs:/)      { split($i, u, /[ \t]+/); uri = u[2] }
        if ($i ~ /^Signed-By:/) { split($i, k, /[ \t]+/); key = k[2] }
      }
      if (types ~ /(^|[ \t])deb([ \t]|$)/ && uri != "" && uri !~ /security/) { print uri, key; exit }
    }' "$src822") || true
fi
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
    /etc/apt/sources.list | grep -v security | head -n1) || true
fi
if [ -z "$mirror" ]; then
  log "found no Debian mirror in $src822 or /etc/apt/sources.list"; exit 1
fi
keyring=${keyring:-/usr/share/keyrings/debian-archive-keyring.gpg}

export DEBIAN_FRONTEND=noninteractive
if ! command -v debootstrap >/dev/null; then
  log "installing debootstrap"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

start=$(date +%s)
partial="$dir.partial"
safe_remove "$partial"
log "debootstrap $suite (minbase + ${packages[*]}) into $partial"
include=$(IFS=,; echo "${packages[*]}")
# minbase: only Essential packages and apt; --include resolves dependencies but not
# Recommends. Two stages so that dpkg in the second one can skip its fsyncs (force-unsafe-io):
# nothing here must survive a power cut, and it saves about a third of the time (measured:
# second stage 100 s -> 66 s). Output goes to a log that is shown only on failure.
fail() {
  tail -n 40 "$dir.log" >&2
  [ -f "$partial/debootstrap/debootstrap.log" ] && tail -n 20 "$partial/debootstrap/debootstrap.log" >&2
  log "debootstrap failed in the $1 stage (full log: $dir.log)"; exit 1
}
debootstrap --foreign --variant=minbase --components=main --include="$include" \
  --keyring="$keyring" "$suite" "$partial" "$mirror" >"$dir.log" 2>&1 || fail first
unsafe_io="$partial/etc/dpkg/dpkg.cfg.d/dgcc-unsafe-io"
mkdir -p "$(dirname "$unsafe_io")"
echo force-unsafe-io > "$unsafe_io"
chroot "$partial" /debootstrap/debootstrap --second-stage >>"$dir.log" 2>&1 || fail second
rm -f "$unsafe_io"

# Size: the downloaded .debs and apt lists are not needed to run anything.
rm -rf "$partial"/var/cache/apt/archives/*.deb "$partial"/var/lib/apt/lists/* \
       "$partial"/usr/share/doc/* "$partial"/usr/share/man/* "$partial"/usr/share/locale/*

# Only lavapipe is ever used here: drop mesa's hardware Vulkan drivers and their
# manifests (~70 MB), so the loader cannot pick one up either.
for json in "$partial"/usr/share/vulkan/icd.d/*.json; do
  case "$(basename "$json")" in lvp_icd*) continue ;; esac
  lib=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$json")
  [ -n "$lib" ] && rm -f "$partial/usr/lib/x86_64-linux-gnu/$(basename "$lib")"
  rm -f "$json"
done

# Checks: the pieces with-validation.sh relies on exist, and lavapipe in this root exposes
# VK_EXT_device_generated_commands (vulkaninfo runs inside the root, without layers).
version() { chroot "$partial" dpkg-query -W -f='${Version}' "$1"; }
icd=$(ls "$partial"/usr/share/vulkan/icd.d/lvp_icd*.json 2>/dev/null | head -n1) || true
[ -n "$icd" ] || { log "no lavapipe ICD manifest in $partial"; exit 1; }
icd=${icd#"$partial"}
[ -f "$partial/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json" ] \
  || { log "no validation layer manifest in $partial"; exit 1; }
extensions=$(chroot "$partial" /usr/bin/env -i PATH=/usr/bin:/bin VK_DRIVER_FILES="$icd" \
  vulkaninfo 2>/dev/null | grep -o 'VK_EXT_device_generated_commands' | head -n1) || true
[ -n "$extensions" ] || { log "lavapipe in $partial does not expose VK_EXT_device_generated_commands"; exit 1; }

versions="vulkan-validationlayers $(version vulkan-validationlayers), mesa-vulkan-drivers $(version mesa-vulkan-drivers), libvulkan1 $(version libvulkan1), libc6 $(version libc6)"
{ echo "$stamp_want"; echo "$versions"; echo "icd=$icd"; } > "$partial/.dgcc-root"
if [ -e "$dir" ] && [ -n "$(mounts_under "$dir")" ]; then
  log "$dir is in use (mounts below it); leaving the new root at $partial"; exit 1
fi
safe_remove "$dir"
mv "$partial" "$dir"
rm -f "$dir.log"
log "built $dir in $(( $(date +%s) - start ))s, $(du -sh "$dir" | cut -f1): $versions"
