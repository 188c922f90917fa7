#!/usr/bin/env bash
# Fill fuzz/corpus/<target>/ with seed inputs: the committed seeds (fuzz/seeds/), every
# description under examples/ and tests/, the profile fixtures, and the saved regression
# inputs. Files are named by content hash, so running it again adds nothing twice. The corpus
# grows while fuzzing and is not committed (.gitignore): only seeds are.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="$root/fuzz/corpus"
mkdir -p "$corpus"/{ron,dgc,profile_json,pipeline,manifest,kernel_lint}

# add TARGET FILE [PREFIX]: copy FILE, after the bytes PREFIX names as printf octal escapes
# without the first backslash (`002` for the `pipeline` selector byte 2).
add() {
  local target=$1 file=$2 prefix=${3:-}
  local tmp hash
  tmp=$(mktemp)
  if [ -n "$prefix" ]; then printf "\\$prefix" > "$tmp"; fi
  cat "$file" >> "$tmp"
  hash=$(sha1sum "$tmp" | cut -c1-16)
  mv "$tmp" "$corpus/$target/seed-$hash"
}

# Descriptions: bounded in size so libFuzzer's length limit stays small.
descriptions() {
  find "$root/fuzz/seeds" "$root/examples" "$root/tests" -type f -name "*.$1" -size -64k \
    -not -path "$root/tests/fuzz_regressions/*" 2>/dev/null | sort
}
n_ron=0 n_dgc=0 n_json=0
while IFS= read -r f; do
  add ron "$f"; add pipeline "$f" 000; add pipeline "$f" 002; n_ron=$((n_ron + 1))
done < <(descriptions ron)
while IFS= read -r f; do
  add dgc "$f"; add pipeline "$f" 001; add pipeline "$f" 003; n_dgc=$((n_dgc + 1))
done < <(descriptions dgc)
while IFS= read -r f; do
  add profile_json "$f"; n_json=$((n_json + 1))
done < <(find "$root/tests/profiles" -type f -name '*.json' -size -64k | sort)
# Manifests the emitter tests and the runtime keep.
n_manifest=0
while IFS= read -r f; do
  add manifest "$f"; n_manifest=$((n_manifest + 1))
done < <(find "$root/tests" "$root/shaders" "$root/examples" -type f -name '*.dgc.json' -size -64k \
  -not -path "$root/tests/fuzz_regressions/*" 2>/dev/null | sort)
# GLSL kernels, behind a 7-byte context: local_size 64 x 1, smallest subgroup 8 (known).
n_kernel=0
while IFS= read -r f; do
  add kernel_lint "$f" '100\000\001\000\010\000\001'; n_kernel=$((n_kernel + 1))
done < <(find "$root/examples" "$root/shaders" "$root/tests" -type f \( -name '*.comp' -o -name '*.glsl' \) -size -64k \
  -not -path "$root/tests/fuzz_regressions/*" 2>/dev/null | sort)
# Saved regression inputs go back to the target that found them, except the open ones
# (tests/fuzz_regressions/open.txt): they still crash, and a corpus must not start with a crash.
open_list="$root/tests/fuzz_regressions/open.txt"
for t in ron dgc profile_json pipeline manifest kernel_lint; do
  [ -d "$root/tests/fuzz_regressions/$t" ] || continue
  for f in "$root/tests/fuzz_regressions/$t"/*; do
    [ -f "$f" ] || continue
    if [ -f "$open_list" ] && grep -q "^$t/$(basename "$f")[[:space:]]" "$open_list"; then continue; fi
    add "$t" "$f"
  done
done
echo "seed: $n_ron .ron, $n_dgc .dgc, $n_json profile files, $n_manifest manifests, $n_kernel kernels -> $corpus"
