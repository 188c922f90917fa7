//! Stream validation on a live device: every kind of bad record planted in an otherwise clean
//! stream is reported with its sequence, token and field; random streams give the same report
//! on the GPU as the host reference; the executor runs the pass before executing; and the scene
//! with `--validate-stream` reports nothing.

#[path = "runtime/common.rs"]
mod common;
#[path = "runtime/validate_rig.rs"]
mod rig;
#[path = "runtime/validate_use.rs"]
mod validate_use;

use dgcc::ir::TokenType;
use dgcc::runtime::validate::{BoundIndexBuffer, Check, StreamLimits, StreamReport};
use dgcc::runtime::ContextOptions;
use dgcc_cli::scene::world::Rng;
use rig::{lo_hi, Rig};

/// Any device that runs compute: the validator needs no extension.
fn device(test: &str) -> Option<common::Gpu> {
    common::gpu_with(test, &ContextOptions { enable_dgc: true, require_dgc: false, ..ContextOptions::default() })
}

/// `(sequence, token, check)` of each violation, in report order.
fn found(r: &StreamReport) -> Vec<(Option<u32>, Option<&str>, Check)> {
    r.violations.iter().map(|v| (v.sequence, v.token.as_deref(), v.check)).collect()
}

/// A clean record of `rig::draws()`: 36 UINT32 indices from 0, one instance.
fn clean_draw(rig: &Rig) -> Vec<u32> {
    let [ilo, ihi] = lo_hi(rig.index.address());
    let [vlo, vhi] = lo_hi(rig.vertex.address());
    vec![7, 3, ilo, ihi, rig::INDEX_BYTES as u32, 1, vlo, vhi, rig::VERTEX_BYTES as u32, 16, 36, 1, 0, 0, 0]
}

#[test]
fn each_bad_draw_record_is_reported_with_its_sequence_token_and_field() {
    let Some(ctx) = device("each_bad_draw_record_is_reported_with_its_sequence_token_and_field") else {
        return;
    };
    let layout = rig::draws();
    let mut rig = Rig::new(&ctx, layout.stride);
    let clean = clean_draw(&rig);
    let with = |at: usize, words: &[u32]| {
        let mut r = clean.clone();
        r[at..at + words.len()].copy_from_slice(words);
        r
    };
    let (ib, vb) = (rig.index.address(), rig.vertex.address());
    let records = vec![
        clean.clone(),
        // 1: the index buffer's address is in no registered buffer.
        with(2, &lo_hi(0x0dea_d000_0000)),
        // 2: UINT32 indices at an address 2 bytes into the buffer.
        with(2, &[lo_hi(ib + 2)[0], lo_hi(ib + 2)[1], 4000]),
        // 3: firstIndex 1000 + 36 indices past the 1024 the 4096-byte buffer holds.
        with(12, &[1000]),
        // 4: starts inside the index buffer, runs 96 bytes past its end.
        with(2, &[lo_hi(ib + 4000)[0], lo_hi(ib + 4000)[1], 4096]),
        // 5: the vertex buffer points at the index buffer: registered, but not for vertices.
        with(6, &lo_hi(ib)),
        // 6: five instances, four allowed.
        with(11, &[5]),
        // 7: index type 7 is no VkIndexType.
        with(5, &[7]),
        // 8: the vertex range runs past its buffer.
        with(6, &[lo_hi(vb + 16)[0], lo_hi(vb + 16)[1], 4096]),
        clean.clone(),
    ];
    let stream = rig.stream(&records, layout.stride, Some(10));
    let limits = StreamLimits { max_instance_count: Some(4), ..Default::default() };
    let report = rig.validate(&ctx, &layout, limits, &stream);
    assert_eq!(
        found(&report),
        vec![
            (Some(1), Some("indices"), Check::IndexAddress),
            (Some(2), Some("indices"), Check::IndexAlignment),
            (Some(3), Some("draw"), Check::IndexRange),
            (Some(4), Some("indices"), Check::IndexSize),
            (Some(5), Some("vertices"), Check::VertexAddress),
            (Some(6), Some("draw"), Check::InstanceCount),
            (Some(7), Some("indices"), Check::IndexType),
            (Some(8), Some("vertices"), Check::VertexSize),
        ],
        "{report}"
    );
    assert_eq!(
        (report.total, report.first_sequence, report.sequences_checked, report.stored_count),
        (8, Some(1), 10, Some(10))
    );
    let v = &report.violations;
    assert_eq!((v[0].field, v[0].value, v[0].limit, v[0].code), ("bufferAddress", 0x0dea_d000_0000, None, "E0801"));
    assert_eq!(v[0].vuid, Some("VUID-VkBindIndexBufferIndirectCommandEXT-None-11117"));
    assert_eq!((v[1].field, v[1].value, v[1].limit, v[1].code), ("bufferAddress", ib + 2, Some(4), "E0802"));
    assert_eq!(v[1].vuid, Some("VUID-VkBindIndexBufferIndirectCommandEXT-bufferAddress-11118"));
    assert_eq!((v[2].field, v[2].value, v[2].limit, v[2].code), ("firstIndex + indexCount", 1036, Some(1024), "E0804"));
    assert_eq!((v[3].field, v[3].value, v[3].limit), ("size", 4096, Some(96)));
    assert_eq!((v[4].value, v[4].code), (ib, "E0805"));
    assert_eq!(v[4].vuid, Some("VUID-VkBindVertexBufferIndirectCommandEXT-None-11120"));
    assert_eq!((v[5].field, v[5].value, v[5].limit, v[5].code), ("instanceCount", 5, Some(4), "E0809"));
    assert_eq!((v[6].field, v[6].value, v[6].code), ("indexType", 7, "E0803"));
    assert_eq!((v[7].field, v[7].value, v[7].limit), ("size", 4096, Some(4080)));
    assert_eq!(rig.validate_on_host(&layout, limits, &stream), report, "the host reference agrees");
    let text = report.to_string();
    assert!(text.contains("error[E0804]: sequence 3, token `draw`: firstIndex + indexCount = 1036 exceeds"), "{text}");
    rig.destroy(&ctx);
}

