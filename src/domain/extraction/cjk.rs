//! Standing rules, preferences and project facts in Chinese, Japanese and Korean. These
//! scripts have no spaces between words and mark questions and requests with particles and
//! verb endings, so they get their own families: 以后/每次/不要/记住/我们用/必须,
//! 今後/常に/ようにして/規約/しないで, 앞으로/항상/도록 해/하지 마.

use std::sync::LazyLock;

use regex::Regex;

use super::cues::{BUG_REPORT, PERSISTS, regex};
use super::rules::{candidate, stand_alone};
use super::{Candidate, Family};
use crate::domain::seed::LearningKind;

/// A trailing tag that asks for agreement, not information: "，你懂吗", "，对吧".
static RHETORICAL_TAG: LazyLock<Regex> =
    LazyLock::new(|| regex(r"[，,、]\s*(你懂吗|你知道吗|明白吗|懂吗|知道吗|对吧|好吗)[？?]?$"));

static QUESTION: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"[？?]\s*$|(吗|呢|么|吧)[。.]?\s*$|什么|怎么|为什么|如何|哪里|哪个|哪些|是不是|能不能|",
        r"可不可以|有没有|多少|",
        r"(か|かな|かね|だろう|でしょう|っけ)[。.]?\s*$|何|なぜ|どう|どこ|いつ|誰|",
        r"(까|니|나요|까요|냐)[.]?\s*$|뭐|왜|어떻게|어디|언제|누구|무슨|어떤|어느|",
        // Asking to be told is asking a question: 告诉我, 教えて, 알려줘.
        r"告诉我|解释一下|介绍一下|教えて|説明して|알려줘|설명해",
    ))
});

static HYPOTHETICAL: LazyLock<Regex> =
    LazyLock::new(|| regex(r"^(如果|要是|假如|万一|もし|만약|만일)"));

/// Words that tie a request to the task at hand: "帮我" (help me with), "今回", "지금".
static TASK_SCOPE: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"今天|这次|这一次|现在|马上|刚才|暂时|一下|帮我|你先|先把|先帮|",
        r"今回|今は|今だけ|さっき|とりあえず|まず|このPR|このコミット|",
        r"지금|이번|먼저|오늘|일단",
    ))
});

/// Requests, obligations and instructions that a word for every occasion turns into a rule.
static INSTRUCTION: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"不要|要|必须|请|记得|一律|务必|用|使用|写|",
        r"して|しないで|すること|しろ|ください|ように|べき|使|書|て(ね|ほしい|くれ)?([。.!！]|$)",
        r"|([^탁]|^)해(줘|주세요|라|요)?([.!]|$)|해 ?줘|하지 ?마|말아|하자|써 ?줘|사용해",
    ))
});

static DONT: LazyLock<Regex> = LazyLock::new(|| {
    // "别" only opening a clause: "别人" (other people) is no prohibition.
    regex(r"不要|(^|[，,；;\s])别|不许|禁止|不准|しないで|しないこと|するな|하지 ?마|지 ?말아|금지")
});

static MUST: LazyLock<Regex> = LazyLock::new(|| regex(r"必须|务必|一定要"));

/// The language something is to be written in: "PR名は英語に", "영어로 작성해줘", "用英文写".
static IN_LANGUAGE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(英語|日本語|中国語|韓国語|英文|中文|한국어|영어|일본어)(に|で|로|으로)|用(英文|中文|英语|日语)",
    )
});

static REMEMBER: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"^(请)?(记住|记得)[，,：:\s]*|覚えておいて|覚えといて|忘れないで|기억해")
});

/// "Make it so that …": ようにして (ja), 도록 해 (ko) set a lasting state, not one action.
static SO_THAT: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"ように(して|する|しろ|したい|してほしい|して欲しい|してください|お願い)?([。.!！、]|$)|",
        r"도록 ?(해|해줘|해 줘|해주세요|설정|하고 싶|하자|할 것)",
    ))
});

/// A convention named as such: 規約 (convention), ルール, 必須 (mandatory), 禁止.
static CONVENTION: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(規約|規格|ルール|必須|命名規則)[^。]*(にしたい|にして|を守|に従|に対応|に沿|にする)")
});

