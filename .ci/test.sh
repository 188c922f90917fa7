#!/usr/bin/env bash
# The whole test suite, as README command two and CI run it. As root it first installs what the
# suite needs (lavapipe with VK_EXT_device_generated_commands from bookworm-backports, shader
# compilers, Vulkan headers that declare the extension, a Debian trixie root holding the 1.4.309
# validation layers, mdBook, cargo-fuzz). Under CI=true a missing Vulkan device, tool or
# validation layer fails the run instead of skipping.
#   DGCC_FUZZ_SECONDS   seconds per fuzz target (default 60; 0 skips fuzzing)
set -euo pipefail
cd "$(dirname "$0")/.."

root=0
[ "$(id -u)" = 0 ] && root=1
TRIXIE_ROOT=${DGCC_TRIXIE_ROOT:-/opt/dgcc/trixie-root}

step() { echo; echo "==> $*"; }

if [ "$root" = 1 ]; then
  step "installing what the suite needs"
  bash .ci/setup.sh
  bash .ci/trixie-root.sh "$TRIXIE_ROOT"
elif ! [ -f /usr/share/vulkan/icd.d/lvp_icd.json ]; then
  echo "test: not root, so nothing is installed; run as root (or: sudo bash .ci/setup.sh) first" >&2
fi

export DGCC_REQUIRE_VULKAN=${DGCC_REQUIRE_VULKAN:-${CI:+1}}
export DGCC_REQUIRE_TOOLS=${DGCC_REQUIRE_TOOLS:-${CI:+1}}
# Prefer lavapipe where no other Vulkan driver is configured.
if [ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ] && [ -f /usr/share/vulkan/icd.d/lvp_icd.json ]; then
  export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.json
fi
export CARGO_TERM_COLOR=never

step "formatting (rustfmt.toml)"
cargo fmt --check 2>&1

step "lints: clippy on every crate and target, warnings denied"
cargo clippy --locked --workspace --all-targets --features dgcc-cli/shaderc -- -D warnings 2>&1

step "every test of every crate, with the shader checks (shaderc + naga) built in"
cargo test --locked --workspace --features dgcc-cli/shaderc --no-fail-fast 2>&1

step "runtime tests and the differential check under VK_LAYER_KHRONOS_validation 1.4.309 (trixie root, lavapipe)"
# Only the Vulkan-using test binaries (the root has no glslangValidator or cc for the others).
# The wrapper fails a binary on any "Validation Error" on stdout; under DGCC_VALIDATION=1 the
# runtime tests also fail on any error their own messenger counted, and vvl_differential fails
# on any layer VUID dgcc does not report (VALIDATION.md).
VVL_TESTS=(--test vvl_smoke --test vvl_differential --test runtime_exec --test runtime_examples --test run_layout --test runtime_scene --test runtime_validate --test runtime_materials --test runtime_occlusion)
if [ "$root" = 1 ]; then
  DGCC_TRIXIE_ROOT=$TRIXIE_ROOT CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$PWD/.ci/with-validation.sh" \
    cargo test --locked -p dgcc-cli --features shaderc "${VVL_TESTS[@]}" 2>&1
elif [ -n "${CI:-}" ]; then
  echo "test: the validation-layer run needs root (it enters a chroot)" >&2
  exit 1
else
  echo "test: SKIP the validation-layer run (needs root)"
fi

step "each part builds alone: the runtime without the compiler, the compiler without Vulkan, the facade's feature sets, the CLI without shaderc"
cargo build --locked -p dgcc-core 2>&1
cargo build --locked -p dgcc-runtime 2>&1
cargo build --locked -p dgcc-compiler 2>&1
cargo build --locked -p dgcc --no-default-features 2>&1
cargo build --locked -p dgcc 2>&1
cargo build --locked -p dgcc --no-default-features --features compiler 2>&1
# Without `shaderc`, the kernel checks that need it are named as skipped (the one test that
# only exists in that build; every other run above has the feature).
cargo test --locked -p dgcc-cli --test shader 2>&1

step "the crate docs build without warnings"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --workspace --lib 2>&1 | tail -n 2

step "the book builds"
if ! command -v mdbook >/dev/null; then
  cargo install mdbook --locked --no-default-features 2>&1 | tail -n 2
fi
mdbook build book 2>&1 | tail -n 3

fuzz_seconds=${DGCC_FUZZ_SECONDS:-60}
if [ "$fuzz_seconds" != 0 ]; then
  step "fuzzing: ${fuzz_seconds}s per target"
  bash .ci/fuzz.sh "$fuzz_seconds" 2>&1
fi

echo
echo "test: all steps passed"
