//! The rules the runtime runs on a loaded manifest (no source text): `device_findings` and
//! `kernel_findings`. Some codes can only come from a manifest edited by hand (a description
//! cannot express them), so they are tested here rather than in `err/`.

use dgcc::check::{device_findings, kernel_findings, Finding, Location, TokenPart};
use dgcc::device::{builtin, Limit};
use dgcc::ir::{KernelTarget, Manifest};

const SCENE: &str = r#"{"schema_version": 1, "pipeline": "scene",
  "push_constants": [{"stages": 17, "offset": 0, "size": 8}],
  "layouts": [{"name": "SceneDraw", "stride": 48, "shader_stages": 17, "flags": 2, "max_sequences": 1024,
    "glsl_layout": "std430", "record_align": 8, "record": [],
    "tokens": [
      {"name": "object", "type": "PUSH_CONSTANT", "type_value": 1, "offset": 0, "size": 8,
       "push_constant": {"stages": 1, "offset": 0, "size": 8}},
      {"name": "indices", "type": "INDEX_BUFFER", "type_value": 3, "offset": 8, "size": 16, "index_mode": 1},
      {"name": "draw", "type": "DRAW_INDEXED", "type_value": 5, "offset": 24, "size": 20}]}]}"#;

fn scene() -> Manifest {
    Manifest::from_json(SCENE).expect("the test manifest parses")
}

fn findings_on(m: &Manifest, target: &str) -> Vec<Finding> {
    device_findings(&m.layouts[0], &m.push_constants, &builtin(target).unwrap())
}

fn codes(f: &[Finding]) -> Vec<&'static str> {
    let mut v: Vec<_> = f.iter().map(|f| f.code).collect();
    v.sort();
    v
}

#[test]
fn a_good_manifest_passes_on_every_desktop_target() {
    for t in ["lavapipe", "nvidia", "radv", "nvk"] {
        assert_eq!(findings_on(&scene(), t), vec![], "{t}");
    }
}

#[test]
fn an_index_mode_of_zero_or_both_bits_is_e0123() {
    for mode in [0, 3] {
        let mut m = scene();
        m.layouts[0].tokens[1].index_mode = Some(mode);
        assert!(codes(&findings_on(&m, "lavapipe")).contains(&"E0123"), "mode {mode}");
    }
}

#[test]
fn dxgi_mode_on_the_minimum_profile_names_target_and_value() {
    let mut m = scene();
    m.layouts[0].tokens[1].index_mode = Some(2);
    let f = findings_on(&m, "minimum");
    let e = f.iter().find(|f| f.code == "E0206").expect("E0206");
    assert_eq!(e.location, Location::Token { index: 1, part: TokenPart::Mode });
    assert_eq!(e.target.as_deref(), Some("minimum"));
    assert!(e.message.contains("minimum") && e.message.contains("Dxgi"), "{}", e.message);
}

#[test]
fn a_sequence_index_of_8_bytes_is_e0309() {
    let mut m = scene();
    let t = &mut m.layouts[0].tokens[0];
    t.token_type = dgcc::ir::TokenType::SequenceIndex;
    t.push_constant = Some(dgcc::ir::PushConstantRange { stages: 1, offset: 0, size: 8 });
    assert!(codes(&findings_on(&m, "lavapipe")).contains(&"E0309"));
}

#[test]
fn limit_messages_name_the_value_the_limit_and_the_target() {
    let mut m = scene();
    m.layouts[0].tokens[2].offset = 2052;
    m.layouts[0].stride = 2080;
    let f = findings_on(&m, "radv");
    let off = f.iter().find(|f| f.code == "E0131").expect("E0131");
    assert_eq!(off.message, "offset 2052 of `draw` exceeds maxIndirectCommandsTokenOffset = 2047 on radv");
    assert_eq!(off.location, Location::Token { index: 2, part: TokenPart::Offset });
    let stride = f.iter().find(|f| f.code == "E0201").expect("E0201");
    assert_eq!(stride.message, "stride 2080 exceeds maxIndirectCommandsIndirectStride = 2048 on radv");
    assert!(stride.notes.iter().any(|n| n.starts_with("help: ")), "{stride:?}");
    // NVIDIA allows both.
    assert_eq!(codes(&findings_on(&m, "nvidia")), Vec::<&str>::new());
}

