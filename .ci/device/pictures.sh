#!/usr/bin/env bash
# Why: the pixel tests (tests/runtime_scene.rs) compare the modes' pictures on lavapipe and at
# small counts; issue 14 saw, on the H200 at 1M objects, the `--object-id instance` picture
# differ from the other modes' in one pixel. This draws the same last frame in every mode, with
# either object-id source and either sequence order, at a large count on the GPU machine's
# driver, and says for each scene and seed which pictures differ from the CPU loop's (by hash;
# the pictures come back for a pixel diff).
#
# Usage (on the GPU machine, after stage.sh here):
#   bash .ci/device/pictures.sh [OBJECTS] [DGCC...]
# 1000000 objects by default; the staged dgcc, then any more dgcc binaries named (paths), each
# run over the same list. SCENES (default "field city") and SEEDS (default 1) choose the scenes.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
objects=${1:-1000000}
shift || true
binaries=(dgcc "$@")
modes=(
    "cpu"
    "mdi"
    "mdi --object-id instance"
    "dgc"
    "dgc --object-id instance"
    "dgc --sequences ordered"
    "dgc --sequences ordered --object-id instance"
)
summary="$results/pictures.txt"
for k in "${!binaries[@]}"; do
    for scene in ${SCENES:-field city}; do
        for seed in ${SEEDS:-1}; do
            reference=
            differ=()
            for mode in "${modes[@]}"; do
                name="b$k-$scene-s$seed-$(echo "$mode" | tr -s ' -' '_')"
                step "$name" "${binaries[$k]}" run examples/scene.ron --scene "$scene" --seed "$seed" \
                    --objects "$objects" --frames 3 --mode $mode --png "$results/$name.png"
                hash=$(sha256sum < "$results/$name.png" | cut -c1-16)
                [ -n "$reference" ] || reference=$hash
                [ "$hash" = "$reference" ] || differ+=("$mode ($hash)")
            done
            line="${binaries[$k]} $scene seed $seed, $objects objects: cpu $reference;"
            if [ ${#differ[@]} -eq 0 ]; then line+=" every mode the same"; else line+=" differ: $(IFS=,; echo "${differ[*]}")"; fi
            echo "$line" | tee -a "$summary"
        done
    done
done
pack
