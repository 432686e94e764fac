//! English standing rules and project facts that the basic families miss: instructions tied
//! to every later occasion ("from now on", "every time you …", "ask me before …"), recurring
//! work done "without X", polite requests that set a lasting behaviour, and stated facts
//! about where the project runs ("we are on X", "we will use X only", "hosted on Y", "the
//! repo is a fork", "M-Claude is our repo", "all amounts in Rupiah").

use std::sync::LazyLock;

use regex::Regex;

use super::cues::{ALWAYS_OR_NEVER, BUG_REPORT, PERSISTS, regex};
use super::rules::{candidate, instruction_kind, stand_alone, words};
use super::{Candidate, Family};
use crate::domain::seed::LearningKind;

/// Openings of an instruction to the assistant: an imperative verb, a modal addressed to
/// "you" or "we", or "I want you to".
static INSTRUCTION_START: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(please |just |also |and )*(",
        r"don't|do not|dont|never|always|make sure|ensure|remember to|be sure to|keep|stop|start|",
        r"use|write|run|ask|add|put|commit|push|save|store|create|reply|respond|answer|give|show|",
        r"tell|send|document|follow|prefer|avoid|name|format|sort|include|mention|",
        r"summari[sz]e|explain|confirm|speak|say|let me know|notify|update|print|log|",
        r"wait|leave|only|",
        r"you (should|must|need to|have to|will|are to)|you'll|",
        r"we (should|must|need to|have to|will|always|never|only)|we'll|",
        r"i (want|need|would like) you to|i'd like you to",
        r")\b",
    ))
});

/// Phrases that open a sentence with the occasion a rule applies to ("From now on, …",
/// "Every time you commit, …").
static OCCASION_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(from now on|from here on|going forward|moving forward|in (the )?future|",
        r"from this point on|by default|(whenever|every time|each time|when|after|once) ",
        r"(i|you|we) [^,]{2,80})\s*,?\s*(?P<rest>.+)$",
    ))
});

/// Openings that say "always" needs no more context to be a rule: "make sure you always …",
/// "you should never …".
static MUST_SHAPE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)^(please |just |also )*(make sure|ensure|remember to|be sure to|you (should|must|need to|have to))\b",
    )
});

/// "I told you before, …": the user repeating an instruction is the surest sign it lasts.
static TOLD_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)^(i told you|i've told you|i have told you|as i said|like i said|i already said|i said)( this| so)?( before| already| earlier| many times| twice)?[,:;.]*\s+(?P<rest>.+)$",
    )
});

/// A project named as such, with what it is or uses: "the repo is a monorepo", "this
/// project uses Poetry".
static PROJECT_SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(the|this|our) (repo|repository|project|codebase|monorepo|app|backend|frontend|",
        r"api|service|stack|site|website) ((is|are) (a|an|written|built|hosted|deployed|based)|",
        r"uses|runs on|lives in|lives on|targets|depends on)\b",
    ))
});

/// Words that pin an instruction to the task at hand even next to a word for "always".
static TASK_SCOPE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(for now|right now|today|tonight|this time|this pr|this run|this commit|this branch|yet)\b",
    )
});

static ASK_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(please |always )*(ask|check with|confirm with) me (first|before)\b|",
        r"\b(don't|do not|dont|never)\b.*\bwithout (asking|checking with|confirming with) me\b",
    ))
});

/// A rule announced by its label: "Standing Orders: never commit to main", "Code standard:
/// every new file cites its ticket", "New standing item: …", also after a lead-in ("almost
/// forgot this: Code standard: …").
static LABELLED_RULE: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)(^|:\s+)(new |another |one more )?(standing (orders?|items?|rules?|instructions?)|",
        r"house rules?|ground rules?|(code|coding|team) (standards?|rules?|conventions?)|",
        r"(new )?rule|policy|convention|going forward|from now on)\s*:\s*(?P<rest>\S.+)$",
    ))
});

/// A rule said as one: "As a general rule, the abstract goes with the first section", also
/// after a lead-in ("for workflow.md, as a rule, …").
static AS_A_RULE: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)(^|,\s*)(as a (general |standing |firm )?rule|as a matter of principle)",
        r"\s*,\s*(?P<rest>\S.+)$",
    ))
});

