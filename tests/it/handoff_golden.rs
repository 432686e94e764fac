//! Golden handoffs of public Claude Code sessions of the parts tuned on (tests/fixtures/real-sessions,
//! sources and licences in its README; a held-out part stays unseen): the transcript read by the real reader, the handoff built and
//! rendered, compared with the file in `golden/`. `CARRYOVER_BLESS=1` rewrites the files after
//! a deliberate change; review their diff like code.

use std::path::Path;

use carryover::domain::handoff::{HandoffScope, build_handoff};
use carryover::domain::ports::{DigestScope, TranscriptReader};
use carryover::domain::seed::Timestamp;
use carryover::infrastructure::ClaudeTranscriptReader;
use rstest::rstest;

#[rstest]
#[case::compacted_with_a_commit(
    "12-packmind-compacted",
    "/Users/cedricteyton/Code/agents-md-evaluator"
)]
#[case::push_to_main("20-agentv-short", "/home/christso/projects/agentv")]
#[case::japanese_with_pull_requests(
    "28-ja-repiq-commit-conventions",
    "/home/yuta/ghq/github.com/yutakobayashidev/repiq"
)]
#[case::chinese_with_open_edits("27-zh-mini-coding-agent-ollama", "/Users/anji/mini-coding-agent")]
#[case::quiet_commits_read_from_the_log(
    "61-authgo-codex-findings-changelog",
    "/Users/paul/src/entireio/auth-go"
)]
#[case::a_plan_declined_at_the_end(
    "63-entire-local-markdown-prompt",
    "/Users/arvos/Tactic/workspaces/workspace-entire-local-cli/entire-local"
)]
#[case::pull_requests_through_github_mcp(
    "82-langlearn-ci-punt-tts-compat-compacted",
    "/Users/jfreeman/Coding/punt-labs/langlearn-tts"
)]
#[case::an_old_client_and_a_failing_test_suite(
    "95-vsla-unified-interface-refactor-compacted",
    "/home/kenth56/vsla"
)]
fn handoffs_of_real_sessions_match_their_golden_files(#[case] name: &str, #[case] cwd: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real-sessions");
    let digest = pollster::block_on(
        ClaudeTranscriptReader.digest(&dir.join(format!("{name}.jsonl")), DigestScope::Whole),
    )
    .unwrap();
    let handoff = build_handoff(
        &digest,
        HandoffScope {
            session_id: name,
            project_name: cwd.rsplit(['/', '\\']).next().unwrap(),
            root: cwd,
            previous: None,
        },
        Timestamp::parse("2026-11-23T09:00:00Z").unwrap(),
    );
    let rendered = handoff.render();
    let golden = dir.join("golden").join(format!("{name}.md"));
    if std::env::var_os("CARRYOVER_BLESS").is_some() {
        fs_err::create_dir_all(golden.parent().unwrap()).unwrap();
        fs_err::write(&golden, &rendered).unwrap();
    }
    let expected = fs_err::read_to_string(&golden).unwrap();
    let diff = similar::TextDiff::from_lines(&expected, &rendered);
    assert!(
        expected == rendered,
        "{name}: the handoff differs from {} (CARRYOVER_BLESS=1 rewrites it):\n{}",
        golden.display(),
        diff.unified_diff()
    );
}