#[test]
fn a_missing_profile_value_is_reported_once_per_value() {
    let mut m = scene();
    let l = &mut m.layouts[0];
    l.shader_stages = 0x80 | 0x10;
    l.tokens.truncate(1);
    for _ in 0..3 {
        let mut t = l.tokens[0].clone();
        t.token_type = dgcc::ir::TokenType::DrawMeshTasks;
        t.push_constant = None;
        l.tokens.push(t);
    }
    let f = findings_on(&m, "radv");
    let missing: Vec<&Finding> = f.iter().filter(|f| f.code == "W0012").collect();
    assert_eq!(missing.len(), 2, "{missing:#?}");
    assert!(missing.iter().all(|f| !f.is_error()), "a value a profile does not state is a warning");
    assert!(missing.iter().any(|f| f.message.contains("`meshShader`")));
    assert!(missing.iter().any(|f| f.message.contains("`taskShader`")));
    assert!(missing.iter().all(|f| f.target.as_deref() == Some("radv") && f.location == Location::Target));
}

#[test]
fn a_value_removed_from_a_profile_is_asked_for_not_guessed() {
    let mut p = builtin("lavapipe").unwrap();
    p.clear(Limit::MaxIndirectCommandsIndirectStride);
    let m = scene();
    let f = device_findings(&m.layouts[0], &m.push_constants, &p);
    assert_eq!(codes(&f), vec!["W0012"]);
    assert!(f[0].message.contains("maxIndirectCommandsIndirectStride"));
}

#[test]
fn a_profile_without_any_dgc_value_is_one_w0013() {
    // Every value of the extension cleared, as in a vulkaninfo older than it: one warning for
    // the target, however many rules asked, and the values outside it still one by one.
    let mut p = builtin("lavapipe").unwrap();
    for l in Limit::ALL.into_iter().filter(|l| l.is_dgc_value()) {
        p.clear(l);
    }
    p.clear(Limit::MaxPushConstantsSize);
    let m = scene();
    let f = device_findings(&m.layouts[0], &m.push_constants, &p);
    assert_eq!(codes(&f), vec!["W0012", "W0013"], "{f:#?}");
    let one = f.iter().find(|f| f.code == "W0013").unwrap();
    assert!(one.notes.iter().any(|n| n.contains("dgcc probe")), "{:?}", one.notes);
    assert!(f.iter().any(|f| f.code == "W0012" && f.message.contains("maxPushConstantsSize")));
}

#[test]
fn on_a_target_without_dgc_the_fallback_decides() {
    // The scene's draw layout runs through the fallback on anv: nothing to report, and none of
    // the DGC limits (anv states none) is asked for.
    let m = scene();
    assert_eq!(findings_on(&m, "anv"), vec![]);
    // A vertex buffer stops it: E0214 at that token.
    let mut m = scene();
    m.layouts[0].tokens[1].token_type = dgcc::ir::TokenType::VertexBuffer;
    let f = findings_on(&m, "anv");
    assert_eq!(codes(&f), vec!["E0214"]);
    assert_eq!(f[0].location, Location::Token { index: 1, part: TokenPart::Kind });
}

#[test]
fn kernel_flags_a_description_cannot_write() {
    let radv = builtin("radv").unwrap();
    let full_and_varying = KernelTarget { required_subgroup_size: None, flags: 0x3 };
    assert_eq!(codes(&kernel_findings("cull", [48, 1, 1], &full_and_varying, &radv)), vec!["E0507"]);
    assert_eq!(codes(&kernel_findings("cull", [128, 1, 1], &full_and_varying, &radv)), Vec::<&str>::new());
    let required_and_varying = KernelTarget { required_subgroup_size: Some(32), flags: 0x1 };
    assert_eq!(codes(&kernel_findings("cull", [64, 1, 1], &required_and_varying, &radv)), vec!["E0516"]);
}

#[test]
fn huge_workgroups_do_not_overflow() {
    let lavapipe = builtin("lavapipe").unwrap();
    let t = KernelTarget { required_subgroup_size: Some(u32::MAX), flags: 0x2 };
    let f = kernel_findings("k", [u32::MAX; 3], &t, &lavapipe);
    for code in ["E0501", "E0503", "E0505", "E0511", "E0512", "E0513", "E0514"] {
        assert!(codes(&f).contains(&code), "{code} missing from {:?}", codes(&f));
    }
}

