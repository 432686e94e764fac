//! `install` and `uninstall` on real settings files, and the wired command run as the agent
//! would run it.

use std::path::Path;
use std::process::{Command as StdCommand, Stdio};

use serde_json::{Value, json};

use crate::support::{Hermetic, fixture, git_in as git};

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&fs_err::read_to_string(path).unwrap()).unwrap()
}

fn user_settings() -> Value {
    json!({
        "model": "opus",
        "env": {"FOO": "bar"},
        "hooks": {
            "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo mine"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
        },
    })
}

/// The user's own settings file `file` (under the home), holding `text`.
fn users_settings(env: &Hermetic, file: &str, text: &str) -> std::path::PathBuf {
    let settings = env.home().join(file);
    fs_err::create_dir_all(settings.parent().unwrap()).unwrap();
    fs_err::write(&settings, text).unwrap();
    settings
}

/// An executable file at `path` (a stand-in for a carryover binary the hooks would run).
fn executable(path: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    fs_err::create_dir_all(path.parent().unwrap()).unwrap();
    fs_err::write(path, "#!/bin/sh\n").unwrap();
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_owned()
}

fn backups(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs_err::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".carryover-backup-"))
        .collect();
    names.sort();
    names
}

#[test]
fn install_merges_into_user_settings_keeps_the_rest_and_is_idempotent() {
    let env = Hermetic::new();
    let settings = env.home().join(".claude/settings.json");
    fs_err::create_dir_all(settings.parent().unwrap()).unwrap();
    let original = serde_json::to_string_pretty(&user_settings()).unwrap();
    fs_err::write(&settings, &original).unwrap();

    let out = env.carryover().arg("install").assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("wired into Claude Code"), "{stdout}");

    let installed = read_json(&settings);
    assert_eq!(installed["model"], "opus");
    assert_eq!(installed["env"], json!({"FOO": "bar"}));
    assert_eq!(installed["hooks"]["Stop"], user_settings()["hooks"]["Stop"]);
    let starts = installed["hooks"]["SessionStart"].as_array().unwrap();
    assert_eq!(starts[0], user_settings()["hooks"]["SessionStart"][0]);
    assert_eq!(starts[1]["matcher"], "startup|resume|clear|compact");
    let command = starts[1]["hooks"][0]["command"].as_str().unwrap();
    assert!(
        Path::new(command.split(' ').next().unwrap()).is_absolute(),
        "{command}"
    );
    assert!(command.ends_with(" hook session-start"));
    assert_eq!(starts[1]["hooks"][0]["timeout"], 10);
    for event in ["PreCompact", "SessionEnd"] {
        assert_eq!(
            installed["hooks"][event].as_array().unwrap().len(),
            1,
            "{event}"
        );
    }
    let kept = backups(settings.parent().unwrap());
    assert_eq!(kept.len(), 1);
    assert_eq!(
        fs_err::read_to_string(settings.parent().unwrap().join(&kept[0])).unwrap(),
        original
    );

    let bytes = fs_err::read(&settings).unwrap();
    env.carryover()
        .arg("install")
        .assert()
        .success()
        .stdout(predicates::str::contains("already wired"));
    assert_eq!(fs_err::read(&settings).unwrap(), bytes, "nothing rewritten");
    assert_eq!(
        backups(settings.parent().unwrap()).len(),
        1,
        "no new backup"
    );

    env.carryover().arg("uninstall").assert().success();
    assert_eq!(read_json(&settings), user_settings());
    assert!(
        backups(settings.parent().unwrap()).is_empty(),
        "the file is the original again, so its backup goes"
    );
}

/// A committed project repository with a README.
fn project_repo(env: &Hermetic) -> std::path::PathBuf {
    let project = env.home().join("shop");
    fs_err::create_dir_all(&project).unwrap();
    git(&project, &["init", "--quiet", "--initial-branch=main"]);
    fs_err::write(project.join("README.md"), "shop\n").unwrap();
    git(&project, &["add", "README.md"]);
    git(&project, &["commit", "--quiet", "-m", "start"]);
    project
}