#[test]
fn count_tokens_and_execution_set_indices_are_checked_down_to_the_inner_draws() {
    let Some(ctx) = device("count_tokens_and_execution_set_indices_are_checked_down_to_the_inner_draws") else {
        return;
    };
    let layout = rig::count_draws();
    let mut rig = Rig::new(&ctx, layout.stride);
    let mut inner = [[36u32, 1, 0, 0, 0]; 16];
    inner[3][1] = 3; // three instances, two allowed
    inner[5][2] = 2000; // firstIndex past the 1024 indices bound
    rig.write_inner_draws(&inner);
    let [ilo, ihi] = lo_hi(rig.index.address());
    let at = |draw: u64| lo_hi(rig.indirect.address() + 20 * draw);
    let record = |set: u32, address: [u32; 2], stride: u32, count: u32| {
        vec![set, ilo, ihi, 4096, 1, address[0], address[1], stride, count]
    };
    let records = vec![
        record(0, at(0), 20, 2),
        // 1: pipeline 4 of a 4-entry set.
        record(4, at(0), 20, 2),
        // 2: the draw array is in no indirect buffer.
        record(1, lo_hi(0x40), 20, 1),
        // 3: nine draws, eight allowed (the eight read, 8..15, are clean).
        record(2, at(8), 20, 9),
        // 4: eight draws from draw 10 need 160 bytes, 120 are left.
        record(3, at(10), 20, 8),
        // 5: six clean-looking draws, of which draw 3 and draw 5 are not.
        record(0, at(0), 20, 6),
        // 6: an array 2 bytes into the buffer.
        record(0, lo_hi(rig.indirect.address() + 2), 20, 1),
        // 7: a 10-byte stride for 20-byte draws.
        record(0, at(0), 10, 2),
        record(3, at(0), 20, 0),
    ];
    let stream = rig.stream(&records, layout.stride, None);
    let limits = StreamLimits { max_instance_count: Some(2), max_draw_count: Some(8), ..Default::default() };
    let report = rig.validate(&ctx, &layout, limits, &stream);
    assert_eq!(
        found(&report),
        vec![
            (Some(1), Some("material"), Check::ExecutionSetIndex),
            (Some(2), Some("draws"), Check::CountAddress),
            (Some(3), Some("draws"), Check::CommandCount),
            (Some(4), Some("draws"), Check::CountSize),
            (Some(5), Some("draws"), Check::InstanceCount),
            (Some(5), Some("draws"), Check::IndexRange),
            (Some(6), Some("draws"), Check::CountAlignment),
            (Some(7), Some("draws"), Check::CountStride),
        ],
        "{report}"
    );
    let v = &report.violations;
    assert_eq!((v[0].field, v[0].value, v[0].limit, v[0].code, v[0].element), ("index", 4, Some(4), "E0810", None));
    assert_eq!((v[1].value, v[1].code), (0x40, "E0806"));
    assert_eq!(v[1].vuid, Some("VUID-VkDrawIndirectCountIndirectCommandEXT-None-11122"));
    assert_eq!((v[2].field, v[2].value, v[2].limit, v[2].code), ("commandCount", 9, Some(8), "E0807"));
    assert_eq!((v[3].value, v[3].limit), (160, Some(120)));
    assert_eq!((v[4].element, v[4].value), (Some(3), 3));
    assert_eq!((v[5].element, v[5].value, v[5].limit), (Some(5), 2036, Some(1024)));
    assert!(v[5].to_string().contains("sequence 5, token `draws`, draw 5"), "{}", v[5]);
    assert_eq!((v[7].field, v[7].value, v[7].limit, v[7].code), ("stride", 10, Some(20), "E0808"));
    assert_eq!((report.stored_count, report.sequences_checked), (None, 9));
    assert_eq!(rig.validate_on_host(&layout, limits, &stream), report);
    rig.destroy(&ctx);
}

