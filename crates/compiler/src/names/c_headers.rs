//! The macros of the headers that the generated C and C++ headers include, which would replace
//! an identifier of the same name printed after them (E0706).
//!
//! Where the names land: the C header (`scene.h`) includes `stddef.h`, `stdint.h`, the Vulkan
//! header and `assert.h`, and declares the record structs after them; the C++ header
//! (`scene.hpp`) includes the C header, then `<array>`, `<cstddef>`, `<cstdint>` and
//! `vulkan/vulkan.hpp`, and names every record member again after them
//! (`static_assert(offsetof(Record, member) == …)`). A member named like a macro of any of those
//! headers is replaced there: `EOF` became `(-1)` and g++ refused the C++ header, while
//! `dgcc check` passed it. [`macro_of`] is asked about every identifier the naming plan lists for
//! the C and C++ headers that is not one of their own macros (`super::plan`), so a name that
//! reaches only Rust, GLSL, HLSL or Slang is never refused for C's sake.
//!
//! Why rules and a list by header rather than the macros of one machine: which headers a C++
//! standard header includes is the library's choice (C++ lets any standard header include any
//! other), so the C++ header may meet every macro of the C library; and other C libraries
//! define other macros within the names C reserves for them. So:
//! - the Vulkan headers' prefixes (`VK_`, `VKAPI_`, `VULKAN_`, which vulkan.hpp's
//!   `VULKAN_HPP_` macros share, `STD_VIDEO_`, `vulkan_video_codec`) and vulkan.hpp's one other
//!   macro, `GCC_VERSION`;
//! - the macro names C reserves for a header by pattern (C17 7.31 and C23 7.33, "future library
//!   directions"): `E` and a digit or capital for `errno.h`, `LC_` for `locale.h`, `SIG` and
//!   `SIG_` for `signal.h`, `TIME_` for `time.h`, `FE_` for `fenv.h`, `ATOMIC_` for
//!   `stdatomic.h` (and C++'s `<atomic>`), `PRI` and `SCN` and a small letter or `X` for
//!   `inttypes.h`, and `INT…`/`UINT…` ending in `_MAX`, `_MIN`, `_WIDTH` or `_C` for `stdint.h`;
//! - every other macro the C standard library (C17, and C23's additions) defines in a header
//!   C++ has too, object-like or function-like, listed by header below or by the prefix its
//!   header gives them (`float.h`'s `FLT_…`, `math.h`'s `FP_…`, `stdio.h`'s `SEEK_…`): C
//!   reserves each name once its header is included, and `NULL`, `EOF` or `HUGE_VAL` is not
//!   something any program can use as a member name;
//! - the POSIX and glibc macros that reach the C++ header on Linux, by the prefixes those
//!   headers give their macros and a short list of the rest: g++ always defines `_GNU_SOURCE`,
//!   libstdc++'s `<string>` (which vulkan.hpp includes) includes `stdio.h`, `stdlib.h` (and
//!   with it `endian.h` and `sys/select.h`), `errno.h`, `locale.h` and `wchar.h`, its thread
//!   support `pthread.h`, `sched.h` and `time.h`, and vulkan.hpp includes `dlfcn.h`. The test
//!   `every_macro_the_includes_of_the_headers_define_is_refused` (`tests/emit.rs`) holds the
//!   rules to what gcc and g++ define on the machine that runs it.
//!
//! A family of capitals (`E…`, `LC_…`, `CLOCK_…`) only takes names spelled in capitals, digits
//! and `_`, as every macro of those families is: `EMISSIVE` is refused, `EntityId` and
//! `E2eTestsDrawRecord` (a pipeline named `e2e_tests`) are not. Headers that the Vulkan header
//! includes only when an engine asks for a window system (X11's `None` and `Bool` with
//! `VK_USE_PLATFORM_XLIB_KHR`, windows.h's `near` and `far` with `VK_USE_PLATFORM_WIN32_KHR`)
//! are the engine's choice: not refused here, but warned about (W0014, `super::platform_headers`).
//! Nor are the C headers C++ does not have checked (`complex.h`'s `I`, `stdnoreturn.h`).

