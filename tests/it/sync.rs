//! `carryover sync`: two data homes (two machines) and a bare remote on disk; concurrent edits
//! on both sides, a secret that must not leave, an unreachable remote, a sync killed mid-way.

use std::path::{Path, PathBuf};

use serde_json::Value;
use tempfile::TempDir;

use crate::support::{Hermetic, git_in};

/// A bare repository standing in for the user's private remote.
fn bare_remote() -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seed.git");
    fs_err::create_dir_all(&path).unwrap();
    git_in(
        &path,
        &["init", "--quiet", "--bare", "--initial-branch=main"],
    );
    (dir, path)
}

/// `carryover ARGS` that must succeed; returns its stdout, or panics with its stderr.
fn ok(env: &Hermetic, args: &[&str]) -> String {
    let output = env.carryover().args(args).output().unwrap();
    assert!(
        output.status.success(),
        "carryover {args:?} failed ({}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn sync(env: &Hermetic) -> Value {
    serde_json::from_str(&ok(env, &["sync", "--json"])).unwrap()
}

/// A machine whose data home syncs through `remote`.
fn machine(remote: &Path) -> Hermetic {
    let env = Hermetic::new();
    ok(&env, &["sync", "remote", "add", remote.to_str().unwrap()]);
    env
}

/// A laptop set up first (with `learned`, when given) and synced, and a desktop that joined
/// through the remote: two machines in step. The remote's folder lives as long as the first.
fn two_machines(learned: Option<&str>) -> (TempDir, PathBuf, Hermetic, Hermetic) {
    let (keep, remote) = bare_remote();
    let laptop = machine(&remote);
    laptop.init();
    if let Some(text) = learned {
        learn(&laptop, text);
    }
    sync(&laptop);
    let desktop = machine(&remote);
    sync(&desktop);
    (keep, remote, laptop, desktop)
}

fn contents(env: &Hermetic) -> Vec<String> {
    let listed: Value =
        serde_json::from_str(&ok(env, &["learnings", "list", "--all", "--json"])).unwrap();
    let mut texts: Vec<String> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["content"].as_str().unwrap().to_owned())
        .collect();
    texts.sort();
    texts
}

fn learn(env: &Hermetic, text: &str) -> String {
    let learned: Value =
        serde_json::from_str(&ok(env, &["learn", "--json", "insight", text])).unwrap();
    learned["id"].as_str().unwrap().to_owned()
}

fn seed(env: &Hermetic) -> Value {
    serde_json::from_str(&fs_err::read_to_string(env.seed_path()).unwrap()).unwrap()
}

/// Puts a pending proposal into the seed by hand (as a session end would).
fn propose(env: &Hermetic, id: &str, text: &str) {
    let mut value = seed(env);
    value["state"]["proposals"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({
            "id": id, "type": "pattern", "content": text, "source": "s1",
            "extractedAt": "2026-11-22T18:00:00.000Z", "status": "pending"
        }));
    fs_err::write(
        env.seed_path(),
        serde_json::to_string_pretty(&value).unwrap(),
    )
    .unwrap();
}

#[test]
fn a_new_machine_receives_the_seed_and_sends_its_learnings_back() {
    let (_keep, remote) = bare_remote();
    let laptop = machine(&remote);
    laptop.init();
    learn(&laptop, "Deploys go out on Tuesdays");
    let first = sync(&laptop);
    assert_eq!(first["pushed"], true, "{first}");
    assert_eq!(
        laptop.git(&["status", "--porcelain"]),
        "",
        "only the seed's files are tracked"
    );
    assert_eq!(
        git_in(&remote, &["ls-tree", "-r", "--name-only", "main"]),
        ".gitignore\nseed.json\nseed.schema.json\n"
    );
    assert_eq!(first["fetched"], false, "the remote was empty: {first}");

    let desktop = machine(&remote);
    let received = sync(&desktop);
    assert_eq!(received["merged"], true, "{received}");
    assert_eq!(contents(&desktop), ["Deploys go out on Tuesdays"]);
    assert!(ok(&desktop, &["identity", "show"]).contains("Mara"));
    let mode = |path: &Path| {
        std::os::unix::fs::PermissionsExt::mode(&fs_err::metadata(path).unwrap().permissions())
            & 0o777
    };
    assert_eq!(
        mode(&desktop.seed_path()),
        0o600,
        "what git checked out is private"
    );

    learn(&desktop, "CI runs on arm64");
    sync(&desktop);
    sync(&laptop);
    assert_eq!(
        contents(&laptop),
        ["CI runs on arm64", "Deploys go out on Tuesdays"]
    );
}

