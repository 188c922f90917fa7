//! Push-constant rules that hold on every device: the pipeline layout's own ranges, and the
//! ranges that PUSH_CONSTANT and SEQUENCE_INDEX tokens update.
//!
//! Why stages are mostly ignored: the spec says a token's `updateRange.stageFlags` is ignored
//! and containment (11132) is about bytes, so dgcc checks bytes against the union of the
//! pipeline's ranges. The validation layers, however, only look at pipeline ranges whose stages
//! overlap the token's; a description that passes the spec but not that lookup gets a warning
//! (W0010), because it will be reported by the layers every time it runs.

use super::finding::{Finding, Location, RangePart, TokenPart};
use crate::ir::{CompiledLayout, PushConstantRange};
use crate::stages::StageMask;

fn range_text(offset: u64, size: u64) -> String {
    format!("bytes {offset}..{}", offset + size)
}

/// The first byte of `[start, end)` that no range covers, if any.
fn first_uncovered(start: u64, end: u64, ranges: &[PushConstantRange]) -> Option<u64> {
    let mut at = start;
    while at < end {
        let reach = ranges
            .iter()
            .filter(|r| (r.offset as u64) <= at && at < r.offset as u64 + r.size as u64)
            .map(|r| r.offset as u64 + r.size as u64)
            .max();
        match reach {
            Some(next) => at = next,
            None => return Some(at),
        }
    }
    None
}

/// Rules on the pipeline layout's push-constant ranges (offset, size, empty stages, 00292).
pub fn pipeline_range_findings(ranges: &[PushConstantRange]) -> Vec<Finding> {
    let mut out = vec![];
    // For each stage bit, the first range that includes it. A range that repeats a stage is
    // reported against that first range (one E0310 per earlier range it meets this way), not
    // against every earlier range: n ranges of one stage are n − 1 findings, not n²/2, which a
    // description of 10,000 ranges turned into gigabytes.
    let mut first_with = [None::<usize>; 32];
    for (i, r) in ranges.iter().enumerate() {
        let at = |part| Location::PushConstantRange { index: i, part };
        if r.stages == 0 {
            out.push(
                Finding::new("E0121", at(RangePart::Stages), "this push-constant range has no stages")
                    .label("empty")
                    .help_spelled(
                        "list the stages that read the range, e.g. `[Vertex]`",
                        "list the stages that read the range, e.g. `[vertex]`",
                    ),
            );
        }
        range_shape(r.offset, r.size, at(RangePart::Offset), at(RangePart::Size), "this push-constant range", &mut out);
        let mut earlier: Vec<usize> =
            (0..32).filter(|bit| r.stages & (1 << bit) != 0).filter_map(|bit| first_with[bit]).collect();
        earlier.sort_unstable();
        earlier.dedup();
        for (bit, first) in first_with.iter_mut().enumerate() {
            if r.stages & (1 << bit) != 0 {
                first.get_or_insert(i);
            }
        }
        for j in earlier {
            let shared = r.stages & ranges[j].stages;
            out.push(
                Finding::new_by("E0310", at(RangePart::Stages), |dgc| {
                    format!("two push-constant ranges include {}", crate::spell::stages(StageMask(shared), dgc))
                })
                .label_by(|dgc| format!("{} again", crate::spell::stages(StageMask(shared), dgc)))
                .related(Location::PushConstantRange { index: j, part: RangePart::Stages }, "also here")
                .note("a pipeline layout gives each stage at most one push-constant range, whatever the bytes")
                .help("merge the two ranges into one covering both, or give each range its own stages"),
            );
        }
    }
    out
}