#[test]
fn tens_of_thousands_of_tokens_are_all_checked() {
    // A layout built by a program, not a description (the front ends cap tokens at 256): every
    // overlap and duplicate is still found. (How the cost grows is measured by the benchmark
    // `cargo bench -p dgcc --features compiler --bench compile_scaling`, not asserted here:
    // machines are shared and noisy.)
    let mut m = scene();
    let l = &mut m.layouts[0];
    let (push, draw) = (l.tokens[0].clone(), l.tokens[2].clone());
    l.tokens.clear();
    let n = 30_000u32;
    for i in 0..n {
        let mut t = push.clone();
        t.offset = 4 * i;
        t.push_constant = Some(dgcc::ir::PushConstantRange { stages: 1, offset: 2 * i, size: 4 });
        l.tokens.push(t);
        let mut v = draw.clone();
        v.token_type = dgcc::ir::TokenType::VertexBuffer;
        v.vertex_binding = Some(i % 7);
        l.tokens.push(v);
    }
    l.tokens.push(draw);
    m.push_constants[0].size = 2 * n + 4;
    m.layouts[0].stride = 4 * n + 64;
    let f = findings_on(&m, "nvidia");
    // Every push range but the first overlaps the one before; every binding after the 7th repeats.
    assert_eq!(f.iter().filter(|f| f.code == "E0308").count(), n as usize - 1);
    assert_eq!(f.iter().filter(|f| f.code == "E0108").count(), n as usize - 7);
}

/// The runtime refuses an NV mesh token on a device without VK_NV_mesh_shader with `dgcc
/// check`'s code, and asks for the extension list where a profile does not state it.
#[test]
fn nv_mesh_tokens_need_the_nv_extension_on_the_device() {
    let nv = |token: &str, value: u32, size: u32| {
        let text = format!(
            r#"{{"schema_version": 1, "pipeline": "mesh", "push_constants": [],
  "layouts": [{{"name": "Meshlets", "stride": 12, "shader_stages": 208, "flags": 0, "max_sequences": 64,
    "glsl_layout": "std430", "record_align": 4, "record": [],
    "tokens": [{{"name": "draw", "type": "{token}", "type_value": {value}, "offset": 0, "size": {size}}}]}}]}}"#
        );
        Manifest::from_json(&text).expect("the test manifest parses")
    };
    for m in [nv("DRAW_MESH_TASKS_NV", 1_000_202_002, 8), nv("DRAW_MESH_TASKS_COUNT_NV", 1_000_202_003, 16)] {
        let f = findings_on(&m, "lavapipe");
        let e = f.iter().find(|f| f.code == "E0215").unwrap_or_else(|| panic!("E0215 on lavapipe: {f:?}"));
        assert_eq!(e.location, Location::Token { index: 0, part: TokenPart::Kind });
        assert!(e.message.contains("VK_NV_mesh_shader") && e.message.contains("lavapipe"), "{}", e.message);
        assert!(!codes(&findings_on(&m, "nvidia")).contains(&"E0215"));
        // radv's sources were not read for the extension: asked for, not guessed.
        let radv = findings_on(&m, "radv");
        assert!(!codes(&radv).contains(&"E0215"));
        let missing = radv
            .iter()
            .find(|f| f.code == "W0012" && f.message.contains("VK_NV_mesh_shader"))
            .unwrap_or_else(|| panic!("W0012 for the extension on radv: {radv:?}"));
        assert!(missing.notes.iter().any(|n| n.contains("extensions")), "{:?}", missing.notes);
    }
    // The EXT forms do not need it.
    let ext = nv("DRAW_MESH_TASKS", 1_000_328_000, 12);
    assert_eq!(findings_on(&ext, "lavapipe"), vec![]);
}

#[test]
fn token_data_past_the_stride_is_e0404_as_in_a_description() {
    let mut m = scene();
    m.layouts[0].tokens[2].offset = 40;
    let f = findings_on(&m, "lavapipe");
    assert_eq!(codes(&f), ["E0404"]);
    assert_eq!(f[0].location, Location::Token { index: 2, part: TokenPart::Kind });
    assert_eq!(f[0].related[0].0, Location::Stride);
}

#[test]
fn overlapping_tokens_warn_w0011_and_an_odd_stride_is_e0405() {
    let mut m = scene();
    m.layouts[0].tokens[2].offset = 20;
    let f = findings_on(&m, "lavapipe");
    assert_eq!(codes(&f), ["W0011"]);
    assert!(!f[0].is_error(), "shared bytes are legal: the runtime does not refuse them");
    let mut m = scene();
    m.layouts[0].stride = 46;
    assert_eq!(codes(&findings_on(&m, "lavapipe")), ["E0405"]);
}