/// Commits without the assistant's co-author trailer or attribution: "no co-author bs",
/// "don't add Co-Authored-By", "without the claude attribution".
static NO_CO_AUTHOR: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)\b(no|without|don't add|do not add|dont add|never add|remove|drop|skip|omit|leave out)\b",
        r"[^.;]{0,30}\b(co-?authou?r(s|ed)?(-by)?|claude attribution|generated with claude)\b",
    ))
});

/// Commit messages in the Conventional Commits form, asked for while committing ("commit
/// with conventional commit message", "use conventional commit titles").
static CONVENTIONAL_COMMITS: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\bconventional[- ]commits?\b"));

/// What such a user wants, in the words a learning keeps.
const CONVENTIONAL_COMMITS_RULE: &str = "Commit messages follow Conventional Commits";

/// What a user who says so wants, in the words a learning keeps.
const NO_CO_AUTHOR_RULE: &str =
    "Commits carry no co-author trailer or attribution of the assistant (no Co-Authored-By line)";

/// Recurring work done a fixed way: "commit without co-author trailers".
static WITHOUT: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(please |always |don't |do not |dont |never )*(commit|push|merge|reply|respond|answer|write|open|release|",
        r"publish|sign|deploy|ship|format|generate)\w*\b(?P<between>.*?)\bwithout\s+\S",
    ))
});

static DEICTIC: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\b(this|that|it|these|those|them)\b"));

/// "We are on Kubernetes", "we're using Bun", "we are deploying to Fly".
static WE_ARE: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(we're|we are|we are now|we're now) (on|using|running on|deploying to|deploying on|",
        r"hosted on|hosting on|building on|building with|in) (?P<what>\S.*)$",
    ))
});

/// "We're using the formatter to correct that": a fact told for what it does to the thing
/// at hand, which it ends by pointing at.
static FOR_THE_THING_AT_HAND: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)\s(this|that|it|these|those|them)\W*$"));

/// "We are in" and "we are on" also open states of the work, not of the project.
static WE_ARE_STATE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)^(the |a |an )?(middle|process|progress|hurry|trouble|phase|step|track|it|same|board|call|meeting|agreement|sync|luck|right|wrong|detached|broken|bad|weird|good|loop|state|situation|position|mess|rush|way|too|much|more|less|lots|a lot|\d)\b|\b(branch|commit|page|line|step)\b",
    )
});

/// "We will use Docker only", "we won't use the browser build", "I'll host it on Render".
static WE_WILL: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^((we'll|we will|we're going to|we are going to) (only |not |never |always |just )?",
        r"(use|host|deploy|run|store|keep|build|stick with|target|support|ship)|",
        r"(we won't|we will not|we'll never|we will never) (use|host|deploy|support|ship|run)|",
        r"(i'll|i will|i'm going to|i am going to) host )\b",
    ))
});

/// What makes "we will use X" a decision for the project rather than the next step ("we'll
/// use the second approach"): a restriction, or where it runs.
static WE_WILL_DECIDED: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(only|not|never|won't|always|exclusively|everywhere|throughout|for everything|for all|host|deploy|publish|serve|target|stick with)\b",
    )
});

/// Where the project runs: "the app is deployed on Vercel", "we'll host it on Render".
static HOSTED: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)^((it|this|the [\w.-]+( [\w.-]+){0,3}|[\w.-]+)( is|'s| are| gets| will be) (hosted|deployed|served|published) (at|on|to|with) \S|(i( will|'ll)? host|we( will|'ll)? (host|deploy|publish)) (it |this |the [\w.-]+ )?(at|on|to) \S)",
    )
});

/// The same as a fragment ("hosted at random.example.se"): a note, when short; longer, it
/// opens a description ("hosted on the old server it was slower").
static HOSTED_NOTE: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)^(hosted|deployed|served) (at|on) \S+$"));

/// "Host it on X" as a correction of the plan ("I meant host on the chain"); on its own it
/// is a task ("host it on GitHub Pages").
pub(super) static HOST_INSTEAD: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)^(host|deploy|run) (it |this )?(at|on) \S"));

/// A time in place of a place: "we'll deploy on Monday" plans a step.
static WHEN: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(on|at) ((mon|tues|wednes|thurs|fri|satur|sun)day|\d|noon|midnight|the weekend)|\b(tomorrow|tonight|later|next week|soon)\b",
    )
});

