//! Sizing the preprocess buffer: how many sequences one execute may cover under a memory budget,
//! and whether the driver's answer can be believed at all.
//!
//! Why distrust the driver: lavapipe (Mesa 25.0) reports `144·n² + 320·n` bytes for a
//! push-constant + draw-indexed layout and computes it in 32 bits, so past about 5,500
//! sequences the number wraps (10,000 → "1.5 GB", 65,536 → "21 MB"); allocating what it says
//! and executing would corrupt memory. The model a real size follows is a polynomial in the
//! sequence count with non-negative coefficients (fixed overhead + per-sequence bytes + maybe
//! worse), and such a function, sampled at doubling counts,
//!
//! 1. is non-decreasing, and
//! 2. has a non-decreasing doubling ratio `s(2n)/s(n)` (a weighted mean of 2^k whose weights
//!    shift toward higher powers as n grows),
//!
//! so a sample that shrinks, or whose growth suddenly slows, is a wrap; and
//!
//! 3. a sample that the trend before it says must be ≥ 4 GiB but reads < 4 GiB is a wrap even
//!    if it happens to land above the previous one.
//!
//! The planner walks the doubling ladder from 1, trusts the prefix that passes all three, and
//! picks the largest count in that prefix whose size fits the budget; the stream then runs in
//! chunks of that many sequences. Small sizes (< 64 KiB) are exempt from rule 2: alignment
//! rounding dominates there.

use std::fmt;

/// Why the planner stopped trusting the driver at some count.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Anomaly {
    /// `s(at) < s(previous)`.
    Shrinks { at: u32, size: u64, previous_at: u32, previous: u64 },
    /// The doubling ratio fell: growth cannot slow down for a real size function.
    GrowthSlowed { at: u32, size: u64, expected_at_least: u64 },
    /// The trend predicts at least 4 GiB but the driver reported less: a 32-bit wrap.
    Wrapped { at: u32, size: u64, predicted: u64 },
}

impl fmt::Display for Anomaly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Anomaly::Shrinks { at, size, previous_at, previous } => write!(
                f,
                "the driver reports {size} preprocess bytes for {at} sequences but {previous} for {previous_at}: a size cannot shrink as the count grows (a 32-bit wrap); not trusted"
            ),
            Anomaly::GrowthSlowed { at, size, expected_at_least } => write!(
                f,
                "the driver reports {size} preprocess bytes for {at} sequences, less than the {expected_at_least} its growth so far implies; not trusted"
            ),
            Anomaly::Wrapped { at, size, predicted } => write!(
                f,
                "the driver reports {size} preprocess bytes for {at} sequences where its growth implies about {predicted} (over 4 GiB): a 32-bit wrap; not trusted"
            ),
        }
    }
}

/// How a stream is cut into executes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ChunkPlan {
    /// Sequences per execute (the last chunk may hold fewer).
    pub sequences_per_chunk: u32,
    pub chunks: u32,
    /// The driver's size for `sequences_per_chunk`: what the preprocess buffer gets.
    pub preprocess_bytes: u64,
    /// Where the driver's answers stopped being believable, if they did below the wanted count.
    pub anomaly: Option<Anomaly>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// Even one sequence needs more than the budget.
    BudgetTooSmall { budget: u64, one_sequence: u64 },
    /// The driver's answers are implausible from the first sample on. `plan` does not return it
    /// today: a single sequence's size has no earlier sample to be judged against, so it is
    /// always trusted, and the variant stays for callers that match on it.
    Untrustworthy(Anomaly),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::BudgetTooSmall { budget, one_sequence } => write!(
                f,
                "the preprocess budget of {budget} bytes is smaller than what one sequence needs ({one_sequence} bytes)"
            ),
            PlanError::Untrustworthy(a) => write!(f, "{a}"),
        }
    }
}

const FOUR_GIB: u64 = 1 << 32;
const RATIO_CHECK_FLOOR: u64 = 64 * 1024;

