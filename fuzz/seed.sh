#!/usr/bin/env bash
# Fill fuzz/corpus/<target>/ with seed inputs: the committed seeds (fuzz/seeds/), every
# description under examples/ and tests/, the profile fixtures, and the saved regression
# inputs. Files are named by content hash, so running it again adds nothing twice. The corpus
# grows while fuzzing and is not committed (.gitignore): only seeds are.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="$root/fuzz/corpus"
mkdir -p "$corpus"/{ron,dgc,profile_json,pipeline,manifest,kernel_lint,fmt,names,emit_compile}

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
  add ron "$f"; add pipeline "$f" 000; add pipeline "$f" 002; add fmt "$f" 000; add fmt "$f" 002; n_ron=$((n_ron + 1))
done < <(descriptions ron)
while IFS= read -r f; do
  add dgc "$f"; add pipeline "$f" 001; add pipeline "$f" 003; add fmt "$f" 001; add fmt "$f" 003; n_dgc=$((n_dgc + 1))
done < <(descriptions dgc)
# Descriptions longer than 64 KiB, so that the corpus holds long inputs from the start (libFuzzer
# grows inputs slowly from short seeds): 500 layouts with comments in both syntaxes, and one
# layout name of 80,000 characters.
big=$(mktemp -d)
{
  echo 'Pipeline(name: "big", targets: ["lavapipe"], layouts: ['
  for i in $(seq 1 500); do
    echo "    // layout $i"
    echo "    (name: \"Layout_number_$i\", stages: [Vertex], max_sequences: 64, tokens: [VertexBuffer(name: \"vb_$i\", binding: 0), /* the draw */ Draw(name: \"draw\")]), // after $i"
  done
  echo '])'
} > "$big/big.ron"
{
  echo 'pipeline big { targets lavapipe;'
  for i in $(seq 1 500); do
    echo "    // layout $i"
    echo "    layout Layout_number_$i [vertex] { max_sequences 64; vertex_buffer vb_$i binding 0; draw draw; } // after $i"
  done
  echo '}'
} > "$big/big.dgc"
long=$(head -c 80000 /dev/zero | tr '\0' n)
echo "Pipeline(name: \"long\", layouts: [(name: \"$long\", stages: [Vertex], max_sequences: 1, tokens: [Draw])])" > "$big/long.ron"
for f in "$big/big.ron" "$big/long.ron"; do add ron "$f"; add pipeline "$f" 000; add fmt "$f" 000; add fmt "$f" 002; done
add dgc "$big/big.dgc"; add pipeline "$big/big.dgc" 001; add fmt "$big/big.dgc" 001; add fmt "$big/big.dgc" 003
# names and emit_compile read bytes as choices (fuzz/src/lib.rs `described`): 0xff then N is a run
# of N * 64 characters, so these give names of 16 KiB and, in one layout, 64 KiB and more.
printf '\002\005\006\001\002\000\001' > "$big/parts"
printf '\001\377\377\001\377\377\001\000' > "$big/long-run"
printf '\003\377\377\377\377\377\377\377\377\377\377\002\001\003\000\001\002' > "$big/longer-runs"
for f in "$big/parts" "$big/long-run" "$big/longer-runs"; do add names "$f"; add emit_compile "$f"; done
rm -rf "$big"
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
for t in ron dgc profile_json pipeline manifest kernel_lint fmt names emit_compile; do
  [ -d "$root/tests/fuzz_regressions/$t" ] || continue
  for f in "$root/tests/fuzz_regressions/$t"/*; do
    [ -f "$f" ] || continue
    if [ -f "$open_list" ] && grep -q "^$t/$(basename "$f")[[:space:]]" "$open_list"; then continue; fi
    add "$t" "$f"
  done
done
echo "seed: $n_ron .ron, $n_dgc .dgc, $n_json profile files, $n_manifest manifests, $n_kernel kernels -> $corpus"
