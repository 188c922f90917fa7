#!/usr/bin/env bash
# The whole test suite, as README command two and CI run it. Installs what the suite needs
# (lavapipe with VK_EXT_device_generated_commands, shader compilers, newer Vulkan headers) when
# run as root, then runs every test. Under CI=true, a missing Vulkan device or tool fails.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" = 0 ]; then
  bash .ci/setup.sh
elif ! [ -f /usr/share/vulkan/icd.d/lvp_icd.json ]; then
  echo "test: not root, so not installing packages; run as root (or: sudo bash .ci/setup.sh) first" >&2
fi

export DGCC_REQUIRE_VULKAN=${DGCC_REQUIRE_VULKAN:-${CI:+1}}
export DGCC_REQUIRE_TOOLS=${DGCC_REQUIRE_TOOLS:-${CI:+1}}
# Prefer lavapipe where no other Vulkan driver is configured.
if [ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ] && [ -f /usr/share/vulkan/icd.d/lvp_icd.json ]; then
  export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.json
fi
export CARGO_TERM_COLOR=never

step() { echo; echo "==> $*"; }

step "unit and integration tests (default features)"
cargo test --locked 2>&1

step "the runtime alone builds without the compiler's dependencies"
cargo build --locked --lib --no-default-features --features runtime 2>&1
step "the compiler alone builds without Vulkan"
cargo build --locked --lib --no-default-features --features compiler 2>&1

echo
echo "test: all steps passed"
