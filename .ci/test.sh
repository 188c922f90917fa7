#!/usr/bin/env bash
# The whole test suite, as README command two and CI run it. Installs what the suite needs
# (lavapipe with VK_EXT_device_generated_commands, shader compilers, newer Vulkan headers) when
# run as root, then runs every test. Under CI=true, a missing Vulkan device or tool fails.
set -euo pipefail
cd "$(dirname "$0")/.."

# VK_LAYER_KHRONOS_validation that knows VK_EXT_device_generated_commands (1.4.309) lives in a
# cached Debian trixie root: bookworm's 1.3.239 predates the extension (VALIDATION.md).
TRIXIE_ROOT=${DGCC_TRIXIE_ROOT:-/opt/dgcc/trixie-root}
if [ "$(id -u)" = 0 ]; then
  bash .ci/setup.sh
  bash .ci/trixie-root.sh "$TRIXIE_ROOT"
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

step "Vulkan tests under VK_LAYER_KHRONOS_validation 1.4.309 on trixie's lavapipe (zero errors)"
# Only the Vulkan-using test binaries: the root has no glslangValidator or cc for the others.
# The wrapper runs each binary in the root and fails on any "Validation Error" it prints; the
# tests themselves fail on any error their own messenger counts (DGCC_VALIDATION=1).
if [ "$(id -u)" = 0 ]; then
  DGCC_TRIXIE_ROOT=$TRIXIE_ROOT CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$PWD/.ci/with-validation.sh" \
    cargo test --locked --test vvl_smoke --test vvl_differential \
      --test runtime_exec --test runtime_examples --test runtime_scene 2>&1
elif [ -n "${CI:-}" ]; then
  echo "test: the validation-layer step needs root (chroot and bind mounts); CI must run as root" >&2
  exit 1
else
  echo "test: SKIP the validation-layer step (needs root: sudo bash .ci/test.sh)"
fi

step "the runtime alone builds without the compiler's dependencies"
cargo build --locked --lib --no-default-features --features runtime 2>&1
step "the compiler alone builds without Vulkan"
cargo build --locked --lib --no-default-features --features compiler 2>&1

echo
echo "test: all steps passed"