#[test]
fn dispatch_sizes_and_the_stored_count_are_held_to_the_device_and_the_stream() {
    let Some(ctx) = device("dispatch_sizes_and_the_stored_count_are_held_to_the_device_and_the_stream") else {
        return;
    };
    let layout = rig::dispatch();
    let mut rig = Rig::new(&ctx, layout.stride);
    let max = ctx.properties().limits.max_compute_work_group_count;
    let records = vec![
        vec![0, 1, 1, 1],
        vec![1, max[0] + 1, 1, 1],
        vec![2, 1, 1, max[2] + 1],
        vec![3, max[0], max[1], max[2]],
        // Past the stored count of 4: never executed, never reported.
        vec![4, u32::MAX, 1, 1],
    ];
    let limits = StreamLimits::default().with_device_limits(&ctx.properties().limits);
    let stream = rig.stream(&records, layout.stride, Some(4));
    let report = rig.validate(&ctx, &layout, limits, &stream);
    assert_eq!(
        found(&report),
        vec![(Some(1), Some("groups"), Check::GroupsX), (Some(2), Some("groups"), Check::GroupsZ)],
        "{report}"
    );
    assert_eq!(
        (report.violations[1].field, report.violations[1].vuid),
        ("z", Some("VUID-VkDispatchIndirectCommand-z-00419"))
    );
    assert_eq!((report.sequences_checked, report.stored_count), (4, Some(4)));
    // A stored count above maxSequenceCount: reported for the stream, then min(count, records) checked.
    let stream = rig.stream(&records[..3], layout.stride, Some(12));
    let report = rig.validate(&ctx, &layout, limits, &stream);
    assert_eq!(found(&report)[0], (None, None, Check::SequenceCount), "{report}");
    let v = &report.violations[0];
    assert_eq!((v.field, v.value, v.limit, v.code), ("sequenceCount", 12, Some(3), "E0811"));
    assert_eq!(v.vuid, Some("VUID-VkGeneratedCommandsInfoEXT-sequenceCountAddress-11068"));
    assert_eq!((report.total, report.sequences_checked, report.first_sequence), (3, 3, Some(1)));
    // A tighter stated maximum (the device's maxIndirectSequenceCount, say) is the limit.
    let tight = StreamLimits { max_sequence_count: Some(2), ..limits };
    let stream = rig.stream(&records[..1], layout.stride, Some(1));
    let report = rig.validate(&ctx, &layout, tight, &stream);
    assert!(report.is_clean(), "{report}");
    let stream = rig.stream(&records[..4], layout.stride, Some(3));
    let report = rig.validate(&ctx, &layout, tight, &stream);
    assert_eq!((report.violations[0].check, report.violations[0].limit), (Check::SequenceCount, Some(2)));
    rig.destroy(&ctx);
}

