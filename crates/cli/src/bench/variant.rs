//! What one column of the benchmark runs: a scene mode plus, for DGC, overrides of the layout's
//! `ExplicitPreprocess` and `UnorderedSequences` flags and its tokens, and, for the GPU-driven
//! modes, where the draws read their object id.
//!
//! Why variants have names like `dgc-explicit-ordered`: one `--modes` list then runs the
//! questions "what does implicit preprocessing cost?" and "does the unordered hint matter?"
//! side by side in the same run, on the same device, with the same scene; the name is also the
//! row label in every output.

use crate::scene::{Bind, DgcMaterials, Mode, ObjectId, RunOptions};
use serde::Serialize;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Variant {
    pub mode: Mode,
    /// `Some` only for dgc: replaces the layout's `ExplicitPreprocess` flag.
    pub explicit_preprocess: Option<bool>,
    /// `Some` only for dgc: replaces the layout's `UnorderedSequences` flag.
    pub unordered_sequences: Option<bool>,
    /// dgc only: drop the INDEX_BUFFER token, bind the index buffer once (`-boundindex`).
    pub bind_index_buffer: bool,
    /// dgc and mdi: the object id from each draw's firstInstance (`-firstinstance`) or
    /// vertexOffset (`-vertexoffset`); dgc then
    /// drops the PUSH_CONSTANT token.
    pub object_id: ObjectId,
    /// dgc and cpu, with several materials: sort the stream by material first (`-sorted`).
    pub sort_materials: bool,
    /// dgc with several materials: the execution set where the device binds it (default), or
    /// the set insisted on (`-set`), or binned (`-binned`).
    pub dgc_materials: DgcMaterials,
    /// Draws with shader objects instead of pipelines (`-objects`): with several materials the
    /// execution set holds them (dgc only); with one, every mode binds them.
    pub bind: Bind,
    /// dgc only: the executor keeps its own barrier in front of the stream (`-barrier`).
    pub executor_barrier: bool,
    /// dgc only: each pass as one sequence of the batch layout that multi-draws its records
    /// (`-batch`, `dgcc run --batch`).
    pub batch: bool,
}

impl Variant {
    pub const fn plain(mode: Mode) -> Variant {
        Variant {
            mode,
            explicit_preprocess: None,
            unordered_sequences: None,
            bind_index_buffer: false,
            object_id: ObjectId::Record,
            sort_materials: false,
            dgc_materials: DgcMaterials::Auto,
            bind: Bind::Pipelines,
            executor_barrier: false,
            batch: false,
        }
    }

    /// Whether the variant is about several materials (sorting or binning them).
    pub fn needs_materials(&self) -> bool {
        self.sort_materials || self.dgc_materials != DgcMaterials::Auto
    }

    /// The multi-draw variant whose draws read their object id and bind their shaders as this
    /// one's do at `materials` materials: `mdi-vertexoffset` for `dgc-explicit-batch-vertexoffset`,
    /// `mdi-objects` for `dgc-batch-objects` at one material, plain `mdi` where nothing differs.
    /// `None` for a sequence per draw that reads its push constant: no multi-draw reads one.
    pub fn multi_draw_twin(&self, materials: u32) -> Option<Variant> {
        if self.mode == Mode::Dgc && !self.batch && self.object_id == ObjectId::Record {
            return None;
        }
        let mut twin = Variant::plain(Mode::Mdi);
        twin.object_id = self.object_id;
        if materials == 1 {
            twin.bind = self.bind;
        }
        Some(twin)
    }

