#version 460
// Stream validation: one invocation per sequence reads its raw record as words, walks the
// layout's token table and appends every violation to a small report. One SPIR-V serves every
// layout: tokens, limits and the engine's registered buffers come from a table of words built
// on the host (crates/runtime/src/validate/table.rs documents its layout; the T_ and C_ constants
// below must match table.rs and checks.rs, which a unit test holds them to).
//
// Everything is reached through buffer device addresses (no descriptor set) and every 64-bit
// quantity is a uvec2 (lo, hi) with carries done by hand, so the kernel needs neither
// shaderInt64 nor any feature beyond bufferDeviceAddress, which DGC requires anyway. Memory a
// record points at (a count token's draw array) is read only after its range was found inside
// a registered buffer: the validator never follows a wild address.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

layout(local_size_x = 64) in;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Words { uint w[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Report {
    uint total;           // violations found
    uint first_sequence;  // the lowest sequence with one (0xFFFFFFFF: none)
    uint checked;         // sequences checked: min(stored count, max_sequences)
    uint stored_count;    // the GPU count as read (0xFFFFFFFF without one)
    uint slots[];         // 8 words per violation
};

layout(push_constant) uniform Push {
    uvec2 stream;          // record 0
    uvec2 count;           // the GPU sequence count; (0, 0): none
    uvec2 table;
    uvec2 report;
    uint stride;
    uint max_sequences;    // records in the stream (maxSequenceCount)
    uint sequence_limit;   // the stored count must not exceed it (11068)
    uint capacity;         // violation slots in the report
} pc;

const uint NONE = 0xFFFFFFFFu;

// Table words (table.rs).
const uint T_TOKEN_COUNT = 0u;
const uint T_MAX_INSTANCES = 1u;
const uint T_MAX_DRAWS = 2u;
const uint T_BOUND_INDEX_BYTES = 3u;
const uint T_BOUND_INDEX_SIZE = 5u;
const uint T_MAX_GROUPS = 6u;
const uint T_LISTS = 9u;
const uint T_TOKENS = 16u;
const uint LIST_INDEX = 0u;
const uint LIST_VERTEX = 1u;
const uint LIST_INDIRECT = 2u;

// Checks (checks.rs).
const uint C_INDEX_ADDRESS = 1u;
const uint C_INDEX_SIZE = 2u;
const uint C_INDEX_ALIGNMENT = 3u;
const uint C_INDEX_TYPE = 4u;
const uint C_INDEX_RANGE = 5u;
const uint C_VERTEX_ADDRESS = 6u;
const uint C_VERTEX_SIZE = 7u;
const uint C_COUNT_ADDRESS = 8u;
const uint C_COUNT_SIZE = 9u;
const uint C_COUNT_ALIGNMENT = 10u;
const uint C_COMMAND_COUNT = 11u;
const uint C_INSTANCE_COUNT = 12u;
const uint C_EXECUTION_SET_INDEX = 13u;
const uint C_SEQUENCE_COUNT = 14u;
const uint C_GROUPS_X = 15u;
const uint C_GROUPS_Y = 16u;
const uint C_GROUPS_Z = 17u;
const uint C_COUNT_STRIDE = 18u;

// VkIndirectCommandsTokenTypeEXT values.
const uint TT_EXECUTION_SET = 0u;
const uint TT_INDEX_BUFFER = 3u;
const uint TT_VERTEX_BUFFER = 4u;
const uint TT_DRAW_INDEXED = 5u;
const uint TT_DRAW = 6u;
const uint TT_DRAW_INDEXED_COUNT = 7u;
const uint TT_DRAW_COUNT = 8u;
const uint TT_DISPATCH = 9u;
const uint TT_DRAW_MESH_TASKS_COUNT_NV = 1000202003u;
const uint TT_DRAW_MESH_TASKS_COUNT = 1000328001u;

// ---- 64-bit arithmetic on (lo, hi) pairs -------------------------------------------------

// a + b, saturated at 2^64 - 1: an end past every buffer.
uvec2 add64(uvec2 a, uvec2 b) {
    uint c0, c1, c2;
    uint lo = uaddCarry(a.x, b.x, c0);
    uint hi = uaddCarry(a.y, b.y, c1);
    hi = uaddCarry(hi, c0, c2);
    return (c1 | c2) != 0u ? uvec2(NONE) : uvec2(lo, hi);
}

// a - b for a >= b.
uvec2 sub64(uvec2 a, uvec2 b) {
    uint borrow;
    uint lo = usubBorrow(a.x, b.x, borrow);
    return uvec2(lo, a.y - b.y - borrow);
}

uvec2 mul32(uint a, uint b) {
    uint hi, lo;
    umulExtended(a, b, hi, lo);
    return uvec2(lo, hi);
}

bool lt64(uvec2 a, uvec2 b) {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

bool le64(uvec2 a, uvec2 b) {
    return !lt64(b, a);
}

// a >> s for s in 0..31.
uvec2 shr64(uvec2 a, uint s) {
    return s == 0u ? a : uvec2((a.x >> s) | (a.y << (32u - s)), a.y >> s);
}

// ---- the report ----------------------------------------------------------------------------

void report(uint sequence, uint token, uint check, uint element, uvec2 value, uvec2 limit) {
    Report r = Report(pc.report);
    uint slot = atomicAdd(r.total, 1u);
    if (sequence != NONE) {
        atomicMin(r.first_sequence, sequence);
    }
    if (slot < pc.capacity) {
        uint b = 8u * slot;
        r.slots[b + 0u] = sequence;
        r.slots[b + 1u] = token;
        r.slots[b + 2u] = check;
        r.slots[b + 3u] = element;
        r.slots[b + 4u] = value.x;
        r.slots[b + 5u] = value.y;
        r.slots[b + 6u] = limit.x;
        r.slots[b + 7u] = limit.y;
    }
}

// ---- registered buffers --------------------------------------------------------------------

const uint INSIDE = 0u;
const uint START_OUTSIDE = 1u;
const uint END_OUTSIDE = 2u;

// Where [start, start + len) lies among the registered buffers of one list. `avail` is the
// bytes from `start` to the furthest end of a buffer containing it (0 when none does).
uint locate(uint list, uvec2 start, uvec2 len, out uvec2 avail) {
    Words t = Words(pc.table);
    uint first = t.w[T_LISTS + 2u * list];
    int n = int(t.w[T_LISTS + 2u * list + 1u]);
    // The last entry whose start is <= start.
    int lo = 0, hi = n - 1, found = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        uint e = first + 4u * uint(mid);
        if (le64(uvec2(t.w[e], t.w[e + 1u]), start)) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    avail = uvec2(0u);
    if (found < 0) {
        return START_OUTSIDE;
    }
    uint e = first + 4u * uint(found);
    uvec2 furthest = uvec2(t.w[e + 2u], t.w[e + 3u]);
    if (le64(furthest, start)) {
        return START_OUTSIDE;
    }
    avail = sub64(furthest, start);
    return lt64(avail, len) ? END_OUTSIDE : INSIDE;
}

// Report a range that is not inside one registered buffer; true when it is inside.
bool check_range(uint s, uint k, uint list, uvec2 start, uvec2 len, uint c_address, uint c_size) {
    uvec2 avail;
    uint where = locate(list, start, len, avail);
    if (where == START_OUTSIDE) {
        report(s, k, c_address, NONE, start, uvec2(0u));
    } else if (where == END_OUTSIDE) {
        report(s, k, c_size, NONE, len, avail);
    }
    return where == INSIDE;
}

// ---- draws ---------------------------------------------------------------------------------

uint index_size(uint mode, uint value) {
    if (mode == 2u) {  // DXGI: DXGI_FORMAT_R16_UINT, R32_UINT
        return value == 57u ? 2u : value == 42u ? 4u : 0u;
    }
    return value == 0u ? 2u : value == 1u ? 4u : value == 1000265000u ? 1u : 0u;
}

void check_instances(uint s, uint k, uint element, uint instances) {
    uint most = Words(pc.table).w[T_MAX_INSTANCES];
    if (instances > most) {
        report(s, k, C_INSTANCE_COUNT, element, uvec2(instances, 0u), uvec2(most, 0u));
    }
}

// firstIndex + indexCount against the bound buffer's capacity in indices (size 0: unknown).
void check_indices(uint s, uint k, uint element, uint first, uint count, uvec2 bytes, uint size) {
    if (size == 0u) {
        return;
    }
    uint carry;
    uint end = uaddCarry(first, count, carry);
    uvec2 needed = uvec2(end, carry);
    uvec2 capacity = shr64(bytes, uint(findLSB(size)));
    if (lt64(capacity, needed)) {
        report(s, k, C_INDEX_RANGE, element, needed, capacity);
    }
}

// A *_COUNT token: the array's range, then each draw the device would read.
void check_count(uint s, uint k, Words r, uint at, uint inner_bytes, uint inner_kind, uvec2 index_bytes, uint index_sz) {
    uvec2 address = uvec2(r.w[at], r.w[at + 1u]);
    uint stride = r.w[at + 2u];
    uint commands = r.w[at + 3u];
    uint most = Words(pc.table).w[T_MAX_DRAWS];
    if (commands > most) {
        report(s, k, C_COMMAND_COUNT, NONE, uvec2(commands, 0u), uvec2(most, 0u));
    }
    uint n = min(commands, most);
    bool aligned = (address.x & 3u) == 0u;
    if (!aligned) {
        report(s, k, C_COUNT_ALIGNMENT, NONE, address, uvec2(4u, 0u));
    }
    bool strided = (stride & 3u) == 0u && stride >= inner_bytes;
    if (!strided) {
        report(s, k, C_COUNT_STRIDE, NONE, uvec2(stride, 0u), uvec2(inner_bytes, 0u));
    }
    uvec2 len = n == 0u ? uvec2(0u) : add64(mul32(stride, n - 1u), uvec2(inner_bytes, 0u));
    bool inside = check_range(s, k, LIST_INDIRECT, address, len, C_COUNT_ADDRESS, C_COUNT_SIZE);
    if (!inside || !aligned || !strided || inner_kind == 0u) {
        return;
    }
    for (uint d = 0u; d < n; d++) {
        Words draw = Words(add64(address, mul32(stride, d)));
        check_instances(s, k, d, draw.w[1]);
        if (inner_kind == 1u) {
            check_indices(s, k, d, draw.w[2], draw.w[0], index_bytes, index_sz);
        }
    }
}

// ---- one sequence --------------------------------------------------------------------------

void check_sequence(uint s) {
    Words t = Words(pc.table);
    Words r = Words(add64(pc.stream, mul32(s, pc.stride)));
    // The index buffer indexed draws read: the stated binding, replaced by the sequence's
    // INDEX_BUFFER record (which comes before the action token).
    uvec2 index_bytes = uvec2(t.w[T_BOUND_INDEX_BYTES], t.w[T_BOUND_INDEX_BYTES + 1u]);
    uint index_sz = t.w[T_BOUND_INDEX_SIZE];
    uint tokens = t.w[T_TOKEN_COUNT];
    for (uint k = 0u; k < tokens; k++) {
        uint e = T_TOKENS + 4u * k;
        uint type = t.w[e];
        uint at = t.w[e + 1u] / 4u;
        uint p0 = t.w[e + 2u];
        uint p1 = t.w[e + 3u];
        if (type == TT_INDEX_BUFFER) {
            uvec2 address = uvec2(r.w[at], r.w[at + 1u]);
            uint size = r.w[at + 2u];
            uint sz = index_size(p0, r.w[at + 3u]);
            if (sz == 0u) {
                report(s, k, C_INDEX_TYPE, NONE, uvec2(r.w[at + 3u], 0u), uvec2(0u));
            } else if ((address.x & (sz - 1u)) != 0u) {
                report(s, k, C_INDEX_ALIGNMENT, NONE, address, uvec2(sz, 0u));
            }
            check_range(s, k, LIST_INDEX, address, uvec2(size, 0u), C_INDEX_ADDRESS, C_INDEX_SIZE);
            index_bytes = uvec2(size, 0u);
            index_sz = sz;
        } else if (type == TT_VERTEX_BUFFER) {
            uvec2 address = uvec2(r.w[at], r.w[at + 1u]);
            check_range(s, k, LIST_VERTEX, address, uvec2(r.w[at + 2u], 0u), C_VERTEX_ADDRESS, C_VERTEX_SIZE);
        } else if (type == TT_EXECUTION_SET) {
            for (uint j = 0u; j < p1; j++) {
                uint index = r.w[at + j];
                if (index >= p0) {
                    report(s, k, C_EXECUTION_SET_INDEX, p1 > 1u ? j : NONE, uvec2(index, 0u), uvec2(p0, 0u));
                }
            }
        } else if (type == TT_DRAW_INDEXED) {
            check_instances(s, k, NONE, r.w[at + 1u]);
            check_indices(s, k, NONE, r.w[at + 2u], r.w[at], index_bytes, index_sz);
        } else if (type == TT_DRAW) {
            check_instances(s, k, NONE, r.w[at + 1u]);
        } else if (type == TT_DISPATCH) {
            for (uint d = 0u; d < 3u; d++) {
                uint groups = r.w[at + d];
                uint most = t.w[T_MAX_GROUPS + d];
                if (groups > most) {
                    report(s, k, C_GROUPS_X + d, NONE, uvec2(groups, 0u), uvec2(most, 0u));
                }
            }
        } else if (type == TT_DRAW_INDEXED_COUNT || type == TT_DRAW_COUNT || type == TT_DRAW_MESH_TASKS_COUNT
                   || type == TT_DRAW_MESH_TASKS_COUNT_NV) {
            check_count(s, k, r, at, p0, p1, index_bytes, index_sz);
        }
    }
}

void main() {
    uint n = pc.max_sequences;
    bool first = gl_GlobalInvocationID.x == 0u;
    if (pc.count != uvec2(0u)) {
        uint stored = Words(pc.count).w[0];
        if (first) {
            Report(pc.report).stored_count = stored;
            if (stored > pc.sequence_limit) {
                report(NONE, NONE, C_SEQUENCE_COUNT, NONE, uvec2(stored, 0u), uvec2(pc.sequence_limit, 0u));
            }
        }
        n = min(n, stored);
    }
    if (first) {
        Report(pc.report).checked = n;
    }
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint s = gl_GlobalInvocationID.x; s < n; s += step) {
        check_sequence(s);
        if (n - s <= step) {
            break;
        }
    }
}
