//! dgcc — the device-generated-commands compiler.
//!
//! One description of a GPU-driven pipeline (RON or the `.dgc` language) becomes
//! `VK_EXT_device_generated_commands` indirect-commands layouts, validated against device
//! profiles, and every artifact that must agree with them byte for byte.
//!
//! This crate is the facade over the parts of the workspace, each a crate of its own so that
//! a user gets only the dependencies of the part they use:
//!
//! | part | crate | what | depends on |
//! |---|---|---|---|
//! | shared | `dgcc-core` | the IR with its one token table, diagnostics, the code registry, device profiles, the light rules | serde |
//! | `compiler` feature | `dgcc-compiler` | front ends, layout engine, checks, emitters, `build` | ron, pest, codespan (shaderc, naga behind `shaderc`) |
//! | `runtime` feature (default) | `dgcc-runtime` | layouts, execution sets, executor, fallback, stream validation | ash |
//! | — | `dgcc-cli` | the `dgcc` binary, the demo scene, the bench | clap, plotters, png, … |
//!
//! An engine names `dgcc` (the runtime and the shared part, nothing else) and its build script
//! names `dgcc-compiler`; the generated Rust refers to `::dgcc::ash` and `::dgcc::runtime`, so
//! an engine that uses it keeps the name `dgcc` for this crate. A tool that wants everything
//! turns on `compiler`. Without any feature the crate holds the shared part alone.
//!
//! # The whole pipeline
//!
//! [`driver::compile_source`] runs every stage that `dgcc check` and `dgcc compile` run:
//! parse, resolve the targets, lay out each layout, check it against every target. It never
//! stops at the first problem and never prints; when no diagnostic is an error, the
//! compilation holds the manifest ([`ir::Manifest`]), where every offset and stride is final,
//! and [`emit`] prints it as Rust, C, GLSL, HLSL, Slang, JSON or SVG. From a build script, [`build`] does all of
//! it and writes the files into `OUT_DIR`; at run time, `runtime::DgcDevice` (feature
//! `runtime`) creates the layouts on an engine's device.
//!
//! ```
//! # #[cfg(feature = "compiler")] {
//! use std::path::Path;
//!
//! let description = r#"
//! Pipeline(
//!     name: "scene",
//!     targets: ["lavapipe", "nvidia"],
//!     push_constants: [(stages: [Vertex], offset: 0, size: 8)],
//!     layouts: [(
//!         name: "SceneDraw",
//!         stages: [Vertex, Fragment],
//!         max_sequences: 1024,
//!         tokens: [
//!             PushConstant(name: "object", stages: [Vertex], offset: 0, fields: [
//!                 (name: "object_id", ty: U32),
//!                 (name: "material_id", ty: U32),
//!             ]),
//!             IndexBuffer(name: "indices", mode: Vulkan),
//!             DrawIndexed(name: "draw"),
//!         ],
//!     )],
//! )"#;
//!
//! // The path picks the syntax (`.ron` or `.dgc`) and the folder relative paths start from.
//! let compilation = dgcc::driver::compile_source(Path::new("scene.ron"), description, &Default::default());
//! assert!(!compilation.has_errors(), "{:?}", compilation.diagnostics);
//! let manifest = compilation.manifest.expect("no errors, so there is a manifest");
//!
//! let layout = manifest.layout("SceneDraw").expect("the layout");
//! for token in &layout.tokens {
//!     println!("{:<8} {:<16?} offset {:>2}, {:>2} bytes", token.name, token.token_type, token.offset, token.size);
//! }
//! // The index buffer's address is 8-byte aligned under std430, and the 44 bytes of data are
//! // rounded up to the record's alignment.
//! let offsets: Vec<u32> = layout.tokens.iter().map(|t| t.offset).collect();
//! assert_eq!(offsets, [0, 8, 24]);
//! assert_eq!(layout.stride, 48);
//!
//! // Every output is printed from the manifest: here the GLSL include for the culling kernel.
//! let glsl = dgcc::emit::emit(&manifest, dgcc::emit::Output::Glsl).expect("a valid manifest prints");
//! assert!(glsl.contains("const uint SCENE_DRAW_STRIDE = 48u;"));
//! assert!(glsl.contains("void scene_draw_write_draw(uint sequence"));
//!
//! // The manifest is what `dgcc compile --emit json` writes and what the runtime loads.
//! let json = manifest.to_json();
//! assert_eq!(dgcc::ir::Manifest::from_json(&json), Ok(manifest));
//! # }
//! ```
//!
//! A description with mistakes gives diagnostics instead: data with a stable code, labelled
//! spans and notes, which [`render`] turns into what `dgcc check` prints.
//!
//! ```
//! # #[cfg(feature = "compiler")] {
//! use std::path::Path;
//!
//! let description = "pipeline broken {
//!     targets lavapipe;
//!     layout Draws [vertex] {
//!         max_sequences 16;
//!         draw_indexed;
//!         push_constant [vertex] offset 0 size 4;
//!     }
//! }";
//! let compilation = dgcc::driver::compile_source(Path::new("broken.dgc"), description, &Default::default());
//! assert!(compilation.manifest.is_none());
//! let codes: Vec<&str> = compilation.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
//! assert!(codes.contains(&"E0102"), "{codes:?}"); // the draw is not the last token
//!
//! let file = dgcc::render::SourceFile { name: "broken.dgc", text: description };
//! let report = dgcc::render::human(&file, &compilation.diagnostics);
//! assert!(report.contains("error[E0102]"));
//! # }
//! ```

pub use dgcc_core::{device, diag, ir, levels, requirements, rules, span, spell, stages, tokens, types};

/// Validation: the light rules (`dgcc_core::check`, which the runtime applies too) and, with
/// the `compiler` feature, the source rules and `check::check`.
#[cfg(feature = "compiler")]
pub use dgcc_compiler::check;
#[cfg(not(feature = "compiler"))]
pub use dgcc_core::check;

#[cfg(feature = "compiler")]
pub use dgcc_compiler::{ast, build, driver, emit, layout, names, output, render, shader, syntax};

#[cfg(feature = "runtime")]
pub use dgcc_runtime as runtime;
/// The ash version the runtime and the generated Rust (`--emit rust`) are built on, so that a
/// crate using generated code needs no ash dependency of its own.
#[cfg(feature = "runtime")]
pub use dgcc_runtime::ash;
