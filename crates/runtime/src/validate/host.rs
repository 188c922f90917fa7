//! The same checks on the CPU, over bytes: for streams an engine writes on the host, and as the
//! reference the GPU kernel is tested against.
//!
//! Why a line-by-line port of `validate_stream.comp` that reads the same table: the differential
//! test (`tests/runtime_validate.rs`) runs random streams through both and expects identical
//! reports, which exercises the kernel's hand-made 64-bit arithmetic, the binary search over
//! registered buffers and every token branch far beyond the planted cases. Where the kernel
//! reads device memory a record points at (a count token's draw array), this version reads
//! `memory`: `(device address, bytes)` snapshots of the registered buffers; a draw array inside a
//! registered buffer but in no snapshot has its inner draws skipped.

use super::checks::Check;
use super::report::{StreamReport, HEADER_WORDS, SLOT_WORDS};
use super::table::{self, *};
use crate::error::{Result, RuntimeError};
use dgcc_core::ir::{CompiledLayout, TokenType};

const NONE: u32 = u32::MAX;

/// A stream in host memory.
#[derive(Clone, Copy, Debug)]
pub struct HostStream<'a> {
    /// `max_sequences` records of the layout's stride.
    pub records: &'a [u8],
    pub max_sequences: u32,
    /// The sequence count, when it lives in a count buffer.
    pub stored_count: Option<u32>,
}

/// Check `stream` as `StreamValidator::record` would; `limits.report_capacity` bounds the
/// violations kept.
pub fn validate_on_host(
    layout: &CompiledLayout,
    limits: &StreamLimits,
    buffers: &[RegisteredBuffer],
    stream: &HostStream<'_>,
    memory: &[(u64, &[u8])],
) -> Result<StreamReport> {
    let t = table::build(layout, limits, buffers)?;
    let stride = layout.stride as usize;
    if stream.records.len() < stride * stream.max_sequences as usize {
        return Err(RuntimeError::Invalid(format!(
            "the stream holds {} bytes, less than {} records of {stride}",
            stream.records.len(),
            stream.max_sequences
        )));
    }
    let mut r = Recorder { words: vec![0, NONE, 0, NONE], capacity: limits.report_capacity };
    let mut n = stream.max_sequences;
    if let Some(stored) = stream.stored_count {
        r.words[3] = stored;
        let limit = stream.max_sequences.min(limits.max_sequence_count.unwrap_or(u32::MAX));
        if stored > limit {
            r.report(NONE, NONE, Check::SequenceCount, NONE, stored as u64, limit as u64);
        }
        n = n.min(stored);
    }
    r.words[2] = n;
    let ctx = Context { t: &t, memory };
    for s in 0..n {
        let record = &stream.records[s as usize * stride..(s as usize + 1) * stride];
        let words: Vec<u32> = record.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        ctx.check_sequence(&mut r, s, &words);
    }
    Ok(StreamReport::decode(layout, &r.words))
}

struct Recorder {
    words: Vec<u32>,
    capacity: u32,
}

impl Recorder {
    fn report(&mut self, sequence: u32, token: u32, check: Check, element: u32, value: u64, limit: u64) {
        let slot = self.words[0];
        self.words[0] += 1;
        if sequence != NONE {
            self.words[1] = self.words[1].min(sequence);
        }
        if slot < self.capacity {
            debug_assert_eq!(self.words.len(), HEADER_WORDS + SLOT_WORDS * slot as usize);
            self.words.extend_from_slice(&[
                sequence,
                token,
                check.id(),
                element,
                value as u32,
                (value >> 32) as u32,
                limit as u32,
                (limit >> 32) as u32,
            ]);
        }
    }
}

struct Context<'a> {
    t: &'a [u32],
    memory: &'a [(u64, &'a [u8])],
}

enum Where {
    Inside,
    StartOutside,
    EndOutside(u64),
}