/// Offset and size multiples of 4, size not zero (00295, 00297, 00296).
fn range_shape(offset: u32, size: u32, at_offset: Location, at_size: Location, what: &str, out: &mut Vec<Finding>) {
    if !offset.is_multiple_of(4) {
        out.push(
            Finding::new("E0301", at_offset, format!("{what} starts at byte {offset}, not a multiple of 4"))
                .label("not a multiple of 4")
                .help(format!("use offset {}", offset / 4 * 4))
                .suggest(at_offset, (offset / 4 * 4).to_string(), false),
        );
    }
    if size == 0 {
        out.push(
            Finding::new("E0304", at_size, format!("{what} is empty"))
                .label("0 bytes")
                .help("give it at least one 4-byte field, or remove it"),
        );
    } else if !size.is_multiple_of(4) {
        out.push(
            Finding::new("E0302", at_size, format!("{what} is {size} bytes, not a multiple of 4"))
                .label(format!("{size} bytes"))
                .note("push constants are written in 32-bit words")
                .help(format!("use size {}", (size as u64).div_ceil(4) * 4)),
        );
    }
}

/// Rules on the ranges that tokens update: shape, containment (11132), overlap (11099).
pub fn token_range_findings(layout: &CompiledLayout, ranges: &[PushConstantRange]) -> Vec<Finding> {
    let mut out = vec![];
    let with_range: Vec<(usize, PushConstantRange)> =
        layout.tokens.iter().enumerate().filter_map(|(i, t)| t.push_constant.map(|r| (i, r))).collect();
    for &(i, r) in &with_range {
        let t = &layout.tokens[i];
        let at = |part| Location::token(i, part);
        let what = format!("the push-constant range of `{}`", t.name);
        if t.token_type.is_push_data() {
            // Push data has no pipeline-layout ranges to lie in (11132 is for PUSH_CONSTANT and
            // SEQUENCE_INDEX) and its stages are VK_SHADER_STAGE_ALL (E0312, with the layout
            // rules); its bound is the device's maxPushDataSize (E0313).
            range_shape(r.offset, r.size, at(TokenPart::PushOffset), at(TokenPart::PushSize), &what, &mut out);
            continue;
        }
        if r.stages == 0 {
            out.push(
                Finding::new("E0121", at(TokenPart::Stages), format!("`{}` pushes to no stages", t.name))
                    .label("empty")
                    .help_spelled(
                        "list the stages that read the value, e.g. `[Vertex]`",
                        "list the stages that read the value, e.g. `[vertex]`",
                    ),
            );
        }
        range_shape(r.offset, r.size, at(TokenPart::PushOffset), at(TokenPart::PushSize), &what, &mut out);
        let (start, end) = (r.offset as u64, r.offset as u64 + r.size as u64);
        if r.size > 0 {
            if let Some(hole) = first_uncovered(start, end, ranges) {
                let mut f = Finding::new(
                    "E0307",
                    at(TokenPart::PushOffset),
                    format!(
                        "`{}` updates push-constant {}, outside the pipeline's push-constant ranges",
                        t.name,
                        range_text(start, r.size as u64)
                    ),
                )
                .label(format!("byte {hole} is in no range"));
                if ranges.is_empty() {
                    f = f
                        .note_spelled(
                            "the pipeline declares no `push_constants` ranges at all",
                            "the pipeline declares no `push_constant` ranges at all",
                        )
                        .help_spelled(
                            format!(
                                "add `push_constants: [(stages: [{}], offset: {}, size: {})]`",
                                stage_names(r.stages),
                                r.offset,
                                r.size
                            ),
                            format!(
                                "add `push_constant [{}] offset {} size {};` to the pipeline",
                                stage_names_dgc(r.stages),
                                r.offset,
                                r.size
                            ),
                        );
                } else {
                    for (k, q) in ranges.iter().enumerate() {
                        f = f.related(
                            Location::PushConstantRange { index: k, part: RangePart::Whole },
                            format!("covers {}", range_text(q.offset as u64, q.size as u64)),
                        );
                    }
                    f = f.help("grow a pipeline range to cover these bytes, or move the token's `offset`");
                }
                out.push(f);
            } else if r.stages != 0
                && !ranges.iter().any(|q| {
                    q.stages & r.stages != 0 && q.offset as u64 <= start && end <= q.offset as u64 + q.size as u64
                })
            {
                out.push(
                    Finding::new_by("W0010", at(TokenPart::Stages), |dgc| {
                        format!(
                            "no single pipeline range with {} holds `{}`'s bytes {}..{end}",
                            crate::spell::stages(StageMask(r.stages), dgc),
                            t.name,
                            start
                        )
                    })
                    .label("stages differ from the covering range")
                    .note("the spec ignores a token's stages and only asks that its bytes lie inside the pipeline's ranges, which they do; the validation layers instead look for one range sharing a stage with the token and will report VUID-VkIndirectCommandsPushConstantTokenEXT-updateRange-11132")
                    .help("give the token the stages of the pipeline range that holds it"),
                );
            }
        }
    }
    overlaps(layout, &with_range, &mut out);
    out
}