#[test]
fn concurrent_edits_on_both_machines_merge_by_id() {
    let (_keep, remote) = bare_remote();
    let laptop = machine(&remote);
    laptop.init();
    let doomed = learn(&laptop, "Staging resets every Sunday");
    learn(&laptop, "Deploys go out on Tuesdays");
    propose(&laptop, "prp_shared0001", "Prefers early returns");
    propose(&laptop, "prp_other00001", "Prefers small commits");
    sync(&laptop);
    let desktop = machine(&remote);
    sync(&desktop);

    // Apart: each machine adds, decides and renames on its own.
    learn(&laptop, "The laptop learned this");
    ok(&laptop, &["learnings", "forget", &doomed]);
    ok(&laptop, &["proposals", "accept", "prp_shared0001"]);
    ok(
        &laptop,
        &["identity", "set", "timezone", "America/New_York"],
    );
    learn(&desktop, "The desktop learned this");
    ok(&desktop, &["learnings", "pin", &doomed]);
    ok(&desktop, &["proposals", "reject", "prp_shared0001"]);
    ok(&desktop, &["proposals", "reject", "prp_other00001"]);
    ok(&desktop, &["identity", "set", "ai-name", "Iris"]);

    sync(&laptop);
    let merged = sync(&desktop);
    assert_eq!(merged["merged"], true, "{merged}");
    let conflicts = merged["conflicts"].as_array().unwrap();
    assert_eq!(
        conflicts.len(),
        1,
        "accepted here, rejected there: {merged}"
    );
    assert_eq!(conflicts[0]["path"], "prp_shared0001");
    sync(&laptop);

    for env in [&laptop, &desktop] {
        assert_eq!(
            contents(env),
            [
                "Deploys go out on Tuesdays",
                "Prefers early returns",
                "The desktop learned this",
                "The laptop learned this",
            ],
            "the forgotten learning stays forgotten, the accepted one is learned"
        );
        let seed = seed(env);
        let statuses: Vec<(&str, &str)> = seed["state"]["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["id"].as_str().unwrap(), p["status"].as_str().unwrap()))
            .collect();
        assert_eq!(
            statuses,
            [
                ("prp_shared0001", "accepted"),
                ("prp_other00001", "rejected")
            ]
        );
        assert_eq!(seed["identity"]["aiName"], "Iris");
        assert_eq!(
            seed["identity"]["preferences"]["timezone"],
            "America/New_York"
        );
    }
    assert_eq!(
        seed(&laptop),
        seed(&desktop),
        "both machines hold the same seed"
    );
}

#[test]
fn the_same_learning_written_on_two_machines_becomes_one() {
    let (_keep, _, laptop, desktop) = two_machines(None);
    learn(&laptop, "Deploys go out on Tuesdays");
    learn(&desktop, "deploys go out on   tuesdays.");
    sync(&laptop);
    sync(&desktop);
    sync(&laptop);
    assert_eq!(contents(&desktop).len(), 1, "{:?}", contents(&desktop));
    assert_eq!(contents(&laptop), contents(&desktop));
}

#[test]
fn two_machines_set_up_apart_merge_their_seeds() {
    let (_keep, remote) = bare_remote();
    let laptop = machine(&remote);
    laptop.init();
    learn(&laptop, "The laptop learned this");
    sync(&laptop);
    let desktop = machine(&remote);
    desktop.init();
    learn(&desktop, "The desktop learned this");
    let merged = sync(&desktop);
    assert_eq!(merged["pushed"], true, "{merged}");
    sync(&laptop);
    assert_eq!(
        contents(&laptop),
        ["The desktop learned this", "The laptop learned this"]
    );
}

#[test]
fn a_plain_git_pull_in_the_data_home_merges_the_seed_by_id() {
    let (_keep, _, laptop, desktop) = two_machines(None);
    learn(&laptop, "The laptop learned this");
    sync(&laptop);
    learn(&desktop, "The desktop learned this");
    git_in(
        &desktop.data(),
        &[
            "pull",
            "--quiet",
            "--no-rebase",
            "--no-edit",
            "origin",
            "main",
        ],
    );
    let text = fs_err::read_to_string(desktop.seed_path()).unwrap();
    assert!(!text.contains("<<<<<<<"), "{text}");
    assert_eq!(
        contents(&desktop),
        ["The desktop learned this", "The laptop learned this"]
    );
}

#[test]
fn sync_refuses_to_push_a_seed_that_holds_a_secret() {
    let (_keep, remote) = bare_remote();
    let laptop = machine(&remote);
    laptop.init();
    sync(&laptop);
    let id = learn(&laptop, "The deploy key lives in the vault");
    let secret = "AKIAZ3MTQ7LP4XN2WBQD";
    let text = fs_err::read_to_string(laptop.seed_path())
        .unwrap()
        .replace("lives in the vault", &format!("is {secret}"));
    fs_err::write(laptop.seed_path(), text).unwrap();
    let output = laptop.carryover().args(["sync"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&id), "names the learning: {stderr}");
    assert!(!stderr.contains(secret), "never the secret: {stderr}");
    let published = git_in(&remote, &["log", "-p", "--all"]);
    assert!(!published.contains(secret));
}

#[test]
fn an_unreachable_remote_fails_without_losing_anything_and_status_says_so() {
    let missing = tempfile::tempdir().unwrap();
    let laptop = machine(&missing.path().join("gone.git"));
    laptop.init();
    learn(&laptop, "Deploys go out on Tuesdays");
    let before = fs_err::read(laptop.seed_path()).unwrap();
    let output = laptop.carryover().args(["sync"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("could not be reached"), "{stderr}");
    assert!(stderr.contains("hint:"), "{stderr}");
    assert_eq!(fs_err::read(laptop.seed_path()).unwrap(), before);
    assert_eq!(contents(&laptop), ["Deploys go out on Tuesdays"]);
    let status: Value = serde_json::from_str(&ok(&laptop, &["status", "--json"])).unwrap();
    assert_eq!(status["sync"]["ok"], false, "{status}");
    assert!(
        status["sync"]["error"]
            .as_str()
            .is_some_and(|e| e.contains("could not be reached")),
        "{status}"
    );
    let doctor = laptop
        .carryover()
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&doctor.stdout).unwrap();
    let check = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["subject"] == "sync")
        .unwrap_or_else(|| panic!("no sync check: {report}"));
    assert_eq!(check["status"], "warn", "{check}");
}

