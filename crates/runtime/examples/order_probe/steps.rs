//! The probe's steps: what a step draws or binds, and how one is written on the command line.

/// Where the vertex shader reads its object id (`order_probe.vert`'s constant 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    Push = 0,
    Instance = 1,
    DrawId = 2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Push,
    Instance,
    Mdi,
    MdiDrawId,
    MdiPush,
    /// Bind a pipeline in a frame of its own and draw nothing.
    Bind(Source),
    /// Bind the instance pipeline before the rendering begins, draw nothing.
    BindOutside,
    /// Record a bind of the instance pipeline into a command buffer that is never submitted.
    BindUnsubmitted,
    /// Bind a second pipeline object made from the push-constant pipeline's create info.
    BindCopy,
    /// The push loop, with the instance pipeline bound first in the same command buffer.
    PushPrimed,
    /// Submit the runtime's warm-up (`dgcc_runtime::WarmUp`) in a command buffer of its own.
    BindWarmUp,
    /// Submit a bind of warm-up shape N (`warm_shape`) in a command buffer of its own.
    BindShape(u32),
}

#[derive(Clone, Debug)]
pub struct Step {
    pub label: String,
    pub mode: Mode,
    pub buffer: bool,
    pub frames: u32,
    pub draws: u32,
}

impl Mode {
    pub fn source(self) -> Source {
        match self {
            Mode::Push | Mode::MdiPush | Mode::BindCopy | Mode::PushPrimed | Mode::BindWarmUp | Mode::BindShape(_) => {
                Source::Push
            }
            Mode::Instance | Mode::Mdi | Mode::BindOutside | Mode::BindUnsubmitted => Source::Instance,
            Mode::MdiDrawId => Source::DrawId,
            Mode::Bind(source) => source,
        }
    }
}

pub fn parse_step(text: &str, frames: u32, draws: u32) -> std::result::Result<Step, String> {
    let mut parts = text.split(':');
    let name = parts.next().unwrap_or_default();
    let (name, buffer) = match name.strip_suffix("-nobuf") {
        Some(n) => (n, false),
        None => (name, true),
    };
    let mode = match name {
        "push" => Mode::Push,
        "instance" => Mode::Instance,
        "mdi" => Mode::Mdi,
        "mdi-drawid" => Mode::MdiDrawId,
        "mdi-push" => Mode::MdiPush,
        "bind" => Mode::Bind(Source::Instance),
        "bind-push" => Mode::Bind(Source::Push),
        "bind-drawid" => Mode::Bind(Source::DrawId),
        "bind-outside" => Mode::BindOutside,
        "bind-unsubmitted" => Mode::BindUnsubmitted,
        "bind-copy" => Mode::BindCopy,
        "push-primed" => Mode::PushPrimed,
        "bind-warm-up" => Mode::BindWarmUp,
        n if n.starts_with("bind-w") => {
            Mode::BindShape(n[6..].parse().map_err(|_| format!("step `{text}`: no shape"))?)
        }
        _ => return Err(format!("unknown step `{text}` (see the file's header; -nobuf)")),
    };
    let mut number = |default: u32| -> std::result::Result<u32, String> {
        match parts.next() {
            None | Some("") => Ok(default),
            Some(n) => n.parse().map_err(|_| format!("step `{text}`: `{n}` is not a count")),
        }
    };
    let frames = number(frames)?;
    let binds_only = matches!(
        mode,
        Mode::Bind(_)
            | Mode::BindOutside
            | Mode::BindUnsubmitted
            | Mode::BindCopy
            | Mode::BindWarmUp
            | Mode::BindShape(_)
    );
    let step_draws = if binds_only { 0 } else { number(draws)? };
    if step_draws > draws {
        return Err(format!("step `{text}` draws more than --draws {draws}"));
    }
    Ok(Step { label: text.to_string(), mode, buffer, frames, draws: step_draws })
}
