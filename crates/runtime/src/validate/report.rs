//! What the validator found: violations decoded from the report words the kernel wrote.
//!
//! Why the raw report is words and this is a separate decoding step: the kernel can only append
//! numbers (sequence, token index, check id, element, value, limit); names, fields, codes and
//! VUIDs come from the layout and `Check` on the host. The GPU appends in whatever order its
//! invocations run, so the decoded list is sorted (stream-level first, then by sequence, token,
//! element, check) and two runs over the same stream give the same report whenever every
//! violation fit in the report; when more were found than it holds, `total` says how many and
//! `first_sequence` is still exact (an atomic minimum), but which ones were kept is the GPU's
//! order.

use super::checks::Check;
use dgcc_core::diag::Diagnostic;
use dgcc_core::ir::CompiledLayout;
use serde::Serialize;
use std::fmt;

/// Words before the violation slots: total, first sequence, sequences checked, stored count.
pub const HEADER_WORDS: usize = 4;
/// Words per violation slot.
pub const SLOT_WORDS: usize = 8;
const NONE: u32 = u32::MAX;

/// One rule one record broke.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StreamViolation {
    /// The record; `None` for the stream's stored count.
    pub sequence: Option<u32>,
    /// The token's name in the layout; `None` for the stream's stored count.
    pub token: Option<String>,
    /// The draw inside a `*_COUNT` token's array, or the stage index of a shader-object
    /// execution-set record.
    pub element: Option<u32>,
    pub check: Check,
    /// The field of the token's struct, as the spec names it (`bufferAddress`, `instanceCount`).
    pub field: &'static str,
    pub value: u64,
    /// What the value had to stay within (bytes left, entries, the stated maximum); `None` where
    /// there is none (an address outside every buffer).
    pub limit: Option<u64>,
    /// The registry code (`dgcc explain E0801`).
    pub code: &'static str,
    pub vuid: Option<&'static str>,
}

/// The result of one validation pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StreamReport {
    pub layout: String,
    /// Sequences checked: `min(stored count, records)`.
    pub sequences_checked: u32,
    /// The GPU count as the validator read it, when the stream has one.
    pub stored_count: Option<u32>,
    /// Violations found, also those the report had no room for.
    pub total: u32,
    /// The lowest sequence with a violation.
    pub first_sequence: Option<u32>,
    /// Up to the report's capacity, sorted.
    pub violations: Vec<StreamViolation>,
}

impl StreamReport {
    pub fn is_clean(&self) -> bool {
        self.total == 0
    }

    /// Decode the report words (`HEADER_WORDS` then `SLOT_WORDS` per violation) for `layout`.
    /// Slots naming an unknown check or token (a corrupted report) are dropped, never a panic.
    pub fn decode(layout: &CompiledLayout, words: &[u32]) -> StreamReport {
        let word = |i: usize| words.get(i).copied().unwrap_or(0);
        let total = word(0);
        let kept = (total as usize).min(words.len().saturating_sub(HEADER_WORDS) / SLOT_WORDS);
        let mut violations: Vec<StreamViolation> = words[HEADER_WORDS.min(words.len())..]
            .chunks_exact(SLOT_WORDS)
            .take(kept)
            .filter_map(|s| {
                let check = Check::from_id(s[2])?;
                let token = match s[1] {
                    NONE => None,
                    k => Some(layout.tokens.get(k as usize)?.name.clone()),
                };
                Some(StreamViolation {
                    sequence: (s[0] != NONE).then_some(s[0]),
                    token,
                    element: (s[3] != NONE).then_some(s[3]),
                    check,
                    field: check.field(),
                    value: s[4] as u64 | (s[5] as u64) << 32,
                    limit: check.has_limit().then_some(s[6] as u64 | (s[7] as u64) << 32),
                    code: check.code(),
                    vuid: check.vuid(),
                })
            })
            .collect();
        let position =
            |name: &Option<String>| name.as_ref().and_then(|n| layout.tokens.iter().position(|t| &t.name == n));
        violations.sort_by_key(|v| (v.sequence, position(&v.token), v.element, v.check));
        let first = word(1);
        let stored = word(3);
        StreamReport {
            layout: layout.name.clone(),
            sequences_checked: word(2),
            stored_count: (stored != NONE).then_some(stored),
            total,
            first_sequence: (first != NONE).then_some(first),
            violations,
        }
    }

