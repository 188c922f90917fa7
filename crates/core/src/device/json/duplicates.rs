//! A key given twice in one JSON object of a profile file: refused, with both positions.
//!
//! Why a scan of its own: serde_json keeps the last of two equal keys without a word, so a
//! file that states `maxIndirectSequenceCount` twice (a merge gone wrong, a hand edit) would be
//! read with whichever value came last, and the checks would prove a layout against a limit
//! the file's author may not have meant. The scan runs after serde_json accepted the text, so
//! it only has to find keys: it walks the objects with a stack of the keys seen in each, and
//! reads each key with serde_json (escapes and all), so `"a"` and `"\u0061"` are one key.

use std::collections::HashMap;

/// A key given twice in one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    pub key: String,
    /// 1-based line and column (in characters) of the first occurrence.
    pub first: (usize, usize),
    /// The same for the second.
    pub again: (usize, usize),
}

/// What the scan is inside.
enum Frame {
    /// An object, the keys seen in it, and whether the next string is a key.
    Object(HashMap<String, (usize, usize)>, bool),
    Array,
}

/// The first key given twice in one object of `text` (valid JSON), if any.
pub fn first_duplicate(text: &str) -> Option<Duplicate> {
    let mut stack: Vec<Frame> = Vec::new();
    let (mut line, mut column) = (1, 1);
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let here = (line, column);
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
        match c {
            '{' => stack.push(Frame::Object(HashMap::new(), true)),
            '[' => stack.push(Frame::Array),
            '}' | ']' => {
                stack.pop();
            }
            ',' => {
                if let Some(Frame::Object(_, expect_key)) = stack.last_mut() {
                    *expect_key = true;
                }
            }
            ':' => {
                if let Some(Frame::Object(_, expect_key)) = stack.last_mut() {
                    *expect_key = false;
                }
            }
            '"' => {
                // The end of the string: the next unescaped quote.
                let mut end = text.len();
                while let Some((j, d)) = chars.next() {
                    column += 1;
                    match d {
                        '\\' => {
                            chars.next();
                            column += 1;
                        }
                        '"' => {
                            end = j + 1;
                            break;
                        }
                        _ => {}
                    }
                }
                if let Some(Frame::Object(keys, true)) = stack.last_mut() {
                    let key: String = serde_json::from_str(&text[i..end]).unwrap_or_else(|_| text[i..end].to_string());
                    if let Some(&first) = keys.get(&key) {
                        return Some(Duplicate { key, first, again: here });
                    }
                    keys.insert(key, here);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_key_given_twice_in_one_object() {
        let text = "{\n  \"a\": 1,\n  \"b\": {\"a\": 2, \"c\": [{\"a\": 1}, {\"a\": 2}]},\n  \"\\u0061\": 3\n}";
        let d = first_duplicate(text).unwrap();
        assert_eq!(d, Duplicate { key: "a".into(), first: (2, 3), again: (4, 3) });
    }

    #[test]
    fn equal_keys_in_different_objects_and_equal_values_are_not_duplicates() {
        assert_eq!(first_duplicate(r#"{"a": "a", "b": {"a": "b"}, "c": [{"a": 1}, {"a": "a"}]}"#), None);
        assert_eq!(first_duplicate(r#"{"x": "{\"y\": 1, \"y\": 2}"}"#), None);
    }
}
