//! Summaries of per-frame samples: median and spread.
//!
//! Why median with p10/p90 and min/max rather than a mean: frame times have a long tail (a
//! driver's first-use work, the OS scheduling the recording thread away), and one slow frame
//! moves a mean but not a median. Percentiles interpolate linearly between the sorted samples
//! (the usual "type 7" definition), so two frames give sensible numbers too.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Stats {
    pub median: f64,
    pub p10: f64,
    pub p90: f64,
    pub min: f64,
    pub max: f64,
    /// How many samples went in.
    pub samples: usize,
}

impl Stats {
    /// `None` for no samples; non-finite samples are left out.
    pub fn of(samples: impl IntoIterator<Item = f64>) -> Option<Stats> {
        let mut v: Vec<f64> = samples.into_iter().filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        Some(Stats {
            median: quantile(&v, 0.5),
            p10: quantile(&v, 0.1),
            p90: quantile(&v, 0.9),
            min: v[0],
            max: v[v.len() - 1],
            samples: v.len(),
        })
    }

    /// Samples that are `None` (a pass a device could not time) are left out; all `None` → `None`.
    pub fn of_some(samples: impl IntoIterator<Item = Option<f64>>) -> Option<Stats> {
        Stats::of(samples.into_iter().flatten())
    }
}

/// Linear interpolation between closest ranks of sorted, non-empty `v`.
fn quantile(v: &[f64], q: f64) -> f64 {
    let pos = q * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_odd_sample_has_its_middle_as_median_and_its_ends_as_min_and_max() {
        let s = Stats::of([5.0, 1.0, 3.0, 4.0, 2.0]).unwrap();
        assert_eq!((s.median, s.min, s.max, s.samples), (3.0, 1.0, 5.0, 5));
        assert!((s.p10 - 1.4).abs() < 1e-12 && (s.p90 - 4.6).abs() < 1e-12, "{s:?}");
    }

    #[test]
    fn an_even_sample_interpolates_the_median() {
        let s = Stats::of([4.0, 1.0]).unwrap();
        assert_eq!(s.median, 2.5);
        assert!((s.p10 - 1.3).abs() < 1e-12);
    }

    #[test]
    fn one_slow_frame_moves_the_max_but_not_the_median() {
        let s = Stats::of([1.0, 1.0, 1.0, 1.0, 100.0]).unwrap();
        assert_eq!(s.median, 1.0);
        assert_eq!(s.max, 100.0);
    }

    #[test]
    fn missing_and_non_finite_samples_are_left_out() {
        assert_eq!(Stats::of_some([None, None]), None);
        assert_eq!(Stats::of(std::iter::empty()), None);
        let s = Stats::of_some([Some(2.0), None, Some(f64::NAN), Some(4.0)]).unwrap();
        assert_eq!((s.median, s.samples), (3.0, 2));
    }
}
