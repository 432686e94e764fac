//! Words, in every language the rules read, that say an instruction outlasts the task at hand
//! ("from now on", "künftig", "以后", "今後"), and the script test that routes CJK sentences
//! to their own rules.

use std::sync::LazyLock;

use regex::Regex;

pub(super) fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("extraction patterns are valid")
}

/// Phrases that name the future or every recurrence: on their own they make an instruction a
/// standing rule. "Always" and "never" are not here: inside a sentence they also describe
/// ("it always fails"), so the families that accept them check where they stand.
pub(super) static PERSISTS: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)\b(from now on|from here on|going forward|moving forward|as we go forward|",
        // "For future reference" says why a file is kept, not that a rule lasts.
        r"in (the )?future|for all future|for future (sessions?|tasks?|work|changes|prs?|commits?|projects?|releases?)|",
        r"every time|each time|whenever|by default|",
        r"more often|less often|from this point on|",
        // German
        r"ab jetzt|ab sofort|von nun an|künftig|zukünftig\w*|in zukunft|jedes mal|",
        r"grundsätzlich|standardmäßig|häufiger|öfter|",
        // Spanish
        r"a partir de ahora|de ahora en adelante|en adelante|en el futuro|cada vez que|por defecto|",
        // French
        r"désormais|dorénavant|à partir de maintenant|à l'avenir|chaque fois|par défaut)\b",
        // CJK has no word boundaries
        r"|以后|今后|从现在开始|从今以后|每次|永远|默认|",
        r"今後|これから|常に|毎回|いつも|デフォルトで|",
        r"앞으로|항상|매번|언제나|기본적으로",
    ))
});

/// A bug described by when it happens ("it crashes every time I open it", "每次都报错"): the
/// words for every occasion then describe the bug, not a rule.
pub(super) static BUG_REPORT: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)\b(the (problem|issue|bug) is|fail|fails|failed|failing|crash\w*|break|breaks|",
        r"broke|broken|error\w*|",
        r"happens?|hangs?|freez\w*|stuck|doesn't work|does not work|won't|can't|cannot|",
        r"stürzt|abstürz\w*|fehler\w*|hängt|falla|fallan|se cuelga|plante|échoue)\b",
        r"|报错|崩溃|失败|卡住|出错|エラー|失敗|落ちる|止まる|에러|오류|실패",
    ))
});

/// "Always"/"never" in any of the European languages, for families that already know the
/// sentence is addressed to the assistant.
pub(super) static ALWAYS_OR_NEVER: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)\b(always|never|immer|stets|nie|niemals|siempre|nunca|jamás|toujours|jamais)\b")
});

static ENGLISH_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(the|and|is|are|to|of|it|you|we|i|this|that|for|with|be|not|from|now|always|never|should|will|use|please)\b",
    )
});

static EUROPEAN_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)\b(ich|du|wir|und|nicht|bitte|der|die|das|den|dem|ein|eine|einen|ist|mit|dass|",
        r"immer|nie|auf|zu|sich|auch|noch|",
        r"el|los|las|que|por|para|con|siempre|nunca|usa|del|",
        r"le|les|des|est|et|pour|avec|toujours|jamais|ne|pas|une|je|tu)\b",
    ))
});

/// Whether `text` reads as English rather than German, Spanish or French, by counting
/// each language's commonest words: an English sentence never goes to the other rules
/// (French "on" would otherwise find an addressee in "from now on").
pub(super) fn reads_as_english(text: &str) -> bool {
    ENGLISH_WORDS.find_iter(text).count() >= EUROPEAN_WORDS.find_iter(text).count()
}

/// Han, kana and hangul: scripts written without spaces between words (hangul has spaces, but
/// its syllables pack a word into two or three characters).
pub(super) fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30ff}' // hiragana, katakana
        | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}' // han
        | '\u{ac00}'..='\u{d7af}' | '\u{1100}'..='\u{11ff}' | '\u{3130}'..='\u{318f}' // hangul
    )
}

/// Whether `text` is written mostly in a CJK script (a third of its letters or more: CJK
/// sentences carry Latin product names and paths).
pub(super) fn mostly_cjk(text: &str) -> bool {
    let (mut cjk, mut letters) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphanumeric()) {
        letters += 1;
        cjk += usize::from(is_cjk(c));
    }
    cjk > 0 && cjk * 3 >= letters
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::english("From now on run the linter before you commit.", true)]
    #[case::german("Künftig bitte alles auf Deutsch.", true)]
    #[case::spanish("De ahora en adelante usa pnpm.", true)]
    #[case::french("Désormais, écris les commits en anglais.", true)]
    #[case::chinese("以后提交信息都用英文", true)]
    #[case::japanese("今後はテストを先に書いて", true)]
    #[case::korean("앞으로 커밋은 영어로 해줘", true)]
    #[case::task("Now run the linter.", false)]
    #[case::always_is_not_enough("It always fails on CI.", false)]
    fn knows_the_words_that_make_a_rule_last(#[case] text: &str, #[case] persists: bool) {
        assert_eq!(PERSISTS.is_match(text), persists, "{text}");
    }

    #[rstest]
    #[case::chinese("我这个仓库是fork别人的", true)]
    #[case::japanese("AGENTS.mdに英語で規約書くようにして", true)]
    #[case::korean("한국어로 출력하도록 설정해줘", true)]
    #[case::english_with_a_han_name("Use 日本 as the label.", false)]
    fn tells_cjk_sentences_from_latin_ones(#[case] text: &str, #[case] cjk: bool) {
        assert_eq!(mostly_cjk(text), cjk, "{text}");
    }

    #[rstest]
    #[case::english("From now on, use the staging database for the tests.", true)]
    #[case::english_with_a_german_name("Always deploy the Ordner service with Helm.", true)]
    #[case::german(
        "Verschiebe die Datei in den neuen Ordner und stelle sicher, dass sie bleibt.",
        false
    )]
    #[case::spanish("Siempre escribe los mensajes de commit en inglés.", false)]
    #[case::french("On utilise toujours pnpm pour les dépendances.", false)]
    fn tells_english_from_german_spanish_and_french(#[case] text: &str, #[case] english: bool) {
        assert_eq!(reads_as_english(text), english, "{text}");
    }
}