/// Plan chunks for `total` sequences (≥ 1), at most `device_max` per execute
/// (`maxIndirectSequenceCount`), under `budget` bytes; `query(n)` asks the driver for the
/// preprocess size of `n` sequences.
pub fn plan(
    total: u32,
    device_max: u32,
    budget: u64,
    mut query: impl FnMut(u32) -> u64,
) -> Result<ChunkPlan, PlanError> {
    let want = total.max(1).min(device_max.max(1));
    // The doubling ladder 1, 2, 4, … up to `want` (always ending at `want`).
    let mut ladder = vec![];
    let mut n = 1u32;
    while n < want {
        ladder.push(n);
        n = n.saturating_mul(2);
    }
    ladder.push(want);

    let mut trusted: Vec<(u32, u64)> = vec![];
    let mut anomaly = None;
    for &n in &ladder {
        let size = query(n);
        if let Some(a) = judge(&trusted, n, size) {
            anomaly = Some(a);
            break;
        }
        trusted.push((n, size));
    }
    let Some(&(_, one)) = trusted.first() else {
        return Err(PlanError::Untrustworthy(anomaly.expect("an empty trusted prefix has a reason")));
    };
    if one > budget {
        return Err(PlanError::BudgetTooSmall { budget, one_sequence: one });
    }
    // The largest trusted ladder point within budget, then bisect toward the next point.
    let i = trusted.iter().rposition(|&(_, s)| s <= budget).expect("s(1) fits");
    let (mut lo, mut lo_size) = trusted[i];
    let hi_limit = match trusted.get(i + 1) {
        Some(&(n, _)) => Some(n),
        // Beyond the trusted prefix only when the prefix ended because of the budget; never
        // bisect into counts the driver was caught lying about.
        None if anomaly.is_none() && lo < want => Some(want),
        None => None,
    };
    if let Some(mut hi) = hi_limit {
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let s = query(mid);
            // Inside a trusted bracket the size must stay between the bracket's values.
            if s >= lo_size && s <= budget {
                lo = mid;
                lo_size = s;
            } else {
                hi = mid;
            }
        }
    }
    let chunks = total.max(1).div_ceil(lo);
    Ok(ChunkPlan { sequences_per_chunk: lo, chunks, preprocess_bytes: lo_size, anomaly })
}