#[test]
fn a_layout_without_an_index_buffer_token_is_held_to_the_stated_binding() {
    let Some(ctx) = device("a_layout_without_an_index_buffer_token_is_held_to_the_stated_binding") else {
        return;
    };
    let mut layout = rig::draws();
    layout.tokens.remove(1);
    let mut rig = Rig::new(&ctx, layout.stride);
    let draw = |first: u32, count: u32| {
        let mut r = clean_draw(&rig);
        r[10] = count;
        r[12] = first;
        r
    };
    let records = vec![draw(0, 150), draw(100, 60), draw(u32::MAX, 2)];
    let stream = rig.stream(&records, layout.stride, None);
    // 300 bytes of UINT16 indices: 150 of them.
    let bound = BoundIndexBuffer { bytes: 300, index_type: ash::vk::IndexType::UINT16 };
    let limits = StreamLimits { bound_index_buffer: Some(bound), ..Default::default() };
    let report = rig.validate(&ctx, &layout, limits, &stream);
    assert_eq!(
        found(&report),
        vec![(Some(1), Some("draw"), Check::IndexRange), (Some(2), Some("draw"), Check::IndexRange)]
    );
    assert_eq!((report.violations[0].value, report.violations[0].limit), (160, Some(150)));
    assert_eq!(report.violations[1].value, u32::MAX as u64 + 2, "the sum is not wrapped to 32 bits");
    // Unstated, the range is not checked.
    assert!(rig.validate(&ctx, &layout, StreamLimits::default(), &stream).is_clean());
    rig.destroy(&ctx);
}

#[test]
fn more_violations_than_the_report_holds_are_counted_and_the_first_is_exact() {
    let Some(ctx) = device("more_violations_than_the_report_holds_are_counted_and_the_first_is_exact") else {
        return;
    };
    let layout = rig::dispatch();
    let mut rig = Rig::new(&ctx, layout.stride);
    let mut records: Vec<Vec<u32>> = (0..300).map(|i| vec![i, 1, 1, 1]).collect();
    for r in records.iter_mut().skip(37) {
        r[1] = 5;
    }
    let limits = StreamLimits { max_workgroup_count: Some([4, 4, 4]), report_capacity: 16, ..Default::default() };
    let stream = rig.stream(&records, layout.stride, None);
    let report = rig.validate(&ctx, &layout, limits, &stream);
    assert_eq!((report.total, report.first_sequence, report.violations.len()), (263, Some(37), 16));
    assert!(report.violations.iter().all(|v| v.check == Check::GroupsX && v.sequence >= Some(37)));
    assert!(report.to_string().contains("… and 247 more"));
    rig.destroy(&ctx);
}

/// A random word: mostly plausible, sometimes an edge or garbage.
fn pick(rng: &mut Rng, plausible: &[u32]) -> u32 {
    match rng.next_u64() % 8 {
        0 => u32::MAX,
        1 => (rng.next_u64() >> 32) as u32,
        _ => plausible[(rng.next_u64() % plausible.len() as u64) as usize],
    }
}

