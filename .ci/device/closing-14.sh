#!/usr/bin/env bash
# Why: issue 14's closing commands (book/src/performance.md, "What shows it is done"), as the
# closing runs of book/src/measured/h200-closing-*.md ran them, in one script, so that a lease
# of the GPU machine spends its time measuring. Each group fits one call of the device tool
# (at most 600 s); name the groups to run, in order, or none for all that fit.
#
# Usage (on the GPU machine, after stage.sh here): bash .ci/device/closing-14.sh [GROUP...]
# Groups: cubes order field city wide pyramid binning four-rows (the default, in this order),
# and hump, an investigation run only when named.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

FIELD=(bench examples/scene.ron --scene field --culling frustum --objects 1000000,4000000 --width 256 --height 256
    --no-owners --modes mdi --frames 20 --copy-mib 1024)
CITY=(bench examples/scene.ron --objects 1000000 --culling none,frustum --width 256 --height 256 --no-owners
    --modes mdi --frames 20 --copy-mib 1024)

group() {
    case $1 in
        cubes) step cubes dgcc bench examples/scene.ron --scene cubes --culling none \
            --objects 1000,10000,100000,1000000 --width 256 --height 256 --no-owners \
            --modes mdi,dgc,dgc-explicit,dgc-batch,dgc-explicit-batch,mdi-vertexoffset,dgc-explicit-batch-vertexoffset \
            --frames 20 --repeat 3 --copy-mib 1024 --out cubes ;;
        # A fresh process whose first rows are DGC: the order target.
        order) step order dgcc bench examples/scene.ron --scene cubes --culling none --objects 1000000 \
            --width 256 --height 256 --no-owners --modes dgc,mdi,dgc --frames 10 --copy-mib 0 --out order ;;
        field)
            step field dgcc "${FIELD[@]}" --out field
            step field-again dgcc "${FIELD[@]}" --out field-again
            step field-ordered dgcc "${FIELD[@]}" --compaction ordered --out field-ordered ;;
        city) step city dgcc "${CITY[@]}" --out city ;;
        wide) step wide dgcc bench examples/scene.ron --objects 10000,100000 --width 2560 --height 1440 \
            --culling none,frustum --compaction ordered --modes mdi,dgc,dgc-batch,dgc-explicit-batch \
            --frames 20 --repeat 5 --copy-mib 0 --no-owners --out wide ;;
        pyramid) step pyramid dgcc bench examples/scene.ron --objects 100000 --width 2560 --height 1440 \
            --culling occlusion --modes mdi,dgc --frames 10 --copy-mib 1024 --no-owners --out pyramid ;;
        binning) step binning dgcc bench examples/scene.ron --objects 1000000 --materials 16 --culling none \
            --width 256 --height 256 --no-owners --modes mdi,dgc-sorted --frames 5 --copy-mib 1024 --out binning ;;
        four-rows) step four-rows dgcc bench examples/scene.ron --out four-rows ;;
        # Not a closing command: whether the 10k cubes' hump (book/src/measured/h200-cubes-sweep.md)
        # follows the raster work, at a sixteenth of the pixels and at the usual target.
        hump)
            for size in 64 256; do
                step "hump-$size" dgcc bench examples/scene.ron --scene cubes --culling none \
                    --objects 4000,8000,10000,15000,20000 --width $size --height $size --no-owners \
                    --modes mdi,dgc-explicit-batch --frames 20 --repeat 2 --copy-mib 0 --out "hump-$size"
            done ;;
        *) echo "unknown group $1" | tee -a "$results/steps.log" ;;
    esac
}

# Rough seconds per group, about twice what each took when the whole script ran in 86 s on an
# H100 (2026-12-07, book/src/measured/h100-closing.md), the H200's chip: cubes 21, order 2,
# field 23, city 5, wide 20, pyramid 2, binning 5, four-rows 8. The hump, which that run left
# out, keeps its older guess.
declare -A cost=([cubes]=45 [order]=15 [field]=50 [city]=15 [wide]=45 [pyramid]=15 [binning]=15 [four-rows]=30 [hump]=60)
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(cubes order field city wide pyramid binning four-rows)
for g in "${groups[@]}"; do
    if fits "${cost[$g]:-60}"; then group "$g"; else echo "skipped $g: no time left in this call" | tee -a "$results/steps.log"; fi
done
pack