/// "…のが理想" (ideally …), "…べきだ" (… should be).
static IDEAL: LazyLock<Regex> = LazyLock::new(|| regex(r"(のが|が)理想|べき(だ|です)?([。.]|$)"));

/// The user's limits and tastes: "我只能接受…", "我更喜欢…".
static ACCEPTS: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"^我(只|也)?(能|可以)?(接受|不接受)|^我只(用|要)|^我(更)?(喜欢|偏好|习惯|倾向)")
});

static DEICTIC: LazyLock<Regex> =
    LazyLock::new(|| regex(r"这个|那个|这些|那些|これ|それ|이거|그거"));

/// The project's stack or shape: "我们用…", "我这个仓库是fork别人的", "うちは…を使って".
static PROJECT_FACT: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"^(我们|咱们)(都|一直|只)?(用|使用|采用|部署在|部署到|基于|跑在|托管在)|",
        r"^(我|我们)(这个|的)?(代码)?(仓库|项目|repo|代码库)[^，。]{0,12}(是|就是|用|在|基于|部署|托管|就|只有)|",
        r"fork(自|的|了)|是fork|",
        r"^(うちは|我々は|私たちは|このプロジェクトは|このリポジトリは)[^。]*(使って|使う|採用|デプロイ)|",
        r"^우리(는|팀은)? [^.]*(사용해|써|쓰고|사용하고|배포)",
    ))
});

/// Judges a sentence written mostly in a CJK script.
pub(super) fn classify(sentence: &str) -> Option<Candidate> {
    let text = RHETORICAL_TAG.replace(sentence.trim(), "");
    let text = text.as_ref();
    if HYPOTHETICAL.is_match(text) {
        return None;
    }
    if !QUESTION.is_match(text) {
        return judge(text);
    }
    // "…規約を守るようにしてほしい、flakeで設定できる？": a rule, then a question about
    // how to set it up; the rule stands on its own.
    let (cut, _) = text.rmatch_indices(['、', '，', ',']).next()?;
    let head = &text[..cut];
    (!QUESTION.is_match(head)).then(|| judge(head)).flatten()
}

