//! Claude Code's own memory (ADR 0014): the Markdown files it saves under
//! `~/.claude/projects/<sanitized project path>/memory/`, read as learnings to propose. The
//! agent already judged each worth remembering, so they are proposed with high confidence,
//! but still as proposals: the user decides what carryover keeps.

use crate::domain::redaction::redact;
use crate::domain::scope::ProposedScope;
use crate::domain::seed::LearningKind;

/// The folder's index of its memories (`MEMORY.md`), which is not a memory itself.
pub const MEMORY_INDEX: &str = "MEMORY.md";

/// Memory files larger than this are not read: Claude Code keeps each one short, and a
/// transcript or a folder may point at anything.
pub const MAX_MEMORY_FILE_BYTES: u64 = 64 * 1024;

/// A learning taken from a memory is at most this long (in characters).
pub const MAX_MEMORY_TEXT: usize = 200;

/// One memory, as carryover would propose it.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentMemory {
    /// The front matter's `name`, when it has one.
    pub name: Option<String>,
    /// Which list it would join.
    pub kind: LearningKind,
    /// The learning: the description, else (or when the description is only a title) the
    /// body's first sentence; redacted and clipped.
    pub text: String,
    /// Whether it is about the user (and so holds in every project).
    pub about_user: bool,
}

impl AgentMemory {
    /// Where it belongs: a memory about the user is global, any other is the project's;
    /// `force_project` (`import --project`) makes every one the project's.
    pub fn scope(&self, force_project: bool) -> ProposedScope {
        if self.about_user && !force_project {
            ProposedScope::Global
        } else {
            ProposedScope::Project
        }
    }
}

/// Why a memory makes no learning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoLearning {
    /// Nothing in it is a word.
    NoText,
    /// Its learning would hold a secret: redacted, it would teach nothing, and the secret
    /// belongs where secrets are kept.
    HoldsSecret,
}

/// Reads a memory file leniently: front matter is optional and anything it does not
/// understand is ignored.
pub fn parse_agent_memory(text: &str) -> Result<AgentMemory, NoLearning> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (fields, body) = split_front_matter(text);
    let field = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    };
    let memory_type = field("type").or_else(|| field("metadata.type"));
    let learning = field("description")
        .filter(|description| !is_title(description))
        .map(str::to_owned)
        .or_else(|| first_sentence(body))
        .or_else(|| field("description").map(str::to_owned))
        .ok_or(NoLearning::NoText)?;
    let learning = learning_text(&learning)?;
    Ok(AgentMemory {
        name: field("name").map(str::to_owned),
        kind: memory_kind(memory_type.unwrap_or_default()),
        text: learning,
        about_user: memory_type.is_some_and(|t| t.eq_ignore_ascii_case("user")),
    })
}

/// A note the user asked the client to remember (Claude Code's `#` memory input): an
/// instruction for the assistant in this project, as the client files it in the project's
/// memory by default.
pub fn remembered_note_memory(note: &str) -> Result<AgentMemory, NoLearning> {
    Ok(AgentMemory {
        name: None,
        kind: LearningKind::Pattern,
        text: learning_text(note)?,
        about_user: false,
    })
}

/// A memory's text as a learning: whitespace collapsed, clipped; refused when nothing in it
/// is a word or when it holds a secret.
fn learning_text(raw: &str) -> Result<String, NoLearning> {
    let text = collapse_spaces(raw);
    if redact(&text) != text {
        return Err(NoLearning::HoldsSecret);
    }
    let learning = clip(&text, MAX_MEMORY_TEXT);
    match learning.chars().any(char::is_alphanumeric) {
        true => Ok(learning),
        false => Err(NoLearning::NoText),
    }
}

/// The learning kind a memory type maps to: feedback on how to work is a pattern, facts about
/// the user are self-knowledge, and project facts, references and anything unknown are
/// insights.
pub fn memory_kind(memory_type: &str) -> LearningKind {
    match memory_type.trim().to_ascii_lowercase().as_str() {
        "feedback" => LearningKind::Pattern,
        "user" => LearningKind::SelfKnowledge,
        _ => LearningKind::Insight,
    }
}

/// Whether `path` names a memory file in a Claude Code memory folder
/// (`…/.claude/projects/<project>/memory/<name>.md`, either separator, not the `MEMORY.md`
/// index). A transcript is untrusted input: only such a path is ever read from one, and a
/// relative path or one with `..` is refused.
pub fn is_agent_memory_path(path: &str) -> bool {
    agent_memory_file_name(path).is_some_and(is_memory_file_name)
}