#[test]
fn random_streams_give_the_gpu_and_the_host_reference_the_same_report() {
    let Some(ctx) = device("random_streams_give_the_gpu_and_the_host_reference_the_same_report") else {
        return;
    };
    let mut rng = Rng::new(0x5eed);
    let mut checks = std::collections::BTreeSet::new();
    for layout in [rig::draws(), rig::count_draws(), rig::dispatch()] {
        let mut rig = Rig::new(&ctx, layout.stride);
        let inner: Vec<[u32; 5]> = (0..16)
            .map(|_| [pick(&mut rng, &[3, 36, 600]), pick(&mut rng, &[0, 1, 2]), pick(&mut rng, &[0, 500, 1020]), 0, 0])
            .collect();
        rig.write_inner_draws(&inner);
        let addresses: Vec<u64> = [rig.index.address(), rig.vertex.address(), rig.indirect.address()]
            .iter()
            .flat_map(|&a| [a, a + 2, a + 4, a + 200, a + 4094, a + 4096, a - 4])
            .chain([0, 0x10_0000_0000])
            .collect();
        for round in 0..8 {
            let mut records = Vec::new();
            for _ in 0..rig::MAX_RECORDS {
                let mut r: Vec<u32> = (0..layout.stride / 4)
                    .map(|_| match rng.next_u64() % 3 {
                        0 => pick(&mut rng, &[0, 1, 2, 3, 4, 20, 36, 1000, 4096, 65535, 65536]),
                        _ => (rng.next_u64() % 40) as u32,
                    })
                    .collect();
                // Plausible addresses where this layout keeps them.
                for t in &layout.tokens {
                    if matches!(
                        t.token_type,
                        TokenType::IndexBuffer | TokenType::VertexBuffer | TokenType::DrawIndexedCount
                    ) {
                        let a = addresses[(rng.next_u64() % addresses.len() as u64) as usize];
                        let w = t.offset as usize / 4;
                        r[w..w + 2].copy_from_slice(&lo_hi(a));
                    }
                }
                records.push(r);
            }
            let count = (round % 2 == 1).then(|| pick(&mut rng, &[0, 100, 511, 512, 600]));
            let stream = rig.stream(&records, layout.stride, count);
            let limits = StreamLimits {
                max_instance_count: Some(1),
                max_draw_count: Some(12),
                max_workgroup_count: Some([1000, 20, 30]),
                bound_index_buffer: Some(BoundIndexBuffer { bytes: 2000, index_type: ash::vk::IndexType::UINT32 }),
                report_capacity: 1 << 16,
                ..Default::default()
            };
            let gpu = rig.validate(&ctx, &layout, limits, &stream);
            let host = rig.validate_on_host(&layout, limits, &stream);
            assert!(
                gpu.total < limits.report_capacity,
                "{}: {} violations overflow the report",
                layout.name,
                gpu.total
            );
            assert_eq!(gpu, host, "layout {} round {round}", layout.name);
            checks.extend(gpu.violations.iter().map(|v| v.check));
        }
        rig.destroy(&ctx);
    }
    // The random streams reached every check, so the agreement above covers every branch.
    let missed: Vec<Check> = Check::ALL.into_iter().filter(|c| !checks.contains(c)).collect();
    assert!(missed.is_empty(), "no random stream triggered {missed:?}");
}

#[test]
fn a_layout_whose_draw_runs_past_the_stride_is_refused_before_the_validator_is_made() {
    let Some(ctx) = device("a_layout_whose_draw_runs_past_the_stride_is_refused_before_the_validator_is_made") else {
        return;
    };
    let mut layout = rig::draws();
    let mut clean = dgcc::runtime::validate::StreamValidator::new(&ctx, &layout, StreamLimits::default(), &[])
        .expect("the rig's layout is valid");
    // SAFETY: made on this device; no work was recorded with it.
    unsafe { clean.destroy(ctx.device()) };
    // A hand edit: the draw at 48 reads bytes 48..68 of each 64-byte record, the first four of
    // them from the next record, and the validator would check the wrong bytes.
    layout.tokens[3].offset = 48;
    match dgcc::runtime::validate::StreamValidator::new(&ctx, &layout, StreamLimits::default(), &[]) {
        Err(dgcc::runtime::RuntimeError::Refused { diagnostics, .. }) => {
            let codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
            assert_eq!(codes, ["E0404"], "{diagnostics:?}");
        }
        Err(e) => panic!("expected a refusal, got {e}"),
        Ok(_) => panic!("a draw past the stride was accepted"),
    }
}
