//! Writing a change into a settings file's own text: what carryover did not change keeps its
//! comments, key order and spacing, so that the user's file stays theirs and a diff shows only
//! carryover's hooks.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstRootNode};
use serde_json::{Map, Value};

use super::settings_text::{SettingsDialect, encode_settings, parse_settings};

/// The text of a settings file that held `before` (read as `previous`) once it holds `next`.
/// Only the values that differ are written into `before`; a file that did not exist, or an
/// edit that would not read back as `next`, is written whole instead.
pub fn rewrite_settings(
    before: Option<&str>,
    previous: &Value,
    next: &Value,
    dialect: SettingsDialect,
) -> String {
    let Some(before) = before.filter(|text| !text.trim().is_empty()) else {
        return encode_settings(next, before);
    };
    edit(before, previous, next)
        .filter(|edited| parse_settings(edited, dialect).is_ok_and(|read| read == *next))
        .unwrap_or_else(|| encode_settings(next, Some(before)))
}

/// `before` with the values that differ between `previous` and `next` replaced in place.
fn edit(before: &str, previous: &Value, next: &Value) -> Option<String> {
    let root = CstRootNode::parse(before, &ParseOptions::default()).ok()?;
    match (previous, next, root.object_value()) {
        (Value::Object(previous), Value::Object(next), Some(object)) => {
            edit_object(&object, previous, next);
        }
        _ => root.set_value(input(next)),
    }
    Some(root.to_string())
}

fn edit_object(object: &CstObject, previous: &Map<String, Value>, next: &Map<String, Value>) {
    for key in previous.keys().filter(|key| !next.contains_key(*key)) {
        if let Some(property) = object.get(key) {
            property.remove();
        }
    }
    for (key, value) in next {
        match (previous.get(key), object.get(key)) {
            (Some(old), Some(_)) if old == value => {}
            (Some(old), Some(property)) => match property.value() {
                Some(node) if edit_in_place(&node, old, value) => {}
                _ => property.set_value(input(value)),
            },
            _ => {
                object.append(key, input(value));
            }
        }
    }
}

/// Edits `node`, which holds `old`, to hold `new` when both are objects or both arrays;
/// false when the value has to be replaced whole.
fn edit_in_place(node: &CstNode, old: &Value, new: &Value) -> bool {
    match (old, new) {
        (Value::Object(old), Value::Object(new)) => node
            .as_object()
            .map(|object| edit_object(&object, old, new))
            .is_some(),
        (Value::Array(old), Value::Array(new)) => node
            .as_array()
            .map(|array| edit_array(&array, old, new))
            .is_some(),
        _ => false,
    }
}

/// Aligns the two lists so that elements kept stay untouched: an element of `old` that no
/// longer comes later in `new` was removed (or, when its counterpart in `new` is not in `old`
/// either, changed), an element of `new` that comes later in `old`'s rest was inserted.
fn edit_array(array: &CstArray, old: &[Value], new: &[Value]) {
    let elements = array.elements();
    let (mut i, mut j, mut at) = (0, 0, 0);
    while i < old.len() || j < new.len() {
        let kept = i < old.len() && j < new.len() && old[i] == new[j];
        let gone = i < old.len() && !new[j..].contains(&old[i]);
        let added = j < new.len() && !old[i..].contains(&new[j]);
        if kept {
            (i, j, at) = (i + 1, j + 1, at + 1);
        } else if gone && added {
            if !edit_in_place(&elements[i], &old[i], &new[j]) {
                elements[i].clone().remove();
                array.insert(at, input(&new[j]));
            }
            (i, j, at) = (i + 1, j + 1, at + 1);
        } else if gone {
            elements[i].clone().remove();
            i += 1;
        } else {
            array.insert(at, input(&new[j]));
            (j, at) = (j + 1, at + 1);
        }
    }
}