static FORK: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)\b(is|it's|is just) (a|our|my) fork( of)?\b|\bforked (it )?from\b")
});

/// A named repository the user calls their own: "M-Claude is our repo and local folder". The
/// noun ends its phrase ("Jira is our project tracker" names no repository).
static OWN_REPOSITORY: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(?P<name>[\w.@/-]*[\w@-]) is (our|my) (own )?(repo|repository|project|codebase)",
        r"(\s*$|\s*[.,;:!(]|\s+(and|on|at|in)\b)",
    ))
});

/// Words that open "… is our repo" without naming one ("this is our repo", "here is my
/// project structure").
const NOT_A_NAME: [&str; 12] = [
    "this",
    "that",
    "it",
    "here",
    "there",
    "what",
    "which",
    "who",
    "where",
    "below",
    "above",
    "everything",
];

/// A unit, currency or language every value of a kind is written in.
static ALL_IN: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(all|every) ([\w-]+ ){0,2}(amounts?|prices?|values?|times?|timestamps?|dates?|",
        r"text|strings?|docs|documentation|comments?|messages?|names?|output|identifiers?|",
        r"money|sums?|totals?|costs?)( are| is| should be| must be| stay| go)? (in|as) \S",
    ))
});

static FORGOT_TO_TELL: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)^(oh,? )?(i )?forgot to (tell|mention|say)( (you|it))?( earlier| before)?[,:]?( that)?\s+(?P<rest>.+)$",
    )
});

/// "Can you please make sure …": a request in question form.
static POLITE: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)^(can|could|would|will) you (?P<please>please |kindly )?(also )?(?P<rest>.+)$")
});

/// Judges a sentence in question form that is a polite request: a standing rule when it says
/// "please" next to "always"/"never", or names every later occasion. "Can you always run the
/// linter" stays a question.
pub(super) fn polite_request(text: &str) -> Option<Candidate> {
    let found = POLITE.captures(text)?;
    let rest = found.name("rest").map_or("", |m| m.as_str());
    let pleads = found.name("please").is_some();
    let lasting = PERSISTS.is_match(rest) || (pleads && ALWAYS_OR_NEVER.is_match(rest));
    if !lasting || TASK_SCOPE.is_match(rest) || BUG_REPORT.is_match(rest) || words(rest) < 4 {
        return None;
    }
    let rest = rest.trim_end_matches(['?', ' ']);
    Some(candidate(
        instruction_kind(rest),
        stand_alone(rest),
        0.8,
        Family::Standing,
    ))
}

/// Judges a statement (no question, no reported speech) against the standing families.
pub(super) fn standing(text: &str) -> Option<Candidate> {
    if let Some(found) = LABELLED_RULE.captures(text) {
        let rest = found.name("rest").map_or("", |m| m.as_str());
        if words(rest) >= 4 && !TASK_SCOPE.is_match(rest) {
            return Some(candidate(
                instruction_kind(rest),
                stand_alone(rest),
                0.85,
                Family::Standing,
            ));
        }
    }
    if let Some(found) = AS_A_RULE.captures(text) {
        let rest = found.name("rest").map_or("", |m| m.as_str());
        if words(rest) >= 4 && !TASK_SCOPE.is_match(text) && !rest.trim_end().ends_with('?') {
            return Some(candidate(
                instruction_kind(rest),
                stand_alone(text),
                0.8,
                Family::Standing,
            ));
        }
    }
    if NO_CO_AUTHOR.is_match(text) && !text.trim_end().ends_with('?') {
        return Some(candidate(
            LearningKind::Pattern,
            NO_CO_AUTHOR_RULE.to_owned(),
            0.85,
            Family::Standing,
        ));
    }
    if CONVENTIONAL_COMMITS.is_match(text) && !text.trim_end().ends_with('?') {
        return Some(candidate(
            LearningKind::Pattern,
            CONVENTIONAL_COMMITS_RULE.to_owned(),
            0.8,
            Family::Standing,
        ));
    }
    if ASK_FIRST.is_match(text) && words(text) >= 4 {
        return Some(candidate(
            LearningKind::SelfKnowledge,
            stand_alone(text),
            0.85,
            Family::Standing,
        ));
    }
    if let Some(found) = FORGOT_TO_TELL.captures(text) {
        let rest = found.name("rest").map_or("", |m| m.as_str());
        return (words(rest) >= 4).then(|| {
            candidate(
                LearningKind::Insight,
                stand_alone(rest),
                0.8,
                Family::Reminder,
            )
        });
    }
    if let Some(found) = TOLD_BEFORE.captures(text) {
        let rest = found.name("rest").map_or("", |m| m.as_str());
        return (words(rest) >= 3 && !TASK_SCOPE.is_match(rest)).then(|| {
            candidate(
                instruction_kind(rest),
                stand_alone(rest),
                0.85,
                Family::Standing,
            )
        });
    }
    if let Some(rule) = lasting_instruction(text) {
        return Some(rule);
    }
    if let Some(found) = WITHOUT.captures(text) {
        let between = found.name("between").map_or("", |m| m.as_str());
        if !DEICTIC.is_match(between) && !TASK_SCOPE.is_match(text) && words(text) >= 3 {
            return Some(candidate(
                LearningKind::Pattern,
                stand_alone(text),
                0.75,
                Family::Standing,
            ));
        }
    }
    project_fact(text)
}