#[test]
fn project_install_writes_the_bare_command_and_says_so() {
    let env = Hermetic::new();
    let project = project_repo(&env);
    let out = env
        .carryover()
        .args(["install", "--scope", "project", "--cwd"])
        .arg(&project)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("run `carryover` as found on PATH"),
        "{stdout}"
    );
    let text = fs_err::read_to_string(project.join(".claude/settings.json")).unwrap();
    let settings: Value = serde_json::from_str(&text).unwrap();
    let command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert_eq!(command, "carryover hook session-start");
    assert_eq!(settings["statusLine"]["command"], "carryover statusline");
    let machine = env.home().to_string_lossy().into_owned();
    assert!(!text.contains(&machine), "no path of this machine: {text}");
    let binary = assert_cmd::cargo::cargo_bin!("carryover");
    assert!(!text.contains(&*binary.to_string_lossy()), "{text}");
}

#[test]
fn project_uninstall_leaves_the_repository_as_it_was() {
    let env = Hermetic::new();
    let project = project_repo(&env);
    assert_eq!(git(&project, &["status", "--porcelain"]), "");
    for command in ["install", "uninstall"] {
        env.carryover()
            .args([command, "--scope", "project", "--cwd"])
            .arg(&project)
            .assert()
            .success();
    }
    assert_eq!(
        git(
            &project,
            &["status", "--porcelain", "--untracked-files=all"]
        ),
        "",
        "no `{{}}` file and no backup left behind"
    );
    assert!(!project.join(".claude").exists());

    // A project whose committed settings are the user's: the file goes back to theirs.
    fs_err::create_dir_all(project.join(".claude")).unwrap();
    let theirs = "{\n  \"model\": \"opus\"\n}\n";
    fs_err::write(project.join(".claude/settings.json"), theirs).unwrap();
    git(&project, &["add", ".claude/settings.json"]);
    git(&project, &["commit", "--quiet", "-m", "settings"]);
    for command in ["install", "uninstall"] {
        env.carryover()
            .args([command, "--scope", "project", "--cwd"])
            .arg(&project)
            .assert()
            .success();
    }
    assert_eq!(
        git(
            &project,
            &["status", "--porcelain", "--untracked-files=all"]
        ),
        ""
    );
}

#[test]
fn repeated_install_and_uninstall_keep_one_backup_the_original() {
    let env = Hermetic::new();
    let settings = env.home().join(".claude/settings.json");
    let dir = settings.parent().unwrap().to_owned();
    fs_err::create_dir_all(&dir).unwrap();
    let original = serde_json::to_string_pretty(&user_settings()).unwrap();
    fs_err::write(&settings, &original).unwrap();
    for round in 0..3 {
        env.carryover()
            .args(["install", "--no-statusline"])
            .assert()
            .success();
        let kept = backups(&dir);
        assert_eq!(kept.len(), 1, "round {round}: {kept:?}");
        assert_eq!(
            fs_err::read_to_string(dir.join(&kept[0])).unwrap(),
            original
        );
        // The user changes something while carryover is installed.
        let mut changed = read_json(&settings);
        changed["round"] = json!(round);
        fs_err::write(&settings, serde_json::to_string_pretty(&changed).unwrap()).unwrap();
        env.carryover().arg("uninstall").assert().success();
        let kept = backups(&dir);
        assert!(kept.len() <= 1, "round {round}: {kept:?}");
        if let Some(backup) = kept.first() {
            assert_eq!(fs_err::read_to_string(dir.join(backup)).unwrap(), original);
        }
    }
}