#[test]
fn sync_without_a_remote_says_how_to_set_one() {
    let env = Hermetic::new();
    env.init();
    env.carryover()
        .args(["sync"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("sync remote add"));
}

#[test]
fn a_sync_killed_at_any_point_loses_nothing() {
    use std::process::Stdio;
    let (_keep, remote, laptop, desktop) = two_machines(Some("The laptop learned this"));
    for round in 0..12u64 {
        learn(&laptop, &format!("Laptop learning number {round}"));
        sync(&laptop);
        learn(&desktop, &format!("Desktop learning number {round}"));
        let mut command = desktop.std_carryover();
        command
            .args(["sync"])
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // Its own process group, so that SIGKILL takes the git it runs along with it.
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().unwrap();
        // Killed at a different point each round: before the fetch, in the merge, in the push.
        std::thread::sleep(std::time::Duration::from_millis(round * 7));
        let group = i32::try_from(child.id()).unwrap();
        // SAFETY: kill(2) with a process group id this test created; no memory is involved.
        unsafe { libc::kill(-group, libc::SIGKILL) };
        let _ = child.wait();
    }
    // The group killed the remote's side too (a path remote runs `git receive-pack` here),
    // which may have left the remote's ref lock; a server's receive-pack outlives its client
    // and removes it, so the test does.
    remove_locks(&remote);
    // A killed `git merge` may have left its own state; the next sync recovers from it.
    sync(&desktop);
    sync(&laptop);
    let texts = contents(&laptop);
    for round in 0..12 {
        for who in ["Laptop", "Desktop"] {
            let text = format!("{who} learning number {round}");
            assert!(texts.contains(&text), "{text} lost: {texts:?}");
        }
    }
    assert_eq!(contents(&desktop), texts);
}

#[test]
fn a_seed_cut_short_by_a_killed_checkout_is_restored_not_synced() {
    let (_keep, _, laptop, desktop) = two_machines(Some("The laptop learned this"));
    learn(&laptop, "The laptop learned more");
    sync(&laptop);
    // What a sync killed while git rewrote the seed in a fast-forward leaves: the file cut
    // short, and no MERGE_HEAD to say a merge was under way.
    let cut = "{\"version\": \"1.0\", \"iden";
    fs_err::write(desktop.seed_path(), cut).unwrap();
    sync(&desktop);
    let kept = desktop
        .seed_path()
        .with_file_name("seed.json.corrupted-sync");
    assert_eq!(
        fs_err::read_to_string(kept).unwrap(),
        cut,
        "set aside, not lost"
    );
    sync(&laptop);
    for env in [&laptop, &desktop] {
        let texts = contents(env);
        for text in ["The laptop learned this", "The laptop learned more"] {
            assert!(texts.contains(&text.to_owned()), "{text} lost: {texts:?}");
        }
    }
}

#[test]
fn a_merge_left_half_done_is_recovered_with_what_was_learned_since() {
    let (_keep, _, laptop, desktop) = two_machines(None);
    learn(&laptop, "The laptop learned this");
    sync(&laptop);
    learn(&desktop, "The desktop learned this");
    // What a sync killed between git's merge and its commit leaves: MERGE_HEAD and a merged
    // seed in the work tree; then a learning is saved (its commit cannot happen mid-merge).
    git_in(&desktop.data(), &["fetch", "--quiet", "origin"]);
    git_in(
        &desktop.data(),
        &["merge", "--no-commit", "--quiet", "origin/main"],
    );
    assert!(desktop.data().join(".git/MERGE_HEAD").exists());
    learn(&desktop, "Learned while the merge was half done");
    sync(&desktop);
    sync(&laptop);
    let expected = [
        "Learned while the merge was half done",
        "The desktop learned this",
        "The laptop learned this",
    ];
    assert_eq!(contents(&desktop), expected);
    assert_eq!(contents(&laptop), expected);
}

/// Waits (polling, no timing asserted) until `done` holds, for a background process.
fn eventually(what: &str, done: impl Fn() -> bool) {
    for _ in 0..600 {
        if done() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("{what} never happened");
}

#[test]
fn with_auto_sync_a_learning_reaches_the_remote_without_a_sync_command() {
    let (_keep, remote) = bare_remote();
    let laptop = machine(&remote);
    laptop.init();
    fs_err::write(laptop.data().join("config.toml"), "[sync]\nauto = true\n").unwrap();
    let id = learn(&laptop, "Deploys go out on Tuesdays");
    eventually("the background push", || {
        std::process::Command::new("git")
            .args(["--git-dir", remote.to_str().unwrap(), "log", "-p", "main"])
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains(&id))
    });
    eventually("the recorded result", || {
        let status: Value = serde_json::from_str(&ok(&laptop, &["status", "--json"])).unwrap();
        status["sync"]["ok"] == true
    });
}

#[test]
fn a_session_end_with_auto_sync_and_a_dead_remote_still_exits_0() {
    let missing = tempfile::tempdir().unwrap();
    let laptop = machine(&missing.path().join("gone.git"));
    laptop.init();
    fs_err::write(laptop.data().join("config.toml"), "[sync]\nauto = true\n").unwrap();
    laptop
        .carryover()
        .args(["hook", "session-end"])
        .write_stdin(r#"{"session_id":"s1","cwd":"/tmp","reason":"other"}"#)
        .assert()
        .success()
        .stdout("");
    eventually("the recorded failure", || {
        let status: Value = serde_json::from_str(&ok(&laptop, &["status", "--json"])).unwrap();
        status["sync"]["ok"] == false
    });
}

/// The projects directory of the project at `dir`, named by its identity (its `origin`).
fn identity_slug(dir: &Path) -> String {
    use carryover::domain::ports::ProjectContext;
    use carryover::domain::project::SlugStyle;
    let project = pollster::block_on(carryover::infrastructure::FsProjectContext.project(dir));
    project.slug(SlugStyle::Path).as_str().to_owned()
}

#[test]
fn handoffs_follow_the_project_to_a_clone_at_another_path() {
    let (_keep, remote) = bare_remote();
    let laptop = machine(&remote);
    laptop.init();
    let desktop = machine(&remote);
    for env in [&laptop, &desktop] {
        fs_err::write(env.data().join("config.toml"), "[sync]\nhandoffs = true\n").unwrap();
    }
    let clone = |env: &Hermetic, path: &str| {
        let dir = env.home().join(path);
        fs_err::create_dir_all(&dir).unwrap();
        git_in(&dir, &["init", "--quiet"]);
        git_in(
            &dir,
            &[
                "remote",
                "add",
                "origin",
                "git@github.com:acme/shop-api.git",
            ],
        );
        dir
    };
    let here = clone(&laptop, "code/shop-api");
    let there = clone(&desktop, "work/clients/acme-shop");
    let handoff = laptop
        .data()
        .join("projects")
        .join(identity_slug(&here))
        .join("sessions/s-laptop-1/handoff.md");
    fs_err::create_dir_all(handoff.parent().unwrap()).unwrap();
    fs_err::write(
        &handoff,
        "---\nsession_id: s-laptop-1\ntimestamp: 2026-11-22T18:00:00+00:00\nproject: shop-api\nduration_turns: 3\nsubstantive: true\nfiles_changed:\n  - src/retry.rs\n---\n## Goal\n- Add the retry budget to the fetcher\n",
    )
    .unwrap();
    assert_eq!(identity_slug(&here), identity_slug(&there));
    sync(&laptop);
    sync(&desktop);
    let shown = ok(
        &desktop,
        &["handoff", "show", "--cwd", there.to_str().unwrap()],
    );
    assert!(shown.contains("Add the retry budget"), "{shown}");
}

/// `carryover ARGS` that must succeed, its commit dated `at` (set, not waited for).
fn ok_at(env: &Hermetic, at: &str, args: &[&str]) {
    let output = env
        .carryover()
        .args(args)
        .env("GIT_COMMITTER_DATE", at)
        .output()
        .unwrap();
    crate::support::succeeded(&output);
}

#[test]
fn a_machine_set_up_later_with_inits_defaults_takes_the_remotes_identity() {
    let (_keep, remote) = bare_remote();
    let laptop = machine(&remote);
    laptop.init();
    sync(&laptop);
    // The desktop is set up as the README says, `init` first, with only the names given: its
    // style, time zone and locale are defaults nobody chose, and its commit is the newer one.
    let desktop = machine(&remote);
    ok_at(
        &desktop,
        "2099-01-01T00:00:00Z",
        &["init", "--ai-name", "Juno", "--principal", "Mara"],
    );
    let merged = sync(&desktop);
    let reported: Vec<&str> = merged["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert!(
        reported.contains(&"$.identity.preferences.timezone"),
        "the desktop is told what it gave up: {merged}"
    );
    sync(&laptop);
    for env in [&laptop, &desktop] {
        let preferences = &seed(env)["identity"]["preferences"];
        assert_eq!(preferences["responseStyle"], "concise", "{preferences}");
        assert_eq!(preferences["timezone"], "Europe/Lisbon", "{preferences}");
        assert_eq!(preferences["locale"], "en-GB", "{preferences}");
    }
}

#[test]
fn a_seed_set_up_long_before_the_remote_keeps_its_identity_when_it_joins() {
    let (_keep, remote) = bare_remote();
    // The desktop has been used for years without a remote; the laptop is new and synced first.
    let desktop = machine(&remote);
    ok_at(
        &desktop,
        "2020-01-01T00:00:00Z",
        &[
            "init",
            "--ai-name",
            "Juno",
            "--principal",
            "Mara",
            "--style",
            "concise",
            "--timezone",
            "Europe/Lisbon",
        ],
    );
    let laptop = machine(&remote);
    ok(
        &laptop,
        &["init", "--ai-name", "Juno", "--principal", "Mara"],
    );
    sync(&laptop);
    sync(&desktop);
    sync(&laptop);
    for env in [&laptop, &desktop] {
        let preferences = &seed(env)["identity"]["preferences"];
        assert_eq!(preferences["responseStyle"], "concise", "{preferences}");
        assert_eq!(preferences["timezone"], "Europe/Lisbon", "{preferences}");
    }
}

#[test]
fn a_field_renamed_on_both_machines_takes_the_newer_change_and_says_so() {
    let (_keep, _, laptop, desktop) = two_machines(None);
    // The commits' times decide which change is newer.
    let rename = |env: &Hermetic, name: &str, at: &str| {
        ok_at(env, at, &["identity", "set", "ai-name", name]);
    };
    rename(&desktop, "Nova", "2026-11-23T10:00:00Z");
    rename(&laptop, "Iris", "2026-11-23T11:00:00Z");
    sync(&laptop);
    let merged = sync(&desktop);
    // The catchphrase follows the name (`Iris here, ready to go.`), so it changed on both too.
    let conflicts: Vec<(&str, &str)> = merged["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["path"].as_str().unwrap(), c["kept"].as_str().unwrap()))
        .collect();
    assert_eq!(
        conflicts,
        [
            ("$.identity.aiName", "\"Iris\""),
            ("$.identity.catchphrase", "\"Iris here, ready to go.\"")
        ],
        "{merged}"
    );
    sync(&laptop);
    for env in [&laptop, &desktop] {
        assert_eq!(seed(env)["identity"]["aiName"], "Iris");
    }
}

#[test]
fn a_lock_left_on_the_remote_is_named_and_nothing_is_lost() {
    let (_keep, remote) = bare_remote();
    let laptop = machine(&remote);
    laptop.init();
    learn(&laptop, "The laptop learned this");
    sync(&laptop);
    // What a push killed while the remote updated its branch leaves behind.
    let lock = remote.join("refs/heads/main.lock");
    fs_err::write(&lock, "").unwrap();
    learn(&laptop, "Learned while the remote was locked");
    let out = laptop.std_carryover().args(["sync"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("refused the push: cannot lock ref") && stderr.contains("main.lock"),
        "{stderr}"
    );
    assert!(stderr.contains("remove that file"), "{stderr}");
    fs_err::remove_file(&lock).unwrap();
    sync(&laptop);
    let desktop = machine(&remote);
    sync(&desktop);
    assert!(contents(&desktop).contains(&"Learned while the remote was locked".to_owned()));
}

/// Removes the `*.lock` files under a bare remote's refs.
fn remove_locks(dir: &Path) {
    for entry in fs_err::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            remove_locks(&path);
        } else if path.extension().is_some_and(|e| e == "lock") {
            fs_err::remove_file(&path).unwrap();
        }
    }
}

#[test]
fn a_purge_says_the_remote_still_holds_the_text_and_starts_no_sync() {
    let (keep, remote) = bare_remote();
    let laptop = machine(&remote);
    laptop.init();
    let id = learn(&laptop, "The staging box is db-7 in rack twelve");
    sync(&laptop);
    // Automatic sync from here on, so that only the purge itself could start one.
    fs_err::write(laptop.data().join("config.toml"), "[sync]\nauto = true\n").unwrap();
    let output = laptop
        .carryover()
        .args(["learnings", "forget", "--purge", &id])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("still hold it")
            && stderr.contains("push --force-with-lease")
            && stderr.contains("automatic one"),
        "{stderr}"
    );
    // No background sync brought the remote's history back behind the user's back.
    std::thread::sleep(std::time::Duration::from_millis(1_500));
    let local = laptop.git(&["log", "--all", "-p"]);
    assert!(!local.contains("rack twelve"), "{local}");
    drop(keep);
}

#[test]
fn a_blank_remote_url_is_refused_and_the_remote_kept() {
    let (_keep, remote) = bare_remote();
    let laptop = machine(&remote);
    laptop
        .carryover()
        .args(["sync", "remote", "add", ""])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("the remote's URL is empty"));
    assert_eq!(
        ok(&laptop, &["sync", "remote", "show"]).trim(),
        remote.to_str().unwrap()
    );
}

