//! Subgroup misuse in a kernel's GLSL source (W0501–W0504, W0507), found on tokens, with the
//! line; and the cooperative matrices a kernel declares (`coopmat_decls`), which the shader
//! checks compare with each target's cooperative-matrix properties (E0584).
//!
//! Why on the source and not on SPIR-V: these mistakes are visible as written (`lane & 31`,
//! `shared uint partial[256 / 32]`, `ballot.x`), the user needs the line to fix them, and the
//! compiled module has neither line numbers (without debug info) nor the original constant
//! expressions. Why tokens and not regular expressions: comments must not trigger a warning,
//! `gl_LocalInvocationID.x / 32` spans several tokens, and ballot variables are tracked across
//! lines. The patterns are the ones that broke real engines (see the rule explanations); each is
//! narrow on purpose, because a lint that cries wolf gets turned off.

use dgcc_core::device::coopmat::{component_from_glsl, scope_from_glsl, MatrixDecl, MatrixUse};
use dgcc_core::span::Span;
use std::collections::HashMap;

/// One token of GLSL with its 1-based line and the byte offset where it starts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tok {
    pub(crate) kind: Kind,
    pub(crate) text: String,
    pub(crate) line: usize,
    pub(crate) start: usize,
}

#[cfg(any(test, feature = "shaderc"))]
impl Tok {
    /// The bytes of the source the token was read from.
    pub(crate) fn span(&self) -> dgcc_core::span::Span {
        dgcc_core::span::Span::new(self.start, self.start + self.text.len())
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    Ident,
    /// An integer literal and its value.
    Int(u64),
    /// A floating-point literal.
    Float,
    Punct,
}

const PUNCT3: [&str; 2] = [">>=", "<<="];
const PUNCT2: [&str; 17] =
    [">>", "<<", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "++", "--"];

/// Split GLSL into tokens, dropping comments.
pub(crate) fn tokenize(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let mut out = vec![];
    let (mut i, mut line) = (0usize, 1usize);
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i < b.len() && !b[i..].starts_with(b"*/") {
                if b[i] == b'\n' {
                    line += 1;
                }
                i += 1;
            }
            i = (i + 2).min(b.len());
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok { kind: Kind::Ident, text: src[s..i].to_string(), line, start: s });
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                i += 1;
            }
            let text = &src[s..i];
            let digits = text.trim_end_matches(['u', 'U']);
            let kind = if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
                u64::from_str_radix(hex, 16).map(Kind::Int).unwrap_or(Kind::Float)
            } else {
                digits.parse::<u64>().map(Kind::Int).unwrap_or(Kind::Float)
            };
            out.push(Tok { kind, text: text.to_string(), line, start: s });
        } else {
            let rest = &src[i..];
            let len = if PUNCT3.iter().any(|p| rest.starts_with(p)) {
                3
            } else if PUNCT2.iter().any(|p| rest.starts_with(p)) {
                2
            } else {
                rest.chars().next().map_or(1, char::len_utf8)
            };
            out.push(Tok { kind: Kind::Punct, text: rest[..len].to_string(), line, start: i });
            i += len;
        }
    }
    out
}

/// A warning found in a kernel's source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// W0501–W0504, W0507.
    pub code: &'static str,
    /// 1-based line in the kernel source.
    pub line: usize,
    /// The token the finding is about, in bytes of the kernel source.
    pub span: Span,
    pub message: String,
    /// The profile the finding is about, when it depends on one.
    pub target: Option<String>,
}

/// What the lints know about the kernel besides its source.
#[derive(Clone, Debug, Default)]
pub struct KernelContext {
    pub local_size: [u32; 3],
    /// The smallest subgroup size among the targets, with the target that has it.
    pub smallest_subgroup: Option<(u32, String)>,
    /// The kernel pins its subgroup size (`subgroup: Required(…)`).
    pub required_subgroup_size: bool,
}

fn is(t: Option<&Tok>, text: &str) -> bool {
    t.is_some_and(|t| t.text == text)
}

fn int(t: Option<&Tok>) -> Option<u64> {
    match t?.kind {
        Kind::Int(v) => Some(v),
        _ => None,
    }
}