    /// `cpu`, `mdi`, `dgc`, or `dgc` followed by `-explicit`/`-implicit`, `-ordered`/
    /// `-unordered`, `-boundindex`, `-barrier`, `-batch`, `-firstinstance`/`-vertexoffset`,
    /// `-set`/`-binned`/`-sorted` and `-objects` (shader objects instead of pipelines), in any
    /// order; mdi with `-firstinstance` or `-vertexoffset` and `-objects`; cpu with `-sorted` and
    /// `-objects`.
    pub fn parse(text: &str) -> Result<Variant, String> {
        let mut parts = text.trim().split('-');
        let head = parts.next().unwrap_or_default();
        let mode = Mode::from_name(head)
            .ok_or_else(|| format!("unknown mode `{head}` in `{text}`: expected cpu, mdi or dgc"))?;
        let mut v = Variant::plain(mode);
        for part in parts {
            if part == "sorted" && mode != Mode::Mdi {
                if std::mem::replace(&mut v.sort_materials, true) {
                    return Err(format!("`{text}` says sorted twice"));
                }
                continue;
            }
            if (part == "set" || part == "binned") && mode == Mode::Dgc {
                let how = if part == "set" { DgcMaterials::Set } else { DgcMaterials::Binned };
                if std::mem::replace(&mut v.dgc_materials, how) != DgcMaterials::Auto {
                    return Err(format!("`{text}` says set or binned twice"));
                }
                continue;
            }
            if part == "objects" {
                if std::mem::replace(&mut v.bind, Bind::ShaderObjects) == Bind::ShaderObjects {
                    return Err(format!("`{text}` says objects twice"));
                }
                continue;
            }
            if (part == "firstinstance" || part == "vertexoffset") && mode != Mode::Cpu {
                let id = if part == "firstinstance" { ObjectId::Instance } else { ObjectId::Vertex };
                if std::mem::replace(&mut v.object_id, id) != ObjectId::Record {
                    return Err(format!("`{text}` names the object id's place twice (firstinstance, vertexoffset)"));
                }
                continue;
            }
            if mode != Mode::Dgc {
                return Err(format!(
                    "`{text}`: only dgc takes options (`-{part}`), and mdi `-firstinstance`, `-vertexoffset` or `-objects`, cpu `-sorted` or `-objects`"
                ));
            }
            if part == "boundindex" {
                if std::mem::replace(&mut v.bind_index_buffer, true) {
                    return Err(format!("`{text}` says boundindex twice"));
                }
                continue;
            }
            if part == "barrier" {
                if std::mem::replace(&mut v.executor_barrier, true) {
                    return Err(format!("`{text}` says barrier twice"));
                }
                continue;
            }
            if part == "batch" {
                if std::mem::replace(&mut v.batch, true) {
                    return Err(format!("`{text}` says batch twice"));
                }
                continue;
            }
            let (slot, value) = match part {
                "explicit" => (&mut v.explicit_preprocess, true),
                "implicit" => (&mut v.explicit_preprocess, false),
                "unordered" => (&mut v.unordered_sequences, true),
                "ordered" => (&mut v.unordered_sequences, false),
                _ => {
                    return Err(format!(
                        "`{text}`: unknown dgc option `{part}` (explicit, implicit, ordered, unordered, boundindex, barrier, batch, firstinstance, vertexoffset, set, binned, sorted, objects)"
                    ))
                }
            };
            if slot.replace(value).is_some() {
                return Err(format!("`{text}` sets the same flag twice"));
            }
        }
        if v.sort_materials && v.dgc_materials == DgcMaterials::Binned {
            return Err(format!("`{text}`: binned draws are sorted by material already"));
        }
        if v.bind == Bind::ShaderObjects && v.dgc_materials == DgcMaterials::Binned {
            return Err(format!("`{text}`: binned draws use no execution set to hold shader objects"));
        }
        if v.batch && (v.bind_index_buffer || v.needs_materials()) {
            return Err(format!(
                "`{text}`: a batch binds its index buffer once and bins the stream by material itself; it takes no boundindex or material options"
            ));
        }
        Ok(v)
    }