/// How the headers that define a macro reach the generated headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    /// The C header includes the header itself (`stddef.h`, `stdint.h`, `assert.h`).
    CHeader,
    /// A header of the C standard library, which the C++ header's standard headers may include.
    CppStd,
    /// A POSIX or glibc header, which libstdc++'s headers include.
    Glibc,
    /// vulkan.hpp itself, or a header it includes.
    VulkanHpp,
}

impl Via {
    /// The clause that ends a message: how `header` reaches the generated code.
    fn how(self, header: &str) -> String {
        match self {
            Via::CHeader => format!("`{header}`, which the C header includes"),
            Via::CppStd => format!("`{header}`, which the C++ header's standard headers may include"),
            Via::Glibc => format!("glibc's `{header}`, which libstdc++ includes in the C++ header"),
            Via::VulkanHpp if header == "vulkan.hpp" => "`vulkan.hpp`, which the C++ header includes".into(),
            Via::VulkanHpp => format!("`{header}`, which vulkan.hpp includes"),
        }
    }
}

/// The macros no family below covers, by the header that defines them. `errno` is
/// `super::C_MACROS`' (refused wherever it is written); `bool`, `true`, `false`,
/// `static_assert`, `alignas` and the other macros that are keywords elsewhere are
/// `super::C`'s.
#[rustfmt::skip]
const NAMED: &[(&str, Via, &[&str])] = &[
    // C23 adds `unreachable`.
    ("stddef.h", Via::CHeader, &["NULL", "offsetof", "unreachable"]),
    ("assert.h", Via::CHeader, &["assert"]),
    // Annex K's limit, where `__STDC_WANT_LIB_EXT1__` asks for it.
    ("stdint.h", Via::CHeader, &["RSIZE_MAX"]),
    ("stdio.h", Via::CppStd, &[
        "BUFSIZ", "EOF", "FILENAME_MAX", "FOPEN_MAX", "L_tmpnam", "TMP_MAX", "stdin", "stdout", "stderr",
        "L_tmpnam_s", "TMP_MAX_S",
    ]),
    // C23 adds `call_once` and its `ONCE_FLAG_INIT` to `stdlib.h`.
    ("stdlib.h", Via::CppStd, &["EXIT_FAILURE", "EXIT_SUCCESS", "MB_CUR_MAX", "RAND_MAX", "ONCE_FLAG_INIT"]),
    ("time.h", Via::CppStd, &["CLOCKS_PER_SEC"]),
    ("wchar.h", Via::CppStd, &["WEOF"]),
    ("limits.h", Via::CppStd, &["CHAR_BIT", "MB_LEN_MAX", "BITINT_MAXWIDTH"]),
    ("float.h", Via::CppStd, &["DECIMAL_DIG"]),
    ("math.h", Via::CppStd, &["HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "INFINITY", "NAN", "math_errhandling"]),
    ("setjmp.h", Via::CppStd, &["setjmp"]),
    ("stdarg.h", Via::CppStd, &["va_arg", "va_copy", "va_end", "va_start"]),
    // POSIX and glibc, in every C++ translation unit on glibc.
    ("stdio.h", Via::Glibc, &["L_ctermid", "L_cuserid", "P_tmpdir"]),
    // `sys/wait.h`'s status macros, which POSIX's `stdlib.h` defines too, and `alloca.h`'s.
    ("stdlib.h", Via::Glibc, &[
        "WNOHANG", "WUNTRACED", "WSTOPPED", "WEXITED", "WCONTINUED", "WNOWAIT", "WEXITSTATUS", "WTERMSIG",
        "WSTOPSIG", "WIFEXITED", "WIFSIGNALED", "WIFSTOPPED", "WIFCONTINUED", "WCOREDUMP", "alloca",
    ]),
    ("endian.h", Via::Glibc, &[
        "LITTLE_ENDIAN", "BIG_ENDIAN", "PDP_ENDIAN", "BYTE_ORDER", "htobe16", "htole16", "be16toh", "le16toh",
        "htobe32", "htole32", "be32toh", "le32toh", "htobe64", "htole64", "be64toh", "le64toh",
    ]),
    ("sys/select.h", Via::Glibc, &["NFDBITS"]),
    ("sched.h", Via::Glibc, &["CSIGNAL", "sched_priority"]),
    ("pthread.h", Via::Glibc, &[
        "pthread_cleanup_push", "pthread_cleanup_pop", "pthread_cleanup_push_defer_np",
        "pthread_cleanup_pop_restore_np",
    ]),
    ("string.h", Via::Glibc, &["strdupa", "strndupa"]),
    ("assert.h", Via::Glibc, &["assert_perror"]),
    ("dlfcn.h", Via::VulkanHpp, &["DL_CALL_FCT"]),
    ("vulkan.hpp", Via::VulkanHpp, &["GCC_VERSION"]),
];

/// What may follow a family's prefix.
#[derive(Clone, Copy, Debug)]
enum Next {
    /// A capital letter.
    Capital,
    /// A capital letter or a digit (`errno.h`'s `E2BIG`).
    CapitalOrDigit,
    /// A small letter or `X` (`inttypes.h`'s `PRId32`, `SCNxFAST8`, `PRIX64`).
    SmallOrX,
}

impl Next {
    fn accepts(self, c: u8) -> bool {
        match self {
            Next::Capital => c.is_ascii_uppercase(),
            Next::CapitalOrDigit => c.is_ascii_uppercase() || c.is_ascii_digit(),
            Next::SmallOrX => c.is_ascii_lowercase() || c == b'X',
        }
    }

    fn words(self) -> &'static str {
        match self {
            Next::Capital => "a capital letter",
            Next::CapitalOrDigit => "a capital letter or digit",
            Next::SmallOrX => "a small letter or `X`",
        }
    }
}

/// Macros named by a prefix: a name is one of them when it starts with `prefix` and
/// `next`, and (but for `inttypes.h`'s, which mix cases) is spelled in capitals, digits and `_`.
struct Family {
    prefix: &'static str,
    next: Next,
    header: &'static str,
    /// `None`: C reserves the family for `header`; else how `header` reaches the generated code.
    via: Option<Via>,
}

const fn reserved(prefix: &'static str, next: Next, header: &'static str) -> Family {
    Family { prefix, next, header, via: None }
}

const fn used(prefix: &'static str, header: &'static str, via: Via) -> Family {
    Family { prefix, next: Next::Capital, header, via: Some(via) }
}

#[rustfmt::skip]
const FAMILIES: &[Family] = &[
    // C's future library directions.
    reserved("E", Next::CapitalOrDigit, "errno.h"),
    reserved("LC_", Next::Capital, "locale.h"),
    reserved("SIG_", Next::Capital, "signal.h"),
    reserved("SIG", Next::Capital, "signal.h"),
    reserved("TIME_", Next::Capital, "time.h"),
    reserved("FE_", Next::Capital, "fenv.h"),
    reserved("ATOMIC_", Next::Capital, "stdatomic.h"),
    reserved("PRI", Next::SmallOrX, "inttypes.h"),
    reserved("SCN", Next::SmallOrX, "inttypes.h"),
    // The C library's other families.
    used("FLT_", "float.h", Via::CppStd),
    used("DBL_", "float.h", Via::CppStd),
    used("LDBL_", "float.h", Via::CppStd),
    // C23's decimal types.
    used("DEC_", "float.h", Via::CppStd),
    used("DEC32_", "float.h", Via::CppStd),
    used("DEC64_", "float.h", Via::CppStd),
    used("DEC128_", "float.h", Via::CppStd),
    // `FP_NAN`, `FP_FAST_FMA`, `MATH_ERRNO`, and C23's `FP_INT_UPWARD`.
    used("FP_", "math.h", Via::CppStd),
    used("MATH_", "math.h", Via::CppStd),
    used("SEEK_", "stdio.h", Via::CppStd),
    // POSIX's and glibc's.
    used("PTHREAD_", "pthread.h", Via::Glibc),
    used("SCHED_", "sched.h", Via::Glibc),
    used("CLONE_", "sched.h", Via::Glibc),
    used("CPU_", "sched.h", Via::Glibc),
    used("CLOCK_", "time.h", Via::Glibc),
    used("TIMER_", "time.h", Via::Glibc),
    // `bits/timex.h`'s, which glibc's `time.h` includes.
    used("ADJ_", "time.h", Via::Glibc),
    used("MOD_", "time.h", Via::Glibc),
    used("STA_", "time.h", Via::Glibc),
    used("FD_", "sys/select.h", Via::Glibc),
    used("RENAME_", "stdio.h", Via::Glibc),
    used("RTLD_", "dlfcn.h", Via::VulkanHpp),
    used("LM_ID_", "dlfcn.h", Via::VulkanHpp),
    used("DLFO_", "dlfcn.h", Via::VulkanHpp),
];

/// The Vulkan headers' prefixes: every macro of `vulkan.h`, `vulkan.hpp` and the video headers
/// (`vulkan_video_codec_h264std`, defined as `1`) starts with one.
const VULKAN: &[&str] = &["VK_", "VKAPI_", "VULKAN_", "STD_VIDEO_", "vulkan_video_codec"];

/// The types whose limits `stdint.h` (`SIZE_MAX`) and `limits.h` (`LONG_MIN`) define as
/// `<TYPE>_MAX`, `_MIN` and `_WIDTH`, beyond the `INT…` and `UINT…` names C reserves.
const STDINT_LIMITS: &[&str] = &["SIZE", "PTRDIFF", "SIG_ATOMIC", "WCHAR", "WINT"];
const LIMITS: &[&str] = &["CHAR", "SCHAR", "UCHAR", "SHRT", "USHRT", "LONG", "ULONG", "LLONG", "ULLONG", "BOOL"];

/// Whether `name` is spelled as the macros of a family of capitals are.
fn capitals(name: &str) -> bool {
    name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Why `name`, printed as an identifier of the C or C++ header, may be a macro of a header they
/// include, which would replace it: the end of the sentence "the generated C name `X` …".
/// `None` when no header they include defines or reserves it.
pub fn macro_of(name: &str) -> Option<String> {
    if let Some(prefix) = VULKAN.iter().find(|p| name.starts_with(*p)) {
        return Some(format!("starts with `{prefix}`, which the Vulkan headers use for their macros"));
    }
    let stdint = (name.starts_with("INT") || name.starts_with("UINT"))
        && ["_MAX", "_MIN", "_WIDTH", "_C"].iter().any(|s| name.ends_with(s));
    let limit_of = |types: &[&str]| {
        types.iter().any(|t| name.strip_prefix(t).is_some_and(|rest| ["_MAX", "_MIN", "_WIDTH"].contains(&rest)))
    };
    if stdint || limit_of(STDINT_LIMITS) {
        return Some("is a macro name that C reserves for `stdint.h`".to_string());
    }
    if limit_of(LIMITS) {
        return Some(format!("is a macro of {}", Via::CppStd.how("limits.h")));
    }
    // A hundred names, asked about a few hundred identifiers per description: a scan will do.
    if let Some(&(header, via, _)) = NAMED.iter().find(|(_, _, names)| names.contains(&name)) {
        return Some(format!("is a macro of {}", via.how(header)));
    }
    let family = FAMILIES.iter().find(|f| {
        name.strip_prefix(f.prefix).and_then(|rest| rest.bytes().next()).is_some_and(|c| f.next.accepts(c))
            && (matches!(f.next, Next::SmallOrX) || capitals(name))
    })?;
    let (prefix, next) = (family.prefix, family.next.words());
    Some(match family.via {
        None => format!("starts with `{prefix}` and {next}, which C reserves for the macros of `{}`", family.header),
        Some(via) => format!("starts with `{prefix}`, like the macros of {}", via.how(family.header)),
    })
}