/// A push-data token of an edited manifest whose range names stages other than
/// VK_SHADER_STAGE_ALL (a description cannot write stages for push data).
#[test]
fn a_push_data_range_with_stages_other_than_all_is_e0312() {
    let mut m = scene();
    let t = &mut m.layouts[0].tokens[0];
    t.token_type = dgcc::ir::TokenType::PushData;
    t.type_value = dgcc::ir::TokenType::PushData.value();
    let mut p = builtin("lavapipe").unwrap();
    p.set(Limit::DescriptorHeap, 1).set(Limit::MaxPushDataSize, 256);
    let f = device_findings(&m.layouts[0], &m.push_constants, &p);
    assert_eq!(codes(&f), ["E0312"], "{f:?}");
    m.layouts[0].tokens[0].push_constant.as_mut().unwrap().stages = 0x7FFF_FFFF;
    assert_eq!(device_findings(&m.layouts[0], &m.push_constants, &p), vec![]);
    // Without descriptor heaps (every built-in target), E0216 names the feature.
    assert_eq!(codes(&findings_on(&m, "lavapipe")), ["E0216"]);
}

/// `examples/execution_set.ron`'s `Kernels`: an execution set of compute pipelines, then a dispatch.
const KERNELS: &str = r#"{"schema_version": 1, "pipeline": "execution_set",
  "push_constants": [{"stages": 32, "offset": 0, "size": 8}],
  "layouts": [{"name": "Kernels", "stride": 32, "shader_stages": 32, "flags": 0, "max_sequences": 2048,
    "glsl_layout": "std430", "record_align": 4, "record": [],
    "tokens": [
      {"name": "pipeline", "type": "EXECUTION_SET", "type_value": 0, "offset": 0, "size": 4,
       "execution_set": {"kind": 0, "stages": 32, "max_entries": 16}},
      {"name": "job", "type": "PUSH_CONSTANT", "type_value": 1, "offset": 4, "size": 8,
       "push_constant": {"stages": 32, "offset": 0, "size": 8}},
      {"name": "groups", "type": "DISPATCH", "type_value": 9, "offset": 12, "size": 12}]}]}"#;

#[test]
fn a_compute_set_gets_n0002_exactly_where_the_vendor_is_nvidia() {
    let m = Manifest::from_json(KERNELS).expect("the test manifest parses");
    // nvk reports NVIDIA's vendor id as well; lavapipe and radv do not.
    for (target, want) in [("nvidia", vec!["N0002"]), ("nvk", vec!["N0002"]), ("lavapipe", vec![]), ("radv", vec![])] {
        assert_eq!(codes(&findings_on(&m, target)), want, "{target}");
    }
    let f = findings_on(&m, "nvidia");
    assert_eq!(f[0].location, Location::Token { index: 0, part: TokenPart::Stages });
    assert_eq!(f[0].target.as_deref(), Some("nvidia"));
    assert!(f[0].message.contains("`Kernels`") && !f[0].is_error(), "{}", f[0].message);
    assert!(f[0].notes.iter().any(|n| n == "vendorID = 0x10DE (NVIDIA) on nvidia"), "{:?}", f[0].notes);
    // A profile that does not state its vendor, or states another, gets nothing, and no W0012.
    let mut unstated = builtin("nvidia").unwrap();
    unstated.clear(Limit::VendorId);
    let mut other = builtin("nvidia").unwrap();
    other.set(Limit::VendorId, 0x1002);
    for p in [unstated, other] {
        assert_eq!(device_findings(&m.layouts[0], &m.push_constants, &p), vec![]);
    }
}

#[test]
fn n0002_is_for_compute_sets_that_the_target_creates() {
    let shaders = KERNELS.replace(r#""kind": 0"#, r#""kind": 1"#);
    let m = Manifest::from_json(&shaders).expect("the test manifest parses");
    let f = findings_on(&m, "nvidia");
    assert_eq!(codes(&f), vec!["N0002"]);
    // A shader-object set has no entry-never-written problem, only the two-entries one.
    assert!(f[0].message.contains("compute shader object") && !f[0].notes.iter().any(|n| n.contains("segfault")));
    // A target that cannot bind the set creates none: no note about writing its entries.
    let mut no_compute = builtin("nvidia").unwrap();
    no_compute.set(Limit::SupportedIndirectCommandsShaderStagesPipelineBinding, 0x1F);
    no_compute.set(Limit::SupportedIndirectCommandsShaderStagesShaderBinding, 0x1F);
    let m = Manifest::from_json(KERNELS).expect("the test manifest parses");
    let f = device_findings(&m.layouts[0], &m.push_constants, &no_compute);
    assert!(!codes(&f).contains(&"N0002") && f.iter().any(|f| f.is_error()), "{f:#?}");
    // Nor on a target without device-generated commands, where nothing creates a set either.
    assert!(!codes(&findings_on(&m, "anv")).contains(&"N0002"));
}
