//! The layout invariants: what every laid-out layout satisfies, as findings with codes.
//!
//! 1. Tokens are in order: each offset is ≥ the previous token's (E0130). Token data may
//!    overlap, which the spec allows: a warning (W0011) names what shares bytes, never for a
//!    sequence index, whose data is a placeholder no one reads.
//! 2. Every offset is a multiple of 4 (E0132), and every record member sits at a multiple of
//!    its GLSL alignment under the layout's `glsl_layout` (E0403).
//! 3. Every token's data lies inside the record: `offset + size ≤ stride` (E0404).
//! 4. The stride is a multiple of 4 (E0405) and of the record's GLSL alignment (E0406), which
//!    is a power of two of at least 4 (E0410).
//! 5. The record members tile `[0, stride)` exactly, in increasing offset, each inside the
//!    token it belongs to (E0410).
//! 6. The record-time requirements, when the manifest states them, are those the layout
//!    implies (`crate::requirements::requirements_of`; E0410).
//!
//! Why here and as findings: the layout engine guarantees them for what it produces, but a
//! manifest can also be written by an older dgcc or edited by hand, and three consumers rely on
//! them — the layout engine re-checks its own result (a broken one is a compiler bug, E0499),
//! the emitters refuse to print a struct whose offsets do not hold, and the runtime refuses a
//! layout whose token data run past the stride before `vkCreateIndirectCommandsLayoutEXT`,
//! which would accept it. One function, one set of codes: where the layout engine reports the
//! same mistake in a description (W0011, E0403–E0406), the manifest gets that code; what only
//! an edited manifest can break (the record) is E0410.
//!
//! [`invariant_findings`] checks everything; [`stream_findings`] only what the runtime reads
//! (the stride and the tokens' bytes) and what `structure_findings` does not already report, so
//! that `device_findings` reports each mistake once and does not ask a hand-written manifest
//! for a record struct the runtime never uses.

use super::finding::{Finding, Location, TokenPart};
use crate::ir::CompiledLayout;

/// Every invariant of the module doc, for the layout engine's self-check and the emitters.
pub fn invariant_findings(l: &CompiledLayout) -> Vec<Finding> {
    let mut out = vec![];
    stride(l, &mut out);
    record_align(l, &mut out);
    tokens(l, true, &mut out);
    record(l, &mut out);
    requirements(l, &mut out);
    out
}

/// A manifest's record-time requirements, when it states them, are the ones its layout implies
/// (E0410): an edited list would make the generated checks disagree with the runtime's.
fn requirements(l: &CompiledLayout, out: &mut Vec<Finding>) {
    if l.requirements.is_empty() {
        return;
    }
    let derived = crate::requirements::requirements_of(l);
    if l.requirements != derived {
        out.push(
            Finding::new(
                "E0410",
                Location::Layout,
                format!(
                    "the manifest's requirements of `{}` are not the ones its tokens and flags imply ({})",
                    l.name,
                    derived.iter().map(|r| r.kind()).collect::<Vec<_>>().join(", ")
                ),
            )
            .label("requirements"),
        );
    }
}

/// The invariants about the stream's bytes that `structure_findings` does not check: the
/// stride a multiple of 4 (E0405), tokens sharing bytes (W0011, a warning) and inside the stride
/// (E0404). What the runtime adds before creating a layout.
pub fn stream_findings(l: &CompiledLayout) -> Vec<Finding> {
    let mut out = vec![];
    stride(l, &mut out);
    tokens(l, false, &mut out);
    out
}

/// The first error of [`invariant_findings`], as one line with its code: what the emitters and
/// the layout engine's self-check report.
pub fn first_broken(l: &CompiledLayout) -> Option<Finding> {
    invariant_findings(l).into_iter().find(Finding::is_error)
}

fn stride(l: &CompiledLayout, out: &mut Vec<Finding>) {
    if !l.stride.is_multiple_of(4) {
        out.push(
            Finding::new("E0405", Location::Stride, format!("stride {} is not a multiple of 4", l.stride))
                .label("indirectStride")
                .help(format!("use {}", (l.stride as u64).div_ceil(4) * 4)),
        );
    }
}

fn record_align(l: &CompiledLayout, out: &mut Vec<Finding>) {
    let a = l.record_align;
    if !a.is_power_of_two() || a < 4 {
        out.push(
            Finding::new(
                "E0410",
                Location::Layout,
                format!("record alignment {a} is not a power of two of at least 4"),
            )
            .label("record_align"),
        );
    } else if l.stride.is_multiple_of(4) && !l.stride.is_multiple_of(a) {
        out.push(
            Finding::new(
                "E0406",
                Location::Stride,
                format!("stride {} is not a multiple of the record alignment {a}", l.stride),
            )
            .label("indirectStride")
            .help(format!("use {}", (l.stride as u64).div_ceil(a as u64) * a as u64)),
        );
    }
}

