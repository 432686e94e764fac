//! Learnings that belong (ADR 0010): a project's learnings stay in it, global ones go
//! everywhere, worktrees and moved clones keep their memory, pinned ones open the section.

use std::path::{Path, PathBuf};

use crate::support::{Hermetic, git_in as git};

/// A git repository `name` in the home, with an `origin` remote when given.
fn repository(env: &Hermetic, name: &str, origin: Option<&str>) -> PathBuf {
    let dir = env.home().join(name);
    fs_err::create_dir_all(&dir).unwrap();
    git(&dir, &["init", "-q", "-b", "main"]);
    if let Some(url) = origin {
        git(&dir, &["remote", "add", "origin", url]);
    }
    dir
}

fn learn(env: &Hermetic, dir: &Path, args: &[&str]) {
    env.carryover()
        .current_dir(dir)
        .arg("learn")
        .args(args)
        .assert()
        .success();
}

fn context(env: &Hermetic, dir: &Path) -> String {
    let output = env
        .carryover()
        .current_dir(dir)
        .arg("context")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn two_projects() -> (Hermetic, PathBuf, PathBuf) {
    let env = Hermetic::new();
    env.init();
    let api = repository(&env, "shop-api", Some("git@github.com:acme/shop-api.git"));
    let web = repository(&env, "web-app", Some("https://github.com/acme/web-app"));
    learn(
        &env,
        &api,
        &[
            "insight",
            "--project",
            "Integration tests need the payment stub on port 5433",
        ],
    );
    learn(
        &env,
        &api,
        &[
            "pattern",
            "--project",
            "Never commit directly to main; open a pull request",
        ],
    );
    learn(
        &env,
        &web,
        &[
            "insight",
            "--project",
            "Components are styled with Tailwind utility classes",
        ],
    );
    learn(&env, &web, &["pattern", "Keep summaries to three bullets"]);
    (env, api, web)
}

#[test]
fn a_projects_learnings_never_show_in_another() {
    let (env, api, web) = two_projects();
    let in_web = context(&env, &web);
    assert!(in_web.contains("Tailwind"), "{in_web}");
    assert!(
        in_web.contains("three bullets"),
        "global ones show everywhere: {in_web}"
    );
    assert!(
        !in_web.contains("payment stub") && !in_web.contains("commit directly"),
        "{in_web}"
    );
    let in_api = context(&env, &api);
    assert!(
        in_api.contains("payment stub") && in_api.contains("three bullets"),
        "{in_api}"
    );
    assert!(!in_api.contains("Tailwind"), "{in_api}");
}

#[test]
fn a_global_learning_naming_another_project_stays_in_that_project() {
    let (env, api, web) = two_projects();
    learn(
        &env,
        &api,
        &[
            "insight",
            "shop-api uses sqlx with compile-time checked queries",
        ],
    );
    assert!(context(&env, &api).contains("sqlx"));
    assert!(!context(&env, &web).contains("sqlx"));
    // Settling it: made global on purpose, it shows everywhere.
    let listed = env
        .carryover()
        .current_dir(&api)
        .args(["learnings", "list", "--global", "--json"])
        .output()
        .unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let sqlx = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["content"].as_str().unwrap().contains("sqlx"))
        .unwrap();
    assert_eq!(sqlx["project"], serde_json::Value::Null);
    env.carryover()
        .current_dir(&api)
        .args([
            "learnings",
            "scope",
            sqlx["id"].as_str().unwrap(),
            "project",
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains("is now in project shop-api:"));
    assert!(context(&env, &api).contains("sqlx"));
    // Global on purpose: it shows everywhere, names or not.
    env.carryover()
        .current_dir(&web)
        .args(["learnings", "scope", sqlx["id"].as_str().unwrap(), "global"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "is now global, no longer in project shop-api:",
        ));
    assert!(context(&env, &web).contains("sqlx"));
}

#[test]
fn another_projects_learning_moves_here_only_when_forced() {
    let (env, api, web) = two_projects();
    learn(
        &env,
        &api,
        &["--project", "insight", "Integration tests need Docker"],
    );
    let listed = env
        .carryover()
        .current_dir(&api)
        .args(["learnings", "list", "--project", "--json"])
        .output()
        .unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let id = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["content"].as_str().unwrap().contains("need Docker"))
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let scope = |dir: &std::path::Path, extra: &[&str]| {
        env.carryover()
            .current_dir(dir)
            .args(["learnings", "scope", &id, "project"])
            .args(extra)
            .output()
            .unwrap()
    };
    let refused = scope(&web, &[]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("belongs to project shop-api"), "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(context(&env, &api).contains("need Docker"), "nothing moved");
    let again = scope(&api, &[]);
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(said.contains("was already in project shop-api"), "{said}");
    let moved = scope(&web, &["--force"]);
    let said = String::from_utf8_lossy(&moved.stdout);
    assert!(
        said.contains("is now in project web-app, no longer in project shop-api"),
        "{said}{}",
        String::from_utf8_lossy(&moved.stderr)
    );
    assert!(context(&env, &web).contains("need Docker"));
    assert!(!context(&env, &api).contains("need Docker"));
}

#[test]
fn a_worktree_and_a_moved_clone_keep_the_projects_memory() {
    let (env, api, _) = two_projects();
    fs_err::write(api.join("README.md"), "shop-api\n").unwrap();
    git(&api, &["add", "README.md"]);
    git(&api, &["commit", "-q", "-m", "Start"]);
    let worktree = env.home().join("wt-feature");
    git(
        &api,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feature",
            worktree.to_str().unwrap(),
        ],
    );
    let in_worktree = context(&env, &worktree);
    assert!(in_worktree.contains("payment stub"), "{in_worktree}");
    let moved = env.home().join("elsewhere");
    fs_err::rename(&api, &moved).unwrap();
    // What a session there may be shown: its two learnings and the global one.
    let output = env
        .carryover()
        .current_dir(&moved)
        .args(["learnings", "list", "--json"])
        .output()
        .unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert!(
        listed
            .iter()
            .any(|l| l["content"].as_str().unwrap().contains("payment stub"))
    );
}

