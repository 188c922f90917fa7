#!/usr/bin/env bash
# Why: the GPU machine of the device tool (../../../shared/reference/gpu-machine.md) has no
# Vulkan loader, no Rust toolchain and no network. This stages, on the developer machine, all
# that a run there needs into one folder the device tool can carry (`carry: ["out/device"]`, 64
# MiB at most): Debian's loader packages, Debian trixie's VK_LAYER_KHRONOS_validation with its
# manifest pointing next to itself, and release builds of `dgcc` and of the runtime's `ies_probe`
# and `concurrent_instances` examples, and the runtime test binaries packed (all without debug
# information, with symbols, so that a debugger there names our frames).
#
# Usage: bash .ci/device/stage.sh [DEST]   (DEST defaults to out/device; it is made anew)
# Then on the device: bash .ci/device/closing-14.sh (or validation.sh, ies.sh, tests.sh, threads.sh, pictures.sh), which
# source common.sh.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
dest=${1:-$repo/out/device}
log() { echo "stage: $*" >&2; }

rm -rf "$dest"
mkdir -p "$dest/lib" "$dest/vvl" "$dest/bin"
(cd "$dest/lib" && apt-get download -oAPT::Architecture=amd64 \
    libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null)

layer=$(mktemp -d)
trap 'rm -rf "$layer"' EXIT
bash "$repo/.ci/fetch-trixie.sh" "$layer" vulkan-validationlayers >/dev/null
so=$(find "$layer" -name libVkLayer_khronos_validation.so | head -n 1)
json=$(find "$layer" -name VkLayer_khronos_validation.json | head -n 1)
[ -n "$so" ] && [ -n "$json" ] || { log "the trixie package has no validation layer"; exit 1; }
cp "$so" "$dest/vvl/"
# The manifest names the library next to it, wherever the folder is unpacked.
sed 's|"library_path": *"[^"]*"|"library_path": "./libVkLayer_khronos_validation.so"|' "$json" \
    > "$dest/vvl/VkLayer_khronos_validation.json"
grep -q '"library_path": "./libVkLayer_khronos_validation.so"' "$dest/vvl/VkLayer_khronos_validation.json" \
    || { log "could not point the layer manifest at its library"; exit 1; }

target=${CARGO_TARGET_DIR:-$repo/target}
# The test binaries name the checkout they were built from (DGCC_CHECKOUT, the build script's
# output), which cargo keeps while build.rs is unchanged, even where another checkout built
# into the same target folder since: touched, it runs again for this one.
touch "$repo/crates/cli/build.rs"
(cd "$repo" && cargo build --release --locked -p dgcc-cli \
    && cargo build --release --locked -p dgcc-runtime --features headless --example ies_probe \
        --example concurrent_instances)
cp "$target/release/dgcc" "$dest/bin/dgcc"
cp "$target/release/examples/ies_probe" "$target/release/examples/concurrent_instances" "$dest/bin/"
strip --strip-debug "$dest/bin/dgcc" "$dest/bin/ies_probe" "$dest/bin/concurrent_instances"

# The runtime test binaries (tests.sh), stripped of debug information and packed: they name the
# checkout they were built from (DGCC_CHECKOUT) and the dgcc beside them by absolute path, which
# tests.sh makes point at the copy of the tree and the staged dgcc there.
tests=(runtime_exec run_layout runtime_examples runtime_validate runtime_scene runtime_occlusion runtime_materials bench_scene)
built=$(cd "$repo" && cargo test --release --locked -p dgcc-cli "${tests[@]/#/--test=}" --no-run --message-format=json \
    | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | grep /deps/)
packed=$(mktemp -d)
for exe in $built; do
    name=$(basename "$exe")
    cp "$exe" "$packed/${name%-*}"
done
strip --strip-debug "$packed"/*
[ "$(ls "$packed" | wc -l)" -eq "${#tests[@]}" ] || { log "expected ${#tests[@]} test binaries, built: $built"; exit 1; }
tar cJf "$dest/tests.tar.xz" -C "$packed" .
rm -rf "$packed"
echo "$repo" > "$dest/checkout"
echo "$target/release/dgcc" > "$dest/dgcc-path"
git -C "$repo" rev-parse HEAD > "$dest/commit"
git -C "$repo" diff --quiet HEAD || echo "dirty" >> "$dest/commit"

# The device tool carries the tracked tree with it, 64 MiB in all.
size=$(du -sm "$dest" | cut -f1)
tree=$(( $(cd "$repo" && git ls-files -z | { xargs -0 cat 2>/dev/null || true; } | wc -c) / 1048576 + 1 ))
log "staged $dest: ${size} MiB (the tree ${tree} MiB), dgcc of $(tr '\n' ' ' < "$dest/commit")"
[ $((size + tree)) -lt 62 ] || { log "more than the 64 MiB the device tool carries"; exit 1; }
