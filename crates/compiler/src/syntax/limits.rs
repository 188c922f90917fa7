//! Input limits: what dgcc refuses to read, before or while parsing.
//!
//! Why limits at all: descriptions come from files and build scripts, and a compiler must not
//! hang, exhaust memory or overflow its stack on hostile or broken input. ron and pest both
//! recurse into nested brackets, so nesting is measured on a flat scan before either parser
//! runs; the size cap bounds every later pass (including that scan); the count caps keep the
//! generated code and the validation tables sane, far above any real pipeline (Vulkan itself
//! caps a layout at `maxIndirectCommandsTokenCount`, 16 on lavapipe). Each limit has its own
//! code so that a tool can tell which one it hit.

use dgcc_core::diag::Diagnostic;
use dgcc_core::span::Span;

/// The largest description read, in bytes (4 MiB).
pub const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;
/// The deepest bracket nesting read (`(`, `[` and `{` all count).
pub const MAX_NESTING: usize = 64;
/// The most array dimensions of one field type (`f32[2][2]` has two).
pub const MAX_ARRAY_DIMENSIONS: usize = 8;
/// Layouts per description: generated descriptions (the compiler benchmark goes to 10,000) fit.
pub const MAX_LAYOUTS: usize = 16384;
pub const MAX_TOKENS_PER_LAYOUT: usize = 256;
pub const MAX_FIELDS_PER_PUSH_CONSTANT: usize = 256;
pub const MAX_KERNELS: usize = 256;
/// Draw and dispatch shaders per description (`shaders:`): each is read and compiled.
pub const MAX_SHADERS: usize = 256;
/// Stream data of all layouts together, in bytes (512 KiB, E0024): the emitters spell a record
/// out word by word (the HLSL and Slang readers and writers, the SVG's cells), about 60 bytes of
/// output per byte of data in each, so this bounds every output at tens of megabytes. Real
/// records are at most a few KiB (`maxIndirectCommandsIndirectStride` is 2048 or 4096 on most
/// devices); a profile that states no push-constant limit would otherwise let one token ask for
/// 4 GiB of members.
pub const MAX_RECORD_DATA_BYTES: u64 = 512 * 1024;

/// The byte order mark some editors write at the start of a UTF-8 file.
pub const BOM: char = '\u{feff}';

/// The source text of a description read as bytes, without a leading byte order mark; or
/// E0018 at the first byte that is not UTF-8, its span in [`lossy`]'s text.
pub fn decode(bytes: &[u8]) -> Result<&str, Box<Diagnostic>> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.strip_prefix(BOM).unwrap_or(text)),
        Err(err) => Err(Box::new(not_utf8(bytes, err.valid_up_to()))),
    }
}

/// The text of `bytes` as [`decode`] reads it, each sequence that is not UTF-8 replaced by
/// U+FFFD: what an E0018 is rendered against, so that it shows the line of the bad byte.
pub fn lossy(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.strip_prefix(BOM).unwrap_or(&text).to_string()
}

/// E0018 for the bad byte at offset `at` of `bytes`, with its line and column.
fn not_utf8(bytes: &[u8], at: usize) -> Diagnostic {
    let bom = if bytes.starts_with("\u{feff}".as_bytes()) { BOM.len_utf8() } else { 0 };
    // The bytes before `at` are UTF-8.
    let before = std::str::from_utf8(&bytes[bom.min(at)..at]).unwrap_or_default();
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let byte = bytes.get(at).copied().unwrap_or_default();
    let start = at - bom.min(at);
    Diagnostic::new(
        "E0018",
        format!("the description is not UTF-8: invalid byte 0x{byte:02X} at line {line}, column {column} (byte offset {at})"),
    )
    .primary(Span::new(start, start + char::REPLACEMENT_CHARACTER.len_utf8()), "not UTF-8")
    .note("save the file as UTF-8 (dgcc reads RON and .dgc text only)")
}