/// In order, 4-aligned (only with `structure`: `structure_findings` reports those two),
/// not overlapping, inside the stride.
fn tokens(l: &CompiledLayout, structure: bool, out: &mut Vec<Finding>) {
    let at = |i| Location::token(i, TokenPart::Offset);
    // The furthest end of the data of the tokens so far: a token that starts before it shares
    // bytes with an earlier token (or is out of order).
    let mut end = 0u64;
    for (i, t) in l.tokens.iter().enumerate() {
        let offset = t.offset as u64;
        if offset < end {
            let p = &l.tokens[i - 1];
            if t.offset < p.offset {
                if structure {
                    out.push(
                        Finding::new(
                            "E0130",
                            at(i),
                            format!(
                                "`{}` at offset {} comes before the previous token's offset {}",
                                t.name, t.offset, p.offset
                            ),
                        )
                        .label(format!("offset {}", t.offset))
                        .related(at(i - 1), format!("`{}` is at {}", p.name, p.offset)),
                    );
                }
            } else if !t.token_type.is_sequence_index() {
                // Sharing bytes is legal: a warning naming every earlier token that reads them
                // (sequence indices, whose placeholder no one reads, left out on both sides).
                let token_end = offset + t.size as u64;
                let shared: Vec<usize> = (0..i)
                    .filter(|&j| {
                        let q = &l.tokens[j];
                        !q.token_type.is_sequence_index()
                            && (q.offset as u64) < token_end
                            && q.offset as u64 + q.size as u64 > offset
                    })
                    .collect();
                if let Some(&far) = shared.iter().max_by_key(|&&j| l.tokens[j].offset as u64 + l.tokens[j].size as u64)
                {
                    let r = &l.tokens[far];
                    let r_end = r.offset as u64 + r.size as u64;
                    let mut f = Finding::new(
                        "W0011",
                        at(i),
                        format!(
                            "`{}` at offset {} shares bytes {}..{} with `{}`, which reads bytes {}..{r_end}",
                            t.name,
                            t.offset,
                            offset.max(r.offset as u64),
                            token_end.min(r_end),
                            r.name,
                            r.offset
                        ),
                    )
                    .label(format!("`{}` reads bytes {}..{token_end}", t.name, t.offset));
                    // At most eight labels: 256 tokens pinned at one offset would otherwise carry
                    // 32,640 labels per layout, gigabytes over a description of such layouts.
                    const LABELS: usize = 8;
                    for &j in shared.iter().take(LABELS) {
                        let q = &l.tokens[j];
                        f = f.related(
                            Location::token(j, TokenPart::Offset),
                            format!("`{}` reads bytes {}..{}", q.name, q.offset, q.offset as u64 + q.size as u64),
                        );
                    }
                    if shared.len() > LABELS {
                        f = f.note(format!("{} more earlier tokens read some of these bytes", shared.len() - LABELS));
                    }
                    out.push(f);
                }
            }
        }
        if structure && !t.offset.is_multiple_of(4) {
            out.push(
                Finding::new("E0132", at(i), format!("`{}` is at offset {}, not a multiple of 4", t.name, t.offset))
                    .label("not 4-byte aligned"),
            );
        }
        let token_end = offset + t.size as u64;
        if token_end > end {
            end = token_end;
        }
        let end = token_end;
        if end > l.stride as u64 {
            out.push(
                Finding::new(
                    "E0404",
                    Location::token(i, TokenPart::Kind),
                    format!("`{}` reads bytes {}..{end} of each record, past the stride of {}", t.name, t.offset, l.stride),
                )
                .label(format!("data ends at byte {end}"))
                .related(Location::Stride, format!("stride {}", l.stride))
                .note(format!(
                    "the last {} bytes of this token are the first bytes of the next sequence's record, and the last sequence reads past the end of the stream",
                    end - l.stride as u64
                )),
            );
        }
    }
}

