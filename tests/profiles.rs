//! Loading device files: real and realistic fixtures in `tests/profiles/` (see its README),
//! against the built-in profiles measured on the same devices, plus broken files and a
//! proptest that feeds mutated fixtures to the loader.

use std::path::{Path, PathBuf};

use dgcc::device::json::{self, CITE_CAPS_VIEWER, CITE_DEVICE_FILE, CITE_REQUIREMENT_FILE};
use dgcc::device::{builtin, Limit, LimitKind, MissingValue, Profile, ProfileSource, BUILTIN_NAMES};
use dgcc::stages::{Stage, StageMask};
use proptest::prelude::*;
use serde_json::{json, Value};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("DGCC_CHECKOUT")).join("tests/profiles").join(name)
}

fn load(name: &str) -> Profile {
    json::load_file(&fixture(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn load_err(name: &str) -> String {
    match json::load_file(&fixture(name)) {
        Ok(p) => panic!("{name} loaded: {p:?}"),
        Err(e) => e,
    }
}

fn parse_value(v: &Value, name: &str) -> Result<Profile, String> {
    json::parse(&v.to_string(), Path::new(name))
}

/// Stage masks as dgcc uses them: the 14 stages a description can name. A file lists bits by
/// name, so a driver's `0x7FFFFFFF` reads back as the bits that have names.
fn comparable(limit: Limit, v: u64) -> u64 {
    match limit.kind() {
        LimitKind::Stages => v & u64::from(StageMask::of(Stage::ALL).0),
        _ => v,
    }
}

/// Every value `loaded` states equals `reference`'s; returns the limits it does not state.
fn assert_states_reference_values(loaded: &Profile, reference: &Profile) -> Vec<Limit> {
    let mut missing = vec![];
    for limit in Limit::ALL {
        match loaded.value(limit) {
            None => missing.push(limit),
            Some(v) => {
                let want = reference.value(limit).map(|r| comparable(limit, r));
                assert_eq!(Some(comparable(limit, v)), want, "{}: {limit}", loaded.name);
            }
        }
    }
    missing
}

const DGC_VALUES: [Limit; 14] = [
    Limit::MaxIndirectPipelineCount,
    Limit::MaxIndirectShaderObjectCount,
    Limit::MaxIndirectSequenceCount,
    Limit::MaxIndirectCommandsTokenCount,
    Limit::MaxIndirectCommandsTokenOffset,
    Limit::MaxIndirectCommandsIndirectStride,
    Limit::SupportedIndirectCommandsInputModes,
    Limit::SupportedIndirectCommandsShaderStages,
    Limit::SupportedIndirectCommandsShaderStagesPipelineBinding,
    Limit::SupportedIndirectCommandsShaderStagesShaderBinding,
    Limit::DeviceGeneratedCommandsTransformFeedback,
    Limit::DeviceGeneratedCommandsMultiDrawIndirectCount,
    Limit::DeviceGeneratedCommands,
    Limit::DynamicGeneratedPipelineLayout,
];

#[test]
fn old_vulkaninfo_export_gives_lavapipe_values_and_lacks_the_dgc_ones() {
    let p = load("lavapipe-vulkaninfo-1.3.239.json");
    let mut missing = assert_states_reference_values(&p, &builtin("lavapipe").unwrap());
    missing.sort();
    // vulkaninfo 1.3.239 predates VK_EXT_device_generated_commands and VK_EXT_shader_object.
    let mut expected: Vec<Limit> = DGC_VALUES.into_iter().chain([Limit::ShaderObject]).collect();
    expected.sort();
    assert_eq!(missing, expected);
    assert_eq!(p.name, "lavapipe-vulkaninfo-1.3.239");
    assert_eq!(p.source, ProfileSource::File(fixture("lavapipe-vulkaninfo-1.3.239.json")));
    assert!(p.description.contains("llvmpipe (LLVM 15.0.6, 256 bits)"), "{}", p.description);
    assert_eq!(p.citation(Limit::SubgroupSize), Some(CITE_DEVICE_FILE));
    let err = p.get(Limit::MaxIndirectCommandsTokenOffset).unwrap_err();
    assert_eq!(
        err,
        MissingValue { profile: "lavapipe-vulkaninfo-1.3.239".into(), limit: Limit::MaxIndirectCommandsTokenOffset }
    );
    assert!(err.to_string().contains("maxIndirectCommandsTokenOffset"));
}

#[test]
fn modern_lavapipe_export_states_every_value_and_all_equal_the_builtin() {
    let p = load("lavapipe-modern.json");
    assert_eq!(assert_states_reference_values(&p, &builtin("lavapipe").unwrap()), vec![]);
    // The promoted-only layout: no separate subgroup structs, values still found.
    assert_eq!(p.value(Limit::RequiredSubgroupSizeStages), Some(0x30));
    assert_eq!(p.value(Limit::SupportedIndirectCommandsInputModes), Some(0x3));
}

#[test]
fn gpuinfo_export_ignores_composite_stage_names_and_maps_nv_aliases() {
    let p = load("lavapipe-gpuinfo.json");
    let missing = assert_states_reference_values(&p, &builtin("lavapipe").unwrap());
    assert!(DGC_VALUES.iter().all(|l| missing.contains(l)), "gpuinfo exports drop the DGC extension");
    // Listed as FRAGMENT, COMPUTE, TASK_NV, MESH_NV, ALL_GRAPHICS, ALL: exact, not 0x7FFFFFFF.
    assert_eq!(p.value(Limit::SubgroupSupportedStages), Some(0xF0));
    assert_eq!(p.value(Limit::RequiredSubgroupSizeStages), Some(0x30));
    assert_eq!(p.citation(Limit::MinSubgroupSize), Some(CITE_DEVICE_FILE));
}

#[test]
fn caps_viewer_report_gives_every_lavapipe_value() {
    let p = load("lavapipe-capsviewer.json");
    assert_eq!(assert_states_reference_values(&p, &builtin("lavapipe").unwrap()), vec![]);
    assert_eq!(p.citation(Limit::MaxIndirectSequenceCount), Some(CITE_CAPS_VIEWER));
    assert!(p.description.contains("VulkanCapsViewer"), "{}", p.description);
}

#[test]
fn h200_export_equals_the_builtin_nvidia_profile() {
    let p = load("nvidia-h200.json");
    assert_eq!(assert_states_reference_values(&p, &builtin("nvidia").unwrap()), vec![]);
    assert_eq!(p.value(Limit::MaxIndirectCommandsTokenOffset), Some(0xFFFF_FFFF));
}

#[test]
fn old_separate_subgroup_structs_alone_are_enough() {
    let text = std::fs::read_to_string(fixture("lavapipe-vulkaninfo-1.3.239.json")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let device = &mut v["capabilities"]["device"];
    for s in ["VkPhysicalDeviceVulkan11Properties", "VkPhysicalDeviceVulkan13Properties"] {
        device["properties"].as_object_mut().unwrap().remove(s).unwrap();
    }
    device["features"].as_object_mut().unwrap().remove("VkPhysicalDeviceVulkan13Features").unwrap();
    let p = parse_value(&v, "old.json").unwrap();
    let lvp = builtin("lavapipe").unwrap();
    for l in [
        Limit::SubgroupSize,
        Limit::SubgroupSupportedStages,
        Limit::MinSubgroupSize,
        Limit::MaxSubgroupSize,
        Limit::MaxComputeWorkgroupSubgroups,
        Limit::RequiredSubgroupSizeStages,
        Limit::SubgroupSizeControl,
        Limit::ComputeFullSubgroups,
    ] {
        assert_eq!(p.value(l), lvp.value(l), "{l}");
    }
}

#[test]
fn requirement_profile_values_are_bounds_combined_as_documented() {
    let p = load("desktop-requirements.json");
    assert!(p.description.contains("requirement profile"), "{}", p.description);
    assert_eq!(p.citation(Limit::MinSubgroupSize), Some(CITE_REQUIREMENT_FILE));
    // The required in-file profile raises the push-constant bound; the missing one is skipped.
    assert_eq!(p.value(Limit::MaxPushConstantsSize), Some(256));
    // Bounds, not a device: min 64 and max 4 admit no required subgroup size on every device.
    assert_eq!(p.value(Limit::MinSubgroupSize), Some(64));
    assert_eq!(p.value(Limit::MaxSubgroupSize), Some(4));
    // One of two alternatives: only what both guarantee (mesh, not task; 32 tokens; mesh stage).
    assert_eq!(p.value(Limit::MeshShader), Some(1));
    assert_eq!(p.value(Limit::TaskShader), None);
    assert_eq!(p.value(Limit::MaxIndirectCommandsTokenCount), Some(32));
    assert_eq!(p.value(Limit::SupportedIndirectCommandsShaderStages), Some(0xB1));
    // Blocks only the second profile lists are not read.
    assert_eq!(p.value(Limit::MaxVertexInputBindings), None);
    assert_eq!(p.value(Limit::MaxComputeWorkGroupSizeZ), Some(64));
}

#[test]
fn broken_files_give_clear_errors_with_the_path() {
    for (file, wants) in [
        ("broken-not-json.json", &["broken-not-json.json:1:1: not valid JSON"][..]),
        ("broken-truncated.json", &["broken-truncated.json:", "the file ends early"]),
        (
            "broken-wrong-types.json",
            &["capabilities.device.properties.VkPhysicalDeviceVulkan13Properties.minSubgroupSize", "the string \"32\""],
        ),
        ("broken-wrong-shape.json", &["not a device profile", "found an array of 1 items"]),
        ("broken-unknown-block.json", &["capability block `gpu`"]),
        (
            "broken-unknown-stage.json",
            &["subgroupSupportedStages[14]: unknown shader stage name", "VK_SHADER_STAGE_VERTX_BIT"],
        ),
    ] {
        let err = load_err(file);
        assert!(err.starts_with(&fixture(file).display().to_string()), "{err}");
        for want in wants {
            assert!(err.contains(want), "{file}: `{err}` lacks `{want}`");
        }
    }
    let truncated = load_err("broken-truncated.json");
    let position = truncated.split(':').nth(1).unwrap();
    assert!(position.parse::<u32>().unwrap() > 100, "a line number deep in the file: {truncated}");
}

#[test]
fn a_key_given_twice_in_one_object_is_refused_with_both_positions() {
    // serde_json kept the second `maxIndirectSequenceCount` (1024) without a word.
    let err = load_err("broken-duplicate-key.json");
    let want = "broken-duplicate-key.json:117:6: the key \"maxIndirectSequenceCount\" is given twice in one object (first at 116:6)";
    assert!(err.contains(want), "{err}");
    // The files dgcc reads in the wild have none.
    for e in std::fs::read_dir(fixture("")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".json") && !name.starts_with("broken-") {
            load(&name);
        }
    }
}

#[test]
fn unreadable_files_name_the_path() {
    let err = json::load_file(&fixture("no-such-profile.json")).unwrap_err();
    assert!(err.contains("no-such-profile.json") && err.contains("cannot read"), "{err}");
    // A folder, and (where it exists) an endless device: refused before reading.
    let err = json::load_file(&fixture("")).unwrap_err();
    assert!(err.contains("not a regular file"), "{err}");
    if Path::new("/dev/zero").exists() {
        let err = json::load_file(Path::new("/dev/zero")).unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
    }
}

#[test]
fn oversized_and_non_utf8_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("dgcc-profiles-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.json");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(json::MAX_FILE_BYTES + 1).unwrap();
    let err = json::load_file(&big).unwrap_err();
    assert!(err.contains("more than the"), "{err}");
    let latin1 = dir.join("latin1.json");
    std::fs::write(&latin1, b"{\"capabilities\": {\"d\xe9vice\": {}}}").unwrap();
    let err = json::load_file(&latin1).unwrap_err();
    assert!(err.contains("not UTF-8 text (byte 20)"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn caps_viewer_entries_of_other_extensions_are_ignored() {
    let report = json!({
        "properties": { "deviceName": "test" },
        "environment": {},
        "extended": {
            "deviceproperties2": [
                { "name": "maxIndirectSequenceCount", "extension": "VK_NV_device_generated_commands", "value": "7" },
                { "name": "maxIndirectSequenceCount", "extension": "VK_EXT_device_generated_commands", "value": "1048576" },
                { "name": "supportedIndirectCommandsShaderStages", "extension": "VK_EXT_device_generated_commands", "value": "0x3F" }
            ],
            "devicefeatures2": [
                { "name": "meshShader", "extension": "VK_NV_mesh_shader", "supported": true },
                { "name": "meshShader", "extension": "VK_EXT_mesh_shader", "supported": false }
            ]
        }
    });
    let p = parse_value(&report, "r.json").unwrap();
    assert_eq!(p.value(Limit::MaxIndirectSequenceCount), Some(1 << 20));
    assert_eq!(p.value(Limit::SupportedIndirectCommandsShaderStages), Some(0x3F));
    assert_eq!(p.value(Limit::MeshShader), Some(0));
}

fn one_block(properties: Value, features: Value) -> Value {
    json!({ "capabilities": { "device": { "properties": properties, "features": features } } })
}

#[test]
fn hand_written_files_may_skip_profiles_and_use_0_and_1_or_masks() {
    let doc = one_block(
        json!({ "VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT": {
            "supportedIndirectCommandsShaderStages": 33, "deviceGeneratedCommandsTransformFeedback": 0 } }),
        json!({ "VkPhysicalDeviceMeshShaderFeaturesEXT": { "meshShader": 1 } }),
    );
    let p = parse_value(&doc, "mine.json").unwrap();
    assert_eq!(p.name, "mine");
    assert_eq!(p.value(Limit::SupportedIndirectCommandsShaderStages), Some(33));
    assert_eq!(p.value(Limit::DeviceGeneratedCommandsTransformFeedback), Some(0));
    assert_eq!(p.value(Limit::MeshShader), Some(1));
    assert_eq!(p.entries().filter(|e| e.1.is_some()).count(), 3);
}

#[test]
fn malformed_values_and_structures_are_errors() {
    let cases = [
        (
            one_block(
                json!({ "VkPhysicalDeviceProperties": { "limits": { "maxComputeWorkGroupSize": [1024, 1024] } } }),
                json!({}),
            ),
            "array of 3",
        ),
        (
            one_block(
                json!({ "VkPhysicalDeviceProperties": { "limits": { "maxPushConstantsSize": 4294967296u64 } } }),
                json!({}),
            ),
            "out of range",
        ),
        (
            one_block(json!({ "VkPhysicalDeviceVulkan13Properties": [] }), json!({})),
            "expected an object of struct members",
        ),
        (
            one_block(json!({}), json!({ "VkPhysicalDeviceMeshShaderFeaturesEXT": { "meshShader": "yes" } })),
            "expected a boolean",
        ),
        (json!({ "capabilities": [] }), "capabilities: expected an object"),
        (
            json!({ "capabilities": {}, "profiles": { "VP_A_a": { "capabilities": "device" } } }),
            "profiles.VP_A_a.capabilities",
        ),
        (
            json!({ "capabilities": {}, "profiles": { "VP_A_a": { "profiles": ["VP_A_a"], "capabilities": [] } } }),
            "requires itself",
        ),
        (json!({ "unrelated": true }), "found an object with keys unrelated"),
        (
            json!({ "capabilities": { "d": { "extensions": ["VK_NV_mesh_shader"] } } }),
            "d.extensions: expected an object",
        ),
        (
            json!({ "capabilities": { "d": { "extensions": { "VK_NV_mesh_shader": "1" } } } }),
            "d.extensions.VK_NV_mesh_shader: expected an unsigned integer",
        ),
        (
            json!({ "properties": {}, "environment": {}, "extensions": [{ "name": "VK_NV_mesh_shader" }] }),
            "extensions[0]: expected an object with an `extensionName` string",
        ),
        (json!({ "properties": {}, "environment": {}, "extensions": {} }), "extensions: expected an array"),
    ];
    for (doc, want) in cases {
        let err = parse_value(&doc, "case.json").unwrap_err();
        assert!(err.starts_with("case.json: ") && err.contains(want), "`{err}` lacks `{want}`");
    }
}

#[test]
fn deep_or_wide_profile_graphs_stay_cheap() {
    // A chain of required profiles deeper than any real file: an error, not a stack overflow.
    let mut profiles = serde_json::Map::new();
    for i in 0..10_000 {
        profiles.insert(format!("VP_X_{i}"), json!({ "profiles": [format!("VP_X_{}", i + 1)], "capabilities": [] }));
    }
    let err = parse_value(&json!({ "capabilities": {}, "profiles": profiles }), "deep.json").unwrap_err();
    assert!(err.contains("more than 32 deep"), "{err}");
    // A diamond that doubles at every level: each profile is resolved once.
    let mut profiles = serde_json::Map::new();
    for i in 0..30 {
        let next = format!("VP_D_{}", i + 1);
        profiles.insert(format!("VP_D_{i}"), json!({ "profiles": [next, next], "capabilities": ["b", "b"] }));
    }
    profiles.insert("VP_D_30".into(), json!({ "capabilities": ["b"] }));
    let doc = json!({ "capabilities": { "b": { "features": { "VkPhysicalDeviceShaderObjectFeaturesEXT": { "shaderObject": true } } } }, "profiles": profiles });
    let started = std::time::Instant::now();
    let p = parse_value(&doc, "diamond.json").unwrap();
    assert_eq!(p.value(Limit::ShaderObject), Some(1));
    assert!(started.elapsed().as_secs() < 30, "a hang guard, not a speed test");
}

#[test]
fn every_builtin_round_trips_through_the_probe_format() {
    for name in BUILTIN_NAMES {
        let original = builtin(name).unwrap();
        let text = json::to_profiles_json(&original, "1.4.305");
        let back = json::parse(&text, Path::new(&format!("{name}.json"))).unwrap();
        for limit in Limit::ALL {
            let want = original.value(limit).map(|v| comparable(limit, v));
            assert_eq!(back.value(limit).map(|v| comparable(limit, v)), want, "{name}: {limit}");
        }
        // Profile names are identifiers: `radv-mesh` is written `VP_DGCC_radv_mesh`.
        let vp = name.replace('-', "_");
        assert_eq!(back.description, format!("{} (profile VP_DGCC_{vp}, Vulkan 1.4.305)", original.description));
        assert_eq!(
            back.citation(Limit::MaxPushConstantsSize).is_some(),
            original.value(Limit::MaxPushConstantsSize).is_some()
        );
    }
}

/// What `dgcc probe` writes, the loader reads back to the same values (on a machine with a
/// Vulkan device; skipped without one unless `DGCC_REQUIRE_VULKAN` is set, as in CI).
#[test]
fn the_live_probe_reads_back_through_the_loader() {
    let probe = match dgcc::runtime::probe() {
        Ok(p) => p,
        Err(e) if std::env::var_os("DGCC_REQUIRE_VULKAN").is_none() => {
            return eprintln!("skipped: no Vulkan device ({e})")
        }
        Err(e) => panic!("DGCC_REQUIRE_VULKAN is set and there is no device: {e}"),
    };
    let back = json::parse(&probe.json_text(), Path::new("live.json")).unwrap_or_else(|e| panic!("{e}"));
    for limit in Limit::ALL {
        let (want, got) = (probe.profile.value(limit), back.value(limit));
        assert_eq!(got.map(|v| comparable(limit, v)), want.map(|v| comparable(limit, v)), "{limit}");
    }
    assert_eq!(
        back.citation(Limit::MaxIndirectSequenceCount),
        Some(CITE_DEVICE_FILE),
        "a probe file is one device's values"
    );
}

fn arbitrary_profile() -> impl Strategy<Value = Profile> {
    let stage_mask = 0u64..=0x3FFF;
    proptest::collection::vec(
        (proptest::option::of(0u64..=u64::from(u32::MAX)), stage_mask, 0u64..=3),
        Limit::ALL.len(),
    )
    .prop_map(|rows| {
        let mut p = Profile::new("random", "random values", ProfileSource::Live);
        for (limit, (count, stages, small)) in Limit::ALL.into_iter().zip(rows) {
            let Some(count) = count else { continue };
            let v = match limit.kind() {
                LimitKind::Count => count,
                LimitKind::Stages => stages,
                LimitKind::InputModes => small,
                LimitKind::Bool => small & 1,
                LimitKind::Id => count,
            };
            p.set(limit, v);
        }
        p
    })
}

/// Some JSON to splice into a fixture: shapes the loader meets, and nonsense.
fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map(Value::Number).unwrap_or(Value::Null)),
        "(VK_SHADER_STAGE_[A-Z_]{0,12}(_BIT)?(_EXT|_NV)?|[0-9a-fx]{0,10}|true|device|VP_[A-Z]{1,3}_x)"
            .prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        let key = prop_oneof![
            Just("capabilities".to_owned()),
            Just("profiles".to_owned()),
            Just("device".to_owned()),
            Just("limits".to_owned()),
            Just("VkPhysicalDeviceVulkan13Properties".to_owned()),
            Just("maxComputeWorkGroupSize".to_owned()),
            "[a-zA-Z]{1,8}",
        ];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key, inner), 0..6).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// JSON pointers to every node of `v`.
fn pointers(v: &Value, here: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| pointers(x, format!("{here}/{i}"), out)),
        Value::Object(o) => {
            o.iter().for_each(|(k, x)| pointers(x, format!("{here}/{}", k.replace('~', "~0").replace('/', "~1")), out))
        }
        _ => {}
    }
    out.push(here);
}