    /// The violations as diagnostics with registry codes, each with a note saying where.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.violations
            .iter()
            .map(|v| {
                let mut d = Diagnostic::new(v.code, v.message());
                d.notes.push(format!("in layout `{}`, {}", self.layout, v.place()));
                if let Some(vuid) = v.vuid {
                    d.notes.push(format!("enforces {vuid}"));
                }
                d
            })
            .collect()
    }
}

impl StreamViolation {
    /// Where: `sequence 17, token \`indices\``, plus the draw or stage index.
    pub fn place(&self) -> String {
        let mut s = match (&self.sequence, &self.token) {
            (Some(q), Some(t)) => format!("sequence {q}, token `{t}`"),
            (Some(q), None) => format!("sequence {q}"),
            _ => "the stream's count".to_string(),
        };
        if let Some(e) = self.element {
            let what = if self.check == Check::ExecutionSetIndex { "stage" } else { "draw" };
            s.push_str(&format!(", {what} {e}"));
        }
        s
    }

    /// What is wrong, in one sentence.
    pub fn message(&self) -> String {
        let (v, limit) = (self.value, self.limit.unwrap_or(0));
        match self.check {
            Check::IndexAddress => format!("bufferAddress {v:#x} is not inside any registered index buffer"),
            Check::VertexAddress => format!("bufferAddress {v:#x} is not inside any registered vertex buffer"),
            Check::CountAddress => format!("bufferAddress {v:#x} is not inside any registered indirect buffer"),
            Check::IndexSize | Check::VertexSize => {
                format!("size {v} runs past the end of its buffer, which has {limit} bytes from bufferAddress")
            }
            Check::CountSize => format!("the draw array needs {v} bytes but its buffer has {limit} from bufferAddress"),
            Check::IndexAlignment => format!("bufferAddress {v:#x} is not aligned to the {limit}-byte index type"),
            Check::IndexType => format!("indexType {v} is not a valid index type"),
            Check::IndexRange => {
                format!("firstIndex + indexCount = {v} exceeds the bound index buffer's {limit} indices")
            }
            Check::CountAlignment => format!("bufferAddress {v:#x} of the draw array is not 4-byte aligned"),
            Check::CountStride => {
                format!("stride {v} is not a multiple of 4 of at least {limit} bytes (the draw struct)")
            }
            Check::CommandCount => format!("commandCount {v} exceeds the stated maximum draw count {limit}"),
            Check::InstanceCount => format!("instanceCount {v} exceeds the stated maximum {limit}"),
            Check::ExecutionSetIndex => format!("execution-set index {v} is not below the set's {limit} entries"),
            Check::SequenceCount => format!("the stored sequence count {v} exceeds maxSequenceCount {limit}"),
            Check::GroupsX | Check::GroupsY | Check::GroupsZ => {
                format!("{} = {v} exceeds maxComputeWorkGroupCount {limit}", self.field)
            }
        }
    }
}

impl fmt::Display for StreamViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error[{}]: {}: {}", self.code, self.place(), self.message())?;
        if let Some(v) = self.vuid {
            write!(f, " ({v})")?;
        }
        Ok(())
    }
}