/// E0308: sweep the non-empty token ranges in byte order; a range that starts before the
/// furthest end seen so far overlaps the range that reaches it. Linear after sorting, so a
/// layout built programmatically with thousands of tokens costs nothing.
fn overlaps(layout: &CompiledLayout, with_range: &[(usize, PushConstantRange)], out: &mut Vec<Finding>) {
    let mut sorted: Vec<(u64, u64, usize)> = with_range
        .iter()
        .filter(|(_, r)| r.size > 0)
        .map(|&(i, r)| (r.offset as u64, r.offset as u64 + r.size as u64, i))
        .collect();
    sorted.sort();
    let mut furthest: Option<(u64, u64, usize)> = None;
    for (start, end, i) in sorted {
        if let Some((qs, qe, j)) = furthest {
            if start < qe {
                let (t, other) = (&layout.tokens[i], &layout.tokens[j]);
                out.push(
                    Finding::new(
                        "E0308",
                        Location::token(i, TokenPart::PushOffset),
                        format!(
                            "`{}` and `{}` both update push-constant bytes {start}..{}",
                            t.name,
                            other.name,
                            end.min(qe)
                        ),
                    )
                    .label(range_text(start, end - start))
                    .related(Location::token(j, TokenPart::PushOffset), range_text(qs, qe - qs))
                    .help(format!("move `{}` to offset {qe} or later", t.name)),
                );
            }
        }
        if furthest.is_none_or(|(_, qe, _)| end > qe) {
            furthest = Some((start, end, i));
        }
    }
}

fn stage_names(mask: u32) -> String {
    StageMask(mask).stages().map(|s| s.name()).collect::<Vec<_>>().join(", ")
}

/// The stages as the `.dgc` language writes them: `TessControl` is `tess_control`.
fn stage_names_dgc(mask: u32) -> String {
    let snake = |name: &str| {
        let mut out = String::new();
        for (i, c) in name.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    };
    StageMask(mask).stages().map(|s| snake(s.name())).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(offset: u32) -> PushConstantRange {
        PushConstantRange { stages: 1, offset, size: 4 }
    }

    #[test]
    fn a_repeated_stage_is_reported_against_the_first_range_that_has_it() {
        let e0310 = |ranges: &[PushConstantRange]| {
            pipeline_range_findings(ranges).into_iter().filter(|f| f.code == "E0310").count()
        };
        assert_eq!(e0310(&[vertex(0), PushConstantRange { stages: 0x11, offset: 4, size: 4 }]), 1);
        assert_eq!(e0310(&[vertex(0), vertex(4), vertex(8)]), 2);
        // Fragment first met in the second range, Vertex in the first: the third meets both.
        let third = PushConstantRange { stages: 0x11, offset: 8, size: 4 };
        assert_eq!(e0310(&[vertex(0), PushConstantRange { stages: 0x10, offset: 4, size: 4 }, third]), 2);
        let many: Vec<_> = (0..10_000).map(|i| vertex(4 * i)).collect();
        assert_eq!(e0310(&many), 9_999);
    }
}