const SMALL_FIXTURES: [&str; 4] =
    ["nvidia-h200.json", "lavapipe-gpuinfo.json", "lavapipe-capsviewer.json", "desktop-requirements.json"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn written_profiles_read_back_unchanged(p in arbitrary_profile()) {
        let back = json::parse(&json::to_profiles_json(&p, "1.3.296"), Path::new("random.json")).unwrap();
        for limit in Limit::ALL {
            // The work-group size is written only whole (all three or none).
            let xyz = [Limit::MaxComputeWorkGroupSizeX, Limit::MaxComputeWorkGroupSizeY, Limit::MaxComputeWorkGroupSizeZ];
            if xyz.contains(&limit) && xyz.iter().any(|l| p.value(*l).is_none()) {
                prop_assert_eq!(back.value(limit), None);
            } else {
                prop_assert_eq!(back.value(limit), p.value(limit), "{}", limit);
            }
        }
    }

    #[test]
    fn mutated_bytes_never_panic(file in 0..SMALL_FIXTURES.len(), edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..8)) {
        let mut bytes = std::fs::read(fixture(SMALL_FIXTURES[file])).unwrap();
        for (at, byte, op) in edits {
            let i = at.index(bytes.len().max(1));
            match op {
                0 if !bytes.is_empty() => bytes[i] = byte,
                1 => bytes.insert(i.min(bytes.len()), byte),
                _ => bytes.truncate(i),
            }
        }
        let _ = json::parse(&String::from_utf8_lossy(&bytes), Path::new("mutated.json"));
    }

    #[test]
    fn mutated_structure_never_panics(file in 0..SMALL_FIXTURES.len(), at in any::<prop::sample::Index>(), splice in arbitrary_json()) {
        let text = std::fs::read_to_string(fixture(SMALL_FIXTURES[file])).unwrap();
        let mut doc: Value = serde_json::from_str(&text).unwrap();
        let mut all = vec![];
        pointers(&doc, String::new(), &mut all);
        let target = &all[at.index(all.len())];
        match doc.pointer_mut(target) {
            Some(node) => *node = splice,
            None => prop_assert!(false, "pointer {} not found", target),
        }
        if let Ok(p) = json::parse(&doc.to_string(), Path::new("spliced.json")) {
            prop_assert_eq!(p.name, "spliced");
        }
    }
}