/// An instruction with a word that makes it outlast the task: "Use GitLab and commit as we
/// go forward", "From now on, answer in German".
fn lasting_instruction(text: &str) -> Option<Candidate> {
    let lasting =
        PERSISTS.is_match(text) || (ALWAYS_OR_NEVER.is_match(text) && MUST_SHAPE.is_match(text));
    if !lasting || TASK_SCOPE.is_match(text) || BUG_REPORT.is_match(text) || words(text) < 4 {
        return None;
    }
    let shaped = INSTRUCTION_START.is_match(text)
        || OCCASION_FIRST
            .captures(text)
            .is_some_and(|found| INSTRUCTION_START.is_match(&found["rest"]));
    shaped.then(|| {
        candidate(
            instruction_kind(text),
            stand_alone(text),
            0.85,
            Family::Standing,
        )
    })
}

/// Where a part of the project or its setup lives: "the backend is in ../entiredb", "full
/// config is at ~/.posh.omp.jsonc", ".collab should live in .entire folder". The place is a
/// path or a named folder, the subject a thing, not "it" or "this".
static LOCATED: LazyLock<Regex> = LazyLock::new(|| {
    regex(concat!(
        r"(?i)^(the |our |my )?(?P<subject>[\w.@-]+( [\w.@-]+){0,3}) ",
        r"(is|are|lives?|should live|should be|sits|resides?|is located|are located|is kept|are kept) ",
        r"(in|at|under|inside) (the )?",
        r"(?P<place>[~./][^\s,]*[\w/]|[\w.-]+/[^\s,]*|[\w.-]+ (folder|directory|dir|repo|repository))",
        r"\s*[.!]?$",
    ))
});

/// Subjects that point at the conversation or name a problem, not a part of the setup.
static NOT_A_PART: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(it|this|that|these|those|which|what|bug|issue|problem|error|fix|changes?|file you|one|logs?|output|results?|screenshots?|recording|download)\b",
    )
});

/// Places a file passes through rather than lives in.
const TEMPORARY_PLACES: [&str; 6] = [
    "/tmp",
    "/private/tmp",
    "/var/folders",
    "~/Downloads",
    "~/Desktop",
    "/dev/",
];

/// A stated location of a part of the project (see [`LOCATED`]).
pub(super) fn location(text: &str) -> Option<Candidate> {
    let found = LOCATED.captures(text.trim())?;
    let passing = TEMPORARY_PLACES
        .iter()
        .any(|place| found["place"].starts_with(place));
    let stated = !NOT_A_PART.is_match(&found["subject"])
        && !passing
        && !TASK_SCOPE.is_match(text)
        && !BUG_REPORT.is_match(text);
    stated.then(|| {
        candidate(
            LearningKind::Insight,
            stand_alone(text.trim()),
            0.75,
            Family::ProjectFact,
        )
    })
}