#[test]
fn a_removed_remote_is_no_longer_synced_through_and_keeps_what_it_holds() {
    let (_keep, remote, laptop, _desktop) = two_machines(Some("The build runs on rack twelve"));
    let removed: Value =
        serde_json::from_str(&ok(&laptop, &["sync", "remote", "remove", "--json"])).unwrap();
    assert_eq!(removed["removed"], remote.to_str().unwrap());
    let shown: Value =
        serde_json::from_str(&ok(&laptop, &["sync", "remote", "show", "--json"])).unwrap();
    assert_eq!(shown["remote"], Value::Null);
    let output = laptop.carryover().arg("sync").output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(2),
        "a sync without a remote is refused: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The remote itself keeps the seed; removing it here deletes nothing there.
    let log = git_in(&remote, &["log", "--format=%s", "main"]);
    assert!(!log.trim().is_empty(), "{log}");
    assert_eq!(contents(&laptop), vec!["The build runs on rack twelve"]);
    laptop
        .carryover()
        .args(["sync", "remote", "remove"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no sync remote is set"));
    let added: Value = serde_json::from_str(&ok(
        &laptop,
        &["sync", "remote", "add", remote.to_str().unwrap(), "--json"],
    ))
    .unwrap();
    assert_eq!(added["remote"], remote.to_str().unwrap());
    sync(&laptop);
}