/// Whether `size` at `n` is believable given the trusted samples before it.
fn judge(trusted: &[(u32, u64)], n: u32, size: u64) -> Option<Anomaly> {
    let &(prev_n, prev) = trusted.last()?;
    if size < prev {
        return Some(Anomaly::Shrinks { at: n, size, previous_at: prev_n, previous: prev });
    }
    if trusted.len() >= 2 && prev > 0 {
        let (pp_n, pp) = trusted[trusted.len() - 2];
        // Growth per doubling so far, scaled to this step's length (the last step may be short).
        let step = n as f64 / prev_n as f64;
        let prev_step = prev_n as f64 / pp_n as f64;
        let ratio = if pp > 0 { prev as f64 / pp as f64 } else { 1.0 };
        // Per-unit-log growth exponent so far, applied to this step.
        let exponent = if prev_step > 1.0 && ratio > 0.0 { ratio.ln() / prev_step.ln() } else { 0.0 };
        let predicted = prev as f64 * step.powf(exponent);
        if predicted >= FOUR_GIB as f64 && size < FOUR_GIB {
            return Some(Anomaly::Wrapped { at: n, size, predicted: predicted as u64 });
        }
        // Rule 2 with 10% slack for rounding.
        if prev >= RATIO_CHECK_FLOOR && (size as f64) < predicted * 0.9 {
            return Some(Anomaly::GrowthSlowed { at: n, size, expected_at_least: (predicted * 0.9) as u64 });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// lavapipe, measured (shared/measured): exactly `(144 n² + 320 n) mod 2^32` at every
    /// sampled count (100, 1000, 2000, 4000, 10000, 65536).
    fn lavapipe_draw_indexed(n: u32) -> u64 {
        let n = n as u64;
        (144 * n * n + 320 * n) % FOUR_GIB
    }
    /// H200, measured: about 80 bytes per draw sequence plus overhead.
    fn h200_draw_indexed(n: u32) -> u64 {
        let raw = 12_544 + 81 * n as u64;
        raw.div_ceil(256) * 256
    }

    #[test]
    fn the_measured_lavapipe_model_matches_the_measurements() {
        for (n, bytes) in [
            (100, 1_472_000u64),
            (1000, 144_320_000),
            (2000, 576_640_000),
            (4000, 2_305_280_000),
            (10_000, 1_518_298_112),
            (65_536, 20_971_520),
        ] {
            assert_eq!(lavapipe_draw_indexed(n), bytes, "n = {n}");
        }
    }

    #[test]
    fn lavapipe_at_ten_thousand_sequences_is_caught_and_chunked() {
        // A budget large enough for the wrapped value: trusting it would pick one chunk.
        let budget = 2 << 30;
        let p = plan(10_000, 1 << 20, budget, lavapipe_draw_indexed).unwrap();
        assert!(p.anomaly.is_some(), "{p:?}");
        assert!(p.chunks > 1, "{p:?}");
        // The chosen chunk size is in the region where the model is below 2^32 and within budget.
        let s = 144 * (p.sequences_per_chunk as u64).pow(2) + 320 * p.sequences_per_chunk as u64;
        assert!(s < FOUR_GIB && s <= budget, "{p:?}");
        assert_eq!(p.preprocess_bytes, s);
        // …and it is the largest such count.
        let next = p.sequences_per_chunk as u64 + 1;
        assert!(144 * next * next + 320 * next > budget, "{p:?}");
        assert_eq!(p.chunks, 10_000u32.div_ceil(p.sequences_per_chunk));
    }

    #[test]
    fn a_wrap_that_lands_above_the_previous_sample_is_still_caught() {
        // Doubling from 4096 (2.4 GB) to 8192 wraps to 1.08 GB: caught by `Shrinks` or `Wrapped`.
        let p = plan(8192, 1 << 20, u64::MAX, lavapipe_draw_indexed).unwrap();
        assert!(p.anomaly.is_some());
        assert!(p.sequences_per_chunk <= 5461, "{p:?}"); // 144 n² + 320 n < 2^32 ⇔ n ≤ 5461
                                                         // A synthetic quadratic that wraps to just above the previous sample.
        let sneaky = |n: u32| {
            let true_size = 300 * (n as u64).pow(2);
            if true_size >= FOUR_GIB {
                ((true_size % FOUR_GIB) + (1 << 31)).min(FOUR_GIB - 1)
            } else {
                true_size
            }
        };
        let p = plan(8192, 1 << 20, u64::MAX, sneaky).unwrap();
        assert!(
            matches!(p.anomaly, Some(Anomaly::Wrapped { .. } | Anomaly::GrowthSlowed { .. } | Anomaly::Shrinks { .. })),
            "{p:?}"
        );
        assert!(300 * (p.sequences_per_chunk as u64).pow(2) < FOUR_GIB, "{p:?}");
    }

    #[test]
    fn a_linear_driver_is_trusted_and_runs_in_one_chunk_when_it_fits() {
        let p = plan(65_536, 1 << 20, 64 << 20, h200_draw_indexed).unwrap();
        assert_eq!(
            p,
            ChunkPlan {
                sequences_per_chunk: 65_536,
                chunks: 1,
                preprocess_bytes: h200_draw_indexed(65_536),
                anomaly: None
            }
        );
    }

    #[test]
    fn a_tight_budget_splits_a_trusted_stream() {
        let budget = h200_draw_indexed(1000);
        let p = plan(10_000, 1 << 20, budget, h200_draw_indexed).unwrap();
        assert!(p.anomaly.is_none());
        assert!(h200_draw_indexed(p.sequences_per_chunk) <= budget);
        assert!(h200_draw_indexed(p.sequences_per_chunk + 1) > budget || p.sequences_per_chunk >= 1000);
        assert_eq!(p.chunks, 10_000u32.div_ceil(p.sequences_per_chunk));
        assert!(p.chunks >= 10);
    }

    #[test]
    fn the_device_limit_caps_a_chunk() {
        let p = plan(100, 32, u64::MAX, |n| 16 * n as u64).unwrap();
        assert_eq!((p.sequences_per_chunk, p.chunks), (32, 4));
    }

    #[test]
    fn zero_sized_requirements_need_no_memory() {
        let p = plan(5000, 1 << 20, 0, |_| 0).unwrap();
        assert_eq!((p.sequences_per_chunk, p.chunks, p.preprocess_bytes), (5000, 1, 0));
    }

    #[test]
    fn a_budget_below_one_sequence_is_an_error() {
        let e = plan(10, 1 << 20, 100, |n| 1000 * n as u64).unwrap_err();
        assert_eq!(e, PlanError::BudgetTooSmall { budget: 100, one_sequence: 1000 });
        assert!(e.to_string().contains("100 bytes"));
    }

    #[test]
    fn the_anomaly_message_says_not_trusted() {
        let p = plan(10_000, 1 << 20, 2 << 30, lavapipe_draw_indexed).unwrap();
        assert!(p.anomaly.unwrap().to_string().contains("not trusted"));
    }
}