/// A stated fact about where and on what the project runs.
pub(super) fn project_fact(text: &str) -> Option<Candidate> {
    let fact = |confidence| {
        Some(candidate(
            LearningKind::Insight,
            stand_alone(text),
            confidence,
            Family::ProjectFact,
        ))
    };
    if words(text) < 3 {
        return None;
    }
    if let Some(found) = WE_ARE.captures(text) {
        let what = found.name("what").map_or("", |m| m.as_str());
        if !WE_ARE_STATE.is_match(what)
            && !DEICTIC.is_match(first_word(what))
            && !FOR_THE_THING_AT_HAND.is_match(what)
            && !TASK_SCOPE.is_match(what)
        {
            return fact(0.75);
        }
    }
    if WE_WILL.is_match(text)
        && WE_WILL_DECIDED.is_match(text)
        && !TASK_SCOPE.is_match(text)
        && !WHEN.is_match(text)
    {
        return fact(0.75);
    }
    let hosted = (HOSTED.is_match(text) || HOSTED_NOTE.is_match(text)) && !WHEN.is_match(text);
    let own_repository = OWN_REPOSITORY
        .captures(text)
        .is_some_and(|found| !NOT_A_NAME.contains(&found["name"].to_lowercase().as_str()));
    if hosted || FORK.is_match(text) || own_repository {
        return fact(0.8);
    }
    if PROJECT_SUBJECT.is_match(text) && !BUG_REPORT.is_match(text) && !TASK_SCOPE.is_match(text) {
        return fact(0.75);
    }
    if ALL_IN.is_match(text) {
        return Some(candidate(
            LearningKind::Pattern,
            stand_alone(text),
            0.8,
            Family::ProjectFact,
        ));
    }
    None
}

