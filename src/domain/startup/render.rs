//! Rendering a template body: `{{name.path}}` variables, nothing else (no includes, no code).

use crate::domain::flags::ResolvedFlags;
use crate::domain::format::data_line;

/// What a template may refer to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderVariables<'a> {
    /// The resolved flags (`{{feature_flags.NAME}}`, `{{flags.NAME}}`).
    pub flags: &'a ResolvedFlags,
    /// `{{project.name}}`.
    pub project_name: &'a str,
    /// `{{project.root}}`.
    pub project_root: &'a str,
    /// `{{session.id}}`.
    pub session_id: &'a str,
    /// `{{session.source}}`.
    pub session_source: &'a str,
}

/// The body with every `{{…}}` replaced; unknown variables render empty and are named in the
/// returned warnings. A `{{` without a closing `}}` is kept as it is.
pub fn render_template(body: &str, variables: &RenderVariables<'_>) -> (String, Vec<String>) {
    let mut out = String::with_capacity(body.len());
    let mut warnings = Vec::new();
    let mut rest = body;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            out.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let name = after[..close].trim();
        match lookup(name, variables) {
            Some(value) => out.push_str(&value),
            None => warnings.push(format!(
                "unknown template variable {{{{{name}}}}} rendered empty"
            )),
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    (out, warnings)
}

fn lookup(name: &str, variables: &RenderVariables<'_>) -> Option<String> {
    if let Some(flag) = name
        .strip_prefix("feature_flags.")
        .or_else(|| name.strip_prefix("flags."))
    {
        return variables.flags.get(flag).map(ToString::to_string);
    }
    match name {
        // A directory name can hold newlines and tags: a variable's value is data, one line.
        "project.name" => Some(data_line(variables.project_name, 200)),
        "project.root" => Some(data_line(variables.project_root, 400)),
        "session.id" => Some(data_line(variables.session_id, 128)),
        "session.source" => Some(variables.session_source.to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::flags::FlagValue;
    use rstest::rstest;
    use std::collections::BTreeMap;

    fn render(body: &str) -> (String, Vec<String>) {
        let flags = ResolvedFlags::resolve(
            &BTreeMap::from([
                (
                    "startup-instruction".to_owned(),
                    FlagValue::Text("make status".into()),
                ),
                (
                    "envs".to_owned(),
                    FlagValue::List(vec!["dev".into(), "prod".into()]),
                ),
            ]),
            None,
        );
        let variables = RenderVariables {
            flags: &flags,
            project_name: "shop-api",
            project_root: "/code/shop-api",
            session_id: "s1",
            session_source: "startup",
        };
        render_template(body, &variables)
    }

    #[rstest]
    #[case::hyphenated_flag("run `{{feature_flags.startup-instruction}}`", "run `make status`")]
    #[case::short_flag_form("{{ flags.startup-instruction }}", "make status")]
    #[case::list_flag("{{flags.envs}}", "dev, prod")]
    #[case::project_and_session(
        "{{project.name}} at {{project.root}}, {{session.id}} ({{session.source}})",
        "shop-api at /code/shop-api, s1 (startup)"
    )]
    #[case::unclosed("keep {{ this", "keep {{ this")]
    #[case::no_variables("plain", "plain")]
    fn replaces_variables(#[case] body: &str, #[case] rendered: &str) {
        assert_eq!(render(body), (rendered.to_owned(), vec![]));
    }

    #[rstest]
    #[case::unknown_flag("[{{flags.nope}}]")]
    #[case::include_attempt("[{{include /etc/passwd}}]")]
    #[case::env_attempt("[{{env.HOME}}]")]
    fn unknown_variables_render_empty_with_a_warning(#[case] body: &str) {
        let (text, warnings) = render(body);
        assert_eq!(text, "[]");
        assert_eq!(warnings.len(), 1);
    }
}