impl Context<'_> {
    fn list(&self, index: usize) -> impl Iterator<Item = (u64, u64)> + '_ {
        let first = self.t[T_LISTS + 2 * index] as usize;
        let n = self.t[T_LISTS + 2 * index + 1] as usize;
        self.t[first..first + 4 * n]
            .chunks_exact(4)
            .map(|e| (e[0] as u64 | (e[1] as u64) << 32, e[2] as u64 | (e[3] as u64) << 32))
    }

    fn locate(&self, list: usize, start: u64, len: u64) -> Where {
        let Some((_, furthest)) = self.list(list).take_while(|(s, _)| *s <= start).last() else {
            return Where::StartOutside;
        };
        if furthest <= start {
            return Where::StartOutside;
        }
        let avail = furthest - start;
        if avail < len {
            Where::EndOutside(avail)
        } else {
            Where::Inside
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_range(
        &self,
        r: &mut Recorder,
        s: u32,
        k: u32,
        list: usize,
        start: u64,
        len: u64,
        checks: (Check, Check),
    ) -> bool {
        match self.locate(list, start, len) {
            Where::Inside => true,
            Where::StartOutside => {
                r.report(s, k, checks.0, NONE, start, 0);
                false
            }
            Where::EndOutside(avail) => {
                r.report(s, k, checks.1, NONE, len, avail);
                false
            }
        }
    }

    fn check_instances(&self, r: &mut Recorder, s: u32, k: u32, element: u32, instances: u32) {
        let most = self.t[T_MAX_INSTANCES];
        if instances > most {
            r.report(s, k, Check::InstanceCount, element, instances as u64, most as u64);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_indices(&self, r: &mut Recorder, s: u32, k: u32, element: u32, first: u32, count: u32, bound: (u64, u32)) {
        let (bytes, size) = bound;
        if size == 0 {
            return;
        }
        let needed = first as u64 + count as u64;
        let capacity = bytes / size as u64;
        if capacity < needed {
            r.report(s, k, Check::IndexRange, element, needed, capacity);
        }
    }

    /// The 4-byte words at a device address inside a memory snapshot.
    fn read(&self, address: u64, words: usize) -> Option<Vec<u32>> {
        let (base, bytes) =
            self.memory.iter().find(|(b, m)| *b <= address && address - b + 4 * words as u64 <= m.len() as u64)?;
        let at = (address - base) as usize;
        Some(bytes[at..at + 4 * words].chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }

    fn check_sequence(&self, r: &mut Recorder, s: u32, w: &[u32]) {
        let t = self.t;
        let mut bound =
            (t[T_BOUND_INDEX_BYTES] as u64 | (t[T_BOUND_INDEX_BYTES + 1] as u64) << 32, t[T_BOUND_INDEX_SIZE]);
        for k in 0..t[T_TOKEN_COUNT] {
            let e = T_TOKENS + 4 * k as usize;
            let (ty, at, p0, p1) = (t[e], t[e + 1] as usize / 4, t[e + 2], t[e + 3]);
            let address = || w[at] as u64 | (w[at + 1] as u64) << 32;
            match ty {
                x if x == TokenType::IndexBuffer.value() => {
                    let size = index_size(p0 == 2, w[at + 3]);
                    if size == 0 {
                        r.report(s, k, Check::IndexType, NONE, w[at + 3] as u64, 0);
                    } else if address() % size as u64 != 0 {
                        r.report(s, k, Check::IndexAlignment, NONE, address(), size as u64);
                    }
                    self.check_range(r, s, k, 0, address(), w[at + 2] as u64, (Check::IndexAddress, Check::IndexSize));
                    bound = (w[at + 2] as u64, size);
                }
                x if x == TokenType::VertexBuffer.value() => {
                    self.check_range(
                        r,
                        s,
                        k,
                        1,
                        address(),
                        w[at + 2] as u64,
                        (Check::VertexAddress, Check::VertexSize),
                    );
                }
                x if x == TokenType::ExecutionSet.value() => {
                    for j in 0..p1 {
                        let index = w[at + j as usize];
                        if index >= p0 {
                            r.report(
                                s,
                                k,
                                Check::ExecutionSetIndex,
                                if p1 > 1 { j } else { NONE },
                                index as u64,
                                p0 as u64,
                            );
                        }
                    }
                }
                x if x == TokenType::DrawIndexed.value() => {
                    self.check_instances(r, s, k, NONE, w[at + 1]);
                    self.check_indices(r, s, k, NONE, w[at + 2], w[at], bound);
                }
                x if x == TokenType::Draw.value() => self.check_instances(r, s, k, NONE, w[at + 1]),
                x if x == TokenType::Dispatch.value() => {
                    for (d, check) in [Check::GroupsX, Check::GroupsY, Check::GroupsZ].into_iter().enumerate() {
                        let most = t[T_MAX_GROUPS + d];
                        if w[at + d] > most {
                            r.report(s, k, check, NONE, w[at + d] as u64, most as u64);
                        }
                    }
                }
                x if [
                    TokenType::DrawIndexedCount,
                    TokenType::DrawCount,
                    TokenType::DrawMeshTasksCount,
                    TokenType::DrawMeshTasksCountNv,
                ]
                .iter()
                .any(|c| c.value() == x) =>
                {
                    self.check_count(r, s, k, (address(), w[at + 2], w[at + 3]), (p0, p1), bound);
                }
                _ => {}
            }
        }
    }

    fn check_count(
        &self,
        r: &mut Recorder,
        s: u32,
        k: u32,
        record: (u64, u32, u32),
        inner: (u32, u32),
        bound: (u64, u32),
    ) {
        let (address, stride, commands) = record;
        let (inner_bytes, inner_kind) = inner;
        let most = self.t[T_MAX_DRAWS];
        if commands > most {
            r.report(s, k, Check::CommandCount, NONE, commands as u64, most as u64);
        }
        let n = commands.min(most);
        let aligned = address % 4 == 0;
        if !aligned {
            r.report(s, k, Check::CountAlignment, NONE, address, 4);
        }
        let strided = stride % 4 == 0 && stride >= inner_bytes;
        if !strided {
            r.report(s, k, Check::CountStride, NONE, stride as u64, inner_bytes as u64);
        }
        let len = if n == 0 { 0 } else { stride as u64 * (n as u64 - 1) + inner_bytes as u64 };
        let inside = self.check_range(r, s, k, 2, address, len, (Check::CountAddress, Check::CountSize));
        if !inside || !aligned || !strided || inner_kind == 0 {
            return;
        }
        for d in 0..n {
            let Some(draw) = self.read(address + stride as u64 * d as u64, inner_bytes as usize / 4) else {
                return;
            };
            self.check_instances(r, s, k, d, draw[1]);
            if inner_kind == 1 {
                self.check_indices(r, s, k, d, draw[2], draw[0], bound);
            }
        }
    }
}