/// An identifier that names a subgroup width or count by convention.
fn subgroup_named(name: &str) -> bool {
    let u = name.to_ascii_uppercase();
    (u.contains("SUBGROUP") || u.contains("WARP") || u.contains("WAVE")) && !u.starts_with("GL_")
}

/// Lint a kernel's source. Findings are in line order, at most one per rule and line.
pub fn lint(src: &str, ctx: &KernelContext) -> Vec<Finding> {
    let t = tokenize(src);
    let b = Brackets::new(&t);
    let mut out = vec![];
    hard_coded_width(&t, &b, &mut out);
    shared_per_subgroup(&t, &b, ctx, &mut out);
    ballot_x_only(&t, &b, &mut out);
    size_as_active_lanes(&t, &b, &mut out);
    coopmat_without_required_size(&t, ctx, &mut out);
    out.sort_by(|a, b| (a.line, a.code).cmp(&(b.line, b.code)));
    out.dedup_by(|a, b| a.line == b.line && a.code == b.code);
    out
}

fn finding(code: &'static str, at: &Tok, message: String) -> Finding {
    Finding { code, line: at.line, span: Span::new(at.start, at.start + at.text.len()), message, target: None }
}

/// The end (exclusive) of the operand starting at `i`: `gl_LocalInvocationID.x` is three tokens.
fn builtin_operand(t: &[Tok], i: usize) -> Option<(&'static str, usize)> {
    let name = t[i].text.as_str();
    let kind = match name {
        "gl_SubgroupInvocationID" => "lane",
        "gl_LocalInvocationIndex" => "index",
        "gl_SubgroupID" => "subgroup",
        "gl_LocalInvocationID" if is(t.get(i + 1), ".") && is(t.get(i + 2), "x") => return Some(("index", i + 3)),
        _ => return None,
    };
    Some((kind, i + 1))
}

/// W0501: `lane & 31`, `gl_LocalInvocationIndex / 32`, `gl_SubgroupID * 32`, `#define WARP 32`,
/// shuffle reductions that start at 16.
fn hard_coded_width(t: &[Tok], b: &Brackets, out: &mut Vec<Finding>) {
    let uses_shuffle = t.iter().any(|x| x.text.starts_with("subgroupShuffle"));
    // For a `for` header `t[from..to]`: the first `= 16` (or `= 32`) pair starting at or after
    // each index, and the first `>>=` or `/=`, so a header is read in constant time (unclosed
    // headers run to the end of the source, one per `for`).
    let (start_at, halves_at) = if uses_shuffle {
        let start = next_where(t.len(), |k| {
            t[k].text == "=" && t.get(k + 1).is_some_and(|n| matches!(int(Some(n)), Some(16 | 32)))
        });
        (start, next_where(t.len(), |k| t[k].text == ">>=" || t[k].text == "/="))
    } else {
        (vec![], vec![])
    };
    for i in 0..t.len() {
        // `#define WARP_SIZE 32` and `const uint SUBGROUP_SIZE = 32;`
        let defined = if is(t.get(i), "#") && is(t.get(i + 1), "define") {
            Some((i + 2, i + 3))
        } else if is(t.get(i), "const") && is(t.get(i + 3), "=") {
            Some((i + 2, i + 4))
        } else {
            None
        };
        if let Some((name, value)) = defined {
            if let (Some(n), Some(v)) = (t.get(name), int(t.get(value))) {
                if (v == 32 || v == 64) && subgroup_named(&n.text) && n.kind == Kind::Ident {
                    out.push(finding("W0501", n, format!("`{}` hard-codes the subgroup size as {v}", n.text)));
                }
            }
        }
        if let Some((kind, end)) = builtin_operand(t, i) {
            let (op, n) = (t.get(end).map(|x| x.text.as_str()), int(t.get(end + 1)));
            let hit = matches!(
                (kind, op, n),
                ("lane", Some("%" | "<" | ">="), Some(32 | 64))
                    | ("lane", Some("&" | "==" | "!=" | ">"), Some(31 | 63))
                    | ("index", Some("/" | "%"), Some(32 | 64))
                    | ("index", Some(">>"), Some(5 | 6))
                    | ("index", Some("&"), Some(31 | 63))
                    | ("subgroup", Some("*"), Some(32 | 64))
                    | ("subgroup", Some("<<"), Some(5 | 6))
            );
            if hit {
                let expr: Vec<&str> = t[i..=end + 1].iter().map(|x| x.text.as_str()).collect();
                out.push(finding(
                    "W0501",
                    &t[i],
                    format!("`{}` assumes {}-lane subgroups", expr.join(" ").replace(" . ", "."), width(op, n)),
                ));
            }
        }
        // `32 * gl_SubgroupID`
        if matches!(int(t.get(i)), Some(32 | 64)) && is(t.get(i + 1), "*") && is(t.get(i + 2), "gl_SubgroupID") {
            out.push(finding(
                "W0501",
                &t[i],
                format!("`{} * gl_SubgroupID` assumes {}-lane subgroups", t[i].text, int(t.get(i)).unwrap_or(32)),
            ));
        }
        // `for (uint offset = 16; offset > 0; offset >>= 1)` around subgroupShuffleDown/Xor.
        if uses_shuffle && is(t.get(i), "for") && is(t.get(i + 1), "(") {
            let close = b.matching(i + 1).unwrap_or(t.len()).min(t.len());
            let from = i + 2;
            // The first window `[k, k + 1]` inside `t[from..close]`.
            let start = Some(start_at[from.min(t.len())]).filter(|&k| k + 1 < close).map(|k| &t[k..k + 2]);
            let halves = halves_at[from.min(t.len())] < close;
            if let (Some(w), true) = (start, halves) {
                out.push(finding(
                    "W0501",
                    &t[i],
                    format!(
                        "a shuffle reduction starting at {} assumes {}-lane subgroups",
                        w[1].text,
                        2 * int(Some(&w[1])).unwrap_or(16)
                    ),
                ));
            }
        }
    }
}