/// The record members tile the record, each inside its token and aligned.
fn record(l: &CompiledLayout, out: &mut Vec<Finding>) {
    let broken = |message: String| Finding::new("E0410", Location::Layout, message).label("the record struct");
    let mut at = 0u64;
    let mut tiled = true;
    for m in &l.record {
        if tiled && m.offset as u64 != at {
            let why = if (m.offset as u64) > at { "leaves a hole at" } else { "overlaps the member ending at" };
            out.push(broken(format!("record member `{}` at {} {why} {at}", m.name, m.offset)));
            // One mistake, one finding: the members after it are not measured against it.
            tiled = false;
        }
        if let Some(ti) = m.token {
            let Some(t) = l.tokens.get(ti) else {
                out.push(broken(format!("record member `{}` names token {ti}, which does not exist", m.name)));
                at += m.size as u64;
                continue;
            };
            let (start, end) = (t.offset as u64, t.offset as u64 + t.size as u64);
            if (m.offset as u64) < start || m.offset as u64 + m.size as u64 > end {
                out.push(
                    Finding::new(
                        "E0410",
                        Location::token(ti, TokenPart::Offset),
                        format!(
                            "record member `{}` at {} is not inside its token `{}` ({start}..{end})",
                            m.name, m.offset, t.name
                        ),
                    )
                    .label(format!("`{}` occupies {start}..{end}", t.name)),
                );
            }
        }
        let align = m.glsl_type.align(l.glsl_layout);
        if !m.offset.is_multiple_of(align) {
            let f = match m.token {
                Some(ti) if ti < l.tokens.len() => Finding::new(
                    "E0403",
                    Location::token(ti, TokenPart::Offset),
                    format!("record member `{}` at {} breaks its {align}-byte alignment", m.name, m.offset),
                )
                .label(format!("not a multiple of {align}")),
                _ => broken(format!("record member `{}` at {} breaks its {align}-byte alignment", m.name, m.offset)),
            };
            out.push(f);
        }
        at += m.size as u64;
    }
    if tiled && at != l.stride as u64 {
        out.push(broken(format!("record members cover {at} bytes, stride is {}", l.stride)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Manifest;
    use crate::types::{GlslLayout, MemberType};

    /// Push constant 0..8, index buffer 8..24, indexed draw 24..44, padding 44..48; std430.
    const GOOD: &str = r#"{"schema_version": 1, "pipeline": "p", "push_constants": [],
      "layouts": [{"name": "L", "stride": 48, "shader_stages": 17, "flags": 0, "max_sequences": 1,
        "glsl_layout": "std430", "record_align": 8,
        "tokens": [
          {"name": "object", "type": "PUSH_CONSTANT", "type_value": 1, "offset": 0, "size": 8,
           "push_constant": {"stages": 1, "offset": 0, "size": 8}},
          {"name": "indices", "type": "INDEX_BUFFER", "type_value": 3, "offset": 8, "size": 16, "index_mode": 1},
          {"name": "draw", "type": "DRAW_INDEXED", "type_value": 5, "offset": 24, "size": 20}],
        "record": [
          {"name": "object", "glsl_type": "uint", "array": 2, "array_stride": 4, "offset": 0, "size": 8, "token": 0},
          {"name": "indices_address", "glsl_type": "uvec2", "array": 0, "array_stride": 0, "offset": 8, "size": 8, "token": 1},
          {"name": "indices_size", "glsl_type": "uint", "array": 0, "array_stride": 0, "offset": 16, "size": 4, "token": 1},
          {"name": "indices_index_type", "glsl_type": "uint", "array": 0, "array_stride": 0, "offset": 20, "size": 4, "token": 1},
          {"name": "draw_args", "glsl_type": "uint", "array": 5, "array_stride": 4, "offset": 24, "size": 20, "token": 2},
          {"name": "_pad0", "glsl_type": "uint", "array": 0, "array_stride": 0, "offset": 44, "size": 4, "token": null}]}]}"#;

    fn good() -> CompiledLayout {
        Manifest::from_json(GOOD).expect("the test manifest parses").layouts.remove(0)
    }

    fn codes(f: &[Finding]) -> Vec<&'static str> {
        f.iter().map(|f| f.code).collect()
    }

    #[test]
    fn a_laid_out_layout_keeps_every_invariant() {
        assert_eq!(invariant_findings(&good()), vec![]);
        assert_eq!(stream_findings(&good()), vec![]);
        assert_eq!(first_broken(&good()), None);
    }

    #[test]
    fn stride_not_a_multiple_of_4_is_e0405() {
        let mut l = good();
        l.stride = 46;
        assert_eq!(codes(&stream_findings(&l)), ["E0405"]);
        assert_eq!(invariant_findings(&l)[0].code, "E0405");
        assert_eq!(invariant_findings(&l)[0].location, Location::Stride);
    }

    #[test]
    fn stride_not_a_multiple_of_the_record_alignment_is_e0406() {
        let mut l = good();
        l.stride = 52;
        l.record[5].size = 8;
        l.record[5].array = 2;
        l.record[5].array_stride = 4;
        assert_eq!(codes(&invariant_findings(&l)), ["E0406"]);
        // The runtime does not read the record struct: not its concern.
        assert_eq!(stream_findings(&l), vec![]);
    }

    #[test]
    fn a_record_alignment_that_is_no_power_of_two_is_e0410() {
        for a in [0, 2, 12] {
            let mut l = good();
            l.record_align = a;
            assert_eq!(codes(&invariant_findings(&l)), ["E0410"], "{a}");
        }
    }

    #[test]
    fn overlapping_tokens_are_a_warning_w0011() {
        let mut l = good();
        l.tokens[2].offset = 20;
        l.tokens[2].size = 24;
        let f = stream_findings(&l);
        assert_eq!(codes(&f), ["W0011"]);
        assert!(!f[0].is_error(), "the spec allows shared bytes");
        assert_eq!(f[0].location, Location::token(2, TokenPart::Offset));
        assert_eq!(f[0].related[0].0, Location::token(1, TokenPart::Offset));
    }

    #[test]
    fn a_sequence_index_never_shares_bytes() {
        use crate::tokens::TokenType::SequenceIndex;
        // A sequence index on another token's bytes (4..8 of `object`)…
        let mut l = good();
        (l.tokens[1].token_type, l.tokens[1].offset, l.tokens[1].size) = (SequenceIndex, 4, 4);
        assert_eq!(stream_findings(&l), vec![]);
        // …and a token on a sequence index's (`indices` at 0, on the index at 0..4).
        let mut l = good();
        (l.tokens[0].token_type, l.tokens[0].size) = (SequenceIndex, 4);
        l.tokens[1].offset = 0;
        assert_eq!(stream_findings(&l), vec![]);
    }

    #[test]
    fn tokens_out_of_order_are_e0130_once() {
        let mut l = good();
        l.tokens[0].offset = 8;
        l.tokens[1].offset = 0;
        // `structure_findings` reports the order; the stream part does not repeat it.
        assert!(!codes(&stream_findings(&l)).contains(&"E0130"));
        assert!(codes(&invariant_findings(&l)).contains(&"E0130"));
        assert!(crate::check::layout_rules::structure_findings(&l).iter().any(|f| f.code == "E0130"));
    }

    #[test]
    fn a_misaligned_token_is_e0132_once() {
        let mut l = good();
        l.tokens[2].offset = 26;
        l.tokens[2].size = 18;
        assert!(!codes(&stream_findings(&l)).contains(&"E0132"));
        assert!(codes(&invariant_findings(&l)).contains(&"E0132"));
    }

    #[test]
    fn token_data_past_the_stride_is_e0404() {
        let mut l = good();
        l.tokens[2].offset = 48;
        let f = stream_findings(&l);
        assert_eq!(codes(&f), ["E0404"]);
        assert_eq!(f[0].location, Location::token(2, TokenPart::Kind));
        assert_eq!(f[0].message, "`draw` reads bytes 48..68 of each record, past the stride of 48");
        // The record no longer matches the tokens either.
        assert_eq!(codes(&invariant_findings(&l)), ["E0404", "E0410"]);
    }

    #[test]
    fn a_hole_in_the_record_is_e0410() {
        let mut l = good();
        l.record.remove(2);
        let f = invariant_findings(&l);
        assert_eq!(codes(&f), ["E0410"]);
        assert!(f[0].message.contains("leaves a hole at 16"), "{}", f[0].message);
        let mut l = good();
        l.record.pop();
        assert_eq!(codes(&invariant_findings(&l)), ["E0410"]);
        assert!(invariant_findings(&l)[0].message.contains("cover 44 bytes"));
    }

    #[test]
    fn a_member_outside_its_token_is_e0410() {
        let mut l = good();
        l.record[1].token = Some(0);
        assert_eq!(codes(&invariant_findings(&l)), ["E0410"]);
        let mut l = good();
        l.record[1].token = Some(7);
        assert!(invariant_findings(&l)[0].message.contains("names token 7"));
    }

    #[test]
    fn a_misaligned_member_is_e0403() {
        let mut l = good();
        // `uvec2` aligns to 8 under std430; under scalar, to 4.
        l.record.swap(1, 2);
        l.record[1].offset = 8;
        l.record[1].glsl_type = MemberType::Uint;
        l.record[1].size = 4;
        l.record[2].offset = 12;
        l.record[2].glsl_type = MemberType::UVec2;
        l.record[2].size = 8;
        l.record[2].name = "indices_address".into();
        l.record[1].name = "indices_size".into();
        assert_eq!(codes(&invariant_findings(&l)), ["E0403"]);
        l.glsl_layout = GlslLayout::Scalar;
        assert_eq!(invariant_findings(&l), vec![]);
    }
}
