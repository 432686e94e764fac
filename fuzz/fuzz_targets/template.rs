//! Front matter, start-up templates and their rendering: any text parses or is refused, and
//! rendering substitutes variables only (no includes, no code), never panicking.
#![no_main]

use std::collections::BTreeMap;

use carryover::domain::flags::{FlagValue, ResolvedFlags};
use carryover::domain::front_matter::parse_front_matter;
use carryover::domain::startup::{RenderVariables, StartupTemplate, render_template, requirements_hold};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = parse_front_matter(text);
    let flags = ResolvedFlags::resolve(
        &BTreeMap::from([("startup-instruction".to_owned(), FlagValue::parse_cli("make status").unwrap())]),
        None,
    );
    let variables = RenderVariables {
        flags: &flags,
        project_name: "shop-api",
        project_root: "/home/user/code/shop-api",
        session_id: "s1",
        session_source: "startup",
    };
    let (rendered, _warnings) = render_template(text, &variables);
    // Rendering only ever replaces `{{…}}`: text without them comes back unchanged.
    if !text.contains("{{") {
        assert_eq!(rendered, text);
    }
    if let Ok(template) = StartupTemplate::parse(text) {
        let _ = requirements_hold(&template, &flags);
        let _ = render_template(&template.body, &variables);
    }
});
