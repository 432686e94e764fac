//! Hostile input and data-home hygiene: payloads, transcripts and planted symlinks that try to
//! reach outside the data home or break a hook, and what carryover writes there.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::{Hermetic, envelope, slug};

const SECRET: &str = "sk-ant-api03-Zx9Qv3LmT7pR2sW8yB4nC6dF1gH5jK0aE";

fn all_entries(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs_err::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == ".git") {
            continue;
        }
        found.push(path.clone());
        if path.is_dir() && !path.is_symlink() {
            found.extend(all_entries(&path));
        }
    }
    found
}

fn transcript_with_secret(env: &Hermetic) -> PathBuf {
    let path = env.home().join("session.jsonl");
    let rows: Vec<String> = [
        format!("Always use the key {SECRET} for the staging API."),
        format!("My token is {SECRET}, please add it to the config."),
    ]
    .iter()
    .map(|text| {
        json!({"type": "user", "isSidechain": false,
            "message": {"role": "user", "content": text}})
        .to_string()
    })
    .collect();
    fs_err::write(&path, rows.join("\n") + "\n").unwrap();
    path
}

#[cfg(unix)]
#[test]
fn every_file_is_private_and_no_secret_reaches_logs_handoffs_or_proposals() {
    use std::os::unix::fs::PermissionsExt;
    let env = Hermetic::new();
    env.init();
    let transcript = transcript_with_secret(&env);
    let project = env.home().join("shop-api");
    fs_err::create_dir_all(project.join(".git")).unwrap();
    let payload = |event: &str, session: &str| {
        json!({"session_id": session, "transcript_path": transcript, "cwd": project,
            "hook_event_name": event, "trigger": "manual", "reason": "other", "source": "startup"})
        .to_string()
    };
    for (event, session) in [
        ("session-start", "s1"),
        ("pre-compact", "s1"),
        ("session-end", "s1"),
        // An invalid id whose text holds the secret: the diagnostic must not repeat it.
        ("session-end", &format!("../{SECRET}")),
    ] {
        env.carryover()
            .args(["hook", event])
            .write_stdin(payload(event, session))
            .assert()
            .success();
    }
    env.carryover()
        .args(["learn", "insight", "Hygiene check learning"])
        .assert()
        .success();
    env.carryover().arg("index").assert().success();

    let data = env.data();
    for entry in all_entries(&data) {
        let mode = std::fs::symlink_metadata(&entry)
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        let expected = if entry.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(mode, expected, "{} is {mode:o}", entry.display());
        if entry.is_file() {
            let text = String::from_utf8_lossy(&fs_err::read(&entry).unwrap()).into_owned();
            assert!(
                !text.contains(SECRET),
                "{} holds the secret",
                entry.display()
            );
        }
    }
    let seed = fs_err::read_to_string(env.seed_path()).unwrap();
    assert!(
        !seed.contains("staging API"),
        "a rule that holds a secret is not proposed, even redacted: {seed}"
    );
    let redacted_somewhere = all_entries(&data).iter().any(|entry| {
        entry.is_file()
            && String::from_utf8_lossy(&fs_err::read(entry).unwrap()).contains("[REDACTED")
    });
    assert!(
        redacted_somewhere,
        "the handoff keeps the request, redacted"
    );
}

#[test]
fn symlinks_planted_in_the_data_home_are_not_written_through() {
    let env = Hermetic::new();
    env.init();
    let outside = env.home().join("outside");
    fs_err::create_dir_all(&outside).unwrap();
    let victim = outside.join("victim.txt");
    fs_err::write(&victim, "untouched").unwrap();
    let project = env.home().join("shop-api");
    fs_err::create_dir_all(project.join(".git")).unwrap();
    let project_dir = env.data().join("projects").join(slug(&project));
    fs_err::create_dir_all(&project_dir).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&victim, project_dir.join("context-state.json")).unwrap();
    let transcript = env.shop_api_transcript();
    env.carryover()
        .args(["hook", "pre-compact"])
        .write_stdin(
            json!({"session_id": "s1", "transcript_path": transcript, "cwd": project,
                "hook_event_name": "PreCompact", "trigger": "manual"})
            .to_string(),
        )
        .assert()
        .success();
    assert_eq!(fs_err::read_to_string(&victim).unwrap(), "untouched");
}

#[test]
fn a_symlinked_project_directory_is_not_written_through() {
    let env = Hermetic::new();
    env.init();
    let outside = env.home().join("outside");
    fs_err::create_dir_all(&outside).unwrap();
    let project = env.home().join("shop-api");
    fs_err::create_dir_all(project.join(".git")).unwrap();
    let projects = env.data().join("projects");
    fs_err::create_dir_all(&projects).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, projects.join(slug(&project))).unwrap();
    let transcript = env.shop_api_transcript();
    for (event, extra) in [("pre-compact", "trigger"), ("session-end", "reason")] {
        let mut payload = json!({"session_id": "81b8f225-6c82-470b-98cc-ec96494e08b9",
            "transcript_path": transcript, "cwd": project});
        payload[extra] = "manual".into();
        env.carryover()
            .args(["hook", event])
            .write_stdin(payload.to_string())
            .assert()
            .success();
    }
    assert_eq!(
        fs_err::read_dir(&outside).unwrap().count(),
        0,
        "nothing was written outside the data home"
    );
}

