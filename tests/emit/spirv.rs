//! Reads struct layouts out of `spirv-dis` text: the `Offset`, `ArrayStride` and `MatrixStride`
//! decorations glslang writes are the oracle for what a GLSL block declaration means.

#![allow(dead_code)]

use std::collections::HashMap;

/// One struct type as SPIR-V lays it out.
#[derive(Debug)]
pub struct StructLayout {
    pub member_names: Vec<String>,
    pub offsets: Vec<u32>,
    /// Per member: the array stride if the member is an array.
    pub array_strides: Vec<Option<u32>>,
    /// Per member: the matrix stride if the member is (an array of) a matrix.
    pub matrix_strides: Vec<Option<u32>>,
    /// The stride of a runtime array of this struct, if the module has one.
    pub runtime_array_stride: Option<u32>,
}

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The layout of the struct type whose debug name is `name` (`%name = OpTypeStruct …`).
pub fn struct_layout(dis: &str, name: &str) -> Option<StructLayout> {
    let id = format!("%{name}");
    let mut members: Vec<String> = vec![];
    let mut array_of: HashMap<String, String> = HashMap::new(); // runtime array id → element id
    let mut strides: HashMap<String, u32> = HashMap::new();
    let mut offsets: HashMap<u32, u32> = HashMap::new();
    let mut matrix: HashMap<u32, u32> = HashMap::new();
    let mut names: HashMap<u32, String> = HashMap::new();
    for line in dis.lines() {
        let w = words(line);
        match w.as_slice() {
            [lhs, "=", "OpTypeStruct", rest @ ..] if *lhs == id => {
                members = rest.iter().map(|s| s.to_string()).collect()
            }
            [lhs, "=", "OpTypeRuntimeArray", elem] => {
                array_of.insert(lhs.to_string(), elem.to_string());
            }
            ["OpDecorate", target, "ArrayStride", n] => {
                strides.insert(target.to_string(), n.parse().ok()?);
            }
            ["OpMemberDecorate", target, i, "Offset", n] if *target == id => {
                offsets.insert(i.parse().ok()?, n.parse().ok()?);
            }
            ["OpMemberDecorate", target, i, "MatrixStride", n] if *target == id => {
                matrix.insert(i.parse().ok()?, n.parse().ok()?);
            }
            ["OpMemberName", target, i, rest @ ..] if *target == id => {
                names.insert(i.parse().ok()?, rest.join(" ").trim_matches('"').to_string());
            }
            _ => {}
        }
    }
    if members.is_empty() {
        return None;
    }
    let n = members.len() as u32;
    Some(StructLayout {
        member_names: (0..n).map(|i| names.get(&i).cloned().unwrap_or_default()).collect(),
        offsets: (0..n).map(|i| offsets.get(&i).copied().unwrap_or(u32::MAX)).collect(),
        array_strides: members.iter().map(|ty| strides.get(ty).copied()).collect(),
        matrix_strides: (0..n).map(|i| matrix.get(&i).copied()).collect(),
        runtime_array_stride: array_of.iter().find(|(_, e)| **e == id).and_then(|(a, _)| strides.get(a).copied()),
    })
}
