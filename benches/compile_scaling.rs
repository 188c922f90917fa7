//! How the compiler's cost grows with the size of a description.
//!
//! Generates descriptions of 10 to 10,000 layouts (each a push constant with typed fields, a
//! sequence index and a dispatch, or a push constant, an index buffer and an indexed draw) and
//! times `dgcc check` (parse + layout + validate against three targets + the printed names and
//! the emitters' own check) and `dgcc compile` (check + every emitter's output) in one process,
//! median of several runs. Growth is linear when the time per layout stays flat across rows;
//! ratios within one run are what count on a shared, noisy machine. Run (the bench belongs to
//! the `dgcc` package, not the default member): `cargo bench -p dgcc --features compiler
//! --bench compile_scaling` (add `-- --quick` for fewer repetitions); writes
//! `target/compile-scaling.json` as well as the table.

use std::path::Path;
use std::time::{Duration, Instant};

fn description(layouts: usize) -> String {
    let mut s = String::with_capacity(layouts * 300);
    s.push_str("Pipeline(\n    name: \"generated\",\n    targets: [\"lavapipe\", \"nvidia\", \"radv\"],\n");
    s.push_str("    push_constants: [(stages: [Vertex, Fragment, Compute], offset: 0, size: 32)],\n    layouts: [\n");
    for i in 0..layouts {
        if i % 2 == 0 {
            s.push_str(&format!(
                "        (name: \"Work{i}\", stages: [Compute], max_sequences: 1024, tokens: [\
PushConstant(name: \"job{i}\", stages: [Compute], offset: 0, fields: [(name: \"a{i}\", ty: U32), (name: \"b{i}\", ty: Vec2)]), \
SequenceIndex(stages: [Compute], offset: 16), Dispatch(name: \"go{i}\")]),\n"
            ));
        } else {
            s.push_str(&format!(
                "        (name: \"Draw{i}\", stages: [Vertex, Fragment], flags: [UnorderedSequences], max_sequences: 1024, tokens: [\
PushConstant(name: \"obj{i}\", stages: [Vertex], offset: 0, fields: [(name: \"id{i}\", ty: U32), (name: \"material{i}\", ty: U32)]), \
IndexBuffer(name: \"ib{i}\", mode: Vulkan), DrawIndexed(name: \"dr{i}\")]),\n"
            ));
        }
    }
    s.push_str("    ],\n)\n");
    s
}

fn time<F: FnMut()>(reps: usize, mut f: F) -> Duration {
    let mut v: Vec<Duration> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let sizes = [10usize, 100, 1000, 10_000];
    let path = Path::new("generated.ron");
    let mut rows = vec![];
    println!("| layouts | tokens | bytes | check ms | compile ms | check µs/layout | compile µs/layout |");
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for &n in &sizes {
        let text = description(n);
        let reps = if quick {
            3
        } else if n >= 10_000 {
            5
        } else {
            11
        };
        // Make sure the description is valid: a benchmark of error paths would mislead.
        let c = dgcc::driver::compile_source(path, &text, &Default::default());
        assert!(!c.has_errors(), "generated description has errors: {:?}", c.diagnostics.iter().find(|d| d.is_error()));
        let check = time(reps, || {
            let c = dgcc::driver::compile_source(path, &text, &Default::default());
            std::hint::black_box(c.diagnostics.len());
        });
        let compile = time(reps, || {
            let c = dgcc::driver::compile_source(path, &text, &Default::default());
            let m = c.manifest.expect("manifest");
            let outputs = dgcc_emit_all(&m);
            std::hint::black_box(outputs);
        });
        let tokens = n * 3;
        let row = (n, tokens, text.len(), check.as_secs_f64() * 1e3, compile.as_secs_f64() * 1e3);
        println!(
            "| {} | {} | {} | {:.2} | {:.2} | {:.1} | {:.1} |",
            row.0,
            row.1,
            row.2,
            row.3,
            row.4,
            row.3 * 1e3 / n as f64,
            row.4 * 1e3 / n as f64
        );
        rows.push(serde_json::json!({
            "layouts": n, "tokens": tokens, "bytes": text.len(),
            "check_ms": row.3, "compile_ms": row.4,
        }));
    }
    let first = &rows[1.min(rows.len() - 1)];
    let last = &rows[rows.len() - 1];
    let per = |r: &serde_json::Value, k: &str| r[k].as_f64().unwrap() / r["layouts"].as_f64().unwrap();
    println!(
        "\ncost per layout at {} layouts / at {} layouts: check {:.2}×, compile {:.2}× (1.0 = linear)",
        last["layouts"],
        first["layouts"],
        per(last, "check_ms") / per(first, "check_ms"),
        per(last, "compile_ms") / per(first, "compile_ms")
    );
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/compile-scaling.json");
    let _ = std::fs::write(&out, serde_json::to_string_pretty(&rows).unwrap());
}

/// Every emitter's output for a manifest: total bytes printed.
fn dgcc_emit_all(m: &dgcc::ir::Manifest) -> usize {
    let files = dgcc::emit::emit_all(m, &dgcc::emit::Output::ALL).expect("emits");
    files.iter().map(|(_, text)| text.len()).sum()
}
