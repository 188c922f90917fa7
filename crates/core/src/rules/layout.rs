//! Rules of the layout engine (E04xx): where token data sits in the record, and the
//! invariants a manifest must keep (`check::invariants`, E0410 for those only an edited
//! manifest can break).

use super::Rule;
use crate::severity::Severity::*;

pub static RULES: &[Rule] = &[
    Rule {
        code: "E0401",
        vuid: None,
        severity: Error,
        title: "retired: token data overlaps an earlier token's data (now the warning W0011)",
        explanation: "Retired. dgcc used to refuse a token pinned with `at` inside the bytes of an \
earlier token. The specification allows it: tokens that read the same stream bytes each read them \
with their own meaning, the validation layers' own positive tests create such layouts (two \
push-constant tokens of 16 bytes at offsets 0, 8 and 16; a vertex buffer at 8..24 under a draw at \
16), and vkd3d-proton and Granite place a `SequenceIndex` token on bytes another token uses. \
Shared bytes are now the warning [W0011](W0011.md), which says what each token reads there and is \
never given for a sequence index. No description or manifest produces E0401 any more; the code \
stays reserved.",
    },
    Rule {
        code: "E0403",
        vuid: None,
        severity: Error,
        title: "a pinned offset breaks the GLSL alignment of the token's data",
        explanation: "The spec needs only 4-byte alignment for token data, but dgcc also declares \
the stream record as a GLSL struct so that a culling shader writes it. Under `std430`, a 64-bit \
address (declared `uvec2`) aligns to 8 and a `vec4` to 16; a token pinned at an offset that is \
not a multiple of its data's alignment would sit at a different offset in the GLSL struct than in \
the stream, and the shader would write the wrong bytes.\n\nFix: pin the token at an aligned \
offset, leave `at` out, or declare the layout `glsl_layout: Scalar` (every member aligns to 4 \
except `U64`).",
    },
    Rule {
        code: "E0404",
        vuid: None,
        severity: Error,
        title: "token data runs past the stride",
        explanation: "No VUID ties `indirectStride` to the end of the token data: \
`VUID-VkIndirectCommandsLayoutCreateInfoEXT-indirectStride-11090` only caps the stride and the \
offset rules only constrain offsets, so the validation layers accept a layout whose last token \
reads past the end of its record. Under the spec's processing model a token at offset `o` of \
sequence `s` reads from `indirectAddress + stride*s + o`, so the bytes past the stride belong to \
sequence `s+1`, and the last sequence reads past the end of the stream. A classic case: a 4-byte \
push constant at 0, `DrawIndexed` (20 bytes) at 16, stride 32: `firstInstance` is read from the \
next record's push constant.\n\nFix: make the stride at least the end of the last token \
(rounded to the record's alignment), or leave `stride` out so dgcc computes it.",
    },
    Rule {
        code: "E0405",
        vuid: None,
        severity: Error,
        title: "stride is not a multiple of 4",
        explanation: "Every token offset must be 4-byte aligned \
(`VUID-VkIndirectCommandsLayoutTokenEXT-offset-11125`) and `indirectAddress` must be too \
(`VUID-VkGeneratedCommandsInfoEXT-indirectAddress-11074`); with a stride that is not a multiple \
of 4, every other record starts misaligned, so every token of those records is misaligned. \
No VUID states this for the stride itself.\n\nFix: round the stride up to a multiple of 4.",
    },
    Rule {
        code: "E0406",
        vuid: None,
        severity: Error,
        title: "stride breaks the record struct's GLSL array stride",
        explanation: "A shader writes records as `Record records[]`; the array stride of a GLSL \
struct is its size rounded up to its alignment (the largest alignment of its members: 8 with a \
`uvec2` address under std430, 16 with a `vec4`). A pinned stride that is not a multiple of it \
gives the shader a different stride than the stream, so every record after the first is written \
at the wrong place.\n\nFix: use a stride that is a multiple of the record alignment, or leave \
`stride` out.",
    },
    Rule {
        code: "E0407",
        vuid: None,
        severity: Error,
        title: "pinned stride is not a multiple of `align`",
        explanation: "Both `stride: Some(N)` and `align: Some(A)` were given and N is not a \
multiple of A. dgcc cannot honour both.\n\nFix: drop one of them, or pick a stride that is a \
multiple of the alignment.",
    },
    Rule {
        code: "E0408",
        vuid: None,
        severity: Error,
        title: "`align` is not a power of two of at least 4",
        explanation: "`align: Some(A)` rounds the computed stride up to a multiple of A. Records \
must stay 4-byte aligned and alignments are powers of two, so A must be 4, 8, 16, 32, ….",
    },
    Rule {
        code: "E0409",
        vuid: Some("VUID-VkIndirectCommandsLayoutCreateInfoEXT-indirectStride-11090"),
        severity: Error,
        title: "the record is larger than a 32-bit stride",
        explanation: "`indirectStride` is a `uint32_t`; the tokens of this layout (usually pinned \
at huge offsets) need a record larger than 4 GiB. No device accepts it.",
    },
    Rule {
        code: "E0410",
        vuid: None,
        severity: Error,
        title: "a manifest breaks a layout invariant",
        explanation: "Besides the tokens, a manifest carries the record struct the emitters \
print and a culling shader writes: its members (data and `_padN` padding) tile the record from \
byte 0 to the stride in increasing offset, each inside the token it belongs to, and the record's \
GLSL alignment (`record_align`) is a power of two of at least 4. The layout engine always \
produces such a record, so no description can break this; a manifest written by hand, edited, or \
produced by something else can. The emitters refuse to print a struct whose offsets do not \
hold, since the shader and the stream would disagree about where each member is.\n\n\
The other invariants of a laid-out layout have the codes a description gets for the same \
mistake: out of order E0130, not 4-byte aligned E0132, sharing bytes W0011 (a warning), misaligned for GLSL \
E0403, past the stride E0404, stride not a multiple of 4 E0405 or of the record alignment \
E0406. A manifest that states record-time requirements other than the ones its tokens and \
flags imply is E0410 too: the generated checks and the runtime would disagree. The runtime \
refuses a layout that breaks those about the stream's bytes before any Vulkan call.\n\nFix: regenerate the manifest with `dgcc compile` from its description instead of \
editing it.",
    },
    Rule {
        code: "E0499",
        vuid: None,
        severity: Error,
        title: "internal error: a layout invariant was broken",
        explanation: "The layout engine re-checks its own result (ordered, aligned, inside the \
record, members tiling the record exactly) and found a violation. This is a bug in dgcc, not in \
your description; please report the description that triggers it.",
    },
];