/// A value as the CST builds it; numbers keep their spelling.
fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(flag) => CstInputValue::Bool(*flag),
        Value::Number(number) => CstInputValue::Number(number.to_string()),
        Value::String(text) => CstInputValue::String(text.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(entries) => CstInputValue::Object(
            entries
                .iter()
                .map(|(key, value)| (key.clone(), input(value)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;
    use serde_json::json;

    fn rewritten(before: &str, next: Value, dialect: SettingsDialect) -> String {
        let previous = parse_settings(before, dialect).unwrap();
        rewrite_settings(Some(before), &previous, &next, dialect)
    }

    #[test]
    fn comments_and_the_users_keys_are_kept_around_what_is_added() {
        let before = "{\n  // my theme\n  \"theme\": \"Dracula\", /* dark */\n  \"n\": 1e2\n}\n";
        let next = json!({"theme": "Dracula", "n": 100.0, "hooks": {"A": [{"command": "x"}]}});
        let after = rewritten(before, next, SettingsDialect::JsonWithComments);
        assert!(
            after.starts_with("{\n  // my theme\n  \"theme\": \"Dracula\", /* dark */\n  \"n\": 1e2,\n  \"hooks\": {"),
            "{after}"
        );
        assert!(after.ends_with("}\n"), "{after}");
    }

    #[test]
    fn removing_what_was_added_gives_the_file_back() {
        let before = "{\n  // mine\n  \"a\": [1, 2], // two\n  \"b\": {\"c\": true}\n}\n";
        let dialect = SettingsDialect::JsonWithComments;
        let previous = parse_settings(before, dialect).unwrap();
        let mut added = previous.clone();
        added["hooks"] = json!({"SessionStart": [{"hooks": [{"command": "carryover"}]}]});
        let installed = rewrite_settings(Some(before), &previous, &added, dialect);
        let read = parse_settings(&installed, dialect).unwrap();
        assert_eq!(
            rewrite_settings(Some(&installed), &read, &previous, dialect),
            before
        );
    }

    /// A settings file whose list `a` holds `items`, one to a line, as agents write them.
    fn listing(items: &[u32]) -> String {
        let lines: Vec<String> = items.iter().map(|item| format!("    {item}")).collect();
        format!(
            "{{\n  \"a\": [\n{}\n  ],\n  \"b\": 1\n}}\n",
            lines.join(",\n")
        )
    }

    #[rstest]
    #[case::appended(&[1, 2], &[1, 2, 3])]
    #[case::inserted_first(&[1, 2], &[0, 1, 2])]
    #[case::removed_in_the_middle(&[1, 2, 3], &[1, 3])]
    #[case::changed(&[1, 2, 3], &[1, 5, 3])]
    fn a_list_changes_only_where_it_differs(#[case] old: &[u32], #[case] new: &[u32]) {
        let after = rewritten(
            &listing(old),
            json!({"a": new, "b": 1}),
            SettingsDialect::Json,
        );
        assert_eq!(after, listing(new));
    }

    #[test]
    fn an_element_kept_keeps_its_comment() {
        let before = "{\"a\": [\n  1, // one\n  2\n]}";
        let after = rewritten(before, json!({"a": [1]}), SettingsDialect::JsonWithComments);
        assert!(
            after.contains("1, // one") || after.contains("1 // one"),
            "{after}"
        );
        assert_eq!(
            parse_settings(&after, SettingsDialect::JsonWithComments).unwrap(),
            json!({"a": [1]})
        );
    }

    #[test]
    fn a_changed_leaf_is_replaced_where_it_stands() {
        let before = "{\n  \"a\": {\"b\": 1, \"c\": 2},\n  \"d\": 3\n}\n";
        let after = rewritten(
            before,
            json!({"a": {"b": 1, "c": 4}, "d": 3}),
            SettingsDialect::Json,
        );
        assert_eq!(after, "{\n  \"a\": {\"b\": 1, \"c\": 4},\n  \"d\": 3\n}\n");
    }

    #[rstest]
    #[case::no_file(None)]
    #[case::empty_file(Some(""))]
    fn a_file_without_text_is_written_whole(#[case] before: Option<&str>) {
        let after = rewrite_settings(before, &json!({}), &json!({"a": 1}), SettingsDialect::Json);
        assert_eq!(after, "{\n  \"a\": 1\n}\n");
    }

    #[test]
    fn a_document_that_is_not_an_object_is_replaced() {
        let after = rewritten("[]", json!({"a": 1}), SettingsDialect::Json);
        assert_eq!(
            parse_settings(&after, SettingsDialect::Json).unwrap(),
            json!({"a": 1})
        );
    }
}
