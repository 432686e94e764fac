//! Locales as BCP 47 language tags: well-formed by RFC 5646 (`oxilangtag`) and with a
//! language that ISO 639 knows (SIL's ISO 639-3 code table, compiled in as one string: a table
//! of string slices would cost every run of the binary thousands of relocations; ADR 0015).

use std::fmt;

use oxilangtag::LanguageTag;

use crate::domain::RuleError;

/// A BCP 47 tag such as `en`, `en-GB` or `zh-Hant-TW`, with its case normalised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocaleTag(String);

impl LocaleTag {
    /// Accepts a well-formed tag whose language is an ISO 639 code, in its shortest form
    /// (`en`, not `eng`), normalising the case (`en-gb` → `en-GB`); refuses anything else with
    /// the tag the user most likely meant (`english` → `en`, `en_GB.UTF-8` → `en-GB`).
    pub fn parse(raw: &str) -> Result<Self, RuleError> {
        check(raw.trim())
            .map(Self)
            .map_err(|why| RuleError::InvalidLocale {
                value: raw.to_owned(),
                why,
                suggestion: suggest_locale(raw),
            })
    }

    /// The tag.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for LocaleTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<LocaleTag> for String {
    fn from(tag: LocaleTag) -> Self {
        tag.0
    }
}

/// The normalised tag, or why it is not one.
fn check(raw: &str) -> Result<String, String> {
    if raw.is_empty() {
        return Err("it is empty".to_owned());
    }
    let tag = LanguageTag::parse_and_normalize(raw)
        .map_err(|error| format!("not a well-formed language tag: {error}"))?;
    let language = tag.primary_language();
    let known = match language.len() {
        2 => languages().any(|known| known.part1 == Some(language)),
        3 => match languages().find(|known| known.code == language) {
            // BCP 47 spells a language with a two-letter code by that code alone.
            Some(Language {
                part1: Some(part1), ..
            }) => {
                return Err(format!("the language is written {part1}, not {language}"));
            }
            found => found.is_some(),
        },
        _ => false,
    };
    if known {
        Ok(tag.into_inner())
    } else {
        Err(format!("{language:?} is not an ISO 639 language code"))
    }
}

/// The tag the user most likely meant, when a simple reading of what they typed gives one:
/// a POSIX locale (`en_GB.UTF-8`), a three-letter code (`eng`), or a language's English name
/// (`english`, `Portuguese`).
pub fn suggest_locale(raw: &str) -> Option<String> {
    let raw = raw.trim();
    let posix = raw
        .split(['.', '@'])
        .next()
        .unwrap_or(raw)
        .replace('_', "-");
    if posix != raw
        && let Ok(tag) = check(&posix)
    {
        return Some(tag);
    }
    let (first, rest) = match posix.split_once('-') {
        Some((first, rest)) => (first, Some(rest)),
        None => (posix.as_str(), None),
    };
    let language = shortest_code(first)?;
    let candidate = match rest {
        Some(rest) => format!("{language}-{rest}"),
        None => language.to_owned(),
    };
    check(&candidate).ok().or_else(|| Some(language.to_owned()))
}

/// The shortest code of the language a word names: its ISO 639-3 code (`eng`) or its
/// English name in any case (`english`).
fn shortest_code(word: &str) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    let by_code = (lower.len() == 3)
        .then(|| languages().find(|known| known.code == lower))
        .flatten();
    let language = by_code.or_else(|| {
        // Several entries may share a name (a macrolanguage and one of its members): the one
        // with a two-letter code is the one people mean.
        let mut named: Vec<Language> = languages()
            .filter(|known| known.name.eq_ignore_ascii_case(&lower))
            .collect();
        named.sort_by_key(|known| known.part1.is_none());
        named.into_iter().next()
    })?;
    Some(language.part1.unwrap_or(language.code))
}

/// SIL's ISO 639-3 code table: `code<TAB>ISO 639-1 code or nothing<TAB>English name` lines,
/// after `#` comments.
const ISO_639_3: &str = include_str!("../../../assets/locale/iso-639-3.tsv");

/// One language of [`ISO_639_3`].
#[derive(Debug, Clone, Copy)]
struct Language {
    code: &'static str,
    part1: Option<&'static str>,
    name: &'static str,
}

/// Every language of the table; a scan of some 7,900 lines, run only when a locale is checked.
fn languages() -> impl Iterator<Item = Language> {
    ISO_639_3
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let (code, part1, name) = (fields.next()?, fields.next()?, fields.next()?);
            Some(Language {
                code,
                part1: (!part1.is_empty()).then_some(part1),
                name,
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::a_language("en", "en")]
    #[case::language_and_region("en-GB", "en-GB")]
    #[case::the_case_is_normalised("EN-gb", "en-GB")]
    #[case::a_script("zh-hant-tw", "zh-Hant-TW")]
    #[case::a_three_letter_language_without_a_two_letter_one("haw-US", "haw-US")]
    #[case::a_numeric_region("es-419", "es-419")]
    fn accepts_bcp_47_tags(#[case] raw: &str, #[case] stored: &str) {
        assert_eq!(LocaleTag::parse(raw).unwrap().as_str(), stored);
    }

    #[rstest]
    #[case::an_english_name("english", Some("en"))]
    #[case::a_capitalised_name("Portuguese", Some("pt"))]
    #[case::a_posix_locale("en_GB.UTF-8", Some("en-GB"))]
    #[case::an_underscore("pt_BR", Some("pt-BR"))]
    #[case::the_long_code("eng", Some("en"))]
    #[case::the_long_code_with_a_region("eng-GB", Some("en-GB"))]
    #[case::an_unknown_language("xx-GB", None)]
    #[case::not_a_tag("English (UK)", None)]
    #[case::empty("", None)]
    fn refuses_other_text_with_the_likely_tag(#[case] raw: &str, #[case] suggestion: Option<&str>) {
        match LocaleTag::parse(raw).unwrap_err() {
            RuleError::InvalidLocale {
                value,
                suggestion: suggested,
                ..
            } => {
                assert_eq!(value, raw);
                assert_eq!(suggested.as_deref(), suggestion);
            }
            other => panic!("{other:?}"),
        }
    }
}
