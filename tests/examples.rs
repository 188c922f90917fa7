//! Every example exists in both syntaxes and means the same thing in both: the `.ron` and the
//! `.dgc` of each example compile to byte-identical manifests, and each mistake fails with the
//! same codes in both (the code its header comment names).

use std::path::{Path, PathBuf};

fn examples() -> Vec<PathBuf> {
    let root = Path::new(env!("DGCC_CHECKOUT")).join("examples");
    let mut v = vec![];
    for dir in [root.clone(), root.join("mistakes")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "ron") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

fn compile(p: &Path) -> dgcc::driver::Compilation {
    let text = std::fs::read_to_string(p).unwrap();
    dgcc::driver::compile_source(p, &text, &Default::default())
}

fn codes(c: &dgcc::driver::Compilation) -> Vec<&'static str> {
    let mut v: Vec<&str> = c.diagnostics.iter().map(|d| d.code).collect();
    v.sort();
    v
}

#[test]
fn both_syntaxes_compile_to_identical_outputs() {
    let all = examples();
    assert!(all.len() >= 5 + 8, "at least five examples and eight mistakes");
    for ron in all {
        let dgc = ron.with_extension("dgc");
        assert!(
            dgc.exists(),
            "{} has no .dgc twin (dgcc fmt {} --to dsl -o {})",
            ron.display(),
            ron.display(),
            dgc.display()
        );
        let (a, b) = (compile(&ron), compile(&dgc));
        assert_eq!(codes(&a), codes(&b), "{}: the two syntaxes disagree", ron.display());
        assert_eq!(
            a.manifest.as_ref().map(|m| m.to_json()),
            b.manifest.as_ref().map(|m| m.to_json()),
            "{}: manifests differ",
            ron.display()
        );
        assert_eq!(a.pipeline, b.pipeline, "{}: ASTs differ", ron.display());
    }
}

#[test]
fn examples_are_valid_and_mistakes_fail_as_their_header_says() {
    for ron in examples() {
        let c = compile(&ron);
        let mistake = ron.parent().unwrap().ends_with("mistakes");
        if !mistake {
            assert!(!c.has_errors(), "{}: {:?}", ron.display(), c.diagnostics);
            assert!(c.manifest.is_some());
            continue;
        }
        let text = std::fs::read_to_string(&ron).unwrap();
        let expected: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("// produces:"))
            .flat_map(|l| l.split([',', ' ']).map(str::trim).filter(|s| !s.is_empty()))
            .collect();
        assert!(!expected.is_empty(), "{}: header must say `// produces: CODE`", ron.display());
        assert!(c.has_errors(), "{}: a mistake must fail", ron.display());
        for code in expected {
            assert!(codes(&c).contains(&code), "{}: expected {code}, got {:?}", ron.display(), codes(&c));
        }
    }
}
