#!/usr/bin/env bash
# Fuzz every target for a bounded time: `.ci/fuzz.sh [SECONDS_PER_TARGET] [TARGET…]`.
# Seeds the corpora (fuzz/seed.sh), builds the targets once, runs each for SECONDS (default 60)
# and prints its exec count. Exits non-zero when any target finds a crash, a timeout (one input
# slower than 10 s) or an out-of-memory input (over 2 GiB); the input is then in
# fuzz/artifacts/<target>/ — copy it to tests/fuzz_regressions/<target>/ once understood.
# Needs the nightly toolchain and cargo-fuzz (installed if missing). The sanitizer is off: the
# code is safe Rust, where AddressSanitizer finds nothing more and costs most of the speed;
# debug assertions are on so integer overflow is a crash, not a silent wrap. Inputs may be up to
# 1 MiB (DGCC_FUZZ_MAX_LEN), past the 64 KiB where long names used to panic the emitters.
# DGCC_FUZZ_TARGET_DIR picks the build folder (default fuzz/target). DGCC_FUZZ_SEED (default 1)
# seeds libFuzzer's random choices, so a run retraces the mutations a longer run with the same
# seed made first (Rust's randomly keyed hash maps still vary coverage a little from run to run);
# set it to anything else to explore elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ron dgc profile_json pipeline manifest kernel_lint names emit_compile fmt)
target_dir=${DGCC_FUZZ_TARGET_DIR:-fuzz/target}

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# cargo-fuzz wants a nightly compiler; where only the stable toolchain exists (no other can be
# fetched on some machines), let stable accept the nightly flags instead.
toolchain=()
if cargo +nightly --version >/dev/null 2>&1; then
  toolchain=(+nightly)
else
  export RUSTC_BOOTSTRAP=1
  echo "fuzz: no nightly toolchain; using stable with RUSTC_BOOTSTRAP=1"
fi
bash fuzz/seed.sh
flags=(--sanitizer none --debug-assertions --target-dir "$target_dir")
cargo "${toolchain[@]}" fuzz build "${flags[@]}" 2>&1 | tail -n 3

dict_for() {
  case $1 in
    ron|pipeline|fmt) echo "-dict=fuzz/dict/ron.dict" ;;
    profile_json) echo "-dict=fuzz/dict/json.dict" ;;
    manifest) echo "-dict=fuzz/dict/manifest.dict" ;;
    kernel_lint) echo "-dict=fuzz/dict/glsl.dict" ;;
    dgc) [ -f fuzz/dict/dgc.dict ] && echo "-dict=fuzz/dict/dgc.dict" ;;
  esac
}

failed=()
printf '\n%-14s %12s %10s  %s\n' target execs exec/s result
for t in "${targets[@]}"; do
  log=$(mktemp)
  mkdir -p "fuzz/artifacts/$t"
  status=0
  # shellcheck disable=SC2046
  cargo "${toolchain[@]}" fuzz run "${flags[@]}" "$t" -- -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len="${DGCC_FUZZ_MAX_LEN:-1048576}" -print_final_stats=1 -seed="${DGCC_FUZZ_SEED:-1}" $(dict_for "$t") \
    >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  if [ "$status" = 0 ]; then
    result=ok
  else
    result="FAILED (exit $status)"
    failed+=("$t")
    echo "--- $t: last lines of the libFuzzer log" >&2
    tail -n 40 "$log" >&2
  fi
  printf '%-14s %12s %10s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$result"
  rm -f "$log"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: crashes in ${failed[*]}; inputs in fuzz/artifacts/" >&2
  exit 1
fi
echo "fuzz: all targets ran ${seconds}s without a crash"