#[test]
fn the_h200_probe_file_has_vk_nv_mesh_shader_and_lavapipe_files_do_not() {
    let probe = load("nvidia-h200-probe.json");
    assert_eq!(probe.value(Limit::NvMeshShader), Some(1));
    assert_eq!(probe.value(Limit::NvMeshShader), builtin("nvidia").unwrap().value(Limit::NvMeshShader));
    // Every lavapipe file carries the driver's whole extension list, without the NV extension.
    for file in [
        "lavapipe-vulkaninfo-1.3.239.json",
        "lavapipe-modern.json",
        "lavapipe-gpuinfo.json",
        "lavapipe-capsviewer.json",
    ] {
        assert_eq!(load(file).value(Limit::NvMeshShader), Some(0), "{file}");
    }
}

#[test]
fn the_nvidia_profile_states_the_cooperative_matrices_the_h200_probe_read() {
    let probe = load("nvidia-h200-probe.json").cooperative_matrix.expect("the probe lists them");
    let builtin = builtin("nvidia").unwrap().cooperative_matrix.expect("the profile states them");
    assert_eq!(probe.shapes.len(), 11);
    assert_eq!(builtin.shapes, probe.shapes);
    assert!(builtin.citation.starts_with("[measured]"), "{}", builtin.citation);
}