fn width(op: Option<&str>, n: Option<u64>) -> u64 {
    match (op, n) {
        (Some(">>" | "<<"), Some(s)) => 1 << s,
        (_, Some(31)) => 32,
        (_, Some(63)) => 64,
        (_, Some(v)) => v,
        _ => 32,
    }
}

/// For each index `k` of `0..=len`, the first index at or after `k` where `hit` holds, or `len`.
fn next_where(len: usize, hit: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut next = vec![len; len + 1];
    for k in (0..len).rev() {
        next[k] = if hit(k) { k } else { next[k + 1] };
    }
    next
}

/// The brackets of a token list, paired once. Each kind of bracket is paired on its own (a
/// `(` is closed by the first `)` that brings the count of `(` minus `)` from it back to
/// zero, whatever `[` or `{` lie between), as a scan from the bracket would pair it.
struct Brackets {
    /// For an opening bracket, the index of the token closing it.
    close: Vec<Option<usize>>,
    /// For a `)`, the index of the `(` it closes.
    open: Vec<Option<usize>>,
    /// For each token, the innermost `(` before it that is still open there.
    enclosing_paren: Vec<Option<usize>>,
}

impl Brackets {
    fn new(t: &[Tok]) -> Self {
        let mut b =
            Brackets { close: vec![None; t.len()], open: vec![None; t.len()], enclosing_paren: vec![None; t.len()] };
        let mut stacks: [Vec<usize>; 3] = [vec![], vec![], vec![]];
        for (k, x) in t.iter().enumerate() {
            b.enclosing_paren[k] = stacks[0].last().copied();
            let (kind, opens) = match x.text.as_str() {
                "(" => (0, true),
                ")" => (0, false),
                "[" => (1, true),
                "]" => (1, false),
                "{" => (2, true),
                "}" => (2, false),
                _ => continue,
            };
            if opens {
                stacks[kind].push(k);
            } else if let Some(o) = stacks[kind].pop() {
                b.close[o] = Some(k);
                b.open[k] = Some(o);
            }
        }
        b
    }

    /// The index of the token closing the bracket at `open`.
    fn matching(&self, open: usize) -> Option<usize> {
        self.close.get(open).copied().flatten()
    }
}

