//! The generated Rust compiles and means what the manifest says.
//!
//! `tests/emit/generated/*.rs` is `--emit rust` output for every emitter fixture (kept fresh by
//! `tests/emit.rs`). Including it here compiles it, which proves its `const` assertions on
//! record size and every field offset; the tests then compare the tokens, token data and create
//! info it builds with the manifest it was generated from (`*.dgc.json`, next to it). Only the
//! `runtime` feature is needed, as in an engine that embeds generated code.

// Each test writes one field after `default()` on purpose: the field is what it checks.
#![allow(clippy::field_reassign_with_default)]

include!("emit/generated/scene.rs");
include!("emit/generated/mesh.rs");
include!("emit/generated/pinned.rs");
include!("emit/generated/compute.rs");
include!("emit/generated/raytrace.rs");
include!("emit/generated/overlap.rs");

/// The examples' pipelines share names with the fixtures, so they live one module down.
mod examples {
    include!("emit/generated/example-compute.rs");
    include!("emit/generated/example-draw_shaders.rs");
    include!("emit/generated/example-execution_set.rs");
    include!("emit/generated/example-mesh.rs");
    include!("emit/generated/example-multi_draw.rs");
    include!("emit/generated/example-scene.rs");
}

/// Every file above, so that a new fixture or example cannot go unchecked.
const INCLUDED: [&str; 12] = [
    "scene",
    "overlap",
    "mesh",
    "pinned",
    "compute",
    "raytrace",
    "example-compute",
    "example-draw_shaders",
    "example-execution_set",
    "example-mesh",
    "example-multi_draw",
    "example-scene",
];

use dgcc::ash::vk;
use dgcc::ir::{Manifest, TokenType};
use dgcc::runtime::ext_dgc;

fn manifest(name: &str) -> Manifest {
    let path = std::path::Path::new(env!("DGCC_CHECKOUT")).join(format!("tests/emit/generated/{name}.dgc.json"));
    Manifest::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Compare one generated layout module with the manifest's layout.
macro_rules! check_layout {
    ($m:expr, $name:literal, $($module:ident)::+) => {{
        let want = $m.layout($name).unwrap();
        assert_eq!($($module)::+::STRIDE, want.stride);
        assert_eq!(std::mem::size_of::<$($module)::+::Record>(), want.stride as usize);
        assert_eq!($($module)::+::SHADER_STAGES.as_raw(), want.shader_stages);
        assert_eq!($($module)::+::USAGE_FLAGS.as_raw(), want.flags);
        assert_eq!($($module)::+::MAX_SEQUENCES, want.max_sequences);
        let record = <$($module)::+::Record>::default();
        assert_eq!(record.as_bytes(), vec![0u8; want.stride as usize].as_slice());
        assert_eq!(<$($module)::+::Record>::slice_as_bytes(&[record, record]).len(), 2 * want.stride as usize);
        let tokens = $($module)::+::tokens();
        check_tokens(&tokens, want);
        let info = $($module)::+::create_info(vk::PipelineLayout::null(), &tokens);
        assert_eq!(info.s_type, ext_dgc::structure_type::INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT);
        assert_eq!(info.flags.as_raw(), want.flags);
        assert_eq!(info.shader_stages.as_raw(), want.shader_stages);
        assert_eq!(info.indirect_stride, want.stride);
        assert_eq!(info.token_count as usize, want.tokens.len());
        assert_eq!(info.p_tokens, tokens.as_ptr());
        // The record-time requirements: the manifest's, checked by the generated functions.
        assert_eq!($($module)::+::requirements(), want.requirements, "{}", $name);
        let unknown = dgcc::requirements::RecordState::default();
        assert_eq!($($module)::+::check_record(&unknown), Vec::<String>::new());
        $($module)::+::debug_assert_record(&unknown);
        let draws = want.requirements.contains(&dgcc::requirements::Requirement::RenderPass { inside: true });
        let wrong_side = dgcc::requirements::RecordState { inside_render_pass: Some(!draws), ..Default::default() };
        let broken = $($module)::+::check_record(&wrong_side);
        assert!(broken.len() == 1 && broken[0].starts_with("E0901: ") && broken[0].contains("10769") == draws, "{broken:?}");
        let refused = std::panic::catch_unwind(|| $($module)::+::debug_assert_record(&wrong_side));
        assert!(refused.is_err(), "debug_assert_record panics in a debug build");
    }};
}

/// Compare every entry of a generated `LAYOUTS` table with the manifest.
macro_rules! check_pipeline {
    ($label:literal, $($module:ident)::+) => {{
        let m = manifest($label);
        assert_eq!($($module)::+::LAYOUTS.len(), m.layouts.len(), $label);
        for (info, want) in $($module)::+::LAYOUTS.iter().zip(&m.layouts) {
            assert_eq!(info.name, want.name);
            assert_eq!((info.stride, info.record_size), (want.stride, want.stride as usize), "{}", want.name);
            assert_eq!(info.shader_stages.as_raw(), want.shader_stages);
            assert_eq!(info.usage_flags.as_raw(), want.flags);
            assert_eq!(info.max_sequences, want.max_sequences);
            check_tokens(&(info.tokens)(), want);
            assert_eq!($($module)::+::layout(&want.name).map(|l| l.name), Some(want.name.as_str()));
        }
        assert!($($module)::+::layout("no such layout").is_none());
    }};
}

#[test]
fn every_generated_file_is_included_here() {
    let dir = std::path::Path::new(env!("DGCC_CHECKOUT")).join("tests/emit/generated");
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.unwrap().path().file_name()?.to_str()?.strip_suffix(".rs").map(str::to_string))
        .collect();
    found.sort();
    let mut listed: Vec<String> = INCLUDED.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed);
}

