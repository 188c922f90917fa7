//! Rules of the shader checks (E058x errors, W050x warnings): what the kernels that write a
//! stream get wrong that the description cannot see.
//!
//! E0581–E0583, W0505 and W0506 need the kernel compiled (feature `shaderc`): a kernel that does
//! not compile, a workgroup size or record struct that disagrees with the description. E0580 (an
//! unreadable source), E0584 (cooperative-matrix shapes) and the subgroup warnings read the
//! kernel's source and run with or without the feature.

use super::Rule;
use crate::severity::Severity::*;

pub static RULES: &[Rule] = &[
    Rule {
        code: "E0580",
        vuid: None,
        severity: Error,
        title: "a kernel's source file cannot be read",
        explanation: "A kernel's `source` is a path relative to the description file, and dgcc \
could not read it, so none of the shader checks could run on it.\n\n```ron\nkernels: [(name: \"cull\", \
source: \"shaders/cull.comp\", local_size: (256, 1, 1))]\n```\n\nFix: correct the path (it is relative \
to the description, not to the working directory), or add the file.",
    },
    Rule {
        code: "E0581",
        vuid: None,
        severity: Error,
        title: "a kernel does not compile",
        explanation: "dgcc compiles each kernel with shaderc (GLSL to SPIR-V 1.3 for Vulkan 1.2) to \
check it against the description, and the compiler reported errors. The notes carry the \
compiler's messages with their lines.\n\nAn `#include` of `<pipeline>.glsl` is served from the \
description itself (the file `dgcc compile --emit glsl` writes), so a kernel can include the \
generated record struct before it exists on disk. Other includes are read relative to the \
including file.\n\nFix: the errors the notes name.",
    },
    Rule {
        code: "E0582",
        vuid: None,
        severity: Error,
        title: "the kernel's workgroup size is not the description's `local_size`",
        explanation: "The description's `local_size` drives the subgroup checks (required sizes, \
full subgroups, `maxComputeWorkgroupSubgroups`) and the runtime's dispatch sizes; the shader's \
`layout(local_size_x = …) in;` is what the device runs. When they differ, every one of those \
checks is about a workgroup that does not exist.\n\n```glsl\nlayout(local_size_x = 128) in;   // the \
description says (256, 1, 1)\n```\n\nFix: make them equal. Including the generated GLSL and writing \
`layout(local_size_x = CULL_LOCAL_SIZE_X, local_size_y = CULL_LOCAL_SIZE_Y, local_size_z = \
CULL_LOCAL_SIZE_Z) in;` keeps them equal.",
    },
    Rule {
        code: "E0583",
        vuid: None,
        severity: Error,
        title: "the struct the kernel writes does not match the layout's record",
        explanation: "A kernel that `writes` a layout fills the indirect stream with a struct; dgcc \
found it in the compiled kernel (the struct named `<Layout>Record`) and its member offsets, array \
strides or size differ from the record the tokens read. The device would read the draw \
arguments, push constants and addresses from the wrong bytes, without any validation error.\n\n\
Typical causes: a hand-written copy of the struct that predates a change of the description; \
the generated struct placed in a block with a different layout qualifier (`std140`, or `std430` \
for a `Scalar` layout).\n\nFix: include the generated GLSL and declare the stream block with \
`layout(<L>_LAYOUT, …)`, or let the include declare it (`#define <L>_WRITER`).",
    },
    Rule {
        code: "W0501",
        vuid: None,
        severity: Warning,
        title: "a hard-coded 32 or 64 is used as the subgroup size",
        explanation: "Subgroup widths differ between devices: 4, 8 or 16 on lavapipe, 8 to 32 on \
Intel, 32 or 64 on AMD, 32 on NVIDIA, 64 or 128 on Adreno, and a device may pick a different width \
per pipeline unless the size is pinned. Code that writes the width as a number (`lane & 31`, \
`gl_LocalInvocationIndex / 32`, `#define WARP_SIZE 32`, a shuffle reduction starting at offset \
16) computes wrong lanes and subgroup ids everywhere else; games have shipped broken on AMD \
this way.\n\nFix: use `gl_SubgroupSize`, `gl_SubgroupInvocationID` and `gl_SubgroupID`, or pin the \
size for the kernel with `subgroup: Required(size: Fixed(32), full: true)` on targets that \
allow it (dgcc checks that they do).",
    },
    Rule {
        code: "W0502",
        vuid: None,
        severity: Warning,
        title: "a shared array is sized by an assumed number of subgroups",
        explanation: "A workgroup of N invocations has N / SubgroupSize subgroups, and the width \
varies by device (4 to 128). A shared array of per-subgroup partial results sized `N / 32`, or \
with a literal that assumes one width, overflows where subgroups are narrower (lavapipe, Intel, \
Mali) and leaves entries unused where they are wider. When the targets are known, dgcc names the \
target with the most subgroups per workgroup.\n\n```glsl\nshared uint partial[256 / 32];   // 64 \
entries are needed with 4-wide subgroups\npartial[gl_SubgroupID] = subgroupAdd(x);\n```\n\nFix: \
size it by local size ÷ the smallest subgroup size the targets allow, or pin the subgroup size.",
    },
    Rule {
        code: "W0503",
        vuid: None,
        severity: Warning,
        title: "a ballot is read through `.x` only",
        explanation: "`subgroupBallot` returns a `uvec4`: one bit per lane, lanes 0–31 in `.x`, \
32–63 in `.y`, 64–127 in `.z` and `.w`. Reading only `.x` (or `bitCount(b.x)`) drops every lane \
past 31, so on 64-wide AMD subgroups or 128-wide Adreno subgroups counts and compaction offsets \
come out wrong; a culling kernel then loses draws.\n\nFix: use `subgroupBallotBitCount`, \
`subgroupBallotInclusiveBitCount`, `subgroupBallotExclusiveBitCount`, `subgroupBallotFindLSB` or \
`subgroupBallotBitExtract`, which read all four words.",
    },
    Rule {
        code: "W0504",
        vuid: None,
        severity: Warning,
        title: "`gl_SubgroupSize` is used as the number of active lanes",
        explanation: "`gl_SubgroupSize` is the width of a subgroup, not the number of its lanes that \
are running: the last subgroup of a workgroup may be partial (unless full subgroups are required \
and the local size is a multiple of the width), and lanes that returned early are inactive. \
Dividing a subgroup sum by it, or adding it to a counter, counts lanes that do not exist; \
uVkCompute and llama.cpp fixed exactly this on Intel.\n\nFix: count the active lanes with \
`subgroupBallotBitCount(subgroupBallot(true))`, or require full subgroups for the kernel.",
    },
    Rule {
        code: "W0505",
        vuid: None,
        severity: Warning,
        title: "no record struct found in a kernel that writes a layout",
        explanation: "The kernel `writes` a layout, but its compiled SPIR-V has no struct named \
`<Layout>Record`, so dgcc could not compare what the kernel writes with what the tokens read. \
A kernel that writes the stream as raw `uint`s is not checked.\n\nFix: include the generated \
GLSL (`#include \"<pipeline>.glsl\"`) and write the stream through `<Layout>Record`, for example \
with `#define <L>_WRITER` and the generated writers.",
    },
    Rule {
        code: "W0506",
        vuid: None,
        severity: Warning,
        title: "dgcc could not reflect a kernel's SPIR-V",
        explanation: "The kernel compiled, but naga's SPIR-V reader rejected the module (it does not \
support every instruction, for example `subgroupElect`), so the workgroup-size and record checks \
did not run for this kernel. The kernel may be correct; dgcc just cannot tell. Its \
specialization constants are frozen to their defaults first, as a shader's are (W0511); an \
expression of them dgcc cannot evaluate is named in the note instead.\n\nFix: none needed \
for the kernel; the note names the instruction naga stopped at.",
    },
    Rule {
        code: "W0507",
        vuid: Some("VUID-VkPipelineShaderStageCreateInfo-module-08987"),
        severity: Warning,
        title: "a cooperative matrix at subgroup scope without a required subgroup size",
        explanation: "A `coopmat<…, gl_ScopeSubgroup, …>` is spread over the invocations of one \
subgroup: the tile shape a kernel hard-codes, and any code that works out which elements a lane \
holds, are written for one subgroup width, and `VK_KHR_cooperative_matrix` lists its shapes for \
the device's subgroup size; a compute kernel's `local_size_x` must also be a multiple of the \
subgroup size it runs with (`VUID-VkPipelineShaderStageCreateInfo-module-08987`). On a device \
whose width varies per pipeline (RADV picks wave32 or wave64, Intel 8 to 32), the same kernel may \
run with another width. dgcc warns when a kernel \
declares a subgroup-scope cooperative matrix and its `subgroup:` is not `Required`.\n\n```glsl\n\
coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a;   // subgroup: Any\n```\n\nFix: \
pin the width the kernel is written for, `subgroup: Required(size: Fixed(32), full: true)` (dgcc \
then checks each target allows it).",
    },
    Rule {
        code: "E0584",
        vuid: Some("VUID-RuntimeSpirv-MSize-08975"),
        severity: Error,
        title: "a cooperative-matrix tile shape the target does not support",
        explanation: "A kernel's `coopmat<T, scope, rows, cols, use>` must match an entry of the \
device's `vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR` list at that scope: an A operand is \
M×K of the entry's A type (`VUID-RuntimeSpirv-MSize-08975`), B is K×N of its B type \
(`VUID-RuntimeSpirv-KSize-08977`), an accumulator M×N of its C or result type \
(`VUID-RuntimeSpirv-MSize-08979`, `-08981`). \
dgcc compares every matrix the kernel spells out (sizes given by constants are not read) with \
each target's list, and names the shapes the target has. A target that does not state the list \
gets W0012; `dgcc probe` reads it from the device.\n\n```glsl\n\
coopmat<float16_t, gl_ScopeSubgroup, 32, 32, gl_MatrixUseA> a;   // no 32×…×32 FLOAT16 entry\n```\n\n\
Fix: use a tile of a listed shape, or leave the target out.",
    },
];
