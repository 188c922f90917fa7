//! The object-like macros of the platform headers an engine includes before dgcc's generated C
//! and C++ headers, which replace a record member or a namespace of the same name (W0014).
//!
//! Why a list apart from E0706's (`super::c_headers`): those are the macros of headers the
//! generated headers include themselves, which every engine gets, so a member named like one is
//! an error. windows.h and X11's `Xlib.h` are the engine's choice (vulkan.h includes them itself
//! under `VK_USE_PLATFORM_WIN32_KHR` and `VK_USE_PLATFORM_XLIB_KHR`), so dgcc cannot know
//! whether a member named `near` will meet minwindef.h's `#define near` (empty): it warns, and a
//! description whose engine never includes the header allows W0014.
//!
//! Why object-like macros only: the C and C++ headers print a member in its declaration
//! (`float near;`) and in `offsetof(Record, near)`, and a namespace before `{` or `::`, never
//! before `(`, so a function-like macro (windows.h's `min` and `max`, Xlib.h's
//! `DefaultScreen(dpy)`) is never expanded there.
//!
//! What is listed, each with its header and its expansion as the header writes it (the
//! message quotes both), and how the lists are held to the real headers (`tests/emit.rs`):
//! - [`XLIB`]: every object-like macro that `#include <X11/Xlib.h>` defines from X11's own
//!   headers (`X.h`, `Xlib.h`, `Xfuncproto.h`), as `gcc -E -dD` reports them, but those E0706
//!   refuses anyway. `every_object_like_macro_of_xlib_is_warned_about` asks gcc for them and
//!   fails on any macro not listed, or listed with another expansion, or listed and not defined.
//! - [`WINDOWS`]: the object-like macros that the text of the Windows headers windows.h
//!   includes (with and without `WIN32_LEAN_AND_MEAN`; in any branch of their conditionals,
//!   since MSVC's branches are not mingw-w64's) defines under a name a record member could take:
//!   snake_case or camelCase (`near`, `far`, `small`, `hyper`, `s_addr`, `cbNDRContext`) or one
//!   word in capitals (`IN`, `OUT`, `CONST`, `VOID`, `DELETE`, `OPAQUE`). Not the C runtime's
//!   headers (`stdlib.h`, `malloc.h`, …: mingw-w64 and MSVC each bring their own), not
//!   multi-word capitals (`WM_PAINT`, `MAX_PATH`: tens of thousands, each with its API's
//!   prefix), and not PascalCase (all but a few rename a function to its ANSI or wide version,
//!   `CreateWindow` to `CreateWindowW`, which leaves a member valid). mingw-w64's headers
//!   (`.ci/setup.sh` unpacks Debian's `mingw-w64-common`) stand in for the Windows SDK's:
//!   `every_listed_windows_macro_is_defined_and_every_one_is_listed` has gcc list the headers
//!   windows.h includes for an x86-64 mingw-w64 target, with and without the guard, then reads
//!   their text both ways. `small` is mingw-w64's only for the resource compiler, but the
//!   Windows SDK's `rpcndr.h` defines it for every compiler.
//!
//! Names E0706 refuses anyway are left out (`interface`, which `combaseapi.h` defines as
//! `struct`, is a reserved word of GLSL and HLSL; `ERROR` starts with `E` and a capital).

/// Where an engine gets a header's macros from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// `#include <X11/Xlib.h>`.
    Xlib,
    /// `#include <windows.h>`; `lean`: also with `WIN32_LEAN_AND_MEAN` defined.
    Windows { lean: bool },
}

impl Reach {
    /// The header an engine includes: `windows.h`, `X11/Xlib.h`.
    pub fn platform(self) -> &'static str {
        match self {
            Reach::Xlib => "X11/Xlib.h",
            Reach::Windows { .. } => "windows.h",
        }
    }

    /// The Vulkan platform macro under which vulkan.h includes [`Reach::platform`] itself.
    pub fn vulkan_platform(self) -> &'static str {
        match self {
            Reach::Xlib => "VK_USE_PLATFORM_XLIB_KHR",
            Reach::Windows { .. } => "VK_USE_PLATFORM_WIN32_KHR",
        }
    }
}

/// One header's listed macros, `(name, expansion)` in the header's order.
#[derive(Debug)]
pub struct Header {
    /// As an `#include` names it: `minwindef.h`, `X11/X.h`.
    pub path: &'static str,
    pub reach: Reach,
    pub macros: &'static [(&'static str, &'static str)],
}

/// A listed macro.
#[derive(Clone, Copy, Debug)]
pub struct PlatformMacro {
    pub name: &'static str,
    /// The definition as the header writes it (comments removed): `""` for an empty one.
    pub expansion: &'static str,
    pub header: &'static Header,
}

impl PlatformMacro {
    /// "`minwindef.h` defines `near` as nothing", "`X11/X.h` defines `None` as `0L`",
    /// "`winbase.h` defines `lstrcat` as `lstrcatA` or `lstrcatW`".
    pub fn defines(&self) -> String {
        format!("`{}` defines `{}` as {}", self.header.path, self.name, self.expansion_words())
    }

    /// The expansion in words: `nothing`, `` `char` ``; mingw-w64's `__MINGW_NAME_AW(x)` is the
    /// Windows SDK's `xA` or `xW` (as `UNICODE` is undefined or defined).
    pub fn expansion_words(&self) -> String {
        let e = self.expansion;
        if e.is_empty() {
            return "nothing".into();
        }
        match e.strip_prefix("__MINGW_NAME_AW(").and_then(|r| r.strip_suffix(')')) {
            Some(f) => format!("`{f}A` or `{f}W`"),
            None => format!("`{e}`"),
        }
    }

    /// How the header reaches an engine's file: "windows.h", "`rpcndr.h`, which windows.h
    /// includes".
    pub fn via(&self) -> String {
        let platform = self.header.reach.platform();
        if self.header.path == platform {
            platform.to_string()
        } else {
            format!("`{}`, which {platform} includes", self.header.path)
        }
    }
}

/// Whether [`WINDOWS`] takes a macro of this name: snake_case or camelCase, or one word in
/// capitals, without `__` (the module's comment says why not the other shapes).
pub fn windows_shape(name: &str) -> bool {
    let b = name.as_bytes();
    let lower_first = b.first().is_some_and(u8::is_ascii_lowercase);
    let snake = lower_first && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_');
    let camel = lower_first && b.iter().all(u8::is_ascii_alphanumeric);
    let caps =
        b.first().is_some_and(u8::is_ascii_uppercase) && b.iter().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
    (snake || camel || caps) && !name.contains("__")
}

/// Every listed macro named `name` (none, or one per platform).
pub fn macros_named(name: &str) -> &'static [PlatformMacro] {
    static BY_NAME: std::sync::OnceLock<foldhash::HashMap<&'static str, Vec<PlatformMacro>>> =
        std::sync::OnceLock::new();
    let map = BY_NAME.get_or_init(|| {
        let mut map: foldhash::HashMap<&'static str, Vec<PlatformMacro>> = foldhash::HashMap::default();
        for m in all() {
            map.entry(m.name).or_default().push(m);
        }
        map
    });
    map.get(name).map(Vec::as_slice).unwrap_or(&[])
}

/// Every listed macro, X11's first.
pub fn all() -> impl Iterator<Item = PlatformMacro> {
    XLIB.iter()
        .chain(WINDOWS)
        .flat_map(|h| h.macros.iter().map(move |&(name, expansion)| PlatformMacro { name, expansion, header: h }))
}

