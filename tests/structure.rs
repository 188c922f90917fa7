//! The workspace's shape, as tests: each crate depends only on what its users may get, and no
//! two top-level modules of a crate import each other in a circle.
//!
//! Why tests and not a picture alone: the design chapter draws the crates and their
//! dependencies; these fail when a change adds a dependency to the wrong crate (an engine would
//! compile it) or ties two modules into a knot (neither can then be read, tested or moved
//! alone). Module imports are read from the source text (`crate::x`, and `super::x` in a
//! crate's top-level files), comments and `#[cfg(test)]` modules left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("DGCC_CHECKOUT"))
}

/// The names under `[dependencies]` of a crate's Cargo.toml.
fn dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let mut in_deps = false;
    let mut out = BTreeSet::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap().trim();
            out.insert(name.to_owned());
        }
    }
    out
}

#[test]
fn each_crate_depends_only_on_what_its_users_may_get() {
    let allowed: [(&str, &[&str]); 4] = [
        ("crates/core", &["serde", "serde_json"]),
        (
            "crates/compiler",
            &[
                "dgcc-core",
                "serde",
                "serde_json",
                "ron",
                "pest",
                "pest_derive",
                "codespan-reporting",
                // The identifier tables' hasher (`names::plan`); no dependencies of its own, and
                // already in the tree under hashbrown.
                "foldhash",
                "tempfile",
                "shaderc",
                "naga",
                // SPIR-V's opcode numbers (`shader::freeze`): naga's own dependency, behind the
                // same `shaderc` feature, so nobody compiles it who did not already.
                "spirv",
            ],
        ),
        ("crates/runtime", &["dgcc-core", "ash", "bytemuck", "serde", "serde_json"]),
        (".", &["dgcc-core", "dgcc-compiler", "dgcc-runtime"]),
    ];
    for (dir, allowed) in allowed {
        let deps = dependencies(&root().join(dir).join("Cargo.toml"));
        let extra: Vec<&String> = deps.iter().filter(|d| !allowed.contains(&d.as_str())).collect();
        assert!(extra.is_empty(), "{dir} depends on {extra:?}, which its users would compile");
        assert!(!deps.is_empty(), "{dir}: no [dependencies] read");
    }
    // The compiler and the runtime never depend on each other: a build script gets no Vulkan,
    // an engine no parser.
    assert!(!dependencies(&root().join("crates/compiler/Cargo.toml")).contains("dgcc-runtime"));
    assert!(!dependencies(&root().join("crates/runtime/Cargo.toml")).contains("dgcc-compiler"));
}

/// The source of a file without comment lines and without what follows its first `#[cfg(test)]`.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Names following `prefix` (`crate::`) in `code`.
fn referenced(code: &str, prefix: &str) -> Vec<String> {
    let mut out = vec![];
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let name: String =
            rest.chars().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_').collect();
        if !name.is_empty() {
            out.push(name);
        }
    }
    out
}

/// Top-level module → the top-level modules it imports.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap();
            let top = rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_owned();
            if top == "lib" || top == "main" {
                continue;
            }
            let code = code_of(&path);
            let mut uses = referenced(&code, "crate::");
            if rel.components().count() == 1 {
                // In a top-level file, `super::x` is the crate's module `x`.
                uses.extend(referenced(&code, "super::"));
            }
            let edges = graph.entry(top.clone()).or_default();
            edges.extend(uses.into_iter().filter(|u| *u != top));
        }
    }
    graph
}

/// One circle through `graph`, if there is any.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        graph: &BTreeMap<String, BTreeSet<String>>,
        node: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut found = path[at..].to_vec();
            found.push(node.to_owned());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(graph, next, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|n| visit(graph, n, &mut vec![], &mut done))
}

#[test]
fn no_two_top_level_modules_import_each_other_in_a_circle() {
    for krate in ["core", "compiler", "runtime", "cli"] {
        let graph = module_graph(&root().join("crates").join(krate).join("src"));
        assert!(graph.len() >= 3, "{krate}: too few modules read ({graph:?})");
        if let Some(found) = circle(&graph) {
            panic!("crates/{krate}: the modules {} import each other in a circle", found.join(" → "));
        }
    }
}

#[test]
fn a_circle_is_found_when_there_is_one() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    graph.entry("diag".into()).or_default().insert("rules".into());
    graph.entry("rules".into()).or_default().insert("severity".into());
    assert_eq!(circle(&graph), None);
    graph.entry("severity".into()).or_default().insert("diag".into());
    assert_eq!(circle(&graph).map(|c| c.len()), Some(4));
    assert_eq!(referenced("use crate::ir::X; a::crate::no; super::probe", "crate::"), ["ir"]);
}