/// What `VK_NV_mesh_shader` reads as, by the kind of file: a device's `extensions` object is its
/// whole list (unlisted = false); a requirement profile's is what it requires (unlisted = not
/// stated); no list at all states nothing.
#[test]
fn extension_values_follow_the_kind_of_file() {
    let nv = |doc: Value| parse_value(&doc, "f.json").unwrap_or_else(|e| panic!("{e}")).value(Limit::NvMeshShader);
    let with_profile = |block: Value, profile: &str, description: &str| {
        json!({
            "capabilities": { "device": block },
            "profiles": { profile: {
                "version": 1, "api-version": "1.3.296", "label": "x", "description": description,
                "capabilities": ["device"]
            } }
        })
    };
    let export = |block: Value| with_profile(block, "VP_VULKANINFO_x_1", "Exported from vulkaninfo");
    assert_eq!(nv(export(json!({ "extensions": { "VK_EXT_mesh_shader": 1, "VK_NV_mesh_shader": 1 } }))), Some(1));
    assert_eq!(nv(export(json!({ "extensions": { "VK_EXT_mesh_shader": 1 } }))), Some(0));
    assert_eq!(nv(export(json!({ "extensions": {} }))), Some(0));
    assert_eq!(nv(export(json!({ "features": {} }))), None);
    // A one-device file without `profiles`: the same.
    assert_eq!(nv(json!({ "capabilities": { "d": { "extensions": {} } } })), Some(0));
    assert_eq!(nv(json!({ "capabilities": { "d": { "features": {} } } })), None);
    // A requirement profile: listed means required, unlisted means a matching device may or may not.
    let requirement = |block: Value| with_profile(block, "VP_EXAMPLE_x", "requirements");
    assert_eq!(nv(requirement(json!({ "extensions": { "VK_NV_mesh_shader": 1 } }))), Some(1));
    assert_eq!(nv(requirement(json!({ "extensions": { "VK_KHR_maintenance5": 1 } }))), None);
    let one_of = json!({
        "capabilities": { "a": { "extensions": { "VK_NV_mesh_shader": 1 } }, "b": { "extensions": {} } },
        "profiles": { "VP_EXAMPLE_x": { "capabilities": [["a", "b"]] } }
    });
    assert_eq!(nv(one_of), None, "only one of the alternatives has it");
    assert_eq!(load("desktop-requirements.json").value(Limit::NvMeshShader), None);
    // A CapsViewer report lists every extension of the device.
    let report =
        |extensions: Value| json!({ "properties": { "deviceName": "t" }, "environment": {}, "extensions": extensions });
    assert_eq!(nv(report(json!([{ "extensionName": "VK_NV_mesh_shader", "specVersion": 1 }]))), Some(1));
    assert_eq!(nv(report(json!([{ "extensionName": "VK_EXT_mesh_shader", "specVersion": 1 }]))), Some(0));
    assert_eq!(nv(json!({ "properties": { "deviceName": "t" }, "environment": {} })), None);
}