/// W0502: `shared T name[N / 32]`, `[N >> 5]`, `[WARPS]`, or a literal size too small for the
/// number of subgroups on the narrowest target when the array is indexed by `gl_SubgroupID`.
fn shared_per_subgroup(t: &[Tok], b: &Brackets, ctx: &KernelContext, out: &mut Vec<Finding>) {
    // Whether a size `t[from..to]` holds a `/ 32`-style pair or a subgroup-named identifier:
    // the first of each at or after every index, so nested sizes are not read again and again.
    let divided_at = next_where(t.len(), |k| {
        t.get(k + 1).is_some_and(|n| {
            (t[k].text == "/" && matches!(int(Some(n)), Some(32 | 64)))
                || (t[k].text == ">>" && matches!(int(Some(n)), Some(5 | 6)))
        })
    });
    let named_at = next_where(t.len(), |k| t[k].kind == Kind::Ident && subgroup_named(&t[k].text));
    // The names indexed as `name[gl_SubgroupID`.
    let by_subgroup: std::collections::HashSet<&str> =
        t.windows(3).filter(|w| w[1].text == "[" && w[2].text == "gl_SubgroupID").map(|w| w[0].text.as_str()).collect();
    for i in 0..t.len() {
        if !is(t.get(i), "shared") {
            continue;
        }
        // shared <type> <name> [ ... ]
        let (Some(name), true) = (t.get(i + 2), is(t.get(i + 3), "[")) else { continue };
        let Some(close) = b.matching(i + 3) else { continue };
        let size = &t[i + 4..close];
        // A pair `[k, k + 1]` inside `t[i + 4..close]`.
        let divided = divided_at[i + 4] + 1 < close;
        let named = named_at[i + 4] < close;
        if divided || named {
            let expr: Vec<&str> = size.iter().map(|x| x.text.as_str()).collect();
            out.push(finding(
                "W0502",
                name,
                format!("`{}[{}]` is sized by an assumed subgroup width", name.text, expr.join(" ")),
            ));
            continue;
        }
        let indexed_by_subgroup = by_subgroup.contains(name.text.as_str());
        if let ([only], true, Some((smallest, target))) = (size, indexed_by_subgroup, &ctx.smallest_subgroup) {
            if let Kind::Int(n) = only.kind {
                let invocations: u64 = ctx.local_size.iter().map(|&v| v as u64).product();
                let needed = invocations.div_ceil((*smallest).max(1) as u64);
                if n < needed {
                    let mut f = finding(
                        "W0502",
                        name,
                        format!(
                            "`{}[{n}]` holds one entry per subgroup, but a workgroup of {invocations} invocations has {needed} subgroups of {smallest} on {target}",
                            name.text
                        ),
                    );
                    f.target = Some(target.clone());
                    out.push(f);
                }
            }
        }
    }
}

/// The `coopmat<T, scope, rows, cols, use>` declarations of a kernel with their lines, those
/// whose five arguments are all spelled out (a size given by a constant is not read).
pub fn coopmat_decls(src: &str) -> Vec<(usize, Span, MatrixDecl)> {
    decls(&tokenize(src))
}

fn decls(t: &[Tok]) -> Vec<(usize, Span, MatrixDecl)> {
    let mut out = vec![];
    for i in 0..t.len() {
        if t[i].kind != Kind::Ident || t[i].text != "coopmat" || !is(t.get(i + 1), "<") {
            continue;
        }
        let arg = |k: usize| t.get(i + 2 + 2 * k);
        let commas = (0..4).all(|k| is(t.get(i + 3 + 2 * k), ","));
        if !commas || !is(t.get(i + 11), ">") {
            continue;
        }
        let name = |k: usize| arg(k).map(|a| a.text.as_str()).unwrap_or("");
        let (Some(component), Some(scope), Some(rows), Some(cols), Some(usage)) = (
            component_from_glsl(name(0)),
            scope_from_glsl(name(1)),
            int(arg(2)),
            int(arg(3)),
            MatrixUse::from_glsl(name(4)),
        ) else {
            continue;
        };
        out.push((
            t[i].line,
            Span::new(t[i].start, t[i + 11].start + t[i + 11].text.len()),
            MatrixDecl {
                component,
                scope,
                rows: rows.min(u32::MAX as u64) as u32,
                cols: cols.min(u32::MAX as u64) as u32,
                usage,
            },
        ));
    }
    out
}

