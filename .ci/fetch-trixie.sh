#!/usr/bin/env bash
# Why: bookworm's Vulkan headers (1.3.239) and validation layers predate
# VK_EXT_device_generated_commands; Debian trixie has 1.4.309 of both. This downloads trixie
# packages (without installing them) and unpacks them under DEST, using a private apt state so
# the machine's own apt configuration is untouched. The trixie entry is derived from the
# machine's existing Debian source entry (same mirror and key); no host is named here.
# Usage: fetch-trixie.sh DEST PACKAGE...
set -euo pipefail
dest=$1; shift
mkdir -p "$dest"
state=$(mktemp -d)
mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
src=/etc/apt/sources.list.d/debian.sources
awk 'BEGIN{RS="";ORS="\n\n"} NR==1 { gsub(/Suites:[^\n]*/, "Suites: trixie"); print }' "$src" > "$state/trixie.sources"
opts=(-o Dir::State::Lists="$state/lists" -o Dir::Etc::SourceList=/dev/null
      -o Dir::Etc::SourceParts="$state" -o Dir::Cache="$state/cache" -o APT::Architecture=amd64
      -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
# Only trixie.sources lives in SourceParts; the .sources suffix is what apt reads there.
apt-get "${opts[@]}" update -qq
(cd "$state/cache/archives" && apt-get "${opts[@]}" download "$@" >/dev/null)
for deb in "$state"/cache/archives/*.deb; do dpkg -x "$deb" "$dest"; done
rm -rf "$state"
echo "fetch-trixie: unpacked $* into $dest"
