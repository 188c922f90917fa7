#!/bin/sh
# Compiles every shader of the runtime and its tests (compute, vertex, tessellation, geometry,
# fragment, task, mesh) to SPIR-V 1.5 (Vulkan 1.2 environment: no LocalSizeId, so no
# maintenance4 requirement; mesh shaders need at least 1.4) into spv/. The .spv files are
# committed; the runtime embeds them, and tests/runtime_shaders.rs fails when one is stale.
set -eu
cd "$(dirname "$0")"
for src in *.comp *.vert *.tesc *.tese *.geom *.frag *.task *.mesh; do
    [ -e "$src" ] || continue
    glslangValidator --quiet --target-env vulkan1.2 -V "$src" -o "spv/$src.spv"
done
# The kernels that write the scene's stream, once more for the shader-object record
# (scene_record.glsl; tests/runtime_shaders.rs holds the same list).
for src in cull.comp compact.comp cull_compact.comp bin_materials.comp; do
    glslangValidator --quiet --target-env vulkan1.2 -V -DSHADER_OBJECT_RECORDS "$src" -o "spv/${src%.comp}.shaders.comp.spv"
done
# The depth pyramid once more, reading a copy of the depth buffer instead of sampling it
# (crates/cli/src/scene/pyramid.rs: DepthRead).
glslangValidator --quiet --target-env vulkan1.2 -V -DDEPTH_FROM_COPY depth_pyramid.comp -o spv/depth_pyramid.copy.comp.spv
# The dispatch tally kernel without its push block, for layouts that push nothing
# (crates/cli/src/layout_check/dispatch.rs).
glslangValidator --quiet --target-env vulkan1.2 -V -DNOTHING_PUSHED dispatch_tally.comp -o spv/dispatch_tally.unpushed.comp.spv
# The draw tally's stages between its vertex and fragment shaders twice more: handing on the
# carried words, and adding their own pushed words to them (crates/cli/src/layout_check/between.rs).
for src in draw_tally.tesc draw_tally.tese draw_tally.geom; do
    glslangValidator --quiet --target-env vulkan1.2 -V -DCARRIED_WORDS "$src" -o "spv/${src%.*}.carried.${src##*.}.spv"
    glslangValidator --quiet --target-env vulkan1.2 -V -DPUSHED_WORDS "$src" -o "spv/${src%.*}.pushed.${src##*.}.spv"
done