fn first_word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::from_now_on(
        "From now on, run the formatter before every commit.",
        Family::Standing
    )]
    #[case::trailing_cue("Write the changelog entry in English from now on.", Family::Standing)]
    #[case::as_we_go("use gitlab and add commits as we go forward", Family::Standing)]
    #[case::every_time(
        "Every time you change the schema, update the migration notes.",
        Family::Standing
    )]
    #[case::ask_first("Ask me before you delete any branch.", Family::Standing)]
    #[case::without_asking("Never push to the shared remote without asking me.", Family::Standing)]
    #[case::without("commit without co-author trailers", Family::Standing)]
    #[case::standing_orders(
        "Standing Orders: Never commit to main, code ends on main via PR only.",
        Family::Standing
    )]
    #[case::code_standard(
        "oh man, almost forgot this: Code standard: every new file cites its ticket number.",
        Family::Standing
    )]
    #[case::new_standing_item(
        "New standing item: at the start of every session, list the friction points.",
        Family::Standing
    )]
    #[case::no_co_author("git commit, push and open or no co-author bs", Family::Standing)]
    #[case::dont_add_co_authored_by("don't add Co-Authored-By to the commits", Family::Standing)]
    #[case::conventional_commits(
        "Commit these changes with conventional commit message",
        Family::Standing
    )]
    #[case::we_are_on("we are on Kubernetes with two clusters", Family::ProjectFact)]
    #[case::we_are_using("We're using pnpm workspaces for the frontend.", Family::ProjectFact)]
    #[case::we_will_only("we will use podman only", Family::ProjectFact)]
    #[case::we_will_not(
        "we will not use the hosted runner as it leaks secrets",
        Family::ProjectFact
    )]
    #[case::hosted_at("hosted at shop.example.org", Family::ProjectFact)]
    #[case::we_host("We'll host the docs on Cloudflare Pages.", Family::ProjectFact)]
    #[case::deployed_on("The admin app is deployed on Fly.io.", Family::ProjectFact)]
    #[case::i_will_host("i will host it on netlify", Family::ProjectFact)]
    #[case::fork("This repo is a fork of the upstream parser.", Family::ProjectFact)]
    #[case::own_repository(
        "M-Claude is our repo and local folder(documents\\M-Claude",
        Family::ProjectFact
    )]
    #[case::own_hyphenated_repository("rate-it is our project.", Family::ProjectFact)]
    #[case::all_amounts("All amounts in Rupiah, no decimals.", Family::ProjectFact)]
    #[case::make_sure_always(
        "make sure you always run the formatter before committing",
        Family::Standing
    )]
    #[case::you_should_never(
        "You should never edit the generated files by hand.",
        Family::Standing
    )]
    #[case::told_before(
        "I told you before, don't use emojis in commit messages",
        Family::Standing
    )]
    #[case::dont_without("don't commit without running the tests", Family::Standing)]
    #[case::monorepo("the repo is a monorepo with pnpm workspaces", Family::ProjectFact)]
    #[case::project_uses("This project uses Poetry, not pip.", Family::ProjectFact)]
    #[case::forgot_to_tell(
        "I forgot to tell you, we already keep the fixtures in a sibling repo.",
        Family::Reminder
    )]
    #[case::as_a_general_rule(
        "As a general rule, the abstract goes with the first section of the paper.",
        Family::Standing
    )]
    #[case::as_a_rule_after_a_lead_in(
        "for the API, as a rule, errors are returned as problem documents.",
        Family::Standing
    )]
    fn recognises_standing_rules_and_project_facts(#[case] sentence: &str, #[case] family: Family) {
        let found = standing(sentence).expect("a candidate");
        assert_eq!(found.family, family, "{sentence}");
        assert!(found.confidence >= 0.65, "{sentence}: {}", found.confidence);
    }

    #[test]
    fn a_co_author_rule_is_kept_in_a_learnings_words() {
        let found = standing("git commit, push and open or no co-author bs").unwrap();
        assert_eq!(found.text, NO_CO_AUTHOR_RULE);
    }

    #[rstest]
    #[case::for_now("From now on until the release, skip the slow tests for now.")]
    #[case::this_is_our_repo("this is our repo, look around")]
    #[case::it_is_my_project("It is my project.")]
    #[case::here_is_my_project_structure("Here is my project structure")]
    #[case::what_is_our_repo_called("What is our repo called")]
    #[case::a_project_manager("Claude is my project manager")]
    #[case::a_project_tracker("Jira is our project tracker")]
    #[case::label_on_a_task("Rule: fix the test for now")]
    #[case::label_too_short("Policy: strict.")]
    #[case::as_a_rule_for_now("As a rule, skip the slow tests for now.")]
    #[case::as_a_rule_asked("As a general rule, should the abstract go first?")]
    #[case::as_a_rule_too_short("As a rule, no.")]
    #[case::asking_about_co_authors("should the commit have no co-author?")]
    #[case::asking_about_conventional_commits("do we use conventional commits here?")]
    #[case::description(
        "we usually use random.org, but every time you load it, it forgets the bounds"
    )]
    #[case::fix_without("fix it without touching the tests")]
    #[case::state_of_work("we are in the middle of the migration")]
    #[case::on_it("we are on it")]
    #[case::for_the_thing_at_hand("We're using the automated formatting to correct that.")]
    #[case::on_a_branch("we are on the main branch right now")]
    #[case::using_too_much("we're using way too much memory")]
    #[case::one_off_plan("we will use this time to clean up")]
    #[case::plain_task("Run the migration and report back.")]
    #[case::host_task("host it on github pages please")]
    #[case::hosted_story("hosted on the old server it was slower")]
    #[case::next_step("we'll use the second approach")]
    #[case::deploy_day("we'll deploy it on monday")]
    #[case::should_once("You should probably restart the server.")]
    #[case::app_state("the app is slow on my laptop")]
    #[case::bug_every_time("Check the logs every time it crashes and tell me what you find.")]
    fn leaves_task_talk_alone(#[case] sentence: &str) {
        assert_eq!(standing(sentence), None, "{sentence}");
    }

    #[rstest]
    #[case::please_always("Can you please make sure the summary always names the new status?")]
    #[case::every_time("Could you tell me what you changed every time you finish a long task?")]
    fn takes_polite_requests_for_lasting_behaviour(#[case] sentence: &str) {
        let found = polite_request(sentence).expect("a candidate");
        assert_eq!(found.family, Family::Standing);
        assert!(found.text.ends_with('.'), "{}", found.text);
    }

    #[rstest]
    #[case::capability("Can you always run the linter")]
    #[case::task("Can you please check the logs?")]
    #[case::now("Could you please always use the staging key for now?")]
    #[case::bug("can you check why the build fails every time I push?")]
    fn leaves_polite_questions_about_the_task(#[case] sentence: &str) {
        assert_eq!(polite_request(sentence), None, "{sentence}");
    }
}