    /// Apply the variant to scene options.
    pub fn apply(&self, options: &mut RunOptions) {
        options.mode = self.mode;
        options.explicit_preprocess = self.explicit_preprocess;
        options.unordered_sequences = self.unordered_sequences;
        options.bind_index_buffer = self.bind_index_buffer;
        options.object_id = self.object_id;
        options.sort_materials = self.sort_materials;
        options.dgc_materials = self.dgc_materials;
        options.bind = self.bind;
        options.executor_barrier = self.executor_barrier;
        options.batch = self.batch;
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mode.name())?;
        match self.explicit_preprocess {
            Some(true) => f.write_str("-explicit")?,
            Some(false) => f.write_str("-implicit")?,
            None => {}
        }
        match self.unordered_sequences {
            Some(true) => f.write_str("-unordered")?,
            Some(false) => f.write_str("-ordered")?,
            None => {}
        }
        if self.bind_index_buffer {
            f.write_str("-boundindex")?;
        }
        if self.executor_barrier {
            f.write_str("-barrier")?;
        }
        if self.batch {
            f.write_str("-batch")?;
        }
        match self.object_id {
            ObjectId::Instance => f.write_str("-firstinstance")?,
            ObjectId::Vertex => f.write_str("-vertexoffset")?,
            ObjectId::Record => {}
        }
        match self.dgc_materials {
            DgcMaterials::Set => f.write_str("-set")?,
            DgcMaterials::Binned => f.write_str("-binned")?,
            DgcMaterials::Auto => {}
        }
        if self.sort_materials {
            f.write_str("-sorted")?;
        }
        if self.bind == Bind::ShaderObjects {
            f.write_str("-objects")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "cpu",
            "mdi",
            "dgc",
            "dgc-explicit",
            "dgc-implicit-ordered",
            "dgc-unordered",
            "dgc-boundindex",
            "dgc-explicit-boundindex",
            "dgc-firstinstance",
            "dgc-boundindex-firstinstance",
            "dgc-batch",
            "dgc-explicit-batch",
            "dgc-batch-firstinstance",
            "mdi-firstinstance",
            "dgc-vertexoffset",
            "dgc-explicit-batch-vertexoffset",
            "mdi-vertexoffset",
            "dgc-set",
            "dgc-binned",
            "dgc-sorted",
            "dgc-set-sorted",
            "dgc-objects",
            "dgc-sorted-objects",
            "dgc-explicit-batch-objects",
            "dgc-batch-vertexoffset-objects",
            "mdi-objects",
            "mdi-vertexoffset-objects",
            "cpu-objects",
            "cpu-sorted",
            "cpu-sorted-objects",
        ] {
            assert_eq!(Variant::parse(name).unwrap().to_string(), name);
        }
        let v = Variant::parse("dgc-ordered-explicit").unwrap();
        assert_eq!((v.explicit_preprocess, v.unordered_sequences), (Some(true), Some(false)));
        assert_eq!(v.to_string(), "dgc-explicit-ordered");
    }

    #[test]
    fn mistakes_say_what_is_wrong() {
        assert!(Variant::parse("gpu").unwrap_err().contains("unknown mode `gpu`"));
        assert!(Variant::parse("mdi-explicit").unwrap_err().contains("only dgc"));
        assert!(Variant::parse("dgc-fast").unwrap_err().contains("unknown dgc option `fast`"));
        assert!(Variant::parse("dgc-explicit-implicit").unwrap_err().contains("twice"));
        assert!(Variant::parse("dgc-boundindex-boundindex").unwrap_err().contains("twice"));
        assert!(Variant::parse("mdi-boundindex").unwrap_err().contains("only dgc"));
        assert!(Variant::parse("cpu-firstinstance").unwrap_err().contains("only dgc"));
        assert!(Variant::parse("mdi-firstinstance-firstinstance").unwrap_err().contains("twice"));
        assert!(Variant::parse("dgc-vertexoffset-firstinstance").unwrap_err().contains("twice"));
        assert!(Variant::parse("cpu-vertexoffset").unwrap_err().contains("only dgc"));
        assert!(Variant::parse("mdi-sorted").unwrap_err().contains("only dgc"));
        assert!(Variant::parse("cpu-binned").unwrap_err().contains("only dgc"));
        assert!(Variant::parse("dgc-binned-sorted").unwrap_err().contains("sorted by material already"));
        assert!(Variant::parse("dgc-set-binned").unwrap_err().contains("twice"));
        assert!(Variant::parse("dgc-binned-objects").unwrap_err().contains("no execution set"));
        assert!(Variant::parse("mdi-objects-objects").unwrap_err().contains("twice"));
        assert!(Variant::parse("mdi-batch").unwrap_err().contains("only dgc"));
        assert!(Variant::parse("dgc-batch-batch").unwrap_err().contains("twice"));
        assert!(Variant::parse("dgc-batch-sorted").unwrap_err().contains("no boundindex or material"));
    }

    #[test]
    fn the_multi_draw_twin_reads_the_object_id_and_binds_the_shaders_as_the_dgc_row_does() {
        let twin = |name: &str, materials| {
            Variant::parse(name).unwrap().multi_draw_twin(materials).map(|v| v.to_string()).unwrap_or_default()
        };
        assert_eq!(twin("dgc-explicit-batch-vertexoffset", 1), "mdi-vertexoffset");
        assert_eq!(twin("dgc-vertexoffset", 1), "mdi-vertexoffset");
        assert_eq!(twin("dgc-batch-firstinstance", 1), "mdi-firstinstance");
        assert_eq!(twin("dgc-explicit-batch-objects", 1), "mdi-objects");
        assert_eq!(twin("dgc-batch-vertexoffset-objects", 1), "mdi-vertexoffset-objects");
        assert_eq!(twin("dgc-explicit-batch", 1), "mdi");
        // A sequence per draw reads its push constant, which no multi-draw does.
        assert_eq!(twin("dgc-objects", 1), "");
        assert_eq!(twin("dgc-explicit", 1), "");
        // Several materials: the objects are the set's, and multi-draw bins them with pipelines.
        assert_eq!(twin("dgc-sorted-vertexoffset-objects", 16), "mdi-vertexoffset");
    }

    #[test]
    fn applying_sets_the_scene_options() {
        let mut o = RunOptions::default();
        Variant::parse("dgc-explicit-ordered").unwrap().apply(&mut o);
        assert_eq!((o.mode, o.explicit_preprocess, o.unordered_sequences), (Mode::Dgc, Some(true), Some(false)));
        Variant::parse("mdi").unwrap().apply(&mut o);
        assert_eq!((o.mode, o.explicit_preprocess, o.unordered_sequences), (Mode::Mdi, None, None));
        Variant::parse("dgc-boundindex").unwrap().apply(&mut o);
        assert!(o.bind_index_buffer);
        Variant::parse("mdi-firstinstance").unwrap().apply(&mut o);
        assert_eq!((o.mode, o.object_id, o.bind_index_buffer), (Mode::Mdi, ObjectId::Instance, false));
        Variant::parse("dgc-batch-vertexoffset").unwrap().apply(&mut o);
        assert_eq!((o.mode, o.object_id, o.batch), (Mode::Dgc, ObjectId::Vertex, true));
        Variant::parse("mdi-firstinstance").unwrap().apply(&mut o);
        assert!(!o.executor_barrier);
        let v = Variant::parse("dgc-explicit-barrier").unwrap();
        assert_eq!(v.to_string(), "dgc-explicit-barrier");
        v.apply(&mut o);
        assert!(o.executor_barrier);
        Variant::parse("dgc-batch").unwrap().apply(&mut o);
        assert!(o.batch && !o.executor_barrier);
        assert!(Variant::parse("mdi-barrier").unwrap_err().contains("only dgc"));
        assert!(Variant::parse("dgc-barrier-barrier").unwrap_err().contains("twice"));
    }
}