fn judge(text: &str) -> Option<Candidate> {
    let rule =
        |kind, confidence, family| Some(candidate(kind, stand_alone(text), confidence, family));
    if text.chars().count() < 6 || TASK_SCOPE.is_match(text) {
        return None;
    }
    let lasting = PERSISTS.is_match(text) && !BUG_REPORT.is_match(text);
    if let Some(found) = REMEMBER.find(text) {
        let rest = text[found.end()..].trim();
        if rest.chars().count() >= 6 {
            return Some(candidate(
                LearningKind::Insight,
                stand_alone(rest),
                0.8,
                Family::Reminder,
            ));
        }
    }
    if DONT.is_match(text) {
        // A bare "不要…" steers the task at hand as often as it sets a rule.
        let confidence = if lasting { 0.85 } else { 0.6 };
        return rule(LearningKind::Pattern, confidence, Family::Imperative);
    }
    if lasting && INSTRUCTION.is_match(text) {
        return rule(LearningKind::Pattern, 0.85, Family::Standing);
    }
    if CONVENTION.is_match(text) {
        return rule(LearningKind::Pattern, 0.8, Family::Convention);
    }
    if SO_THAT.is_match(text) {
        return rule(LearningKind::Pattern, 0.75, Family::Standing);
    }
    if MUST.is_match(text) {
        return rule(LearningKind::Pattern, 0.75, Family::Imperative);
    }
    if IN_LANGUAGE.is_match(text) {
        return rule(LearningKind::Pattern, 0.75, Family::Standing);
    }
    if PROJECT_FACT.is_match(text) {
        return rule(LearningKind::Insight, 0.75, Family::ProjectFact);
    }
    if ACCEPTS.is_match(text) && !DEICTIC.is_match(text) {
        return rule(LearningKind::Pattern, 0.75, Family::Preference);
    }
    if IDEAL.is_match(text) {
        return rule(LearningKind::Pattern, 0.7, Family::Preference);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    // Chinese
    #[case::zh_from_now_on("以后提交信息都用英文写", Family::Standing)]
    #[case::zh_every_time("每次改完代码都要跑一遍测试", Family::Standing)]
    #[case::zh_never("永远不要直接推送到main分支", Family::Imperative)]
    #[case::zh_remember("记住，测试数据库每周日都会被清空", Family::Reminder)]
    #[case::zh_we_use("我们用pnpm管理所有前端依赖", Family::ProjectFact)]
    #[case::zh_fork("我这个仓库是fork别人的，你懂吗", Family::ProjectFact)]
    #[case::zh_core_file("我的项目核心代码就一个文件，就是main.py", Family::ProjectFact)]
    #[case::zh_must("提交前必须通过所有检查", Family::Imperative)]
    #[case::ja_pr_names_in_english("PR名は英語に", Family::Standing)]
    #[case::ko_write_in_english(
        "내가 명시한 부분을 제외하고서는 영어로 작성해줘.",
        Family::Standing
    )]
    #[case::zh_write_in_english("注释用英文写", Family::Standing)]
    #[case::zh_limit("我只能接受5G以下的模型", Family::Preference)]
    // Japanese
    #[case::ja_so_that("AGENTS.mdに英語で規約書くようにして", Family::Convention)]
    #[case::ja_so_that_plain(
        "PRタイトルもコミットメッセージの形式に合わせるように.",
        Family::Standing
    )]
    #[case::ja_rule_then_question(
        "コミットは規約を守るようにしてほしい、flakeで設定できる？",
        Family::Convention
    )]
    #[case::ja_mandatory("scopeを必須にしたいんだが、できるか？", Family::Convention)]
    #[case::ja_from_now_on("今後はテストを先に書いてください", Family::Standing)]
    #[case::ja_always("常に日本語で答えて", Family::Standing)]
    #[case::ja_never("mainに直接pushしないで、今後も", Family::Imperative)]
    #[case::ja_ideal("トークンなしでも動くのが理想だな", Family::Preference)]
    // Korean
    #[case::ko_so_that(
        "생성되는 문서는 한국어로 출력하도록 설정하고 싶은데.",
        Family::Standing
    )]
    #[case::ko_from_now_on("앞으로 커밋 메시지는 영어로 써줘", Family::Standing)]
    #[case::ko_never("절대 main에 직접 푸시하지 마, 항상 PR로 해", Family::Imperative)]
    fn recognises_rules_in_chinese_japanese_and_korean(
        #[case] sentence: &str,
        #[case] family: Family,
    ) {
        let found = classify(sentence).expect("a candidate");
        assert_eq!(found.family, family, "{sentence}");
        assert!(found.confidence >= 0.65, "{sentence}: {}", found.confidence);
    }

    #[rstest]
    #[case::zh_question("为什么老是多出来一个新分支")]
    #[case::zh_how("怎样关掉自动提交的功能")]
    #[case::zh_task("帮我把这两个文档翻译成英文")]
    #[case::zh_dont_once("系统提示词不要改，给我解释一下它说了什么")]
    #[case::zh_if("如果以后上游改了配置，我拉取的时候会怎样")]
    #[case::zh_i_recall("我记得git有一个暂存的功能吗")]
    #[case::ja_question("どっちの方がいいんだろう")]
    #[case::ja_for_now("READMEは一旦コミットせず、設計書はPRにしたい")]
    #[case::ja_task("cliのコメントも直して")]
    #[case::ko_task("바뀐 파일들을 전부 커밋해줘.")]
    #[case::ko_question("어떤 설정을 넣으면 좋을까?")]
    #[case::ko_greeting("앞으로 잘 부탁해")]
    #[case::ja_greeting("今後ともよろしく")]
    #[case::zh_bug("每次运行都会报错")]
    #[case::ja_bug("毎回同じエラーが出る")]
    fn leaves_cjk_questions_and_task_requests(#[case] sentence: &str) {
        let found = classify(sentence);
        assert!(
            found.as_ref().is_none_or(|c| c.confidence < 0.65),
            "{sentence}: {found:?}"
        );
    }
}