#[rstest::rstest]
#[case::list(&["learnings", "list", "--json"])]
#[case::search(&["learnings", "search", "--json", "--top", "50", "tests main tailwind summaries"])]
fn listings_and_searches_filter_by_scope(#[case] command: &[&str]) {
    let (env, api, _) = two_projects();
    let count = |flag: &str| {
        let output = env
            .carryover()
            .current_dir(&api)
            .args(command)
            .args((!flag.is_empty()).then_some(flag))
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        value.as_array().unwrap().len()
    };
    assert_eq!(count("--all"), 4);
    assert_eq!(count("--global"), 1);
    assert_eq!(count("--project"), 2);
    assert_eq!(count(""), 3, "what a session here sees");
    env.carryover()
        .current_dir(&api)
        .args(command)
        .args(["--global", "--all"])
        .assert()
        .failure()
        .code(2);
}

#[test]
fn pinned_learnings_open_the_section() {
    let env = Hermetic::new();
    env.init();
    let api = repository(&env, "shop-api", None);
    for n in 0..8 {
        learn(
            &env,
            &api,
            &[
                "insight",
                "--project",
                &format!("Payment retries rule number {n} for the HTTP client"),
            ],
        );
    }
    learn(
        &env,
        &api,
        &["pattern", "--pin", "Answer in British English"],
    );
    let text = context(&env, &api);
    let section = &text[text.find("learnings (").unwrap()..];
    let first = section.lines().nth(1).unwrap();
    assert_eq!(first, "  pattern: Answer in British English", "{text}");
    let id = {
        let output = env
            .carryover()
            .current_dir(&api)
            .args(["learnings", "list", "--json"])
            .output()
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(value[0]["pinned"], true, "pinned first in listings too");
        value[0]["id"].as_str().unwrap().to_owned()
    };
    env.carryover()
        .current_dir(&api)
        .args(["learnings", "unpin", &id])
        .assert()
        .success();
    let text = context(&env, &api);
    let section = &text[text.find("learnings (").unwrap()..];
    assert_ne!(
        section.lines().nth(1).unwrap(),
        "  pattern: Answer in British English"
    );
}