#[test]
fn transcripts_with_invalid_utf8_and_a_huge_line_fail_open() {
    let env = Hermetic::new();
    env.init();
    let transcript = env.home().join("hostile.jsonl");
    let mut bytes =
        b"{\"type\":\"user\",\"message\":{\"content\":\"\xff\xfe caf\xc3\"}}\n".to_vec();
    bytes.extend(std::iter::repeat_n(b'x', 40 * 1024 * 1024));
    bytes.extend_from_slice(
        b"\n{\"type\":\"assistant\",\"message\":{\"usage\":{\"input_tokens\":\"NaN\"}}}\n",
    );
    fs_err::write(&transcript, bytes).unwrap();
    for (event, extra) in [
        ("pre-compact", "trigger"),
        ("session-end", "reason"),
        ("session-start", "source"),
    ] {
        let mut payload =
            json!({"session_id": "s1", "transcript_path": transcript, "cwd": env.home()});
        payload[extra] = "manual".into();
        let out = env
            .carryover()
            .args(["hook", event])
            .write_stdin(payload.to_string())
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .success();
        if event == "session-start" {
            envelope(&out.get_output().stdout);
        }
    }
}

#[test]
fn hostile_cwd_values_still_give_a_valid_session_start() {
    let env = Hermetic::new();
    env.init();
    for cwd in [
        Value::from("../../../../etc"),
        Value::from("relative/path"),
        Value::from("/tmp/a\u{0}b"),
        Value::from("/".repeat(5_000) + &"x".repeat(100_000)),
        Value::from(42),
        Value::Null,
    ] {
        let out = env
            .carryover()
            .args(["hook", "session-start"])
            .write_stdin(json!({"session_id": "s1", "cwd": cwd, "source": "startup"}).to_string())
            .assert()
            .success();
        let (_, context) = envelope(&out.get_output().stdout);
        assert!(context.contains("Identity: Juno"), "{context}");
    }
    let projects = env.data().join("projects");
    if projects.exists() {
        for entry in fs_err::read_dir(&projects).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            assert!(
                name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'),
                "{name}"
            );
        }
    }
}

#[test]
fn a_template_cannot_include_files() {
    let env = Hermetic::new();
    env.init();
    let project = env.home().join("notes");
    let dir = project.join(".carryover");
    fs_err::create_dir_all(&dir).unwrap();
    fs_err::create_dir_all(project.join(".git")).unwrap();
    fs_err::write(
        dir.join("_startup.md"),
        "---\ntype: agent/instruction\n---\nStart. {{include /etc/passwd}} {{> ../../secret}} {{env.HOME}} {% include x %}\n",
    )
    .unwrap();
    env.carryover()
        .args(["trust", "--yes", "--cwd"])
        .arg(&project)
        .assert()
        .success();
    let out = env
        .carryover()
        .args(["hook", "session-start"])
        .write_stdin(json!({"session_id": "s1", "cwd": project, "source": "startup"}).to_string())
        .assert()
        .success();
    let (_, context) = envelope(&out.get_output().stdout);
    assert!(context.starts_with("Start."), "{context}");
    assert!(!context.contains("root:"), "no file was read");
    assert!(
        !context.contains(&env.home().to_string_lossy().into_owned()) || context.contains("notes")
    );
}

/// Settings written by a newer carryover may call an older binary with an event or flag it
/// does not know: to Claude Code exit 2 blocks (and erases a prompt), so a hook exits 0, says
/// why on stderr and in the log, and prints no payload.
#[rstest::rstest]
#[case::unknown_agent(&["hook", "prompt", "--agent", "bogus"], "invalid value 'bogus'")]
#[case::unknown_flag(&["hook", "session-start", "--newer-flag"], "unexpected argument '--newer-flag'")]
#[case::unknown_event(&["hook", "stop"], "unrecognized subcommand 'stop'")]
#[case::statusline(&["statusline", "--compact"], "unexpected argument '--compact'")]
fn a_hook_with_arguments_it_does_not_know_exits_0_with_nothing_on_stdout(
    #[case] args: &[&str],
    #[case] said: &str,
) {
    let env = Hermetic::new();
    env.init();
    let output = env
        .carryover()
        .args(args)
        .write_stdin(r#"{"session_id":"s1","prompt":"continue"}"#)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(output.stdout.is_empty(), "{stderr}");
    assert!(stderr.contains(said), "{stderr}");
    let log = fs_err::read_to_string(env.data().join("logs/carryover.log")).unwrap_or_default();
    assert!(
        log.contains(said),
        "the log holds the reason: {log}\n{stderr}"
    );
}

#[test]
fn hook_alone_shows_its_help_on_stderr_and_exits_0() {
    let env = Hermetic::new();
    let output = env.carryover().arg("hook").output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(output.stdout.is_empty(), "{stderr}");
    assert!(stderr.contains("Usage: carryover hook"), "{stderr}");
}

#[test]
fn other_commands_still_refuse_arguments_they_do_not_know() {
    let env = Hermetic::new();
    let output = env.carryover().args(["learn", "--bogus"]).output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_secret_written_into_the_seed_by_hand_never_reaches_the_model() {
    let env = Hermetic::new();
    env.init();
    env.carryover()
        .args(["learn", "insight", "The staging API key is PLACEHOLDER"])
        .assert()
        .success();
    // An edit by hand, or another tool sharing the seed, that `learn` would have refused.
    let seed = fs_err::read_to_string(env.seed_path()).unwrap();
    fs_err::write(env.seed_path(), seed.replace("PLACEHOLDER", SECRET)).unwrap();

    let started = env
        .carryover()
        .args(["hook", "session-start"])
        .output()
        .unwrap();
    let (_, context) = envelope(&started.stdout);
    assert!(
        context.contains("The staging API key is [REDACTED]"),
        "{context}"
    );
    assert!(!context.contains(SECRET), "{context}");
}