/// Whether `path` is a file directly inside a Claude Code memory folder: a memory, the
/// `MEMORY.md` index or anything else kept there.
pub fn is_in_agent_memory_folder(path: &str) -> bool {
    agent_memory_file_name(path).is_some()
}

/// The file name of an absolute path directly inside a memory folder, by the rules of
/// [`is_agent_memory_path`].
fn agent_memory_file_name(path: &str) -> Option<&str> {
    let absolute = path.starts_with(['/', '\\'])
        || path
            .as_bytes()
            .get(1..3)
            .is_some_and(|rest| rest[0] == b':' && matches!(rest[1], b'/' | b'\\'));
    if !absolute || path.contains('\0') {
        return None;
    }
    let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    if parts.contains(&"..") {
        return None;
    }
    let [.., claude, projects, project, memory, file] = parts[..] else {
        return None;
    };
    (claude == ".claude" && projects == "projects" && project != "." && memory == "memory")
        .then_some(file)
}

/// Whether a file name in a memory folder names a memory: `<name>.md`, not the index.
pub fn is_memory_file_name(name: &str) -> bool {
    name.strip_suffix(".md")
        .is_some_and(|stem| !stem.is_empty())
        && !name.eq_ignore_ascii_case(MEMORY_INDEX)
}

/// The name Claude Code gives a project's folder under `projects/`: its path with every
/// character that is not an ASCII letter or digit replaced by `-`.
pub fn claude_project_folder(project_path: &str) -> String {
    project_path
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The front matter's `key: value` fields (a nested `metadata:` block's as `metadata.key`),
/// unquoted, and the body after it; without front matter, no fields and the whole text.
fn split_front_matter(text: &str) -> (Vec<(String, String)>, &str) {
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some("---") {
        return (Vec::new(), text);
    }
    let mut fields = Vec::new();
    let mut offset = text.find('\n').map_or(text.len(), |i| i + 1);
    let mut parent: Option<String> = None;
    for line in lines {
        offset += line.len();
        if line.trim_end() == "---" {
            return (fields, &text[offset..]);
        }
        let indented = line.starts_with([' ', '\t']);
        let Some((key, value)) = line.trim().split_once(':') else {
            continue;
        };
        let (key, value) = (key.trim(), unquote(value.trim()));
        match (indented, &parent) {
            (false, _) => {
                parent = value.is_empty().then(|| key.to_owned());
                fields.push((key.to_owned(), value));
            }
            (true, Some(parent)) => fields.push((format!("{parent}.{key}"), value)),
            (true, None) => {}
        }
    }
    // An unclosed block is no front matter: the text is all body.
    (Vec::new(), text)
}

fn unquote(value: &str) -> String {
    let quoted = value.len() >= 2
        && ((value.starts_with('"') && value.ends_with('"'))
            || (value.starts_with('\'') && value.ends_with('\'')));
    if quoted {
        value[1..value.len() - 1].to_owned()
    } else {
        value.to_owned()
    }
}

/// Words a description of a label ("deploy target", "Project start-up routine") has at most.
const MAX_LABEL_WORDS: usize = 3;

/// Whether a description names what the memory is about rather than saying it ("Where the Go
/// backend lives on disk", "How to file audit results", a label such as "deploy target"):
/// the body then says it. A clause after a comma or colon ("When deploying, run migrations
/// first", "How we release: tag, then push") says something, and "when" opens conditions as
/// often as titles.
fn is_title(description: &str) -> bool {
    if description.contains([',', ':']) {
        return false;
    }
    if description.split_whitespace().count() <= MAX_LABEL_WORDS {
        return true;
    }
    let first = description
        .trim_start_matches(['"', '\''])
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    matches!(
        first.as_str(),
        "where" | "how" | "what" | "why" | "which" | "who"
    )
}

/// The body's first line of prose (headings' and list items' markers dropped, bold marks
/// removed), cut at its first sentence's end.
fn first_sentence(body: &str) -> Option<String> {
    let line = body
        .lines()
        .map(|line| {
            line.trim()
                .trim_start_matches('#')
                .trim_start_matches(['-', '*', '>'])
                .trim()
        })
        .find(|line| line.chars().any(char::is_alphanumeric))?;
    let end = line
        .match_indices(". ")
        .map(|(i, _)| i + 1)
        .next()
        .unwrap_or(line.len());
    Some(line[..end].replace("**", ""))
}