/// E0012 when the source is larger than [`MAX_SOURCE_BYTES`].
pub fn check_size(source: &str) -> Result<(), Box<Diagnostic>> {
    if source.len() <= MAX_SOURCE_BYTES {
        return Ok(());
    }
    let mut at = MAX_SOURCE_BYTES;
    while !source.is_char_boundary(at) {
        at -= 1;
    }
    let end = source[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    Err(Box::new(
        Diagnostic::new(
            "E0012",
            format!(
                "the description is {} bytes long; dgcc reads at most {} bytes (4 MiB)",
                source.len(),
                MAX_SOURCE_BYTES
            ),
        )
        .primary(Span::new(at, end), "the limit is crossed here"),
    ))
}

/// E0013 for a bracket that opens one level too many.
pub fn too_deep(bracket: Span) -> Diagnostic {
    Diagnostic::new("E0013", format!("the description nests deeper than {MAX_NESTING} brackets"))
        .primary(bracket, format!("this bracket opens level {}", MAX_NESTING + 1))
}

/// E0013 for a field type with more than [`MAX_ARRAY_DIMENSIONS`] array dimensions; `ty` is
/// the first dimension past the limit.
pub fn too_many_dimensions(ty: Span) -> Diagnostic {
    Diagnostic::new("E0013", format!("this field type has more than {MAX_ARRAY_DIMENSIONS} array dimensions"))
        .primary(ty, format!("array dimension {} starts here", MAX_ARRAY_DIMENSIONS + 1))
}

/// E0024 where the layouts' stream data together passes [`MAX_RECORD_DATA_BYTES`]: at the first
/// layout past it (`names`, in order with `data`), or `None` within the limit.
pub fn check_record_data(layouts: impl IntoIterator<Item = (u64, Span)>) -> Option<Diagnostic> {
    let layouts: Vec<(u64, Span)> = layouts.into_iter().collect();
    let (i, total) = first_past_record_data(layouts.iter().map(|&(bytes, _)| bytes))?;
    let (bytes, name) = layouts[i];
    Some(
        Diagnostic::new(
            "E0024",
            format!(
                "the layouts' stream data passes {} KiB with this layout ({bytes} bytes here, {total} so far)",
                MAX_RECORD_DATA_BYTES / 1024
            ),
        )
        .primary(name, "the layout past the limit")
        .note("dgcc emits every record member by member; no device reads records this large"),
    )
}

/// The first of the layouts (their stream data in bytes, in order) with which the total passes
/// [`MAX_RECORD_DATA_BYTES`], and the total there: the one count behind E0024, which the driver
/// reports and the emitters check again on a manifest.
pub fn first_past_record_data(layouts: impl IntoIterator<Item = u64>) -> Option<(usize, u64)> {
    let mut total = 0u64;
    layouts.into_iter().enumerate().find_map(|(i, bytes)| {
        total += bytes;
        (total > MAX_RECORD_DATA_BYTES).then_some((i, total))
    })
}

/// Which list a count limit applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    Layouts,
    TokensPerLayout,
    FieldsPerPushConstant,
    Kernels,
    Shaders,
}

impl Count {
    pub const fn limit(self) -> usize {
        match self {
            Count::Layouts => MAX_LAYOUTS,
            Count::TokensPerLayout => MAX_TOKENS_PER_LAYOUT,
            Count::FieldsPerPushConstant => MAX_FIELDS_PER_PUSH_CONSTANT,
            Count::Kernels => MAX_KERNELS,
            Count::Shaders => MAX_SHADERS,
        }
    }
    const fn code(self) -> &'static str {
        match self {
            Count::Layouts => "E0014",
            Count::TokensPerLayout => "E0015",
            Count::FieldsPerPushConstant => "E0016",
            Count::Kernels => "E0017",
            Count::Shaders => "E0019",
        }
    }
    const fn what(self) -> (&'static str, &'static str) {
        match self {
            Count::Layouts => ("layouts", "a pipeline"),
            Count::TokensPerLayout => ("tokens", "a layout"),
            Count::FieldsPerPushConstant => ("fields", "a push constant"),
            Count::Kernels => ("kernels", "a pipeline"),
            Count::Shaders => ("shaders", "a pipeline"),
        }
    }
}

/// The count error for a list of `len` items, pointing at the first item past the limit
/// (`first_excess`), or `None` within the limit.
pub fn check_count(count: Count, len: usize, first_excess: impl FnOnce() -> Span) -> Option<Diagnostic> {
    if len <= count.limit() {
        return None;
    }
    let (items, owner) = count.what();
    Some(
        Diagnostic::new(count.code(), format!("{owner} has {len} {items}; dgcc reads at most {}", count.limit()))
            .primary(first_excess(), format!("{items} from here on are over the limit")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_points_at_the_first_bad_byte() {
        let bytes = b"Pipeline(name: \"\xC3\xA9\xFF\")";
        let err = decode(bytes).unwrap_err();
        assert_eq!(err.code, "E0018");
        // The span is the replacement character in `lossy(bytes)`.
        assert_eq!(err.primary_span(), Some(Span::new(18, 21)));
        assert_eq!(&lossy(bytes)[18..21], "\u{fffd}");
        assert_eq!(decode("é".as_bytes()).ok(), Some("é"));
    }

    #[test]
    fn invalid_utf8_is_reported_at_its_line_and_column() {
        let bytes = b"\xEF\xBB\xBFPipeline(\n  name: \"\xC3\xA9\xFF\")";
        let err = decode(bytes).unwrap_err();
        assert!(err.message.contains("at line 2, column 11 (byte offset 24)"), "{}", err.message);
        let text = lossy(bytes);
        assert_eq!(&text[err.primary_span().unwrap().range()], "\u{fffd}");
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_text() {
        assert_eq!(decode("\u{feff}Pipeline()".as_bytes()).ok(), Some("Pipeline()"));
        assert_eq!(lossy("\u{feff}x".as_bytes()), "x");
    }

    #[test]
    fn size_limit_is_inclusive_and_lands_on_a_char_boundary() {
        assert!(check_size(&"a".repeat(MAX_SOURCE_BYTES)).is_ok());
        let big = format!("a{}", "é".repeat(MAX_SOURCE_BYTES / 2));
        let err = check_size(&big).unwrap_err();
        let span = err.primary_span().unwrap();
        assert!(big.is_char_boundary(span.start) && big.is_char_boundary(span.end));
    }

    #[test]
    fn counts_report_only_past_the_limit() {
        assert!(check_count(Count::Kernels, MAX_KERNELS, Span::default).is_none());
        let err = check_count(Count::Kernels, MAX_KERNELS + 1, || Span::new(3, 4)).unwrap();
        assert_eq!((err.code, err.primary_span()), ("E0017", Some(Span::new(3, 4))));
    }
}