/// `false` survives writing and reading back (an `extensions` object without the extension);
/// not stated survives too (no `extensions` object at all).
#[test]
fn written_files_keep_an_absent_extension_apart_from_an_unknown_one() {
    let mut p = Profile::new("dev", "a device", ProfileSource::Live);
    for (value, listed) in [(Some(1), Some(true)), (Some(0), Some(false)), (None, None)] {
        p.clear(Limit::NvMeshShader);
        if let Some(v) = value {
            p.set(Limit::NvMeshShader, v);
        }
        let text = json::to_profiles_json(&p, "1.4.305");
        let doc: Value = serde_json::from_str(&text).unwrap();
        let list = doc["capabilities"]["device"]["extensions"].as_object();
        assert_eq!(list.map(|l| l.contains_key("VK_NV_mesh_shader")), listed, "{text}");
        let back = json::parse(&text, Path::new("dev.json")).unwrap();
        assert_eq!(back.value(Limit::NvMeshShader), value);
    }
}

#[test]
fn cooperative_matrix_shapes_are_read_written_and_read_back() {
    // dgcc's key in a Profiles file (`dgcc probe` writes it): one entry per shape, by enum name.
    let path = Path::new(env!("DGCC_CHECKOUT")).join("tests/shader/coopmat-device.json");
    let p = json::load_file(&path).unwrap();
    let m = p.cooperative_matrix.clone().expect("the file states its shapes");
    assert_eq!(m.shapes.len(), 1);
    let s = m.shapes[0];
    assert_eq!((s.m, s.n, s.k, s.a, s.c, s.scope, s.saturating), (16, 16, 16, 0, 1, 3, false));
    let back = json::parse(&json::to_profiles_json(&p, "1.3.296"), Path::new("back.json")).unwrap();
    assert_eq!(back.cooperative_matrix.map(|m| m.shapes), Some(m.shapes.clone()));
    // A file without the key does not state the list; the built-ins say what they know.
    assert_eq!(load("lavapipe-modern.json").cooperative_matrix, None);
    assert_eq!(builtin("lavapipe").unwrap().cooperative_matrix.map(|m| m.shapes.len()), Some(0));
    assert_eq!(builtin("nvidia").unwrap().cooperative_matrix.map(|m| m.shapes.len()), Some(11), "measured on the H200");
    let bad = r#"{"capabilities": {"d": {"properties": {"VkCooperativeMatrixPropertiesKHR": [{"MSize": 16}]}}}}"#;
    let err = json::parse(bad, Path::new("bad.json")).unwrap_err();
    assert!(err.contains("NSize"), "{err}");
    // A component type or scope dgcc has no name for (a float8 type of VK_EXT_shader_float8)
    // is written as its number and read back; numbers past 32 bits and a saturation flag that
    // is not a boolean are refused, not truncated or defaulted.
    let mut newer = p.clone();
    let mut shapes = m.shapes.clone();
    shapes[0].a = 1_000_491_002;
    shapes[0].scope = 7;
    newer.cooperative_matrix = Some(dgcc::device::coopmat::CoopMatrices { shapes: shapes.clone(), ..m.clone() });
    let back = json::parse(&json::to_profiles_json(&newer, "1.3.296"), Path::new("back.json")).unwrap();
    assert_eq!(back.cooperative_matrix.map(|m| m.shapes), Some(shapes));
    let entry = |a: &str, saturating: &str| {
        format!(
            r#"{{"capabilities": {{"d": {{"properties": {{"VkCooperativeMatrixPropertiesKHR": [{{"MSize": 16, "NSize": 16, "KSize": 16, "AType": {a}, "BType": 0, "CType": 0, "ResultType": 0, "saturatingAccumulation": {saturating}, "scope": 3}}]}}}}}}}}"#
        )
    };
    assert!(json::parse(&entry("0", "false"), Path::new("ok.json")).is_ok());
    let one = json::parse(&entry("0", "1"), Path::new("one.json")).unwrap();
    assert!(one.cooperative_matrix.unwrap().shapes[0].saturating, "a VkBool32 of 1 is true");
    let err = json::parse(&entry("4294967296", "false"), Path::new("big.json")).unwrap_err();
    assert!(err.contains("4294967296 is not a VkComponentTypeKHR"), "{err}");
    let err = json::parse(&entry("0", "\"true\""), Path::new("text.json")).unwrap_err();
    assert!(err.contains("saturatingAccumulation: expected true or false"), "{err}");
}