fn collapse_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` cut to `max` characters at a word boundary, with an ellipsis when cut.
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max - 1).collect();
    let cut = match cut.rfind(' ') {
        Some(space) if space > max / 2 => &cut[..space],
        _ => &cut[..],
    };
    format!("{}…", cut.trim_end_matches([' ', ',', ';', ':']))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::top_level_type(
        "---\nname: terse\ndescription: Prefers terse answers without a closing summary\ntype: feedback\n---\nBody.\n",
        Some((LearningKind::Pattern, "Prefers terse answers without a closing summary", false))
    )]
    #[case::nested_metadata_type(
        "---\nname: role\ndescription: \"Mara is a backend engineer who reads Rust daily\"\nmetadata:\n  type: user\n---\n",
        Some((LearningKind::SelfKnowledge, "Mara is a backend engineer who reads Rust daily", true))
    )]
    #[case::project_is_an_insight(
        "---\ndescription: The payments service deploys on Thursdays only\ntype: project\n---\n",
        Some((LearningKind::Insight, "The payments service deploys on Thursdays only", false))
    )]
    #[case::reference_is_an_insight(
        "---\ndescription: Grafana board for latency is at grafana.internal/d/api\ntype: reference\n---\n",
        Some((LearningKind::Insight, "Grafana board for latency is at grafana.internal/d/api", false))
    )]
    #[case::unknown_type_is_an_insight(
        "---\ndescription: Builds need Node 22\ntype: hunch\n---\n",
        Some((LearningKind::Insight, "Builds need Node 22", false))
    )]
    #[case::no_description_takes_the_first_sentence(
        "---\nname: tests\ntype: feedback\n---\n\n# Use rstest tables. One row per case.\n",
        Some((LearningKind::Pattern, "Use rstest tables.", false))
    )]
    #[case::no_front_matter(
        "Integration tests need Postgres on port 5433\n",
        Some((LearningKind::Insight, "Integration tests need Postgres on port 5433", false))
    )]
    #[case::a_title_gives_way_to_the_body(
        "---\ndescription: Where the Go backend lives on disk\ntype: reference\n---\n\nThe Go backend lives at `../entiredb`, **not** at `devenv/entire`. Found on 2026-06-01.\n",
        Some((LearningKind::Insight, "The Go backend lives at `../entiredb`, not at `devenv/entire`.", false))
    )]
    #[case::a_rule_that_opens_like_a_question_stays(
        "---\ndescription: How we release: tag, then push\ntype: feedback\n---\n\nReleases go out on Fridays.\n",
        Some((LearningKind::Pattern, "How we release: tag, then push", false))
    )]
    #[case::a_condition_stays(
        "---\ndescription: When deploying run migrations first\ntype: feedback\n---\n\nSee the runbook.\n",
        Some((LearningKind::Pattern, "When deploying run migrations first", false))
    )]
    #[case::a_label_gives_way_to_the_body(
        "---\ndescription: deploy target\ntype: project\n---\n\nshop-api deploys to render.com from the release branch.\n",
        Some((LearningKind::Insight, "shop-api deploys to render.com from the release branch.", false))
    )]
    #[case::a_label_with_no_body_stays(
        "---\ndescription: deploy target\ntype: project\n---\n",
        Some((LearningKind::Insight, "deploy target", false))
    )]
    #[case::a_title_with_no_body_stays(
        "---\ndescription: How to file audit results\ntype: feedback\n---\n",
        Some((LearningKind::Pattern, "How to file audit results", false))
    )]
    #[case::empty_body_and_no_description("---\nname: x\ntype: user\n---\n\n", None)]
    #[case::only_punctuation("---\ndescription: \"---\"\n---\n- \n", None)]
    fn parses_memories(#[case] text: &str, #[case] expected: Option<(LearningKind, &str, bool)>) {
        let parsed = parse_agent_memory(text)
            .ok()
            .map(|m| (m.kind, m.text, m.about_user));
        assert_eq!(
            parsed,
            expected.map(|(kind, text, user)| (kind, text.to_owned(), user))
        );
    }

    #[test]
    fn long_texts_are_clipped_and_secrets_refused() {
        let long = format!("---\ndescription: {}\n---\n", "word ".repeat(100));
        let memory = parse_agent_memory(&long).unwrap();
        assert!(memory.text.chars().count() <= MAX_MEMORY_TEXT);
        assert!(memory.text.ends_with('…'));
        let secret = "---\ndescription: The staging token is ghp_Xk9mQ2vL7pR4sT8wY1nB3cD6fG0hJ5aZ2eWq\n---\n";
        assert_eq!(parse_agent_memory(secret), Err(NoLearning::HoldsSecret));
        let in_the_body = "---\ndescription: Staging deploys need a token\n---\nIt is ghp_Xk9mQ2vL7pR4sT8wY1nB3cD6fG0hJ5aZ2eWq\n";
        assert_eq!(
            parse_agent_memory(in_the_body).unwrap().text,
            "Staging deploys need a token",
            "only the learning's own text counts"
        );
    }

    #[rstest]
    #[case::a_rule("  Always use   pnpm ", Ok("Always use pnpm"))]
    #[case::a_secret(
        "The token is ghp_Xk9mQ2vL7pR4sT8wY1nB3cD6fG0hJ5aZ2eWq",
        Err(NoLearning::HoldsSecret)
    )]
    #[case::nothing_to_learn(" -- ", Err(NoLearning::NoText))]
    fn a_remembered_note_is_a_project_pattern(
        #[case] note: &str,
        #[case] text: Result<&str, NoLearning>,
    ) {
        let memory = remembered_note_memory(note);
        assert_eq!(memory.as_ref().map(|m| m.text.as_str()), text.as_deref());
        if let Ok(memory) = memory {
            assert_eq!(memory.kind, LearningKind::Pattern);
            assert_eq!(memory.scope(false), ProposedScope::Project);
        }
    }

    #[rstest]
    #[case::user_is_global("user", false, ProposedScope::Global)]
    #[case::user_forced_to_the_project("user", true, ProposedScope::Project)]
    #[case::feedback_is_the_projects("feedback", false, ProposedScope::Project)]
    #[case::project_is_the_projects("project", false, ProposedScope::Project)]
    fn scope_follows_the_type(
        #[case] memory_type: &str,
        #[case] force_project: bool,
        #[case] expected: ProposedScope,
    ) {
        let text = format!("---\ndescription: Something worth keeping\ntype: {memory_type}\n---\n");
        let memory = parse_agent_memory(&text).unwrap();
        assert_eq!(memory.scope(force_project), expected);
    }

    #[rstest]
    #[case::unix(
        "/home/u/.claude/projects/-home-u-code-shop-api/memory/feedback_terse.md",
        true
    )]
    #[case::windows(r"C:\Users\u\.claude\projects\C--code-app\memory\user_role.md", true)]
    #[case::the_index("/home/u/.claude/projects/-p/memory/MEMORY.md", false)]
    #[case::not_markdown("/home/u/.claude/projects/-p/memory/notes.txt", false)]
    #[case::nested_deeper("/home/u/.claude/projects/-p/memory/old/a.md", false)]
    #[case::outside_projects("/home/u/.claude/memory/a.md", false)]
    #[case::not_claudes("/home/u/code/app/projects/-p/memory/a.md", false)]
    #[case::relative(".claude/projects/-p/memory/a.md", false)]
    #[case::parent_dirs("/home/u/.claude/projects/../../etc/memory/a.md", false)]
    #[case::bare_extension("/home/u/.claude/projects/-p/memory/.md", false)]
    fn recognises_memory_paths(#[case] path: &str, #[case] expected: bool) {
        assert_eq!(is_agent_memory_path(path), expected);
    }

    #[rstest]
    #[case::a_memory("/home/u/.claude/projects/-p/memory/feedback_terse.md", true)]
    #[case::the_index("/home/u/.claude/projects/-p/memory/MEMORY.md", true)]
    #[case::nested_deeper("/home/u/.claude/projects/-p/memory/old/a.md", false)]
    #[case::relative(".claude/projects/-p/memory/MEMORY.md", false)]
    fn tells_what_lies_in_a_memory_folder(#[case] path: &str, #[case] expected: bool) {
        assert_eq!(is_in_agent_memory_folder(path), expected);
    }

    #[rstest]
    #[case("/home/u/code/shop-api", "-home-u-code-shop-api")]
    #[case("/home/u/my.app_v2", "-home-u-my-app-v2")]
    #[case(r"C:\code\app", "C--code-app")]
    fn names_the_project_folder_as_claude_code_does(#[case] path: &str, #[case] folder: &str) {
        assert_eq!(claude_project_folder(path), folder);
    }
}