#[rstest::rstest]
#[case::this_project_said("I prefer tabs over spaces in this project.", "tabs over spaces")]
#[case::this_repo_dropped_by_the_rewrite(
    "We use Conventional Commits in this repo.",
    "Commit messages"
)]
#[case::where_it_deploys("we deploy to Fly.io", "Fly.io")]
#[case::its_staging("Staging is reset every Sunday.", "Staging is reset")]
fn a_projects_proposals_never_show_in_another(#[case] said: &str, #[case] shown: &str) {
    let (env, api, web) = two_projects();
    let transcript = env.home().join("api-session.jsonl");
    let row = serde_json::json!({"type": "user", "isSidechain": false, "cwd": api,
        "message": {"role": "user", "content": said}});
    fs_err::write(&transcript, format!("{row}\n")).unwrap();
    let output = env
        .carryover()
        .current_dir(&api)
        .args(["proposals", "extract", "--transcript"])
        .arg(&transcript)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let listed = env
        .carryover()
        .current_dir(&api)
        .args(["proposals", "list"])
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(listed.contains("[project shop-api]"), "{listed}\n{stderr}");
    let in_api = context(&env, &api);
    assert!(in_api.contains(shown), "{in_api}");
    let in_web = context(&env, &web);
    assert!(!in_web.contains(shown), "{in_web}");
    assert!(!in_web.contains("Proposed learnings"), "{in_web}");
    let list_in_web = |extra: &[&str]| {
        let output = env
            .carryover()
            .current_dir(&web)
            .args(["proposals", "list"])
            .args(extra)
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let listed = list_in_web(&[]);
    assert!(!listed.contains(shown), "{listed}");
    assert!(listed.contains("1 more for other projects"), "{listed}");
    let listed = list_in_web(&["--all-projects"]);
    assert!(listed.contains(shown), "{listed}");
}

#[test]
fn a_learning_kept_before_the_remote_was_added_is_still_the_projects_own() {
    let env = Hermetic::new();
    env.init();
    let notes = repository(&env, "notes", None);
    learn(
        &env,
        &notes,
        &["--project", "insight", "Drafts live in drafts/"],
    );
    git(
        &notes,
        &["remote", "add", "origin", "git@github.com:u/notes.git"],
    );
    let again = env
        .carryover()
        .current_dir(&notes)
        .args(["learn", "--project", "insight", "Drafts live in drafts/"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(!again.status.success(), "{stderr}");
    assert!(stderr.contains("already"), "{stderr}");
    assert!(context(&env, &notes).contains("Drafts live in drafts/"));
    // Every command that lists the project's learnings agrees with what its sessions see.
    for command in [
        &["learnings", "list", "--json"][..],
        &["learnings", "list", "--project", "--json"],
        &["learnings", "search", "drafts", "--json"],
    ] {
        let output = env
            .carryover()
            .current_dir(&notes)
            .args(command)
            .output()
            .unwrap();
        let listed: serde_json::Value =
            serde_json::from_str(&crate::support::succeeded(&output)).unwrap();
        assert_eq!(
            listed.as_array().map(Vec::len),
            Some(1),
            "{command:?}: {listed}"
        );
    }
}

#[test]
fn clones_of_a_repository_on_disk_share_their_memory() {
    let env = Hermetic::new();
    env.init();
    let bare = env.home().join("srv/shop.git");
    fs_err::create_dir_all(&bare).unwrap();
    git(&bare, &["init", "-q", "--bare", "-b", "main"]);
    let first = env.home().join("first");
    let second = env.home().join("second");
    git(
        &env.home(),
        &[
            "clone",
            "-q",
            bare.to_str().unwrap(),
            first.to_str().unwrap(),
        ],
    );
    let url = format!("file://{}", bare.display());
    git(
        &env.home(),
        &["clone", "-q", &url, second.to_str().unwrap()],
    );
    learn(
        &env,
        &first,
        &[
            "--project",
            "insight",
            "The shop's fixtures load from seeds/",
        ],
    );
    assert!(
        context(&env, &second).contains("fixtures load from seeds/"),
        "the second clone sees the first one's learning"
    );
    let elsewhere = repository(&env, "elsewhere", None);
    assert!(!context(&env, &elsewhere).contains("fixtures load from seeds/"));
}

#[test]
fn a_project_moved_without_a_remote_is_told_where_its_learnings_are() {
    let env = Hermetic::new();
    env.init();
    let notes = repository(&env, "old/notes", None);
    learn(
        &env,
        &notes,
        &["insight", "--project", "The notes build with mdbook"],
    );
    let other = repository(&env, "web-app", None);
    learn(
        &env,
        &other,
        &["insight", "--project", "The web app needs Docker"],
    );
    let moved = env.home().join("notes");
    fs_err::rename(&notes, &moved).unwrap();
    let list = |dir: &Path| {
        let output = env
            .carryover()
            .current_dir(dir)
            .args(["learnings", "list"])
            .output()
            .unwrap();
        crate::support::succeeded(&output)
    };
    let said = list(&moved);
    assert!(said.contains("No confirmed learnings yet."), "{said}");
    assert!(
        said.contains("(2 more for other projects: --all shows them)"),
        "{said}"
    );
    let former = format!("path:{}", notes.display());
    assert!(
        said.contains(&format!("1 of them belongs to {former}, also named notes")),
        "{said}"
    );
    // The hint's command brings it here.
    let listed: serde_json::Value = serde_json::from_str(&crate::support::succeeded(
        &env.carryover()
            .current_dir(&moved)
            .args(["learnings", "list", "--all", "--json"])
            .output()
            .unwrap(),
    ))
    .unwrap();
    let id = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["project"] == former.as_str())
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    crate::support::succeeded(
        &env.carryover()
            .current_dir(&moved)
            .args(["learnings", "scope", &id, "project", "--force"])
            .output()
            .unwrap(),
    );
    let said = list(&moved);
    assert!(said.contains("The notes build with mdbook"), "{said}");
    assert!(
        said.contains("(1 more for other projects: --all shows it)"),
        "{said}"
    );
    assert!(!said.contains("also named"), "{said}");
}

#[test]
fn a_learning_shown_says_where_it_belongs_and_whether_it_is_pinned() {
    let (env, api, _web) = two_projects();
    learn(
        &env,
        &api,
        &["pattern", "--pin", "Answer in British English"],
    );
    let listed = env
        .carryover()
        .current_dir(&api)
        .args(["learnings", "list", "--json"])
        .output()
        .unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let id_of = |start: &str| {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["content"].as_str().unwrap().starts_with(start))
            .map(|l| l["id"].as_str().unwrap().to_owned())
            .unwrap()
    };
    for (start, says) in [
        ("Integration tests", "· project shop-api · confirmed"),
        ("Answer in British", "· global · pinned · confirmed"),
    ] {
        let shown = env
            .carryover()
            .current_dir(&api)
            .args(["learnings", "show", &id_of(start)])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&shown.stdout);
        assert!(
            stdout.contains(says),
            "{stdout}{}",
            String::from_utf8_lossy(&shown.stderr)
        );
    }
}
