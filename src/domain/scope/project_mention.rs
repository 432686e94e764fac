//! Whether a text names a project. A name with a separator, a digit or inner capitals
//! (`shop-api`, `web2`, `FastAPI`) is distinctive: any whole-word use counts. A plain word
//! (`notes`, `atlas`) is also ordinary English, so it counts only where it is plainly a
//! project's name: in code quotes, as a path, as a `name:` prefix, or before "repo",
//! "project" and the like.

/// Names shorter than this say too little to be recognised in prose.
const MIN_NAME_CHARS: usize = 3;

/// Words that, after a plain name, make it a project's name.
const PROJECT_NOUNS: &[&str] = &[
    "repo",
    "repos",
    "repository",
    "project",
    "codebase",
    "service",
    "app",
    "crate",
    "package",
    "monorepo",
    "backend",
    "frontend",
];

/// Whether `text` names the project called `name` (case-insensitively, as a whole word).
pub fn names_project(text: &str, name: &str) -> bool {
    let wanted = name.trim().to_lowercase();
    if wanted.chars().count() < MIN_NAME_CHARS {
        return false;
    }
    let distinctive = is_distinctive(name.trim());
    let haystack = text.to_lowercase();
    let mut from = 0;
    while let Some(found) = haystack[from..].find(&wanted) {
        let start = from + found;
        let end = start + wanted.len();
        let before = haystack[..start].chars().next_back();
        let after = haystack[end..].chars().next();
        if !is_word_char(before)
            && !is_word_char(after)
            && (distinctive || plainly_a_project(&haystack, start, end))
        {
            return true;
        }
        from = start + haystack[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// A name people would not write by chance in prose.
fn is_distinctive(name: &str) -> bool {
    name.chars()
        .any(|c| matches!(c, '-' | '_' | '.') || c.is_ascii_digit())
        || name.chars().skip(1).any(char::is_uppercase)
}

/// Letters, digits and the separators names are made of: `shop-api` is not named inside
/// `shop-api-v2` nor `myshop-api`.
fn is_word_char(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
}

/// Whether the plain word at `start..end` of `text` (lower-cased) is used as a project's name.
fn plainly_a_project(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    if before == Some('`') && after == Some('`') {
        return true;
    }
    if after == Some('/') || before == Some('/') {
        return true;
    }
    if after == Some(':') && text[..start].trim().is_empty() {
        return true;
    }
    let next_word: String = text[end..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric())
        .collect();
    PROJECT_NOUNS.contains(&next_word.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::distinctive_anywhere(
        "shop-api uses sqlx with compile-time checked queries",
        "shop-api",
        true
    )]
    #[case::case_insensitive("Deploys of Shop-API go through staging", "shop-api", true)]
    #[case::not_inside_a_longer_name("shop-api-v2 is the rewrite", "shop-api", false)]
    #[case::not_as_a_suffix("myshop-api is unrelated", "shop-api", false)]
    #[case::digit_is_distinctive("web2 builds with vite", "web2", true)]
    #[case::inner_capitals("FastAPI routes live in app/routes", "FastAPI", true)]
    #[case::plain_word_in_prose("Keep notes short and in bullet points", "notes", false)]
    #[case::plain_word_before_repo("The notes repo has no tests", "notes", true)]
    #[case::plain_word_quoted("Run the linter in `notes` before pushing", "notes", true)]
    #[case::plain_word_as_path("Drafts live in notes/drafts", "notes", true)]
    #[case::plain_word_as_prefix("atlas: never commit directly to main", "atlas", true)]
    #[case::plain_word_prefix_mid_text("Remember atlas: it is old", "atlas", false)]
    #[case::too_short("ui: keep buttons small", "ui", false)]
    #[case::empty_name("anything", "", false)]
    #[case::non_ascii_text("Im Projekt shop-api gilt: nie direkt auf main", "shop-api", true)]
    fn recognises_a_project_name(#[case] text: &str, #[case] name: &str, #[case] named: bool) {
        assert_eq!(names_project(text, name), named, "{text:?} / {name:?}");
    }
}
