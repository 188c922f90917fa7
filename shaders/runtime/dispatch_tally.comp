#version 460
// `dgcc run --layout`'s kernel for dispatch layouts (crates/cli/src/layout_check/dispatch.rs).
//
// Why it finds its sequence by its group counts: the rig gives each sequence a y and z of its
// own, and nothing else that a dispatch carries tells a kernel which sequence it belongs to
// (a SEQUENCE_INDEX token is what is being checked, so it cannot be trusted to say). Each
// invocation then counts itself in that sequence's slot (ENTRY_WEIGHT per invocation, so the
// count tells the entries of an execution set apart) and keeps the lowest and the highest value
// it saw of every pushed word, so the host reads back what each sequence pushed, and whether
// every invocation of it saw the same.
//
// The push block covers the layout's pushed bytes and no more (a block must lie inside the
// pipeline layout's ranges): the rig patches the array's length, PUSH_WORDS below, whose value
// is the marker it looks for, and the offset of the block's one member. Built once more with
// NOTHING_PUSHED, without a push block, for layouts that push nothing.
layout(local_size_x = 1) in;

// What one invocation adds to its sequence's count.
layout(constant_id = 0) const uint ENTRY_WEIGHT = 1u;

// Four sequences, then a slot for group counts no sequence was given.
const uint SLOTS = 5u;

// Sequence k's y and z group counts, as `groups` in dispatch.rs writes them.
uint slot_of(uvec3 groups) {
    if (groups.y == 1u && groups.z == 1u) return 0u;
    if (groups.y == 2u && groups.z == 1u) return 1u;
    if (groups.y == 2u && groups.z == 2u) return 2u;
    if (groups.y == 4u && groups.z == 2u) return 3u;
    return 4u;
}

// count[SLOTS], then per slot and pushed word the lowest and the highest value seen (the host
// starts them at 0xFFFFFFFF and 0).
layout(std430, set = 0, binding = 0) buffer Tally {
    uint count[SLOTS];
    uint seen[];
} tally;

#ifndef NOTHING_PUSHED
const uint PUSH_WORDS = 4093u;
layout(push_constant) uniform Pushed {
    uint words[PUSH_WORDS];
} pushed;
#endif

void main() {
    uint slot = slot_of(gl_NumWorkGroups);
    atomicAdd(tally.count[slot], ENTRY_WEIGHT);
#ifndef NOTHING_PUSHED
    for (uint j = 0u; j < PUSH_WORDS; ++j) {
        uint at = 2u * (slot * PUSH_WORDS + j);
        atomicMin(tally.seen[at], pushed.words[j]);
        atomicMax(tally.seen[at + 1u], pushed.words[j]);
    }
#endif
}
