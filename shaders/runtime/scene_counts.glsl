// A culling pass's counts (binding 5), declared once for every kernel that touches them.
//
// Why the count sits at byte 12: the first 16 bytes are the pass's one sequence of layout
// SceneBatch (examples/scene.ron, `dgcc run --batch`), a VkDrawIndirectCountIndirectCommandEXT.
// The host writes its address (the draw arguments of the stream's first record) and stride
// (the record stride) once; its commandCount is `total`, the count the culling kernels write.
// So one DGC sequence multi-draws everything culling kept, with nothing copied in between.
// The multi-draw path and the per-draw executes read the same word as their count.
#ifndef SCENE_COUNTS_ACCESS
#define SCENE_COUNTS_ACCESS
#endif
layout(std430, set = 0, binding = 5) SCENE_COUNTS_ACCESS buffer Counts {
    uvec2 batch_draws;  // written by the host
    uint batch_stride;  // written by the host
    uint total;         // the records culling kept (the batch's commandCount)
    uint subgroup_size; // what the kernel ran with, for the report
    uint next_tile;     // the one-pass ordered kernel's tile counter (cull_compact.comp)
    uint pad1;
    uint pad2;
    // Per workgroup: the two-kernel ordered compaction's sums (compact.comp), or the one-pass
    // ordered kernel's tile states (cull_compact.comp).
    uint group_sums[];
} counts;