/// `vendorID` is read from where each format keeps it, and only there: the device's
/// `VkPhysicalDeviceProperties` (or `…Properties2.properties`), a CapsViewer report's
/// `properties`. A file without it does not state a vendor, and is no vendor's.
#[test]
fn the_vendor_id_is_read_where_each_format_keeps_it() {
    use dgcc::device::vendor;
    for (file, want) in [
        ("nvidia-h200.json", Some(vendor::NVIDIA)),
        ("nvidia-h200-probe.json", Some(vendor::NVIDIA)),
        ("lavapipe-vulkaninfo-1.3.239.json", Some(vendor::MESA)),
        ("lavapipe-capsviewer.json", Some(vendor::MESA)),
        ("lavapipe-gpuinfo.json", None),
        ("desktop-requirements.json", None),
    ] {
        let p = load(file);
        assert_eq!(p.value(Limit::VendorId), want.map(u64::from), "{file}");
        assert_eq!(p.is_vendor(vendor::NVIDIA), want == Some(vendor::NVIDIA), "{file}");
    }
    let file = |properties: Value| {
        json!({"capabilities": {"device": {"properties": properties}},
               "profiles": {"VP_DGCC_x": {"version": 1, "api-version": "1.4.305", "label": "x",
                                          "description": "Exported from dgcc", "capabilities": ["device"]}}})
    };
    let nested = file(json!({"VkPhysicalDeviceProperties2": {"properties": {"vendorID": 4318}}}));
    assert_eq!(parse_value(&nested, "nested.json").unwrap().value(Limit::VendorId), Some(0x10DE));
    let wrong = file(json!({"VkPhysicalDeviceProperties": {"vendorID": "NVIDIA"}}));
    let err = parse_value(&wrong, "wrong.json").unwrap_err();
    assert!(err.contains("VkPhysicalDeviceProperties.vendorID: expected an unsigned integer"), "{err}");
    // Written back where it was read, beside the limits.
    let text = json::to_profiles_json(&builtin("radv").unwrap(), "1.4.305");
    let doc: Value = serde_json::from_str(&text).unwrap();
    let written = &doc["capabilities"]["device"]["properties"]["VkPhysicalDeviceProperties"];
    assert_eq!(written["vendorID"], json!(vendor::AMD));
    assert!(written["limits"].is_object());
}