/// W0507: a cooperative matrix at subgroup scope in a kernel that does not pin its subgroup
/// size. A subgroup-scope matrix is spread over the lanes of one subgroup, so its tile shape
/// (and any code that indexes its elements per lane) is written for one width.
fn coopmat_without_required_size(t: &[Tok], ctx: &KernelContext, out: &mut Vec<Finding>) {
    if ctx.required_subgroup_size {
        return;
    }
    let at_subgroup =
        |i: usize| t[i].text == "coopmat" && is(t.get(i + 1), "<") && is(t.get(i + 4), "gl_ScopeSubgroup");
    if let Some(i) = (0..t.len()).find(|&i| at_subgroup(i)) {
        out.push(finding(
            "W0507",
            &t[i],
            "a cooperative matrix at subgroup scope, in a kernel that does not require a subgroup size".to_string(),
        ));
    }
}

/// W0503: `subgroupBallot(p).x`, and ballot variables only ever read through `.x`.
fn ballot_x_only(t: &[Tok], b: &Brackets, out: &mut Vec<Finding>) {
    let mut vars: Vec<(String, usize)> = vec![]; // name, index of the name at its assignment
    for i in 0..t.len() {
        if t[i].text != "subgroupBallot" || !is(t.get(i + 1), "(") {
            continue;
        }
        if let Some(close) = b.matching(i + 1) {
            if is(t.get(close + 1), ".") && is(t.get(close + 2), "x") {
                out.push(finding("W0503", &t[i], "`subgroupBallot(…).x` reads lanes 0–31 only".to_string()));
            }
        }
        if i >= 2 && t[i - 1].text == "=" && t[i - 2].kind == Kind::Ident {
            vars.push((t[i - 2].text.clone(), i - 2));
        }
    }
    // Each name's uses, found in one pass: the tokens spelled like it and not after a `.`, and
    // how many of them are not read through `.x`. A variable's uses are its name's less the
    // one at its assignment (which is followed by `=`, so not by `.x`).
    let x_only = |k: usize| is(t.get(k + 1), ".") && is(t.get(k + 2), "x");
    let mut uses: HashMap<&str, (Vec<usize>, usize)> =
        vars.iter().map(|(name, _)| (name.as_str(), (vec![], 0))).collect();
    for (k, x) in t.iter().enumerate() {
        if let Some((at, other)) = uses.get_mut(x.text.as_str()) {
            if !is(k.checked_sub(1).and_then(|p| t.get(p)), ".") {
                at.push(k);
                *other += usize::from(!x_only(k));
            }
        }
    }
    for (name, at) in &vars {
        let (all, other) = &uses[name.as_str()];
        // At most two looks: `at` is in `all` once at most.
        let first = all.iter().copied().find(|&k| k != *at);
        let own_counted = all.binary_search(at).is_ok() && !x_only(*at);
        if let Some(first) = first {
            if *other == usize::from(own_counted) {
                out.push(finding(
                    "W0503",
                    &t[first],
                    format!("the ballot `{name}` is read through `.x` only, which holds lanes 0–31"),
                ));
            }
        }
    }
}

/// The name of the function whose call ends with the `)` at `close`.
fn call_name<'t>(t: &'t [Tok], b: &Brackets, close: usize) -> Option<&'t str> {
    let open = b.open.get(close).copied().flatten()?;
    open.checked_sub(1).map(|p| t[p].text.as_str())
}

