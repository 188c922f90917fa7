//! The serde visitors that read RON one level deep, keeping every value as a borrowed
//! `&RawValue` (a sub-slice of the source, so that its span is a pointer difference).
//!
//! Why visitors of our own: serde's derived ones would read the whole value into typed data
//! and lose both the spans and the chance to report more than one error.

use ron::value::RawValue;
use serde::de::{DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};

use super::reader::Shape;

/// The `(key, raw value)` pairs of a struct, in source order.
pub(super) type Pairs<'de> = Vec<(&'de str, &'de RawValue)>;

pub(super) struct FieldsVisitor;

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Pairs<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a struct")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut pairs = Vec::new();
        while let Some(key) = map.next_key::<&'de str>()? {
            pairs.push((key, map.next_value::<&'de RawValue>()?));
        }
        Ok(pairs)
    }
}

pub(super) struct SeqVisitor;

impl<'de> Visitor<'de> for SeqVisitor {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a tuple")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            items.push(item);
        }
        Ok(items)
    }
}

pub(super) enum RawBody<'de> {
    Unit,
    Struct(Pairs<'de>),
    Tuple(Vec<&'de RawValue>),
    Unknown,
}

/// A variant name, borrowed from the source (so that its span is known). `&str`'s own
/// `Deserialize` would ask ron for a string literal, not an identifier.
pub(super) struct IdentSeed;

impl<'de> DeserializeSeed<'de> for IdentSeed {
    type Value = &'de str;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<&'de str, D::Error> {
        deserializer.deserialize_identifier(IdentVisitor)
    }
}

struct IdentVisitor;

impl<'de> Visitor<'de> for IdentVisitor {
    type Value = &'de str;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a name")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, name: &'de str) -> Result<&'de str, E> {
        Ok(name)
    }
}

pub(super) struct EnumVisitor<'f> {
    pub(super) shape: &'f dyn Fn(&str) -> Shape,
}

impl<'de> Visitor<'de> for EnumVisitor<'_> {
    type Value = (&'de str, RawBody<'de>);

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an enum variant")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        let (name, access) = data.variant_seed(IdentSeed)?;
        let body = match (self.shape)(name) {
            Shape::Unit => access.unit_variant().map(|()| RawBody::Unit)?,
            Shape::Struct => RawBody::Struct(access.struct_variant(&[], FieldsVisitor)?),
            Shape::Tuple => RawBody::Tuple(access.tuple_variant(0, SeqVisitor)?),
            Shape::Unknown => RawBody::Unknown,
        };
        Ok((name, body))
    }
}