/// Doctor's fix after the binary moved is to install again: the file carryover made is no
/// original of the user's to back up, and uninstall still leaves nothing behind.
#[rstest::rstest]
#[case::claude("claude", ".claude/settings.json")]
#[case::copilot("copilot", ".copilot/hooks/carryover.json")]
fn installing_again_after_the_binary_moved_leaves_nothing_behind(
    #[case] agent: &str,
    #[case] file: &str,
) {
    let env = Hermetic::new();
    let settings = env.home().join(file);
    for place in ["old/bin", "new/bin"] {
        let binary = executable(&env.home().join(place).join("carryover"));
        env.carryover()
            .args(["install", "--agent", agent, "--binary"])
            .arg(&binary)
            .assert()
            .success()
            .stdout(predicates::prelude::PredicateBooleanExt::not(
                predicates::str::contains("backup"),
            ));
    }
    assert!(
        fs_err::read_to_string(&settings)
            .unwrap()
            .contains("/new/bin/carryover")
    );
    assert_eq!(backups(settings.parent().unwrap()), Vec::<String>::new());
    env.carryover()
        .args(["uninstall", "--agent", agent])
        .assert()
        .success();
    assert!(!settings.exists(), "{} is left", settings.display());
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let env = Hermetic::new();
    let out = env
        .carryover()
        .args(["install", "--dry-run"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.starts_with("--- /dev/null\n+++ "), "{stdout}");
    assert!(stdout.contains("+        \"matcher\": \"startup|resume|clear|compact\","));
    assert!(!env.home().join(".claude").exists());

    let json = env
        .carryover()
        .args(["uninstall", "--dry-run", "--json"])
        .assert()
        .success();
    let value: Value = serde_json::from_slice(&json.get_output().stdout).unwrap();
    assert_eq!(value["changed"], false);
    assert_eq!(value["written"], false);
    assert_eq!(
        (&value["agent"], &value["agent_name"]),
        (&json!("claude"), &json!("Claude Code")),
        "the agent by the key `--agent`, `status` and `doctor` use, and by name"
    );
}

#[test]
fn a_settings_file_that_is_not_json_is_refused_and_untouched() {
    let env = Hermetic::new();
    let settings = env.home().join(".claude/settings.json");
    fs_err::create_dir_all(settings.parent().unwrap()).unwrap();
    let broken = "{\n  \"model\": \"opus\",\n}\n";
    fs_err::write(&settings, broken).unwrap();
    for command in ["install", "uninstall"] {
        env.carryover()
            .arg(command)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("not valid JSON at line 3"))
            .stderr(predicates::str::contains("nothing was written"));
        assert_eq!(fs_err::read_to_string(&settings).unwrap(), broken);
    }
    assert!(backups(settings.parent().unwrap()).is_empty());
}