impl fmt::Display for StreamReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_clean() {
            return write!(f, "stream `{}`: {} sequences checked, no violations", self.layout, self.sequences_checked);
        }
        write!(
            f,
            "stream `{}`: {} sequences checked, {} violation(s)",
            self.layout, self.sequences_checked, self.total
        )?;
        if let Some(s) = self.first_sequence {
            write!(f, ", the first in sequence {s}")?;
        }
        for v in &self.violations {
            write!(f, "\n  {v}")?;
        }
        if (self.violations.len() as u32) < self.total {
            write!(f, "\n  … and {} more", self.total - self.violations.len() as u32)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(sequence: u32, token: u32, check: Check, element: u32, value: u64, limit: u64) -> [u32; 8] {
        [sequence, token, check.id(), element, value as u32, (value >> 32) as u32, limit as u32, (limit >> 32) as u32]
    }

    #[test]
    fn slots_decode_sorted_with_names_codes_and_vuids() {
        let layout = crate::fixtures::push_index_draw();
        let mut words = vec![3, 5, 10, 7];
        words.extend(slot(9, 2, Check::IndexRange, NONE, 600, 500));
        words.extend(slot(5, 1, Check::IndexAddress, NONE, 0xdead_0000_0000, 0));
        words.extend(slot(NONE, NONE, Check::SequenceCount, NONE, 11, 10));
        let r = StreamReport::decode(&layout, &words);
        assert_eq!((r.total, r.first_sequence, r.sequences_checked, r.stored_count), (3, Some(5), 10, Some(7)));
        let v = &r.violations;
        assert_eq!(v.len(), 3);
        assert_eq!((v[0].sequence, v[0].check, v[0].code), (None, Check::SequenceCount, "E0811"));
        assert_eq!(v[0].vuid, Some("VUID-VkGeneratedCommandsInfoEXT-sequenceCountAddress-11068"));
        assert_eq!((v[1].sequence, v[1].token.as_deref(), v[1].field), (Some(5), Some("indices"), "bufferAddress"));
        assert_eq!((v[1].value, v[1].limit), (0xdead_0000_0000, None));
        assert_eq!(
            (v[2].token.as_deref(), v[2].field, v[2].limit),
            (Some("draw"), "firstIndex + indexCount", Some(500))
        );
        let text = r.to_string();
        assert!(text.contains("3 violation(s), the first in sequence 5"), "{text}");
        assert!(
            text.contains("error[E0801]: sequence 5, token `indices`: bufferAddress 0xdead00000000 is not inside"),
            "{text}"
        );
        let d = r.diagnostics();
        assert_eq!(d[2].code, "E0804");
        assert!(d[2].notes[0].contains("sequence 9, token `draw`"));
    }

    #[test]
    fn more_violations_than_slots_and_corrupt_slots_are_reported_without_panicking() {
        let layout = crate::fixtures::push_index_draw();
        let mut words = vec![40, 0, 2, NONE];
        words.extend(slot(0, 7, Check::IndexType, NONE, 3, 0));
        words.extend(slot(0, 1, Check::IndexType, NONE, 3, 0));
        words.extend([1, 1, 99, NONE, 0, 0, 0, 0]);
        let r = StreamReport::decode(&layout, &words);
        assert_eq!(r.total, 40);
        assert_eq!(r.stored_count, None);
        assert_eq!(r.violations.len(), 1, "an unknown token and an unknown check are dropped");
        assert!(r.to_string().ends_with("… and 39 more"));
        assert_eq!(StreamReport::decode(&layout, &[]).total, 0);
        assert!(StreamReport::decode(&layout, &[0, NONE, 4, NONE])
            .to_string()
            .contains("4 sequences checked, no violations"));
    }

    #[test]
    fn every_check_has_a_registered_code_with_its_vuid() {
        for c in Check::ALL {
            assert_eq!(Check::from_id(c.id()), Some(c));
            let rule =
                dgcc_core::rules::lookup(c.code()).unwrap_or_else(|| panic!("{c:?}: {} not registered", c.code()));
            if !matches!(c, Check::GroupsY | Check::GroupsZ) {
                assert_eq!(c.vuid(), rule.vuid, "{c:?}");
            }
        }
    }

    #[test]
    fn the_shader_numbers_checks_and_table_words_as_the_host_does() {
        let source = include_str!("../../../../shaders/runtime/validate_stream.comp");
        let constant = |name: &str| -> u32 {
            let line = source
                .lines()
                .find(|l| l.starts_with(&format!("const uint {name} = ")))
                .unwrap_or_else(|| panic!("{name} is not declared in validate_stream.comp"));
            line.split('=').nth(1).unwrap().trim().trim_end_matches(';').trim_end_matches('u').parse().unwrap()
        };
        for c in Check::ALL {
            assert_eq!(constant(c.shader_name()), c.id(), "{c:?}");
        }
        use super::super::table::*;
        for (name, word) in [
            ("T_TOKEN_COUNT", T_TOKEN_COUNT),
            ("T_MAX_INSTANCES", T_MAX_INSTANCES),
            ("T_MAX_DRAWS", T_MAX_DRAWS),
            ("T_BOUND_INDEX_BYTES", T_BOUND_INDEX_BYTES),
            ("T_BOUND_INDEX_SIZE", T_BOUND_INDEX_SIZE),
            ("T_MAX_GROUPS", T_MAX_GROUPS),
            ("T_LISTS", T_LISTS),
            ("T_TOKENS", T_TOKENS),
        ] {
            assert_eq!(constant(name) as usize, word, "{name}");
        }
        assert!(source.contains(&format!("const uint C_GROUPS_Y = {}u;", Check::GroupsX.id() + 1)));
    }
}