/// The object-like macros `#include <X11/Xlib.h>` defines, by X11 header (gcc's order).
#[rustfmt::skip]
pub const XLIB: &[Header] = &[
    Header { path: "X11/Xlib.h", reach: Reach::Xlib, macros: &[
        ("XlibSpecificationRelease", "6"), ("X_HAVE_UTF8_STRING", "1"), ("Bool", "int"), ("Status", "int"),
        ("True", "1"), ("False", "0"), ("QueuedAlready", "0"), ("QueuedAfterReading", "1"),
        ("QueuedAfterFlush", "2"), ("AllPlanes", "((unsigned long)~0L)"),
        ("XNRequiredCharSet", r#""requiredCharSet""#), ("XNQueryOrientation", r#""queryOrientation""#),
        ("XNBaseFontName", r#""baseFontName""#), ("XNOMAutomatic", r#""omAutomatic""#),
        ("XNMissingCharSet", r#""missingCharSet""#), ("XNDefaultString", r#""defaultString""#),
        ("XNOrientation", r#""orientation""#),
        ("XNDirectionalDependentDrawing", r#""directionalDependentDrawing""#),
        ("XNContextualDrawing", r#""contextualDrawing""#), ("XNFontInfo", r#""fontInfo""#),
        ("XIMPreeditArea", "0x0001L"), ("XIMPreeditCallbacks", "0x0002L"), ("XIMPreeditPosition", "0x0004L"),
        ("XIMPreeditNothing", "0x0008L"), ("XIMPreeditNone", "0x0010L"), ("XIMStatusArea", "0x0100L"),
        ("XIMStatusCallbacks", "0x0200L"), ("XIMStatusNothing", "0x0400L"), ("XIMStatusNone", "0x0800L"),
        ("XNVaNestedList", r#""XNVaNestedList""#), ("XNQueryInputStyle", r#""queryInputStyle""#),
        ("XNClientWindow", r#""clientWindow""#), ("XNInputStyle", r#""inputStyle""#),
        ("XNFocusWindow", r#""focusWindow""#), ("XNResourceName", r#""resourceName""#),
        ("XNResourceClass", r#""resourceClass""#), ("XNGeometryCallback", r#""geometryCallback""#),
        ("XNDestroyCallback", r#""destroyCallback""#), ("XNFilterEvents", r#""filterEvents""#),
        ("XNPreeditStartCallback", r#""preeditStartCallback""#),
        ("XNPreeditDoneCallback", r#""preeditDoneCallback""#),
        ("XNPreeditDrawCallback", r#""preeditDrawCallback""#),
        ("XNPreeditCaretCallback", r#""preeditCaretCallback""#),
        ("XNPreeditStateNotifyCallback", r#""preeditStateNotifyCallback""#),
        ("XNPreeditAttributes", r#""preeditAttributes""#), ("XNStatusStartCallback", r#""statusStartCallback""#),
        ("XNStatusDoneCallback", r#""statusDoneCallback""#), ("XNStatusDrawCallback", r#""statusDrawCallback""#),
        ("XNStatusAttributes", r#""statusAttributes""#), ("XNArea", r#""area""#),
        ("XNAreaNeeded", r#""areaNeeded""#), ("XNSpotLocation", r#""spotLocation""#),
        ("XNColormap", r#""colorMap""#), ("XNStdColormap", r#""stdColorMap""#),
        ("XNForeground", r#""foreground""#), ("XNBackground", r#""background""#),
        ("XNBackgroundPixmap", r#""backgroundPixmap""#), ("XNFontSet", r#""fontSet""#),
        ("XNLineSpace", r#""lineSpace""#), ("XNCursor", r#""cursor""#),
        ("XNQueryIMValuesList", r#""queryIMValuesList""#), ("XNQueryICValuesList", r#""queryICValuesList""#),
        ("XNVisiblePosition", r#""visiblePosition""#), ("XNR6PreeditCallback", r#""r6PreeditCallback""#),
        ("XNStringConversionCallback", r#""stringConversionCallback""#),
        ("XNStringConversion", r#""stringConversion""#), ("XNResetState", r#""resetState""#),
        ("XNHotKey", r#""hotKey""#), ("XNHotKeyState", r#""hotKeyState""#),
        ("XNPreeditState", r#""preeditState""#), ("XNSeparatorofNestedList", r#""separatorofNestedList""#),
        ("XBufferOverflow", "-1"), ("XLookupNone", "1"), ("XLookupChars", "2"), ("XLookupKeySym", "3"),
        ("XLookupBoth", "4"), ("XIMReverse", "1L"), ("XIMUnderline", "(1L<<1)"), ("XIMHighlight", "(1L<<2)"),
        ("XIMPrimary", "(1L<<5)"), ("XIMSecondary", "(1L<<6)"), ("XIMTertiary", "(1L<<7)"),
        ("XIMVisibleToForward", "(1L<<8)"), ("XIMVisibleToBackword", "(1L<<9)"),
        ("XIMVisibleToCenter", "(1L<<10)"), ("XIMPreeditUnKnown", "0L"), ("XIMPreeditEnable", "1L"),
        ("XIMPreeditDisable", "(1L<<1)"), ("XIMInitialState", "1L"), ("XIMPreserveState", "(1L<<1)"),
        ("XIMStringConversionLeftEdge", "(0x00000001)"), ("XIMStringConversionRightEdge", "(0x00000002)"),
        ("XIMStringConversionTopEdge", "(0x00000004)"), ("XIMStringConversionBottomEdge", "(0x00000008)"),
        ("XIMStringConversionConcealed", "(0x00000010)"), ("XIMStringConversionWrapped", "(0x00000020)"),
        ("XIMStringConversionBuffer", "(0x0001)"), ("XIMStringConversionLine", "(0x0002)"),
        ("XIMStringConversionWord", "(0x0003)"), ("XIMStringConversionChar", "(0x0004)"),
        ("XIMStringConversionSubstitution", "(0x0001)"), ("XIMStringConversionRetrieval", "(0x0002)"),
        ("XIMHotKeyStateON", "(0x0001L)"), ("XIMHotKeyStateOFF", "(0x0002L)"),
    ] },
    Header { path: "X11/X.h", reach: Reach::Xlib, macros: &[
        ("X_H", ""), ("X_PROTOCOL", "11"), ("X_PROTOCOL_REVISION", "0"), ("None", "0L"), ("ParentRelative", "1L"),
        ("CopyFromParent", "0L"), ("PointerWindow", "0L"), ("InputFocus", "1L"), ("PointerRoot", "1L"),
        ("AnyPropertyType", "0L"), ("AnyKey", "0L"), ("AnyButton", "0L"), ("AllTemporary", "0L"),
        ("CurrentTime", "0L"), ("NoSymbol", "0L"), ("NoEventMask", "0L"), ("KeyPressMask", "(1L<<0)"),
        ("KeyReleaseMask", "(1L<<1)"), ("ButtonPressMask", "(1L<<2)"), ("ButtonReleaseMask", "(1L<<3)"),
        ("EnterWindowMask", "(1L<<4)"), ("LeaveWindowMask", "(1L<<5)"), ("PointerMotionMask", "(1L<<6)"),
        ("PointerMotionHintMask", "(1L<<7)"), ("Button1MotionMask", "(1L<<8)"), ("Button2MotionMask", "(1L<<9)"),
        ("Button3MotionMask", "(1L<<10)"), ("Button4MotionMask", "(1L<<11)"), ("Button5MotionMask", "(1L<<12)"),
        ("ButtonMotionMask", "(1L<<13)"), ("KeymapStateMask", "(1L<<14)"), ("ExposureMask", "(1L<<15)"),
        ("VisibilityChangeMask", "(1L<<16)"), ("StructureNotifyMask", "(1L<<17)"),
        ("ResizeRedirectMask", "(1L<<18)"), ("SubstructureNotifyMask", "(1L<<19)"),
        ("SubstructureRedirectMask", "(1L<<20)"), ("FocusChangeMask", "(1L<<21)"),
        ("PropertyChangeMask", "(1L<<22)"), ("ColormapChangeMask", "(1L<<23)"),
        ("OwnerGrabButtonMask", "(1L<<24)"), ("KeyPress", "2"), ("KeyRelease", "3"), ("ButtonPress", "4"),
        ("ButtonRelease", "5"), ("MotionNotify", "6"), ("EnterNotify", "7"), ("LeaveNotify", "8"),
        ("FocusIn", "9"), ("FocusOut", "10"), ("KeymapNotify", "11"), ("Expose", "12"), ("GraphicsExpose", "13"),
        ("NoExpose", "14"), ("VisibilityNotify", "15"), ("CreateNotify", "16"), ("DestroyNotify", "17"),
        ("UnmapNotify", "18"), ("MapNotify", "19"), ("MapRequest", "20"), ("ReparentNotify", "21"),
        ("ConfigureNotify", "22"), ("ConfigureRequest", "23"), ("GravityNotify", "24"), ("ResizeRequest", "25"),
        ("CirculateNotify", "26"), ("CirculateRequest", "27"), ("PropertyNotify", "28"), ("SelectionClear", "29"),
        ("SelectionRequest", "30"), ("SelectionNotify", "31"), ("ColormapNotify", "32"), ("ClientMessage", "33"),
        ("MappingNotify", "34"), ("GenericEvent", "35"), ("LASTEvent", "36"), ("ShiftMask", "(1<<0)"),
        ("LockMask", "(1<<1)"), ("ControlMask", "(1<<2)"), ("Mod1Mask", "(1<<3)"), ("Mod2Mask", "(1<<4)"),
        ("Mod3Mask", "(1<<5)"), ("Mod4Mask", "(1<<6)"), ("Mod5Mask", "(1<<7)"), ("ShiftMapIndex", "0"),
        ("LockMapIndex", "1"), ("ControlMapIndex", "2"), ("Mod1MapIndex", "3"), ("Mod2MapIndex", "4"),
        ("Mod3MapIndex", "5"), ("Mod4MapIndex", "6"), ("Mod5MapIndex", "7"), ("Button1Mask", "(1<<8)"),
        ("Button2Mask", "(1<<9)"), ("Button3Mask", "(1<<10)"), ("Button4Mask", "(1<<11)"),
        ("Button5Mask", "(1<<12)"), ("AnyModifier", "(1<<15)"), ("Button1", "1"), ("Button2", "2"),
        ("Button3", "3"), ("Button4", "4"), ("Button5", "5"), ("NotifyNormal", "0"), ("NotifyGrab", "1"),
        ("NotifyUngrab", "2"), ("NotifyWhileGrabbed", "3"), ("NotifyHint", "1"), ("NotifyAncestor", "0"),
        ("NotifyVirtual", "1"), ("NotifyInferior", "2"), ("NotifyNonlinear", "3"), ("NotifyNonlinearVirtual", "4"),
        ("NotifyPointer", "5"), ("NotifyPointerRoot", "6"), ("NotifyDetailNone", "7"),
        ("VisibilityUnobscured", "0"), ("VisibilityPartiallyObscured", "1"), ("VisibilityFullyObscured", "2"),
        ("PlaceOnTop", "0"), ("PlaceOnBottom", "1"), ("FamilyInternet", "0"), ("FamilyDECnet", "1"),
        ("FamilyChaos", "2"), ("FamilyInternet6", "6"), ("FamilyServerInterpreted", "5"),
        ("PropertyNewValue", "0"), ("PropertyDelete", "1"), ("ColormapUninstalled", "0"),
        ("ColormapInstalled", "1"), ("GrabModeSync", "0"), ("GrabModeAsync", "1"), ("GrabSuccess", "0"),
        ("AlreadyGrabbed", "1"), ("GrabInvalidTime", "2"), ("GrabNotViewable", "3"), ("GrabFrozen", "4"),
        ("AsyncPointer", "0"), ("SyncPointer", "1"), ("ReplayPointer", "2"), ("AsyncKeyboard", "3"),
        ("SyncKeyboard", "4"), ("ReplayKeyboard", "5"), ("AsyncBoth", "6"), ("SyncBoth", "7"),
        ("RevertToNone", "(int)None"), ("RevertToPointerRoot", "(int)PointerRoot"), ("RevertToParent", "2"),
        ("Success", "0"), ("BadRequest", "1"), ("BadValue", "2"), ("BadWindow", "3"), ("BadPixmap", "4"),
        ("BadAtom", "5"), ("BadCursor", "6"), ("BadFont", "7"), ("BadMatch", "8"), ("BadDrawable", "9"),
        ("BadAccess", "10"), ("BadAlloc", "11"), ("BadColor", "12"), ("BadGC", "13"), ("BadIDChoice", "14"),
        ("BadName", "15"), ("BadLength", "16"), ("BadImplementation", "17"), ("FirstExtensionError", "128"),
        ("LastExtensionError", "255"), ("InputOutput", "1"), ("InputOnly", "2"), ("CWBackPixmap", "(1L<<0)"),
        ("CWBackPixel", "(1L<<1)"), ("CWBorderPixmap", "(1L<<2)"), ("CWBorderPixel", "(1L<<3)"),
        ("CWBitGravity", "(1L<<4)"), ("CWWinGravity", "(1L<<5)"), ("CWBackingStore", "(1L<<6)"),
        ("CWBackingPlanes", "(1L<<7)"), ("CWBackingPixel", "(1L<<8)"), ("CWOverrideRedirect", "(1L<<9)"),
        ("CWSaveUnder", "(1L<<10)"), ("CWEventMask", "(1L<<11)"), ("CWDontPropagate", "(1L<<12)"),
        ("CWColormap", "(1L<<13)"), ("CWCursor", "(1L<<14)"), ("CWX", "(1<<0)"), ("CWY", "(1<<1)"),
        ("CWWidth", "(1<<2)"), ("CWHeight", "(1<<3)"), ("CWBorderWidth", "(1<<4)"), ("CWSibling", "(1<<5)"),
        ("CWStackMode", "(1<<6)"), ("ForgetGravity", "0"), ("NorthWestGravity", "1"), ("NorthGravity", "2"),
        ("NorthEastGravity", "3"), ("WestGravity", "4"), ("CenterGravity", "5"), ("EastGravity", "6"),
        ("SouthWestGravity", "7"), ("SouthGravity", "8"), ("SouthEastGravity", "9"), ("StaticGravity", "10"),
        ("UnmapGravity", "0"), ("NotUseful", "0"), ("WhenMapped", "1"), ("Always", "2"), ("IsUnmapped", "0"),
        ("IsUnviewable", "1"), ("IsViewable", "2"), ("SetModeInsert", "0"), ("SetModeDelete", "1"),
        ("DestroyAll", "0"), ("RetainPermanent", "1"), ("RetainTemporary", "2"), ("Above", "0"), ("Below", "1"),
        ("TopIf", "2"), ("BottomIf", "3"), ("Opposite", "4"), ("RaiseLowest", "0"), ("LowerHighest", "1"),
        ("PropModeReplace", "0"), ("PropModePrepend", "1"), ("PropModeAppend", "2"), ("GXclear", "0x0"),
        ("GXand", "0x1"), ("GXandReverse", "0x2"), ("GXcopy", "0x3"), ("GXandInverted", "0x4"), ("GXnoop", "0x5"),
        ("GXxor", "0x6"), ("GXor", "0x7"), ("GXnor", "0x8"), ("GXequiv", "0x9"), ("GXinvert", "0xa"),
        ("GXorReverse", "0xb"), ("GXcopyInverted", "0xc"), ("GXorInverted", "0xd"), ("GXnand", "0xe"),
        ("GXset", "0xf"), ("LineSolid", "0"), ("LineOnOffDash", "1"), ("LineDoubleDash", "2"), ("CapNotLast", "0"),
        ("CapButt", "1"), ("CapRound", "2"), ("CapProjecting", "3"), ("JoinMiter", "0"), ("JoinRound", "1"),
        ("JoinBevel", "2"), ("FillSolid", "0"), ("FillTiled", "1"), ("FillStippled", "2"),
        ("FillOpaqueStippled", "3"), ("EvenOddRule", "0"), ("WindingRule", "1"), ("ClipByChildren", "0"),
        ("IncludeInferiors", "1"), ("Unsorted", "0"), ("YSorted", "1"), ("YXSorted", "2"), ("YXBanded", "3"),
        ("CoordModeOrigin", "0"), ("CoordModePrevious", "1"), ("Complex", "0"), ("Nonconvex", "1"),
        ("Convex", "2"), ("ArcChord", "0"), ("ArcPieSlice", "1"), ("GCFunction", "(1L<<0)"),
        ("GCPlaneMask", "(1L<<1)"), ("GCForeground", "(1L<<2)"), ("GCBackground", "(1L<<3)"),
        ("GCLineWidth", "(1L<<4)"), ("GCLineStyle", "(1L<<5)"), ("GCCapStyle", "(1L<<6)"),
        ("GCJoinStyle", "(1L<<7)"), ("GCFillStyle", "(1L<<8)"), ("GCFillRule", "(1L<<9)"), ("GCTile", "(1L<<10)"),
        ("GCStipple", "(1L<<11)"), ("GCTileStipXOrigin", "(1L<<12)"), ("GCTileStipYOrigin", "(1L<<13)"),
        ("GCFont", "(1L<<14)"), ("GCSubwindowMode", "(1L<<15)"), ("GCGraphicsExposures", "(1L<<16)"),
        ("GCClipXOrigin", "(1L<<17)"), ("GCClipYOrigin", "(1L<<18)"), ("GCClipMask", "(1L<<19)"),
        ("GCDashOffset", "(1L<<20)"), ("GCDashList", "(1L<<21)"), ("GCArcMode", "(1L<<22)"), ("GCLastBit", "22"),
        ("FontLeftToRight", "0"), ("FontRightToLeft", "1"), ("FontChange", "255"), ("XYBitmap", "0"),
        ("XYPixmap", "1"), ("ZPixmap", "2"), ("AllocNone", "0"), ("AllocAll", "1"), ("DoRed", "(1<<0)"),
        ("DoGreen", "(1<<1)"), ("DoBlue", "(1<<2)"), ("CursorShape", "0"), ("TileShape", "1"),
        ("StippleShape", "2"), ("AutoRepeatModeOff", "0"), ("AutoRepeatModeOn", "1"),
        ("AutoRepeatModeDefault", "2"), ("LedModeOff", "0"), ("LedModeOn", "1"), ("KBKeyClickPercent", "(1L<<0)"),
        ("KBBellPercent", "(1L<<1)"), ("KBBellPitch", "(1L<<2)"), ("KBBellDuration", "(1L<<3)"),
        ("KBLed", "(1L<<4)"), ("KBLedMode", "(1L<<5)"), ("KBKey", "(1L<<6)"), ("KBAutoRepeatMode", "(1L<<7)"),
        ("MappingSuccess", "0"), ("MappingBusy", "1"), ("MappingFailed", "2"), ("MappingModifier", "0"),
        ("MappingKeyboard", "1"), ("MappingPointer", "2"), ("DontPreferBlanking", "0"), ("PreferBlanking", "1"),
        ("DefaultBlanking", "2"), ("DisableScreenSaver", "0"), ("DisableScreenInterval", "0"),
        ("DontAllowExposures", "0"), ("AllowExposures", "1"), ("DefaultExposures", "2"), ("ScreenSaverReset", "0"),
        ("ScreenSaverActive", "1"), ("HostInsert", "0"), ("HostDelete", "1"), ("EnableAccess", "1"),
        ("DisableAccess", "0"), ("StaticGray", "0"), ("GrayScale", "1"), ("StaticColor", "2"),
        ("PseudoColor", "3"), ("TrueColor", "4"), ("DirectColor", "5"), ("LSBFirst", "0"), ("MSBFirst", "1"),
    ] },
    Header { path: "X11/Xfuncproto.h", reach: Reach::Xlib, macros: &[
        ("NeedFunctionPrototypes", "1"), ("NeedVarargsPrototypes", "1"), ("NeedNestedPrototypes", "1"),
        ("NARROWPROTO", ""), ("FUNCPROTO", "15"), ("NeedWidePrototypes", "0"),
    ] },
];

/// The object-like macros the Windows headers windows.h includes define under a name a member
/// could take, by header: those kept with `WIN32_LEAN_AND_MEAN` first.
#[rustfmt::skip]
pub const WINDOWS: &[Header] = &[
    Header { path: "apisetcconv.h", reach: Reach::Windows { lean: true }, macros: &[
        ("CMAPI", ""), ("CREDUIAPI", ""), ("WINABLEAPI", ""), ("WINADVAPI", ""), ("WINBASEAPI", ""),
        ("WINUSERAPI", ""), ("ZAWPROXYAPI", ""), ("WINCFGMGR32API", ""), ("WINDEVQUERYAPI", ""),
        ("WINSWDEVICEAPI", ""), ("WINPATHCCHAPI", ""), ("WINSTORAGEAPI", ""),
    ] },
    Header { path: "basetsd.h", reach: Reach::Windows { lean: true }, macros: &[
        ("MAXUINT8", "((UINT8)~ ((UINT8)0))"), ("MAXINT8", "((INT8) (MAXUINT8 >> 1))"),
        ("MININT8", "((INT8)~MAXINT8)"), ("MAXUINT16", "((UINT16)~ ((UINT16)0))"),
        ("MAXINT16", "((INT16) (MAXUINT16 >> 1))"), ("MININT16", "((INT16)~MAXINT16)"),
        ("MAXUINT32", "((UINT32)~ ((UINT32)0))"), ("MAXINT32", "((INT32) (MAXUINT32 >> 1))"),
        ("MININT32", "((INT32)~MAXINT32)"), ("MAXUINT64", "((UINT64)~ ((UINT64)0))"),
        ("MAXINT64", "((INT64) (MAXUINT64 >> 1))"), ("MININT64", "((INT64)~MAXINT64)"),
        ("MAXULONG32", "((ULONG32)~ ((ULONG32)0))"), ("MAXLONG32", "((LONG32) (MAXULONG32 >> 1))"),
        ("MINLONG32", "((LONG32)~MAXLONG32)"), ("MAXULONG64", "((ULONG64)~ ((ULONG64)0))"),
        ("MAXLONG64", "((LONG64) (MAXULONG64 >> 1))"), ("MINLONG64", "((LONG64)~MAXLONG64)"),
        ("MAXULONGLONG", "((ULONGLONG)~ ((ULONGLONG)0))"), ("MINLONGLONG", "((LONGLONG)~MAXLONGLONG)"),
        ("MAXUINT", "((UINT)~ ((UINT)0))"), ("MAXINT", "((INT) (MAXUINT >> 1))"), ("MININT", "((INT)~MAXINT)"),
        ("MAXDWORD32", "((DWORD32)~ ((DWORD32)0))"), ("MAXDWORD64", "((DWORD64)~ ((DWORD64)0))"),
    ] },
    Header { path: "excpt.h", reach: Reach::Windows { lean: true }, macros: &[
        ("exception_code", "_exception_code"), ("exception_info", "(struct _EXCEPTION_POINTERS *)_exception_info"),
        ("abnormal_termination", "_abnormal_termination"),
    ] },
    Header { path: "guiddef.h", reach: Reach::Windows { lean: true }, macros: &[
        ("FAR", ""), ("REFGUID", "const GUID *__MIDL_CONST"), ("REFIID", "const IID *__MIDL_CONST"),
        ("REFCLSID", "const IID *__MIDL_CONST"), ("REFFMTID", "const IID *__MIDL_CONST"),
    ] },
    Header { path: "imm.h", reach: Reach::Windows { lean: true }, macros: &[
        ("REGISTERWORDENUMPROC", "__MINGW_NAME_AW(REGISTERWORDENUMPROC)"),
    ] },
    Header { path: "minwinbase.h", reach: Reach::Windows { lean: true }, macros: &[
        ("LHND", "(LMEM_MOVEABLE | LMEM_ZEROINIT)"), ("LPTR", "(LMEM_FIXED | LMEM_ZEROINIT)"),
        ("NONZEROLHND", "(LMEM_MOVEABLE)"), ("NONZEROLPTR", "(LMEM_FIXED)"),
    ] },
    Header { path: "minwindef.h", reach: Reach::Windows { lean: true }, macros: &[
        ("WINAPI", "__stdcall"), ("CONST", "const"), ("IN", ""), ("OUT", ""), ("OPTIONAL", ""), ("STRICT", "1"),
        ("WIN32", ""), ("BASETYPES", ""), ("FALSE", "0"), ("TRUE", "1"), ("far", ""), ("near", ""),
        ("pascal", "__stdcall"), ("cdecl", ""), ("CDECL", ""), ("CALLBACK", "__stdcall"), ("WINAPIV", "__cdecl"),
        ("APIENTRY", "WINAPI"), ("APIPRIVATE", "__stdcall"), ("PASCAL", "__stdcall"), ("NEAR", ""),
        ("BOOL", "WINBOOL"),
    ] },
    Header { path: "reason.h", reach: Reach::Windows { lean: true }, macros: &[
        ("PCLEANUI", "(SHTDN_REASON_FLAG_PLANNED | SHTDN_REASON_FLAG_CLEAN_UI)"),
        ("UCLEANUI", "(SHTDN_REASON_FLAG_CLEAN_UI)"),
        ("PDIRTYUI", "(SHTDN_REASON_FLAG_PLANNED | SHTDN_REASON_FLAG_DIRTY_UI)"),
        ("UDIRTYUI", "(SHTDN_REASON_FLAG_DIRTY_UI)"),
    ] },
    Header { path: "sdkddkver.h", reach: Reach::Windows { lean: true }, macros: &[
        ("WINVER", "0x0502"),
    ] },
    Header { path: "stralign.h", reach: Reach::Windows { lean: true }, macros: &[
        ("ua_wcschr", "wcschr"), ("ua_wcsicmp", "wcsicmp"), ("ua_wcslen", "wcslen"), ("ua_wcsrchr", "wcsrchr"),
        ("ua_wcscpy", "wcscpy"), ("ua_lstrcmp", "lstrcmpA"), ("ua_lstrcmpi", "lstrcmpiA"),
        ("ua_lstrlen", "lstrlenA"), ("ua_tcscpy", "strcpy"),
    ] },
    Header { path: "virtdisk.h", reach: Reach::Windows { lean: true }, macros: &[
        ("VIRTDISKAPI", "DECLSPEC_IMPORT"),
    ] },
    Header { path: "winbase.h", reach: Reach::Windows { lean: true }, macros: &[
        ("NOWINBASEINTERLOCK", "1"), ("GHND", "(GMEM_MOVEABLE | GMEM_ZEROINIT)"),
        ("GPTR", "(GMEM_FIXED | GMEM_ZEROINIT)"), ("NOPARITY", "0"), ("ODDPARITY", "1"), ("MARKPARITY", "3"),
        ("SPACEPARITY", "4"), ("ONESTOPBIT", "0"), ("ONE5STOPBITS", "1"), ("TWOSTOPBITS", "2"), ("IGNORE", "0"),
        ("INFINITE", "0xffffffff"), ("SETXOFF", "1"), ("SETXON", "2"), ("SETRTS", "3"), ("CLRRTS", "4"),
        ("SETDTR", "5"), ("CLRDTR", "6"), ("RESETDEV", "7"), ("SETBREAK", "8"), ("CLRBREAK", "9"),
        ("MAXINTATOM", "0xc000"), ("lstrcmp", "__MINGW_NAME_AW(lstrcmp)"),
        ("lstrcmpi", "__MINGW_NAME_AW(lstrcmpi)"), ("lstrcpyn", "__MINGW_NAME_AW(lstrcpyn)"),
        ("lstrcpy", "__MINGW_NAME_AW(lstrcpy)"), ("lstrcat", "__MINGW_NAME_AW(lstrcat)"),
        ("lstrlen", "__MINGW_NAME_AW(lstrlen)"),
    ] },
    Header { path: "windows.h", reach: Reach::Windows { lean: true }, macros: &[
        ("NOATOM", ""), ("NOGDI", ""), ("NOGDICAPMASKS", ""), ("NOMETAFILE", ""), ("NOMINMAX", ""), ("NOMSG", ""),
        ("NOOPENFILE", ""), ("NORASTEROPS", ""), ("NOSCROLL", ""), ("NOSOUND", ""), ("NOSYSMETRICS", ""),
        ("NOTEXTMETRIC", ""), ("NOWH", ""), ("NOCOMM", ""), ("NOKANJI", ""), ("NOCRYPT", ""), ("NOMCX", ""),
    ] },
    Header { path: "winerror.h", reach: Reach::Windows { lean: true }, macros: &[
        ("WSABASEERR", "10000"), ("WSAEINTR", "(WSABASEERR + 4)"), ("WSAEBADF", "(WSABASEERR + 9)"),
        ("WSAEACCES", "(WSABASEERR + 13)"), ("WSAEFAULT", "(WSABASEERR + 14)"), ("WSAEINVAL", "(WSABASEERR + 22)"),
        ("WSAEMFILE", "(WSABASEERR + 24)"), ("WSAEWOULDBLOCK", "(WSABASEERR + 35)"),
        ("WSAEINPROGRESS", "(WSABASEERR + 36)"), ("WSAEALREADY", "(WSABASEERR + 37)"),
        ("WSAENOTSOCK", "(WSABASEERR + 38)"), ("WSAEDESTADDRREQ", "(WSABASEERR + 39)"),
        ("WSAEMSGSIZE", "(WSABASEERR + 40)"), ("WSAEPROTOTYPE", "(WSABASEERR + 41)"),
        ("WSAENOPROTOOPT", "(WSABASEERR + 42)"), ("WSAEPROTONOSUPPORT", "(WSABASEERR + 43)"),
        ("WSAESOCKTNOSUPPORT", "(WSABASEERR + 44)"), ("WSAEOPNOTSUPP", "(WSABASEERR + 45)"),
        ("WSAEPFNOSUPPORT", "(WSABASEERR + 46)"), ("WSAEAFNOSUPPORT", "(WSABASEERR + 47)"),
        ("WSAEADDRINUSE", "(WSABASEERR + 48)"), ("WSAEADDRNOTAVAIL", "(WSABASEERR + 49)"),
        ("WSAENETDOWN", "(WSABASEERR + 50)"), ("WSAENETUNREACH", "(WSABASEERR + 51)"),
        ("WSAENETRESET", "(WSABASEERR + 52)"), ("WSAECONNABORTED", "(WSABASEERR + 53)"),
        ("WSAECONNRESET", "(WSABASEERR + 54)"), ("WSAENOBUFS", "(WSABASEERR + 55)"),
        ("WSAEISCONN", "(WSABASEERR + 56)"), ("WSAENOTCONN", "(WSABASEERR + 57)"),
        ("WSAESHUTDOWN", "(WSABASEERR + 58)"), ("WSAETOOMANYREFS", "(WSABASEERR + 59)"),
        ("WSAETIMEDOUT", "(WSABASEERR + 60)"), ("WSAECONNREFUSED", "(WSABASEERR + 61)"),
        ("WSAELOOP", "(WSABASEERR + 62)"), ("WSAENAMETOOLONG", "(WSABASEERR + 63)"),
        ("WSAEHOSTDOWN", "(WSABASEERR + 64)"), ("WSAEHOSTUNREACH", "(WSABASEERR + 65)"),
        ("WSAENOTEMPTY", "(WSABASEERR + 66)"), ("WSAEPROCLIM", "(WSABASEERR + 67)"),
        ("WSAEUSERS", "(WSABASEERR + 68)"), ("WSAEDQUOT", "(WSABASEERR + 69)"), ("WSAESTALE", "(WSABASEERR + 70)"),
        ("WSAEREMOTE", "(WSABASEERR + 71)"), ("WSASYSNOTREADY", "(WSABASEERR + 91)"),
        ("WSAVERNOTSUPPORTED", "(WSABASEERR + 92)"), ("WSANOTINITIALISED", "(WSABASEERR + 93)"),
        ("WSAEDISCON", "(WSABASEERR + 101)"), ("WSAENOMORE", "(WSABASEERR + 102)"),
        ("WSAECANCELLED", "(WSABASEERR + 103)"), ("WSAEINVALIDPROCTABLE", "(WSABASEERR + 104)"),
        ("WSAEINVALIDPROVIDER", "(WSABASEERR + 105)"), ("WSAEPROVIDERFAILEDINIT", "(WSABASEERR + 106)"),
        ("WSASYSCALLFAILURE", "(WSABASEERR + 107)"), ("WSAEREFUSED", "(WSABASEERR + 112)"), ("NOERROR", "0"),
    ] },
    Header { path: "wingdi.h", reach: Reach::Windows { lean: true }, macros: &[
        ("WINGDIAPI", "DECLSPEC_IMPORT"), ("WINSPOOLAPI", "DECLSPEC_IMPORT"), ("SRCCOPY", "(DWORD)0x00CC0020"),
        ("SRCPAINT", "(DWORD)0x00EE0086"), ("SRCAND", "(DWORD)0x008800C6"), ("SRCINVERT", "(DWORD)0x00660046"),
        ("SRCERASE", "(DWORD)0x00440328"), ("NOTSRCCOPY", "(DWORD)0x00330008"),
        ("NOTSRCERASE", "(DWORD)0x001100A6"), ("MERGECOPY", "(DWORD)0x00C000CA"),
        ("MERGEPAINT", "(DWORD)0x00BB0226"), ("PATCOPY", "(DWORD)0x00F00021"), ("PATPAINT", "(DWORD)0x00FB0A09"),
        ("PATINVERT", "(DWORD)0x005A0049"), ("DSTINVERT", "(DWORD)0x00550009"), ("BLACKNESS", "(DWORD)0x00000042"),
        ("WHITENESS", "(DWORD)0x00FF0062"), ("NOMIRRORBITMAP", "(DWORD)0x80000000"),
        ("CAPTUREBLT", "(DWORD)0x40000000"), ("NULLREGION", "1"), ("SIMPLEREGION", "2"), ("COMPLEXREGION", "3"),
        ("BLACKONWHITE", "1"), ("WHITEONBLACK", "2"), ("COLORONCOLOR", "3"), ("HALFTONE", "4"),
        ("MAXSTRETCHBLTMODE", "4"), ("ALTERNATE", "1"), ("WINDING", "2"), ("NEWFRAME", "1"), ("ABORTDOC", "2"),
        ("NEXTBAND", "3"), ("SETCOLORTABLE", "4"), ("GETCOLORTABLE", "5"), ("FLUSHOUTPUT", "6"),
        ("DRAFTMODE", "7"), ("QUERYESCSUPPORT", "8"), ("SETABORTPROC", "9"), ("STARTDOC", "10"),
        ("GETPHYSPAGESIZE", "12"), ("GETPRINTINGOFFSET", "13"), ("GETSCALINGFACTOR", "14"), ("MFCOMMENT", "15"),
        ("GETPENWIDTH", "16"), ("SETCOPYCOUNT", "17"), ("SELECTPAPERSOURCE", "18"), ("DEVICEDATA", "19"),
        ("PASSTHROUGH", "19"), ("GETTECHNOLGY", "20"), ("GETTECHNOLOGY", "20"), ("SETLINECAP", "21"),
        ("SETLINEJOIN", "22"), ("SETMITERLIMIT", "23"), ("BANDINFO", "24"), ("DRAWPATTERNRECT", "25"),
        ("GETVECTORPENSIZE", "26"), ("GETVECTORBRUSHSIZE", "27"), ("GETSETPAPERBINS", "29"),
        ("GETSETPRINTORIENT", "30"), ("SETDIBSCALING", "32"), ("GETSETPAPERMETRICS", "35"), ("MOUSETRAILS", "39"),
        ("GETDEVICEUNITS", "42"), ("GETEXTENDEDTEXTMETRICS", "256"), ("GETEXTENTTABLE", "257"),
        ("GETPAIRKERNTABLE", "258"), ("GETTRACKKERNTABLE", "259"), ("GETFACENAME", "513"), ("DOWNLOADFACE", "514"),
        ("SETKERNTRACK", "770"), ("SETALLJUSTVALUES", "771"), ("SETCHARSET", "772"), ("STRETCHBLT", "2048"),
        ("GETSETSCREENPARAMS", "3072"), ("QUERYDIBSUPPORT", "3073"), ("OPENCHANNEL", "4110"),
        ("DOWNLOADHEADER", "4111"), ("CLOSECHANNEL", "4112"), ("CHECKJPEGFORMAT", "4119"),
        ("CHECKPNGFORMAT", "4120"), ("SPCLPASSTHROUGH2", "4568"), ("TRANSPARENT", "1"), ("OPAQUE", "2"),
        ("ABSOLUTE", "1"), ("RELATIVE", "2"), ("DRIVERVERSION", "0"), ("TECHNOLOGY", "2"), ("HORZSIZE", "4"),
        ("VERTSIZE", "6"), ("HORZRES", "8"), ("VERTRES", "10"), ("BITSPIXEL", "12"), ("PLANES", "14"),
        ("NUMBRUSHES", "16"), ("NUMPENS", "18"), ("NUMMARKERS", "20"), ("NUMFONTS", "22"), ("NUMCOLORS", "24"),
        ("PDEVICESIZE", "26"), ("CURVECAPS", "28"), ("LINECAPS", "30"), ("POLYGONALCAPS", "32"),
        ("TEXTCAPS", "34"), ("CLIPCAPS", "36"), ("RASTERCAPS", "38"), ("ASPECTX", "40"), ("ASPECTY", "42"),
        ("ASPECTXY", "44"), ("LOGPIXELSX", "88"), ("LOGPIXELSY", "90"), ("SIZEPALETTE", "104"),
        ("NUMRESERVED", "106"), ("COLORRES", "108"), ("PHYSICALWIDTH", "110"), ("PHYSICALHEIGHT", "111"),
        ("PHYSICALOFFSETX", "112"), ("PHYSICALOFFSETY", "113"), ("SCALINGFACTORX", "114"),
        ("SCALINGFACTORY", "115"), ("VREFRESH", "116"), ("DESKTOPVERTRES", "117"), ("DESKTOPHORZRES", "118"),
        ("BLTALIGNMENT", "119"), ("SHADEBLENDCAPS", "120"), ("COLORMGMTCAPS", "121"), ("FLOODFILLBORDER", "0"),
        ("FLOODFILLSURFACE", "1"), ("CCHDEVICENAME", "32"), ("CCHFORMNAME", "32"), ("SYSRGN", "4"),
        ("OLDFONTENUMPROC", "__MINGW_NAME_AW(OLDFONTENUMPROC)"), ("GDIREGISTERDDRAWPACKETVERSION", "0x1"),
        ("ICMENUMPROC", "__MINGW_NAME_AW(ICMENUMPROC)"),
        ("wglUseFontBitmaps", "__MINGW_NAME_AW(wglUseFontBitmaps)"),
        ("wglUseFontOutlines", "__MINGW_NAME_AW(wglUseFontOutlines)"),
    ] },
    Header { path: "winnetwk.h", reach: Reach::Windows { lean: true }, macros: &[
        ("PFNGETPROFILEPATH", "__MINGW_NAME_AW(PFNGETPROFILEPATH)"),
        ("PFNRECONCILEPROFILE", "__MINGW_NAME_AW(PFNRECONCILEPROFILE)"),
        ("PFNPROCESSPOLICIES", "__MINGW_NAME_AW(PFNPROCESSPOLICIES)"),
    ] },
    Header { path: "winnls.h", reach: Reach::Windows { lean: true }, macros: &[
        ("WINNORMALIZEAPI", ""),
    ] },
    Header { path: "winnt.h", reach: Reach::Windows { lean: true }, macros: &[
        ("DUMMYUNIONNAME", ""), ("DUMMYUNIONNAME2", ""), ("DUMMYUNIONNAME3", ""), ("DUMMYUNIONNAME4", ""),
        ("DUMMYUNIONNAME5", ""), ("DUMMYUNIONNAME6", ""), ("DUMMYUNIONNAME7", ""), ("DUMMYUNIONNAME8", ""),
        ("DUMMYUNIONNAME9", ""), ("DUMMYSTRUCTNAME", ""), ("DUMMYSTRUCTNAME2", ""), ("DUMMYSTRUCTNAME3", ""),
        ("DUMMYSTRUCTNAME4", ""), ("DUMMYSTRUCTNAME5", ""), ("UNALIGNED", ""), ("UNALIGNED64", ""),
        ("FORCEINLINE", "__inline"), ("FASTCALL", ""), ("NTAPI", "__stdcall"), ("NTSYSAPI", ""),
        ("NTSYSCALLAPI", "DECLSPEC_ADDRSAFE"), ("VOID", "void"), ("STDMETHODCALLTYPE", "WINAPI"),
        ("STDMETHODVCALLTYPE", "__cdecl"), ("STDAPICALLTYPE", "WINAPI"), ("STDAPIVCALLTYPE", "__cdecl"),
        ("STDAPI", "EXTERN_C HRESULT WINAPI"), ("STDMETHODIMP", "HRESULT WINAPI"),
        ("STDAPIV", "EXTERN_C HRESULT STDAPIVCALLTYPE"), ("STDMETHODIMPV", "HRESULT STDMETHODVCALLTYPE"),
        ("IFACEMETHODIMP", "STDMETHODIMP"), ("IFACEMETHODIMPV", "STDMETHODIMPV"),
        ("MAXLONGLONG", "(0x7fffffffffffffffll)"), ("MINCHAR", "0x80"), ("MAXCHAR", "0x7f"),
        ("MINSHORT", "0x8000"), ("MAXSHORT", "0x7fff"), ("MINLONG", "0x80000000"), ("MAXLONG", "0x7fffffff"),
        ("MAXBYTE", "0xff"), ("MAXWORD", "0xffff"), ("MAXDWORD", "0xffffffff"),
        ("DELETE", "(__MSABI_LONG(0x00010000))"), ("SYNCHRONIZE", "(__MSABI_LONG(0x00100000))"), ("WX86", ""),
        ("memcpy", "memcpy_inline"), ("ACTIVATIONCONTEXTINFOCLASS", "ACTIVATION_CONTEXT_INFO_CLASS"),
        ("MAXLOGICALLOGNAMESIZE", "256"),
    ] },
    Header { path: "winuser.h", reach: Reach::Windows { lean: true }, macros: &[
        ("MAKEINTRESOURCE", "__MINGW_NAME_AW(MAKEINTRESOURCE)"), ("DIFFERENCE", "11"),
        ("wvsprintf", "__MINGW_NAME_AW(wvsprintf)"), ("wsprintf", "__MINGW_NAME_AW(wsprintf)"),
        ("XBUTTON1", "0x0001"), ("XBUTTON2", "0x0002"), ("HTERROR", "(-2)"), ("HTTRANSPARENT", "(-1)"),
        ("HTNOWHERE", "0"), ("HTCLIENT", "1"), ("HTCAPTION", "2"), ("HTSYSMENU", "3"), ("HTGROWBOX", "4"),
        ("HTSIZE", "HTGROWBOX"), ("HTMENU", "5"), ("HTHSCROLL", "6"), ("HTVSCROLL", "7"), ("HTMINBUTTON", "8"),
        ("HTMAXBUTTON", "9"), ("HTLEFT", "10"), ("HTRIGHT", "11"), ("HTTOP", "12"), ("HTTOPLEFT", "13"),
        ("HTTOPRIGHT", "14"), ("HTBOTTOM", "15"), ("HTBOTTOMLEFT", "16"), ("HTBOTTOMRIGHT", "17"),
        ("HTBORDER", "18"), ("HTREDUCE", "HTMINBUTTON"), ("HTZOOM", "HTMAXBUTTON"), ("HTSIZEFIRST", "HTLEFT"),
        ("HTSIZELAST", "HTBOTTOMRIGHT"), ("HTOBJECT", "19"), ("HTCLOSE", "20"), ("HTHELP", "21"),
        ("SIZENORMAL", "SIZE_RESTORED"), ("SIZEICONIC", "SIZE_MINIMIZED"), ("SIZEFULLSCREEN", "SIZE_MAXIMIZED"),
        ("SIZEZOOMSHOW", "SIZE_MAXSHOW"), ("SIZEZOOMHIDE", "SIZE_MAXHIDE"), ("FVIRTKEY", "TRUE"),
        ("FNOINVERT", "0x02"), ("FSHIFT", "0x04"), ("FCONTROL", "0x08"), ("FALT", "0x10"), ("NOLSTRING", ""),
        ("NOLFILEIO", ""), ("DLGWINDOWEXTRA", "30"), ("IDOK", "1"), ("IDCANCEL", "2"), ("IDABORT", "3"),
        ("IDRETRY", "4"), ("IDIGNORE", "5"), ("IDYES", "6"), ("IDNO", "7"), ("IDCLOSE", "8"), ("IDHELP", "9"),
        ("IDTRYAGAIN", "10"), ("IDCONTINUE", "11"), ("IDTIMEOUT", "32000"), ("GESTURECONFIGMAXCOUNT", "256"),
    ] },
    Header { path: "combaseapi.h", reach: Reach::Windows { lean: false }, macros: &[
        ("WINOLEAPI", "EXTERN_C DECLSPEC_IMPORT HRESULT STDAPICALLTYPE"), ("PURE", ""),
        ("THIS", "INTERFACE *This"), ("FARSTRUCT", ""), ("HUGEP", ""),
    ] },
    Header { path: "commdlg.h", reach: Reach::Windows { lean: false }, macros: &[
        ("WINCOMMDLGAPI", ""), ("SNDMSG", "SendMessage"), ("LBSELCHSTRINGA", r#""commdlg_LBSelChangedNotify""#),
        ("SHAREVISTRINGA", r#""commdlg_ShareViolation""#), ("FILEOKSTRINGA", r#""commdlg_FileNameOK""#),
        ("COLOROKSTRINGA", r#""commdlg_ColorOK""#), ("SETRGBSTRINGA", r#""commdlg_SetRGBColor""#),
        ("HELPMSGSTRINGA", r#""commdlg_help""#), ("FINDMSGSTRINGA", r#""commdlg_FindReplace""#),
        ("LBSELCHSTRINGW", r#"L"commdlg_LBSelChangedNotify""#), ("SHAREVISTRINGW", r#"L"commdlg_ShareViolation""#),
        ("FILEOKSTRINGW", r#"L"commdlg_FileNameOK""#), ("COLOROKSTRINGW", r#"L"commdlg_ColorOK""#),
        ("SETRGBSTRINGW", r#"L"commdlg_SetRGBColor""#), ("HELPMSGSTRINGW", r#"L"commdlg_help""#),
        ("FINDMSGSTRINGW", r#"L"commdlg_FindReplace""#), ("LBSELCHSTRING", "__MINGW_NAME_AW(LBSELCHSTRING)"),
        ("SHAREVISTRING", "__MINGW_NAME_AW(SHAREVISTRING)"), ("FILEOKSTRING", "__MINGW_NAME_AW(FILEOKSTRING)"),
        ("COLOROKSTRING", "__MINGW_NAME_AW(COLOROKSTRING)"), ("SETRGBSTRING", "__MINGW_NAME_AW(SETRGBSTRING)"),
        ("HELPMSGSTRING", "__MINGW_NAME_AW(HELPMSGSTRING)"), ("FINDMSGSTRING", "__MINGW_NAME_AW(FINDMSGSTRING)"),
        ("INTERFACE", "IPrintDialogServices"),
    ] },
    Header { path: "dlgs.h", reach: Reach::Windows { lean: false }, macros: &[
        ("ctlFirst", "0x0400"), ("ctlLast", "0x04ff"), ("psh1", "0x0400"), ("psh2", "0x0401"), ("psh3", "0x0402"),
        ("psh4", "0x0403"), ("psh5", "0x0404"), ("psh6", "0x0405"), ("psh7", "0x0406"), ("psh8", "0x0407"),
        ("psh9", "0x0408"), ("psh10", "0x0409"), ("psh11", "0x040a"), ("psh12", "0x040b"), ("psh13", "0x040c"),
        ("psh14", "0x040d"), ("psh15", "0x040e"), ("pshHelp", "psh15"), ("psh16", "0x040f"), ("chx1", "0x0410"),
        ("chx2", "0x0411"), ("chx3", "0x0412"), ("chx4", "0x0413"), ("chx5", "0x0414"), ("chx6", "0x0415"),
        ("chx7", "0x0416"), ("chx8", "0x0417"), ("chx9", "0x0418"), ("chx10", "0x0419"), ("chx11", "0x041a"),
        ("chx12", "0x041b"), ("chx13", "0x041c"), ("chx14", "0x041d"), ("chx15", "0x041e"), ("chx16", "0x041f"),
        ("rad1", "0x0420"), ("rad2", "0x0421"), ("rad3", "0x0422"), ("rad4", "0x0423"), ("rad5", "0x0424"),
        ("rad6", "0x0425"), ("rad7", "0x0426"), ("rad8", "0x0427"), ("rad9", "0x0428"), ("rad10", "0x0429"),
        ("rad11", "0x042a"), ("rad12", "0x042b"), ("rad13", "0x042c"), ("rad14", "0x042d"), ("rad15", "0x042e"),
        ("rad16", "0x042f"), ("grp1", "0x0430"), ("grp2", "0x0431"), ("grp3", "0x0432"), ("grp4", "0x0433"),
        ("frm1", "0x0434"), ("frm2", "0x0435"), ("frm3", "0x0436"), ("frm4", "0x0437"), ("rct1", "0x0438"),
        ("rct2", "0x0439"), ("rct3", "0x043a"), ("rct4", "0x043b"), ("ico1", "0x043c"), ("ico2", "0x043d"),
        ("ico3", "0x043e"), ("ico4", "0x043f"), ("stc1", "0x0440"), ("stc2", "0x0441"), ("stc3", "0x0442"),
        ("stc4", "0x0443"), ("stc5", "0x0444"), ("stc6", "0x0445"), ("stc7", "0x0446"), ("stc8", "0x0447"),
        ("stc9", "0x0448"), ("stc10", "0x0449"), ("stc11", "0x044a"), ("stc12", "0x044b"), ("stc13", "0x044c"),
        ("stc14", "0x044d"), ("stc15", "0x044e"), ("stc16", "0x044f"), ("stc17", "0x0450"), ("stc18", "0x0451"),
        ("stc19", "0x0452"), ("stc20", "0x0453"), ("stc21", "0x0454"), ("stc22", "0x0455"), ("stc23", "0x0456"),
        ("stc24", "0x0457"), ("stc25", "0x0458"), ("stc26", "0x0459"), ("stc27", "0x045a"), ("stc28", "0x045b"),
        ("stc29", "0x045c"), ("stc30", "0x045d"), ("stc31", "0x045e"), ("stc32", "0x045f"), ("lst1", "0x0460"),
        ("lst2", "0x0461"), ("lst3", "0x0462"), ("lst4", "0x0463"), ("lst5", "0x0464"), ("lst6", "0x0465"),
        ("lst7", "0x0466"), ("lst8", "0x0467"), ("lst9", "0x0468"), ("lst10", "0x0469"), ("lst11", "0x046a"),
        ("lst12", "0x046b"), ("lst13", "0x046c"), ("lst14", "0x046d"), ("lst15", "0x046e"), ("lst16", "0x046f"),
        ("cmb1", "0x0470"), ("cmb2", "0x0471"), ("cmb3", "0x0472"), ("cmb4", "0x0473"), ("cmb5", "0x0474"),
        ("cmb6", "0x0475"), ("cmb7", "0x0476"), ("cmb8", "0x0477"), ("cmb9", "0x0478"), ("cmb10", "0x0479"),
        ("cmb11", "0x047a"), ("cmb12", "0x047b"), ("cmb13", "0x047c"), ("cmb14", "0x047d"), ("cmb15", "0x047e"),
        ("cmb16", "0x047f"), ("edt1", "0x0480"), ("edt2", "0x0481"), ("edt3", "0x0482"), ("edt4", "0x0483"),
        ("edt5", "0x0484"), ("edt6", "0x0485"), ("edt7", "0x0486"), ("edt8", "0x0487"), ("edt9", "0x0488"),
        ("edt10", "0x0489"), ("edt11", "0x048a"), ("edt12", "0x048b"), ("edt13", "0x048c"), ("edt14", "0x048d"),
        ("edt15", "0x048e"), ("edt16", "0x048f"), ("scr1", "0x0490"), ("scr2", "0x0491"), ("scr3", "0x0492"),
        ("scr4", "0x0493"), ("scr5", "0x0494"), ("scr6", "0x0495"), ("scr7", "0x0496"), ("scr8", "0x0497"),
        ("ctl1", "0x04A0"), ("FILEOPENORD", "1536"), ("MULTIFILEOPENORD", "1537"), ("PRINTDLGORD", "1538"),
        ("PRNSETUPDLGORD", "1539"), ("FINDDLGORD", "1540"), ("REPLACEDLGORD", "1541"), ("FONTDLGORD", "1542"),
        ("FORMATDLGORD31", "1543"), ("FORMATDLGORD30", "1544"), ("RUNDLGORD", "1545"), ("PAGESETUPDLGORD", "1546"),
        ("NEWFILEOPENORD", "1547"), ("PRINTDLGEXORD", "1549"), ("PAGESETUPDLGORDMOTIF", "1550"),
        ("COLORMGMTDLGORD", "1551"), ("NEWFILEOPENV2ORD", "1552"),
    ] },
    Header { path: "inaddr.h", reach: Reach::Windows { lean: false }, macros: &[
        ("u_long", "__ms_u_long"), ("s_addr", "S_un.S_addr"), ("s_host", "S_un.S_un_b.s_b2"),
        ("s_net", "S_un.S_un_b.s_b1"), ("s_imp", "S_un.S_un_w.s_w2"), ("s_impno", "S_un.S_un_b.s_b4"),
        ("s_lh", "S_un.S_un_b.s_b3"),
    ] },
    Header { path: "mmsystem.h", reach: Reach::Windows { lean: false }, macros: &[
        ("WINMMAPI", ""), ("MAXPNAMELEN", "32"), ("MAXERRORLENGTH", "256"),
        ("sndPlaySound", "__MINGW_NAME_AW(sndPlaySound)"),
        ("waveOutGetDevCaps", "__MINGW_NAME_AW(waveOutGetDevCaps)"),
        ("waveOutGetErrorText", "__MINGW_NAME_AW(waveOutGetErrorText)"),
        ("waveInGetDevCaps", "__MINGW_NAME_AW(waveInGetDevCaps)"),
        ("waveInGetErrorText", "__MINGW_NAME_AW(waveInGetErrorText)"), ("MIDIPATCHSIZE", "128"),
        ("MIDIMAPPER", "((UINT)-1)"), ("midiOutGetDevCaps", "__MINGW_NAME_AW(midiOutGetDevCaps)"),
        ("midiOutGetErrorText", "__MINGW_NAME_AW(midiOutGetErrorText)"),
        ("midiInGetDevCaps", "__MINGW_NAME_AW(midiInGetDevCaps)"),
        ("midiInGetErrorText", "__MINGW_NAME_AW(midiInGetErrorText)"),
        ("auxGetDevCaps", "__MINGW_NAME_AW(auxGetDevCaps)"),
        ("mixerGetDevCaps", "__MINGW_NAME_AW(mixerGetDevCaps)"),
        ("mixerGetLineInfo", "__MINGW_NAME_AW(mixerGetLineInfo)"),
        ("mixerGetLineControls", "__MINGW_NAME_AW(mixerGetLineControls)"),
        ("mixerGetControlDetails", "__MINGW_NAME_AW(mixerGetControlDetails)"), ("JOYSTICKID1", "0"),
        ("JOYSTICKID2", "1"), ("joyGetDevCaps", "__MINGW_NAME_AW(joyGetDevCaps)"), ("CFSEPCHAR", "'+'"),
        ("mmioStringToFOURCC", "__MINGW_NAME_AW(mmioStringToFOURCC)"),
        ("mmioInstallIOProc", "__MINGW_NAME_AW(mmioInstallIOProc)"), ("mmioOpen", "__MINGW_NAME_AW(mmioOpen)"),
        ("mmioRename", "__MINGW_NAME_AW(mmioRename)"), ("mciSendCommand", "__MINGW_NAME_AW(mciSendCommand)"),
        ("mciSendString", "__MINGW_NAME_AW(mciSendString)"), ("mciGetDeviceID", "__MINGW_NAME_AW(mciGetDeviceID)"),
        ("mciGetDeviceIDFromElementID", "__MINGW_NAME_AW(mciGetDeviceIDFromElementID)"),
        ("mciGetErrorString", "__MINGW_NAME_AW(mciGetErrorString)"), ("NEWTRANSPARENT", "3"),
        ("QUERYROPSUPPORT", "40"), ("SELECTDIB", "41"),
    ] },
    Header { path: "nb30.h", reach: Reach::Windows { lean: false }, macros: &[
        ("NCBNAMSZ", "16"), ("REGISTERING", "0x00"), ("REGISTERED", "0x04"), ("DEREGISTERED", "0x05"),
        ("DUPLICATE", "0x06"), ("NCBCALL", "0x10"), ("NCBLISTEN", "0x11"), ("NCBHANGUP", "0x12"),
        ("NCBSEND", "0x14"), ("NCBRECV", "0x15"), ("NCBRECVANY", "0x16"), ("NCBCHAINSEND", "0x17"),
        ("NCBDGSEND", "0x20"), ("NCBDGRECV", "0x21"), ("NCBDGSENDBC", "0x22"), ("NCBDGRECVBC", "0x23"),
        ("NCBADDNAME", "0x30"), ("NCBDELNAME", "0x31"), ("NCBRESET", "0x32"), ("NCBASTAT", "0x33"),
        ("NCBSSTAT", "0x34"), ("NCBCANCEL", "0x35"), ("NCBADDGRNAME", "0x36"), ("NCBENUM", "0x37"),
        ("NCBUNLINK", "0x70"), ("NCBSENDNA", "0x71"), ("NCBCHAINSENDNA", "0x72"), ("NCBLANSTALERT", "0x73"),
        ("NCBACTION", "0x77"), ("NCBFINDNAME", "0x78"), ("NCBTRACE", "0x79"), ("ASYNCH", "0x80"),
    ] },
    Header { path: "oaidl.h", reach: Reach::Windows { lean: false }, macros: &[
        ("REFVARIANT", "const VARIANT * __MIDL_CONST"),
    ] },
    Header { path: "objbase.h", reach: Reach::Windows { lean: false }, macros: &[
        ("CWCSTORAGENAME", "32"),
    ] },
    Header { path: "oleauto.h", reach: Reach::Windows { lean: false }, macros: &[
        ("WINOLEAUTAPI", "EXTERN_C DECLSPEC_IMPORT HRESULT WINAPI"),
    ] },
    Header { path: "propidl.h", reach: Reach::Windows { lean: false }, macros: &[
        ("REFPROPVARIANT", "const PROPVARIANT * __MIDL_CONST"),
    ] },
    Header { path: "prsht.h", reach: Reach::Windows { lean: false }, macros: &[
        ("WINCOMMCTRLAPI", ""), ("MAXPROPPAGES", "100"), ("LPFNPSPCALLBACK", "__MINGW_NAME_AW(LPFNPSPCALLBACK)"),
        ("PROPSHEETPAGE", "__MINGW_NAME_AW(PROPSHEETPAGE)"),
        ("LPPROPSHEETPAGE", "__MINGW_NAME_AW(LPPROPSHEETPAGE)"),
        ("LPCPROPSHEETPAGE", "__MINGW_NAME_AW(LPCPROPSHEETPAGE)"),
        ("PROPSHEETHEADER", "__MINGW_NAME_AW(PROPSHEETHEADER)"),
        ("LPPROPSHEETHEADER", "__MINGW_NAME_AW(LPPROPSHEETHEADER)"),
        ("LPCPROPSHEETHEADER", "__MINGW_NAME_AW(LPCPROPSHEETHEADER)"),
    ] },
    Header { path: "psdk_inc/_ip_types.h", reach: Reach::Windows { lean: false }, macros: &[
        ("h_addr", "h_addr_list[0]"),
    ] },
    Header { path: "psdk_inc/_wsa_errnos.h", reach: Reach::Windows { lean: false }, macros: &[
        ("h_errno", "WSAGetLastError()"),
    ] },
    Header { path: "rpc.h", reach: Reach::Windows { lean: false }, macros: &[
        ("midl_user_allocate", "MIDL_user_allocate"), ("midl_user_free", "MIDL_user_free"), ("RPCRTAPI", ""),
        ("RPCNSAPI", ""),
    ] },
    Header { path: "rpcdce.h", reach: Reach::Windows { lean: false }, macros: &[
        ("rpc_binding_handle_t", "RPC_BINDING_HANDLE"), ("uuid_t", "UUID"),
        ("rpc_binding_vector_t", "RPC_BINDING_VECTOR"), ("uuid_vector_t", "UUID_VECTOR"),
    ] },
    Header { path: "rpcndr.h", reach: Reach::Windows { lean: false }, macros: &[
        ("small", "char"), ("hyper", "__int64"), ("cbNDRContext", "20"),
    ] },
    Header { path: "shellapi.h", reach: Reach::Windows { lean: false }, macros: &[
        ("WINSHELLAPI", ""), ("SHSTDAPI", "STDAPI"), ("SHDOCAPI", "STDAPI"),
    ] },
    Header { path: "urlmon.h", reach: Reach::Windows { lean: false }, macros: &[
        ("LPOINET", "LPIINTERNET"), ("LPOINETPROTOCOLINFO", "LPIINTERNETPROTOCOLINFO"),
        ("LPOINETBINDINFO", "LPIINTERNETBINDINFO"), ("LPOINETPROTOCOLROOT", "LPIINTERNETPROTOCOLROOT"),
        ("LPOINETPROTOCOL", "LPIINTERNETPROTOCOL"), ("LPOINETPROTOCOLEX", "LPIINTERNETPROTOCOLEX"),
        ("LPOINETPROTOCOLSINK", "LPIINTERNETPROTOCOLSINK"), ("LPOINETSESSION", "LPIINTERNETSESSION"),
        ("LPOINETTHREADSWITCH", "LPIINTERNETTHREADSWITCH"), ("LPOINETPRIORITY", "LPIINTERNETPRIORITY"),
        ("LPOINETPROTOCOLSINKSTACKABLE", "LPIINTERNETPROTOCOLSINKSTACKABLE"),
    ] },
    Header { path: "wincrypt.h", reach: Reach::Windows { lean: false }, macros: &[
        ("WINIMPM", "DECLSPEC_IMPORT"), ("WINCRYPT32API", "WINIMPM"), ("WINCRYPT32STRINGAPI", "WINIMPM"),
        ("ALGIDDEF", ""), ("SIMPLEBLOB", "0x1"), ("PUBLICKEYBLOB", "0x6"), ("PRIVATEKEYBLOB", "0x7"),
        ("PLAINTEXTKEYBLOB", "0x8"), ("OPAQUEKEYBLOB", "0x9"), ("PUBLICKEYBLOBEX", "0xa"),
        ("SYMMETRICWRAPKEYBLOB", "0xb"), ("KEYSTATEBLOB", "0xc"), ("MAXUIDLEN", "64"),
    ] },
    Header { path: "winscard.h", reach: Reach::Windows { lean: false }, macros: &[
        ("WINSCARDAPI", ""), ("WINSCARDDATA", "__declspec(dllimport)"),
        ("LPOCNCONNPROC", "__MINGW_NAME_AW(LPOCNCONNPROC)"),
    ] },
    Header { path: "winsock.h", reach: Reach::Windows { lean: false }, macros: &[
        ("WSAAPI", "WINAPI"), ("FIONREAD", "_IOR('f',127,u_long)"), ("FIONBIO", "_IOW('f',126,u_long)"),
        ("FIOASYNC", "_IOW('f',125,u_long)"), ("SIOCSHIWAT", "_IOW('s',0,u_long)"),
        ("SIOCGHIWAT", "_IOR('s',1,u_long)"), ("SIOCSLOWAT", "_IOW('s',2,u_long)"),
        ("SIOCGLOWAT", "_IOR('s',3,u_long)"), ("SIOCATMARK", "_IOR('s',7,u_long)"), ("SOMAXCONN", "5"),
        ("MAXGETHOSTSTRUCT", "1024"),
    ] },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every listed name could be a member: a name E0706 refuses never reaches the headers, and
    /// the Windows names have the shapes the list promises. A name is listed once per platform.
    #[test]
    fn listed_names_are_names_e0706_lets_through() {
        let mut seen = std::collections::HashSet::new();
        for m in all() {
            assert_eq!(super::super::identifier_problem(m.name), None, "{}", m.name);
            assert_eq!(super::super::c_headers::macro_of(m.name), None, "{}", m.name);
            assert!(!m.name.contains("__") && !m.name.starts_with('_'), "{}", m.name);
            if matches!(m.header.reach, Reach::Windows { .. }) {
                assert!(windows_shape(m.name), "{}", m.name);
            }
            assert!(seen.insert((m.header.reach.platform(), m.name)), "{} twice", m.name);
        }
        assert!(XLIB.iter().map(|h| h.macros.len()).sum::<usize>() > 400);
        assert!(WINDOWS.iter().map(|h| h.macros.len()).sum::<usize>() > 700);
    }

    /// Only the record members and the C++ namespaces need checking: every other name the C and
    /// C++ headers print from a description's joins it with dgcc's own words (`DGCC_SCENE_H`,
    /// `SceneSceneDrawRecord`, `scene_scene_draw_tokens`, `SCENE_SCENE_DRAW_STRIDE`, the C++
    /// header's `draw_offset`), and no listed macro is spelled like such a join.
    #[test]
    fn no_listed_macro_is_spelled_like_a_joined_name() {
        const SUFFIXES: &[&str] = &[
            "Record",
            "_tokens",
            "_create_info",
            "_check_record",
            "_data",
            "_push_constant_ranges",
            "_offset",
            "_STRIDE",
            "_SHADER_STAGES",
            "_USAGE_FLAGS",
            "_MAX_SEQUENCES",
            "_TOKEN_COUNT",
            "_ASSERT_RECORD",
            "_OFFSET",
            "_PUSH_CONSTANT_RANGE_COUNT",
            "_LOCAL_SIZE_X",
            "_LOCAL_SIZE_Y",
            "_LOCAL_SIZE_Z",
            "_REQUIRED_SUBGROUP_SIZE",
            "_STAGE_FLAGS",
        ];
        for m in all() {
            assert!(!SUFFIXES.iter().any(|s| m.name.ends_with(s)), "{}", m.name);
            assert!(!m.name.to_ascii_uppercase().starts_with("DGCC"), "{}", m.name);
        }
    }

    #[test]
    fn macros_are_found_by_name_and_described() {
        let one = |name: &str| {
            let found = macros_named(name);
            assert_eq!(found.len(), 1, "{name}: {found:?}");
            found[0]
        };
        let near = one("near");
        assert_eq!(near.defines(), "`minwindef.h` defines `near` as nothing");
        assert_eq!(near.via(), "`minwindef.h`, which windows.h includes");
        assert_eq!(near.header.reach, Reach::Windows { lean: true });
        let small = one("small");
        assert_eq!(small.defines(), "`rpcndr.h` defines `small` as `char`");
        assert_eq!(small.header.reach, Reach::Windows { lean: false });
        assert_eq!(one("hyper").expansion, "__int64");
        assert_eq!(one("lstrcat").expansion_words(), "`lstrcatA` or `lstrcatW`");
        let none = one("None");
        assert_eq!(none.defines(), "`X11/X.h` defines `None` as `0L`");
        assert_eq!(none.via(), "`X11/X.h`, which X11/Xlib.h includes");
        assert_eq!(one("Bool").via(), "X11/Xlib.h");
        for name in ["far", "pascal", "cdecl", "IN", "OUT", "OPTIONAL", "CONST", "DELETE", "VOID", "s_addr", "psh1"] {
            one(name);
        }
        for name in ["Status", "True", "False", "Success", "Always", "Expose", "KeyPress"] {
            assert_eq!(one(name).header.reach, Reach::Xlib, "{name}");
        }
        // Function-like macros, names E0706 refuses, PascalCase and multi-word capitals of
        // windows.h, and names close to listed ones are not listed.
        for name in [
            "min",
            "max",
            "interface",
            "ERROR",
            "NULL",
            "CreateWindow",
            "MAX_PATH",
            "WM_PAINT",
            "nearest",
            "Far",
            "none",
            "status",
            "true_",
            "DefaultScreen",
        ] {
            assert!(macros_named(name).is_empty(), "{name}");
        }
    }
}
