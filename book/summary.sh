#!/usr/bin/env bash
# Writes book/src/SUMMARY.md: the chapters below, then one line per page of the generated
# diagnostics index (book/src/diagnostics/CODE.md, titled "# CODE: title" by tests/book.rs).
# Run it after `DGCC_BLESS=1 cargo test --test book diagnostics_index` adds or removes a code.
# `--check` writes nothing and fails if SUMMARY.md is not what the script writes (tests/book.rs).
set -euo pipefail
export LC_ALL=C
case ${1:-} in
  "" | --check) ;;
  *) echo "usage: book/summary.sh [--check]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/src"
new=$(mktemp)
trap 'rm -f "$new"' EXIT

{
  cat <<'CHAPTERS'
# Summary

[Introduction](introduction.md)

- [Getting started](getting-started.md)
- [The description language](language.md)
- [Layouts and alignment](layouts.md)
- [Device profiles](profiles.md)
- [Subgroup sizes](subgroups.md)
- [Embedding in an engine](embedding.md)
- [Hostile input and validation](robustness.md)
- [Diagnostics index](diagnostics/index.md)
CHAPTERS
  for page in diagnostics/[ENW][0-9][0-9][0-9][0-9].md; do
    title=$(head -n 1 "$page" | sed -e 's/^# //' -e 's/\\/\\\\/g' -e 's/\[/\\[/g' -e 's/\]/\\]/g')
    printf '  - [%s](%s)\n' "$title" "$page"
  done
  echo '- [Performance](performance.md)'
  # Every page of measured/ (raw tool output, whose own headings are not titles), in this
  # order, each under the title given here; a page without a title fails the script, so that
  # a new measured page is never silently left out of the book.
  measured=(
    "h200-bench.md|H200 benchmark output"
    "h200-four-rows.md|H200 four rows: the city scene by culling choice"
    "h200-four-rows-scale.md|H200 four rows at 100k and 1M objects"
    "h200-bench-4m.md|H200 benchmark at 4M objects"
    "h200-bench-device-per-row.md|H200 benchmark, device time per row"
    "h200-order.md|H200 draw time and what ran before"
    "h200-fused-sweep.md|H200 fused culling kernel variants"
    "h200-ordered-compaction.md|H200 ordered compaction in one pass"
    "h200-binning.md|H200 material binning: ballots and a staged copy"
    "h200-look-back.md|H200 look-back and objects per invocation"
    "h200-differential.md|H200 differential check output"
    "h200-materials.md|H200 materials: 16 pipelines, every object drawn"
    "h200-materials-counts.md|H200 materials: 1, 4 and 16 pipelines"
    "h200-materials-frustum.md|H200 materials with frustum culling"
    "h200-materials-repeat.md|H200 materials: the 100k rows twice in one run"
    "h200-shader-objects.md|H200 materials through shader objects"
    "h200-materials-sorted-repeat.md|H200 materials: sorted rows twice, explicit preprocessing"
    "h200-cubes.md|H200 cubes: DGC against multi-draw by layout, 1k to 1M draws"
    "h200-cubes-order.md|H200 cubes: dgc, mdi, dgc in one process"
    "h200-order-probe.md|H200 order effect in plain Vulkan (order_probe)"
    "h200-warm-up.md|H200 with the warm-up: fresh processes, cubes, 2560 × 1440"
    "h200-wide-whole-pass.md|H200 whole draw passes at 2560 × 1440, the four rows"
    "h200-barrier.md|H200 one barrier or two in front of the stream; 2560 × 1440 again"
    "h200-repeat.md|H200 five repeats of each row: 2560 × 1440 and the cubes"
    "h200-inside-the-pass.md|H200 inside the render pass and around it; per-sequence tokens"
    "h200-chunks.md|H200 splitting the execute at 100k objects, 2560 × 1440"
    "h200-max-draws.md|H200 the frustum rows with executes sized for at most N draws"
    "h200-batch.md|H200 one sequence per pass (SceneBatch): cubes and 2560 × 1440"
    "h200-one-draw.md|H200 what one execute costs around its draws"
    "h200-draw-order.md|H200 the draw order at 2560 × 1440: ordered and fused compaction"
    "h200-closing.md|H200 issue 14's closing run of 2026-12-01"
    "h200-culling-regression.md|H200 the culling pass, builds of then and now"
    "h200-kernel-registers.md|H200 the fused culling kernel as the driver compiled it"
    "h200-closing-2.md|H200 issue 14's closing run of 2026-12-02"
    "h200-cubes-sweep.md|H200 the cubes between 2,000 and 50,000 draws"
    "h200-closing-3.md|H200 issue 14's closing run of 2026-12-03"
    "h200-frame-uniforms.md|H200 the frame as a uniform buffer; workgroup size and objects per invocation"
    "h200-closing-4.md|H200 issue 14's closing run of 2026-12-04"
    "h200-frustum-test.md|H200 the frustum test without a branch per plane; load and atomic variants"
    "h200-closing-5.md|H200 issue 14's closing run of 2026-12-04, evening"
    "h200-closing-6.md|H200 issue 14's closing run of 2026-12-05, after the vertex-input fix"
    "h200-closing-7.md|H200 and H100 issue 14's closing run of 2026-12-05, afternoon; the batch's preprocess size; where the cubes' hump comes from"
    "h100-execution-sets.md|H100 execution sets: entries never written, a pipeline in two entries (compute and graphics)"
    "h100-pictures.md|H100 the pictures at 1M objects: every mode, object-id source and sequence order"
    "h100-instance-index.md|H100 the firstInstance layout under an execute: the shader's read of gl_InstanceIndex"
    "h100-vertex-offset.md|H100 the object id in vertexOffset: a count token's draws without a built-in read"
    "h100-shader-objects-bound.md|H100 shader objects bound instead of pipelines"
    "h100-depth-test.md|H100 the cubes' hump and the depth test"
    "h100-priming-draw.md|H100 the cubes' hump and the state around the execute: a draw ahead of it, depth format and compare op, color writes"
    "h100-reversed-depth.md|H100 the cubes' hump and reversed depth"
    "h100-count-spread.md|H100 the field's count spread over several counters"
    "h100-closing.md|H100 issue 14's closing commands at ea3be5b and since, 2026-12-07"
    "h100-explicit-set.md|H100 explicit preprocessing of an execution set of pipelines: the execute, not the preprocess"
  )
  for page in measured/*.md; do
    found=0
    for entry in "${measured[@]}"; do
      [[ "measured/${entry%%|*}" == "$page" ]] && found=1
    done
    if [[ $found == 0 ]]; then
      echo "book/summary.sh: $page has no title in the measured list" >&2
      exit 1
    fi
  done
  for entry in "${measured[@]}"; do
    page="measured/${entry%%|*}"
    if [[ ! -f $page ]]; then
      echo "book/summary.sh: $page is listed but missing" >&2
      exit 1
    fi
    printf '  - [%s](%s)\n' "${entry#*|}" "$page"
  done
  cat <<'CHAPTERS'
- [Design](design.md)
- [Changelog](changelog.md)
CHAPTERS
} > "$new"
if [[ ${1:-} == --check ]]; then
  if ! diff -u SUMMARY.md "$new" >&2; then
    echo "book/summary.sh: book/src/SUMMARY.md is stale; run book/summary.sh" >&2
    exit 1
  fi
  exit 0
fi
cp "$new" SUMMARY.md