#[test]
fn every_layout_table_is_the_manifest() {
    check_pipeline!("scene", scene);
    check_pipeline!("mesh", mesh);
    check_pipeline!("pinned", pinned);
    check_pipeline!("compute", compute);
    check_pipeline!("raytrace", raytrace);
    check_pipeline!("overlap", overlap);
    check_pipeline!("example-compute", examples::compute);
    check_pipeline!("example-draw_shaders", examples::draw_shaders);
    check_pipeline!("example-execution_set", examples::execution_set);
    check_pipeline!("example-mesh", examples::mesh);
    check_pipeline!("example-multi_draw", examples::multi_draw);
    check_pipeline!("example-scene", examples::scene);
}

fn check_tokens(tokens: &[ext_dgc::IndirectCommandsLayoutTokenEXT<'static>], want: &dgcc::ir::CompiledLayout) {
    assert_eq!(tokens.len(), want.tokens.len(), "{}", want.name);
    for (t, w) in tokens.iter().zip(&want.tokens) {
        assert_eq!(t.s_type, ext_dgc::structure_type::INDIRECT_COMMANDS_LAYOUT_TOKEN_EXT);
        assert!(t.p_next.is_null());
        assert_eq!(t.ty.as_raw() as u32, w.type_value, "{}.{}", want.name, w.name);
        assert_eq!(t.offset, w.offset, "{}.{}", want.name, w.name);
        // SAFETY: the union member read is the one the token type selects, and the generated
        // code points it at a `static`.
        unsafe {
            match w.token_type {
                TokenType::PushConstant | TokenType::SequenceIndex => {
                    let r = (*t.data.p_push_constant).update_range;
                    let want = w.push_constant.unwrap();
                    assert_eq!((r.stage_flags.as_raw(), r.offset, r.size), (want.stages, want.offset, want.size));
                }
                TokenType::IndexBuffer => assert_eq!((*t.data.p_index_buffer).mode.as_raw(), w.index_mode.unwrap()),
                TokenType::VertexBuffer => {
                    assert_eq!((*t.data.p_vertex_buffer).vertex_binding_unit, w.vertex_binding.unwrap())
                }
                TokenType::ExecutionSet => {
                    let e = *t.data.p_execution_set;
                    let want = w.execution_set.unwrap();
                    assert_eq!((e.ty.as_raw() as u32, e.shader_stages.as_raw()), (want.kind, want.stages));
                }
                _ => assert!(t.data.p_push_constant.is_null(), "{}: an action token has no data", w.name),
            }
        }
    }
}

#[test]
fn scene() {
    let m = manifest("scene");
    check_layout!(m, "SceneDraw", scene::layouts::scene_draw);
    assert_eq!(scene::PUSH_CONSTANT_RANGES.len(), m.push_constants.len());
    assert_eq!(scene::PUSH_CONSTANT_RANGES[0].size, m.push_constants[0].size);
    // A field written through the struct lands at its stream offset.
    let mut r = scene::SceneDrawRecord::default();
    r.draw_index_count = 0x0403_0201;
    // At an 8-aligned offset of a 48-byte record, the address is one `vk::DeviceAddress`.
    r.indices_address = 0x1122_3344_AABB_CCDD;
    let bytes = r.as_bytes();
    assert_eq!(&bytes[24..28], &[1, 2, 3, 4]);
    assert_eq!(&bytes[8..16], &[0xDD, 0xCC, 0xBB, 0xAA, 0x44, 0x33, 0x22, 0x11]);
    // The draw's arguments are ash's own struct, both ways.
    let draw: ::dgcc::ash::vk::DrawIndexedIndirectCommand = r.draw_command();
    assert_eq!(draw.index_count, 0x0403_0201);
    r.set_draw_command(::dgcc::ash::vk::DrawIndexedIndirectCommand { vertex_offset: -3, first_instance: 9, ..draw });
    assert_eq!(&r.as_bytes()[36..44], &[0xFD, 0xFF, 0xFF, 0xFF, 9, 0, 0, 0]);
    let k = &m.kernels[0];
    assert_eq!(scene::kernels::cull::LOCAL_SIZE, k.local_size);
    assert_eq!(scene::kernels::cull::WRITES, k.writes.as_deref());
    for (target, want) in &k.targets {
        let d = scene::kernels::cull::subgroup(target).unwrap();
        assert_eq!((d.required_subgroup_size, d.flags.as_raw()), (want.required_subgroup_size, want.flags));
    }
    assert!(scene::kernels::cull::subgroup("no such target").is_none());

    // From a live device's properties: both targets pin 32 with full subgroups.
    use ::dgcc::ash::vk;
    let props = |min, max, stages| vk::PhysicalDeviceSubgroupSizeControlProperties {
        min_subgroup_size: min,
        max_subgroup_size: max,
        required_subgroup_size_stages: stages,
        ..Default::default()
    };
    let all = vk::PhysicalDeviceSubgroupSizeControlFeatures {
        subgroup_size_control: vk::TRUE,
        compute_full_subgroups: vk::TRUE,
        ..Default::default()
    };
    let for_device = |p: &vk::PhysicalDeviceSubgroupSizeControlProperties, f| scene::kernels::cull::subgroup_for(p, f);
    let d = for_device(&props(32, 64, vk::ShaderStageFlags::COMPUTE), &all).expect("a 32..64 device takes 32");
    assert_eq!((d.target, d.required_subgroup_size), ("nvidia", Some(32)));
    assert!(
        for_device(&props(64, 64, vk::ShaderStageFlags::COMPUTE), &all).is_none(),
        "64 only: 32 cannot be required"
    );
    assert!(
        for_device(&props(32, 64, vk::ShaderStageFlags::FRAGMENT), &all).is_none(),
        "compute cannot require a size"
    );
    let no_full = vk::PhysicalDeviceSubgroupSizeControlFeatures { compute_full_subgroups: vk::FALSE, ..all };
    assert!(
        for_device(&props(32, 64, vk::ShaderStageFlags::COMPUTE), &no_full).is_none(),
        "full subgroups need the feature"
    );
}

#[test]
fn mesh() {
    let m = manifest("mesh");
    check_layout!(m, "MeshDraw", mesh::layouts::mesh_draw);
    check_layout!(m, "MeshDrawCount", mesh::layouts::mesh_draw_count);
    check_layout!(m, "MeshDrawNv", mesh::layouts::mesh_draw_nv);
    check_layout!(m, "MeshDrawCountNv", mesh::layouts::mesh_draw_count_nv);
    let mut r = mesh::MeshDrawRecord::default();
    r.cookie = 0x0807_0605_0403_0201;
    r.transform[1][2] = 1.0;
    let b = r.as_bytes();
    assert_eq!(&b[40..48], &[1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(&b[48 + 16 + 8..48 + 16 + 12], &1.0f32.to_le_bytes());
    // An address at a 4-aligned offset stays two words, with accessors for the whole.
    let mut c = mesh::MeshDrawCountRecord::default();
    c.set_tasks_address(0x1122_3344_AABB_CCDD);
    assert_eq!(c.tasks_address, [0xAABB_CCDD, 0x1122_3344]);
    assert_eq!(c.tasks_address(), 0x1122_3344_AABB_CCDD);
    assert_eq!(&c.as_bytes()[4..12], &[0xDD, 0xCC, 0xBB, 0xAA, 0x44, 0x33, 0x22, 0x11]);
}

#[test]
fn pinned() {
    let m = manifest("pinned");
    check_layout!(m, "Terrain", pinned::layouts::terrain);
    check_layout!(m, "Sprites", pinned::layouts::sprites);
    check_layout!(m, "Particles", pinned::layouts::particles);
}

#[test]
fn compute() {
    let m = manifest("compute");
    check_layout!(m, "Simulate", compute::layouts::simulate);
    // std430 pads each vec3 of an array to 16 bytes; the Rust element is [f32; 4].
    let mut r = compute::SimulateRecord::default();
    r.bounds[1] = [1.0, 2.0, 3.0, 0.0];
    let b = r.as_bytes();
    let at = std::mem::offset_of!(compute::SimulateRecord, bounds) + 16;
    assert_eq!(&b[at..at + 4], &1.0f32.to_le_bytes());
    assert_eq!(compute::kernels::reset::TARGETS.len(), 2);
}

#[test]
fn raytrace() {
    let m = manifest("raytrace");
    check_layout!(m, "Rays", raytrace::layouts::rays);
    // The trace's arguments as ash's struct: its 64-bit fields are the record's word pairs.
    let mut r = raytrace::RaysRecord::default();
    r.set_trace_command(::dgcc::ash::vk::TraceRaysIndirectCommand2KHR {
        hit_shader_binding_table_stride: 0x1122_3344_5566_7788,
        width: 640,
        ..Default::default()
    });
    assert_eq!(r.trace_hit_shader_binding_table_stride, [0x5566_7788, 0x1122_3344]);
    let back = r.trace_command();
    assert_eq!((back.hit_shader_binding_table_stride, back.width, back.depth), (0x1122_3344_5566_7788, 640, 0));
}