#[test]
fn codex_and_gemini_get_their_own_files_and_units_in_the_project() {
    let env = Hermetic::new();
    let project = env.home().join("shop");
    fs_err::create_dir_all(&project).unwrap();
    for agent in ["codex", "gemini"] {
        env.carryover()
            .args(["install", "--agent", agent, "--scope", "project", "--cwd"])
            .arg(&project)
            .assert()
            .success();
    }
    let codex = read_json(&project.join(".codex/hooks.json"));
    assert_eq!(
        codex["hooks"]["SessionStart"][0]["matcher"],
        "startup|resume|clear|compact"
    );
    assert!(
        codex["hooks"]["SessionStart"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with("hook session-start --agent codex")
    );
    assert!(
        codex["hooks"]["SessionEnd"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with("hook session-end")
    );
    assert_eq!(codex["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 3);
    let gemini = read_json(&project.join(".gemini/settings.json"));
    assert_eq!(
        gemini["hooks"]["PreCompress"][0]["hooks"][0]["timeout"],
        10_000
    );
    env.carryover()
        .args(["install", "--agent", "gemini", "--scope", "local"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "Gemini CLI has no local settings file",
        ));
}

/// Copilot CLI reads every `*.json` in `.github/hooks/` (a file of carryover's own, which
/// uninstall deletes); Cursor shares its `.cursor/hooks.json` with the user's hooks.
#[test]
fn copilot_and_cursor_get_flat_files_in_the_project_and_uninstall_leaves_it_as_it_was() {
    let env = Hermetic::new();
    let project = project_repo(&env);
    let cursor_file = project.join(".cursor/hooks.json");
    fs_err::create_dir_all(cursor_file.parent().unwrap()).unwrap();
    let theirs = r#"{"version": 1, "hooks": {"stop": [{"command": "./notify.sh"}]}}"#;
    fs_err::write(&cursor_file, theirs).unwrap();
    for agent in ["copilot", "cursor"] {
        let out = env
            .carryover()
            .args(["install", "--agent", agent, "--scope", "project", "--cwd"])
            .arg(&project)
            .assert()
            .success();
        let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        let note = match agent {
            "copilot" => "only in a folder you trust",
            _ => "not been tested against the real client",
        };
        assert!(stdout.contains(note), "{stdout}");
    }
    let copilot = read_json(&project.join(".github/hooks/carryover.json"));
    assert_eq!(copilot["version"], 1);
    assert_eq!(
        copilot["hooks"]["sessionEnd"][0]["bash"],
        "carryover hook session-end --agent copilot"
    );
    assert_eq!(copilot["hooks"]["userPromptSubmitted"][0]["timeoutSec"], 10);
    let cursor = read_json(&cursor_file);
    assert_eq!(cursor["hooks"]["stop"][0]["command"], "./notify.sh");
    assert_eq!(
        cursor["hooks"]["sessionStart"][0]["command"],
        "carryover hook session-start --agent cursor"
    );
    for agent in ["copilot", "cursor"] {
        env.carryover()
            .args(["uninstall", "--agent", agent, "--scope", "project", "--cwd"])
            .arg(&project)
            .assert()
            .success();
    }
    assert!(!project.join(".github/hooks").exists());
    let after: Value = read_json(&cursor_file);
    assert_eq!(after, serde_json::from_str::<Value>(theirs).unwrap());
}

#[test]
fn copilot_home_moves_the_user_hooks_file() {
    let env = Hermetic::new();
    let elsewhere = env.home().join("copilot-home");
    env.carryover()
        .env("COPILOT_HOME", &elsewhere)
        .args(["install", "--agent", "copilot"])
        .assert()
        .success();
    assert!(elsewhere.join("hooks/carryover.json").is_file());
    assert!(!env.home().join(".copilot").exists());
}

/// Cursor's documented sessionStart payload gets `additional_context` back (no real client to
/// run here, ADR 0023).
#[test]
fn the_cursor_session_start_answers_with_additional_context() {
    let env = Hermetic::new();
    env.init();
    let project = project_repo(&env);
    let payload = serde_json::json!({
        "conversation_id": "c-1", "generation_id": "g-1", "hook_event_name": "sessionStart",
        "cursor_version": "2.0.0", "workspace_roots": [project], "session_id": "s-1",
        "is_background_agent": false, "composer_mode": "agent",
    });
    let out = env
        .carryover()
        .args(["hook", "session-start", "--agent", "cursor"])
        .write_stdin(payload.to_string())
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let answer: Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        answer["additional_context"]
            .as_str()
            .is_some_and(|context| context.contains("Identity: Juno (serving Mara)")),
        "{stdout}"
    );
}

#[test]
fn claude_config_dir_moves_the_user_settings() {
    let env = Hermetic::new();
    let elsewhere = env.home().join("claude-config");
    env.carryover()
        .env("CLAUDE_CONFIG_DIR", &elsewhere)
        .arg("install")
        .assert()
        .success();
    assert!(elsewhere.join("settings.json").is_file());
    assert!(!env.home().join(".claude").exists());
}

/// The wired command, run through a shell as Claude Code runs it, answers the real payload.
#[test]
fn the_wired_command_runs_through_a_shell_and_answers_the_agent() {
    let env = Hermetic::new();
    env.init();
    let spaced = env.home().join("my tools");
    fs_err::create_dir_all(&spaced).unwrap();
    let binary = spaced.join("carryover");
    fs_err::copy(assert_cmd::cargo::cargo_bin!("carryover"), &binary).unwrap();
    env.carryover()
        .arg("install")
        .arg("--binary")
        .arg(&binary)
        .assert()
        .success();
    let settings = read_json(&env.home().join(".claude/settings.json"));
    let command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(command.starts_with('\''), "quoted: {command}");
    let mut child = StdCommand::new("sh");
    child.args(["-c", &command]).current_dir(env.home());
    child.env_clear();
    for (key, value) in env.std_carryover().get_envs() {
        if let Some(value) = value {
            child.env(key, value);
        }
    }
    let mut running = child
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let payload = fs_err::read(fixture(
        "claude-code-2.1.328/hooks/sessionstart-startup-1.json",
    ))
    .unwrap();
    std::io::Write::write_all(&mut running.stdin.take().unwrap(), &payload).unwrap();
    let output = running.wait_with_output().unwrap();
    assert!(output.status.success());
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    let context = value["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        context.contains("Identity: Juno (serving Mara)"),
        "{context}"
    );
}

#[test]
fn the_status_line_is_wired_where_there_is_none_and_never_over_the_users() {
    let env = Hermetic::new();
    let settings = env.home().join(".claude/settings.json");
    let output = env.carryover().arg("install").output().unwrap();
    let summary = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = summary.lines().collect();
    assert!(
        output.status.success()
            && lines[lines.len() - 2].starts_with("  statusLine: ")
            && lines[lines.len() - 1] == "They take effect at the next session.",
        "the status line is listed with the hooks, before the closing line:\n{summary}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let command = read_json(&settings)["statusLine"]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(command.ends_with(" statusline"), "{command}");
    env.carryover().arg("uninstall").assert().success();
    assert!(
        !settings.exists(),
        "the file install made, with nothing else in it, is gone"
    );

    let theirs = json!({"statusLine": {"type": "command", "command": "~/bin/my-line"}});
    fs_err::create_dir_all(settings.parent().unwrap()).unwrap();
    fs_err::write(&settings, theirs.to_string()).unwrap();
    env.carryover()
        .arg("install")
        .assert()
        .success()
        .stdout(predicates::str::contains("Your own status line is kept"));
    assert_eq!(read_json(&settings)["statusLine"], theirs["statusLine"]);
    let before = fs_err::read(&settings).unwrap();
    env.carryover()
        .args(["install", "--statusline"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("has a status line of your own"));
    assert_eq!(fs_err::read(&settings).unwrap(), before, "nothing written");
    env.carryover().arg("uninstall").assert().success();
    assert_eq!(
        read_json(&settings)["statusLine"],
        theirs["statusLine"],
        "theirs stays"
    );
}

#[test]
fn install_keeps_the_users_numbers_as_written() {
    let env = Hermetic::new();
    let settings = env.home().join(".claude/settings.json");
    fs_err::create_dir_all(settings.parent().unwrap()).unwrap();
    fs_err::write(
        &settings,
        "{\n  \"big\": 123456789012345678901234567890,\n  \"exp\": 1e2,\n  \"ratio\": 0.1000\n}\n",
    )
    .unwrap();
    env.carryover().arg("install").assert().success();
    let text = fs_err::read_to_string(&settings).unwrap();
    for kept in ["123456789012345678901234567890", "1e2", "0.1000"] {
        assert!(text.contains(kept), "{kept} rewritten in\n{text}");
    }
}

#[test]
fn the_diff_is_coloured_on_a_terminal_unless_no_color_is_set() {
    let env = Hermetic::new();
    env.init();
    let green = "\u{1b}[32m+";
    let terminal = |extra: &[(&str, &str)]| {
        let (ok, shown) = env.on_a_terminal("install --dry-run", "", extra);
        assert!(ok, "{shown}");
        shown
    };
    let coloured = terminal(&[]);
    assert!(coloured.contains(green), "{coloured:?}");
    let plain = terminal(&[("NO_COLOR", "1")]);
    assert!(
        !plain.contains('\u{1b}') && plain.contains("\n+"),
        "{plain:?}"
    );
    let piped = env
        .carryover()
        .args(["install", "--dry-run"])
        .assert()
        .success();
    let piped = String::from_utf8_lossy(&piped.get_output().stdout).into_owned();
    assert!(
        !piped.contains('\u{1b}') && piped.contains("+++"),
        "{piped}"
    );
}

/// What `git status` shows as untracked in `repo`.
fn untracked(repo: &Path) -> String {
    git(repo, &["status", "--porcelain", "--untracked-files=all"])
}

/// A fresh git repository `shop` in the home.
fn shop_repository(env: &Hermetic) -> std::path::PathBuf {
    let repo = env.home().join("shop");
    fs_err::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    repo
}

/// `carryover install --scope local ARGS` in `repo`, which must succeed; its stdout.
fn install_local(env: &Hermetic, repo: &Path, args: &[&str]) -> String {
    let output = env
        .carryover()
        .current_dir(repo)
        .args(["install", "--scope", "local"])
        .args(args)
        .output()
        .unwrap();
    crate::support::succeeded(&output)
}

fn exclude_list(repo: &Path) -> String {
    fs_err::read_to_string(repo.join(".git/info/exclude")).unwrap_or_default()
}

#[test]
fn a_local_install_is_left_untracked_by_the_projects_git() {
    let env = Hermetic::new();
    let repo = shop_repository(&env);
    let said = install_local(&env, &repo, &[]);
    assert!(said.contains("git leaves"), "{said}");
    assert!(repo.join(".claude/settings.local.json").is_file());
    assert_eq!(untracked(&repo), "", "nothing for `git add -A` to commit");
    let exclude = exclude_list(&repo);
    assert!(
        exclude.ends_with("/.claude/settings.local.json\n"),
        "{exclude}"
    );
    // Again: already ignored, so nothing is added twice.
    let again: Value = serde_json::from_str(&install_local(&env, &repo, &["--json"])).unwrap();
    assert_eq!(again["git_excluded_in"], Value::Null, "{again}");
    assert_eq!(exclude_list(&repo), exclude);
}

#[rstest::rstest]
#[case::the_file_by_name(".gitignore", ".claude/settings.local.json\n")]
#[case::its_folder(".gitignore", ".claude/\n")]
#[case::by_a_nested_ignore_file(".claude/.gitignore", "settings.local.json\n")]
fn a_local_install_the_project_already_ignores_adds_no_rule(
    #[case] file: &str,
    #[case] rule: &str,
) {
    let env = Hermetic::new();
    let repo = shop_repository(&env);
    fs_err::create_dir_all(repo.join(file).parent().unwrap()).unwrap();
    fs_err::write(repo.join(file), rule).unwrap();
    let before = exclude_list(&repo);
    let report: Value = serde_json::from_str(&install_local(&env, &repo, &["--json"])).unwrap();
    assert_eq!(report["git_excluded_in"], Value::Null, "{report}");
    assert_eq!(exclude_list(&repo), before);
}

#[test]
fn a_local_settings_file_the_project_tracks_is_left_tracked() {
    let env = Hermetic::new();
    let repo = shop_repository(&env);
    fs_err::create_dir_all(repo.join(".claude")).unwrap();
    fs_err::write(repo.join(".claude/settings.local.json"), "{}\n").unwrap();
    git(&repo, &["add", "."]);
    git(
        &repo,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            "settings",
        ],
    );
    let report: Value = serde_json::from_str(&install_local(&env, &repo, &["--json"])).unwrap();
    assert_eq!(report["git_excluded_in"], Value::Null, "{report}");
    assert_eq!(untracked(&repo), " M .claude/settings.local.json\n");
}

#[test]
fn a_gemini_settings_file_with_comments_keeps_them_and_uninstall_gives_it_back() {
    let env = Hermetic::new();
    let mine = "{\n  // Dark, always.\n  \"ui\": {\"theme\": \"Dracula\"}, /* mine */\n  \"general\": {\"vimMode\": true}\n}\n";
    let settings = users_settings(&env, ".gemini/settings.json", mine);

    env.carryover()
        .args(["install", "--agent", "gemini"])
        .assert()
        .success();
    let installed = fs_err::read_to_string(&settings).unwrap();
    assert!(
        installed.starts_with(
            "{\n  // Dark, always.\n  \"ui\": {\"theme\": \"Dracula\"}, /* mine */\n  \"general\": {\"vimMode\": true},\n  \"hooks\": {"
        ),
        "{installed}"
    );

    env.carryover()
        .args(["uninstall", "--agent", "gemini"])
        .assert()
        .success();
    assert_eq!(fs_err::read_to_string(&settings).unwrap(), mine);
}

#[test]
fn a_claude_settings_file_keeps_its_own_layout_around_the_hooks() {
    let env = Hermetic::new();
    let mine = "{\n    \"model\": \"opus\",\n    \"env\": {\"A\": \"1\", \"B\": \"2\"},\n    \"cleanupPeriodDays\": 1e2\n}\n";
    let settings = users_settings(&env, ".claude/settings.json", mine);

    env.carryover().arg("install").assert().success();
    let installed = fs_err::read_to_string(&settings).unwrap();
    assert!(
        installed.starts_with("{\n    \"model\": \"opus\",\n    \"env\": {\"A\": \"1\", \"B\": \"2\"},\n    \"cleanupPeriodDays\": 1e2,\n    \"hooks\": {\n        \"SessionStart\": ["),
        "{installed}"
    );
}

#[test]
fn uninstall_gives_back_a_one_line_file_as_it_was() {
    let env = Hermetic::new();
    let mine = "{\"model\":\"opus\",\"env\":{\"A\":\"1\"}}";
    let settings = users_settings(&env, ".claude/settings.json", mine);

    env.carryover().arg("install").assert().success();
    assert_ne!(fs_err::read_to_string(&settings).unwrap(), mine);
    env.carryover().arg("uninstall").assert().success();
    assert_eq!(fs_err::read_to_string(&settings).unwrap(), mine);
}

#[rstest::rstest]
#[case::missing("bin/carryover", None, "No such file")]
#[case::not_executable("bin/carryover", Some(0o644), "is not an executable file")]
#[case::another_name("bin/carryover-x86_64-linux", Some(0o755), "is not named carryover")]
fn install_refuses_a_binary_its_hooks_could_not_run_or_find_again(
    #[case] file: &str,
    #[case] mode: Option<u32>,
    #[case] says: &str,
) {
    use std::os::unix::fs::PermissionsExt;
    let env = Hermetic::new();
    let binary = env.home().join(file);
    if let Some(mode) = mode {
        executable(&binary);
        fs_err::set_permissions(&binary, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    env.carryover()
        .args(["install", "--binary"])
        .arg(&binary)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(says));
    assert!(!env.home().join(".claude/settings.json").exists());
}

#[test]
fn install_with_the_bare_name_runs_carryover_from_path() {
    let env = Hermetic::new();
    env.carryover()
        .args(["install", "--binary", "carryover"])
        .assert()
        .success();
    let settings = read_json(&env.home().join(".claude/settings.json"));
    let command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(command.starts_with("carryover hook "), "{command}");
}

#[test]
fn uninstall_keeps_what_the_user_changed_in_the_file_since_install() {
    let env = Hermetic::new();
    let mine = "{\"model\":\"opus\",\"env\":{\"A\":\"1\"}}";
    let settings = users_settings(&env, ".claude/settings.json", mine);
    env.carryover().arg("install").assert().success();
    let installed = fs_err::read_to_string(&settings).unwrap();
    let edited = installed.replace("\"env\":{\"A\":\"1\"}", "\"env\": { \"A\": \"1\" }");
    assert_ne!(edited, installed);
    fs_err::write(&settings, &edited).unwrap();

    env.carryover().arg("uninstall").assert().success();
    let after = fs_err::read_to_string(&settings).unwrap();
    assert!(after.contains("\"env\": { \"A\": \"1\" }"), "{after}");
    assert!(!after.contains("hooks"), "{after}");
}