/// W0504: `sum / gl_SubgroupSize`, `count += gl_SubgroupSize`, `atomicAdd(c, gl_SubgroupSize)`.
fn size_as_active_lanes(t: &[Tok], b: &Brackets, out: &mut Vec<Finding>) {
    for i in 0..t.len() {
        if t[i].text != "gl_SubgroupSize" {
            continue;
        }
        let prev = |n: usize| i.checked_sub(n).and_then(|k| t.get(k)).map(|x| x.text.as_str());
        // `subgroupAdd(x) / gl_SubgroupSize` and `s / float(gl_SubgroupSize)`: an average over
        // lanes. (`id / gl_SubgroupSize` computes a subgroup index, a different question.)
        let reduced = prev(1) == Some("/")
            && i >= 2
            && t[i - 2].text == ")"
            && call_name(t, b, i - 2).is_some_and(|n| n.starts_with("subgroup"));
        let divided = reduced || (prev(1) == Some("(") && prev(2) == Some("float") && prev(3) == Some("/"));
        let counted = matches!(prev(1), Some("+=" | "-="));
        // `atomicAdd(counter, gl_SubgroupSize)`: the second argument, alone.
        let atomic = prev(1) == Some(",")
            && is(t.get(i + 1), ")")
            && b.enclosing_paren[i].is_some_and(|k| k > 0 && t[k - 1].text.starts_with("atomicAdd"));
        if divided || counted || atomic {
            let how = if divided { "divides by" } else { "counts" };
            out.push(finding(
                "W0504",
                &t[i],
                format!("this {how} `gl_SubgroupSize` as if every lane of the subgroup were active"),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(src: &str) -> Vec<(&'static str, usize)> {
        lint(
            src,
            &KernelContext {
                local_size: [256, 1, 1],
                smallest_subgroup: Some((4, "lavapipe".into())),
                required_subgroup_size: false,
            },
        )
        .into_iter()
        .map(|f| (f.code, f.line))
        .collect()
    }

    #[test]
    fn tokens_skip_comments_and_keep_lines() {
        let src = "a // x / 32\n/* b\n c */ d >>= 0x20u 1.5";
        let t = tokenize(src);
        let texts: Vec<(&str, usize)> = t.iter().map(|x| (x.text.as_str(), x.line)).collect();
        assert_eq!(texts, [("a", 1), ("d", 3), (">>=", 3), ("0x20u", 3), ("1.5", 3)]);
        for x in &t {
            assert_eq!(&src[x.span().range()], x.text, "each token knows its bytes");
        }
        assert_eq!(t[3].kind, Kind::Int(32));
        assert_eq!(t[4].kind, Kind::Float);
    }

    #[test]
    fn hard_coded_widths() {
        assert_eq!(codes("uint lane = gl_SubgroupInvocationID & 31;"), [("W0501", 1)]);
        assert_eq!(codes("\nuint sg = gl_LocalInvocationIndex / 32;"), [("W0501", 2)]);
        assert_eq!(codes("uint sg = gl_LocalInvocationID.x >> 5;"), [("W0501", 1)]);
        assert_eq!(codes("#define WARP_SIZE 32\n"), [("W0501", 1)]);
        assert_eq!(codes("const uint SUBGROUP_SIZE = 64u;"), [("W0501", 1)]);
        assert_eq!(codes("uint base = gl_SubgroupID * 32;"), [("W0501", 1)]);
        let reduce = "for (uint o = 16; o > 0; o >>= 1) { v += subgroupShuffleDown(v, o); }";
        assert_eq!(codes(reduce), [("W0501", 1)]);
        // Not a subgroup width: other numbers, other names, comments.
        assert!(codes("uint lane = gl_SubgroupInvocationID & (gl_SubgroupSize - 1);").is_empty());
        assert!(codes("#define TILE 32\nuint x = gl_GlobalInvocationID.x / 32;").is_empty());
        assert!(codes("// gl_LocalInvocationIndex / 32\n").is_empty());
        assert!(codes("for (uint i = 16; i > 0; i >>= 1) { }").is_empty());
    }

    #[test]
    fn shared_arrays_per_subgroup() {
        assert_eq!(codes("shared uint partial[256 / 32];"), [("W0502", 1)]);
        assert_eq!(codes("shared float s[LOCAL >> 5];"), [("W0502", 1)]);
        assert_eq!(codes("shared uint s[NUM_WARPS];"), [("W0502", 1)]);
        assert_eq!(codes("shared uint s[8];\nvoid f() { s[gl_SubgroupID] = 1u; }"), [("W0502", 1)]);
        // 64 entries cover 256 invocations in 4-wide subgroups; not indexed per subgroup is fine.
        assert!(codes("shared uint s[64];\nvoid f() { s[gl_SubgroupID] = 1u; }").is_empty());
        assert!(codes("shared uint tile[8];\nvoid f() { tile[gl_LocalInvocationIndex] = 1u; }").is_empty());
    }

    #[test]
    fn ballots_read_through_x() {
        assert_eq!(codes("uint n = bitCount(subgroupBallot(p).x);"), [("W0503", 1)]);
        assert_eq!(codes("uvec4 b = subgroupBallot(p);\nuint n = bitCount(b.x);"), [("W0503", 2)]);
        assert!(codes("uvec4 b = subgroupBallot(p);\nuint n = subgroupBallotBitCount(b);").is_empty());
        assert!(codes("uvec4 b = subgroupBallot(p);\nuint n = bitCount(b.x) + bitCount(b.y);").is_empty());
    }

    #[test]
    fn subgroup_size_as_active_lanes() {
        assert_eq!(codes("float avg = subgroupAdd(v) / float(gl_SubgroupSize);"), [("W0504", 1)]);
        assert_eq!(codes("total += gl_SubgroupSize;"), [("W0504", 1)]);
        assert_eq!(codes("atomicAdd(counter, gl_SubgroupSize);"), [("W0504", 1)]);
        assert_eq!(codes("uint avg = subgroupAdd(v) / gl_SubgroupSize;"), [("W0504", 1)]);
        assert!(codes("uint last = gl_SubgroupSize - 1;").is_empty());
        assert!(codes("uint sg = id / gl_SubgroupSize;").is_empty());
        assert!(codes("if (gl_SubgroupInvocationID < gl_SubgroupSize / 2) {}").is_empty());
    }

    #[test]
    fn cooperative_matrices_at_subgroup_scope_need_a_required_size() {
        let src = "#version 450\n// coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> in a comment\n\
            coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a;\n\
            coopmat<float, gl_ScopeSubgroup, 16, 8, gl_MatrixUseAccumulator> c;\n\
            coopmat<float16_t, gl_ScopeWorkgroup, 64, 64, gl_MatrixUseB> w;\n";
        assert_eq!(codes(src), [("W0507", 3)], "once, at the first, never in a comment");
        let pinned = KernelContext { required_subgroup_size: true, ..KernelContext::default() };
        assert_eq!(lint(src, &pinned), vec![]);
        let d = coopmat_decls(src);
        assert_eq!(
            d.iter().map(|(l, _, d)| (*l, d.rows, d.cols, d.usage)).collect::<Vec<_>>(),
            [(3, 16, 16, MatrixUse::A), (4, 16, 8, MatrixUse::Accumulator), (5, 64, 64, MatrixUse::B)]
        );
        assert_eq!((d[1].2.component, d[2].2.scope), (1, 2));
        assert!(src[d[0].1.range()].starts_with("coopmat<") && src[d[0].1.range()].ends_with("gl_MatrixUseA>"));
        // A size given by a constant is not read.
        assert_eq!(coopmat_decls("coopmat<float16_t, gl_ScopeSubgroup, TILE, 16, gl_MatrixUseA> a;"), vec![]);
    }

    #[test]
    fn pathological_sources_are_linted_in_linear_time() {
        let n = 100_000;
        // Many ballot variables, each read through `.x` only: one finding a line.
        let src: String =
            (0..n).map(|i| format!("uvec4 b{i} = subgroupBallot(true); uint c{i} = bitCount(b{i}.x);\n")).collect();
        let found = codes(&src);
        assert_eq!(found.len(), n);
        assert!(found.iter().enumerate().all(|(i, &f)| f == ("W0503", i + 1)));
        // One ballot name assigned again and again: each assignment is a use of the others.
        assert!(codes(&"uvec4 bI = subgroupBallot(true);\n".repeat(n)).is_empty());
        // Unclosed `for (` headers (with a shuffle present) and unclosed shared array sizes run
        // to the end of the source.
        let src = format!("subgroupShuffleXor(v, o);\n{}uint o = 16; o >>= 1", "for (\n".repeat(n));
        let found = codes(&src);
        assert_eq!(found.len(), n);
        assert!(found.iter().enumerate().all(|(i, &f)| f == ("W0501", i + 2)));
        assert!(codes(&"shared uint s[\n".repeat(n)).is_empty());
        // Calls closed again and again, read back to their `(`: only the first has one.
        assert_eq!(codes(&format!("subgroupAdd({}", "x) / gl_SubgroupSize\n".repeat(n))), [("W0504", 1)]);
        assert_eq!(codes(&format!("atomicAdd(c{}", ", gl_SubgroupSize)\n".repeat(n))), [("W0504", 1)]);
    }
}
