//! Whether each agent's settings files wire carryover's hooks, to a binary that starts, and
//! once: the hooks part of `doctor`.

use std::path::Path;

use crate::domain::agent_hooks::{AgentKind, InstallScope, Wiring};
use crate::domain::doctor::{Check, CheckArea};
use crate::domain::ports::ProgramLocation;

use super::AgentSettings;

/// The command that wires `agent` into the file of `scope`.
fn install_fix(agent: AgentKind, scope: InstallScope, root: &Path) -> String {
    let mut fix = format!(
        "carryover install --agent {} --scope {scope}",
        agent.cli_name()
    );
    if scope != InstallScope::User {
        fix.push_str(&format!(" --cwd {}", root.display()));
    }
    fix
}

/// One check per settings file, and a failed one when no agent is wired at all.
pub(super) fn wiring_checks(agents: &[AgentSettings], root: &Path) -> Vec<Check> {
    let complete: Vec<AgentKind> = agents
        .iter()
        .filter(|a| a.problem.is_none() && a.wiring() == Wiring::Complete)
        .map(|a| a.agent)
        .collect();
    let mut checks: Vec<Check> = agents
        .iter()
        .map(|settings| wiring_check(settings, complete.contains(&settings.agent), root))
        .collect();
    if complete.is_empty() {
        // Install refuses a file it cannot read: that file comes first.
        let fix = if agents.iter().any(|a| a.problem.is_some()) {
            "fix the settings file above by hand, then carryover install"
        } else {
            "carryover install"
        };
        checks.push(Check::fail(
            CheckArea::Hooks,
            "agents",
            "carryover's hooks are not wired into any agent, so no session receives anything",
            fix,
        ));
    }
    checks.extend(double_wiring_checks(agents, root));
    checks
}

/// A warning per agent wired by more than one of its settings files with different commands:
/// the agent runs every file's hooks (merging only identical commands), so each event runs
/// carryover once per command and a session start injects its context as often. The fix
/// takes out the narrowest file (this machine's, else the project's) whose commands differ
/// from those of the broadest, which reaches the most sessions and stays.
fn double_wiring_checks(agents: &[AgentSettings], root: &Path) -> Vec<Check> {
    let mut checks = Vec::new();
    let mut seen: Vec<AgentKind> = Vec::new();
    for agent in agents.iter().map(|settings| settings.agent) {
        if seen.contains(&agent) {
            continue;
        }
        seen.push(agent);
        let wired: Vec<&AgentSettings> = agents
            .iter()
            .filter(|s| s.agent == agent && s.problem.is_none() && s.wiring() != Wiring::Absent)
            .collect();
        // Per event, the distinct commands the files run for it.
        let runs_twice = wired.iter().flat_map(|s| s.events.iter()).any(|event| {
            let commands: std::collections::BTreeSet<&str> = wired
                .iter()
                .flat_map(|settings| settings.events.iter())
                .filter(|other| other.event == event.event)
                .filter_map(|other| other.command.as_deref())
                .collect();
            commands.len() > 1
        });
        if !runs_twice {
            continue;
        }
        let breadth = |settings: &&&AgentSettings| match settings.scope {
            InstallScope::User => 0,
            InstallScope::Project => 1,
            InstallScope::Local => 2,
        };
        let commands = |settings: &AgentSettings| -> Vec<Option<String>> {
            settings.events.iter().map(|e| e.command.clone()).collect()
        };
        let broadest = wired.iter().min_by_key(breadth).map(|s| commands(s));
        let narrowest = wired
            .iter()
            .filter(|settings| Some(commands(settings)) != broadest)
            .max_by_key(breadth)
            .map_or(InstallScope::Local, |settings| settings.scope);
        let files: Vec<String> = wired
            .iter()
            .map(|settings| settings.path.display().to_string())
            .collect();
        let mut fix = format!(
            "carryover uninstall --agent {} --scope {narrowest}",
            agent.cli_name()
        );
        if narrowest != InstallScope::User {
            fix.push_str(&format!(" --cwd {}", root.display()));
        }
        checks.push(Check::warn(
            CheckArea::Hooks,
            format!("{} wiring", agent.display_name()),
            format!(
                "wired by {} settings files with different commands ({}): an event runs \
                 carryover more than once, so a session start injects its context more than once",
                wired.len(),
                files.join(", "),
            ),
            Some(fix),
        ));
    }
    checks
}

/// The rule for one settings file. `wired_elsewhere`: the agent is fully wired by another of
/// its files, so this one need not be.
fn wiring_check(settings: &AgentSettings, wired_elsewhere: bool, root: &Path) -> Check {
    let subject = settings.label();
    let path = settings.path.display();
    let fix = install_fix(settings.agent, settings.scope, root);
    if let Some(problem) = &settings.problem {
        return Check::fail(
            CheckArea::Hooks,
            subject,
            problem.clone(),
            format!("fix {path} by hand (the agent cannot read it either)"),
        );
    }
    let broken: Vec<String> = settings
        .programs
        .iter()
        .filter_map(|(program, location)| match location {
            ProgramLocation::Found(_) => None,
            ProgramLocation::NotExecutable(at) => {
                Some(format!("{} is not executable", at.display()))
            }
            ProgramLocation::Missing if program.contains(['/', '\\']) => {
                Some(format!("{program} does not exist"))
            }
            ProgramLocation::Missing => Some(format!("{program} is not on PATH")),
        })
        .collect();
    if !broken.is_empty() {
        // Installing again writes the same bare name into a committed file (ADR 0006), and a
        // local file beside it would run carryover twice: only PATH fixes a name.
        let by_name = settings.programs.iter().any(|(program, location)| {
            *location == ProgramLocation::Missing && !program.contains(['/', '\\'])
        });
        let fix = if by_name && settings.scope == InstallScope::Project {
            "put carryover on PATH: the project's committed hooks run it by name".to_owned()
        } else {
            fix
        };
        return Check::fail(
            CheckArea::Hooks,
            subject,
            format!(
                "{path}: the hooks run a binary that cannot start: {}",
                broken.join("; ")
            ),
            fix,
        );
    }
    let missing: Vec<&str> = settings
        .events
        .iter()
        .filter(|e| e.command.is_none())
        .map(|e| e.event)
        .collect();
    match settings.wiring() {
        Wiring::Complete => {
            let runs = settings
                .programs
                .iter()
                .map(|(_, location)| match location {
                    ProgramLocation::Found(at) => at.display().to_string(),
                    _ => String::new(),
                })
                .collect::<Vec<_>>()
                .join(", ");
            let events: Vec<&str> = settings.events.iter().map(|e| e.event).collect();
            Check::ok(
                CheckArea::Hooks,
                subject,
                format!("{path}: {} wired, running {runs}", events.join(", ")),
            )
        }
        Wiring::Partial => Check::fail(
            CheckArea::Hooks,
            subject,
            format!("{path}: not wired for {}", missing.join(", ")),
            fix,
        ),
        Wiring::Absent if wired_elsewhere => Check::ok(
            CheckArea::Hooks,
            subject,
            format!("{path}: no carryover hook (wired by another of its settings files)"),
        ),
        Wiring::Absent => Check::warn(
            CheckArea::Hooks,
            subject,
            format!(
                "{path}: no carryover hook, so {} sessions receive nothing",
                settings.agent.display_name()
            ),
            Some(fix),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::agent_hooks::WiredEvent;
    use crate::domain::doctor::CheckStatus;
    use rstest::rstest;

    const ROOT: &str = "/code/p";

    fn settings(path: &str, events: &[(&'static str, Option<&str>)]) -> AgentSettings {
        AgentSettings {
            agent: AgentKind::Claude,
            scope: InstallScope::User,
            path: path.into(),
            events: events
                .iter()
                .map(|(event, command)| WiredEvent {
                    event,
                    command: command.map(str::to_owned),
                })
                .collect(),
            programs: Vec::new(),
            problem: None,
        }
    }

    fn claude_events(command: Option<&str>) -> Vec<(&'static str, Option<&str>)> {
        [
            "SessionStart",
            "UserPromptSubmit",
            "PreCompact",
            "SessionEnd",
        ]
        .into_iter()
        .map(|event| (event, command))
        .collect()
    }

    #[rstest]
    #[case::wired(claude_events(Some("/x/carryover hook")), ProgramLocation::Found("/x/carryover".into()), false, CheckStatus::Ok)]
    #[case::binary_gone(
        claude_events(Some("/x/carryover hook")),
        ProgramLocation::Missing,
        false,
        CheckStatus::Fail
    )]
    #[case::binary_not_executable(claude_events(Some("/x/carryover hook")), ProgramLocation::NotExecutable("/x/carryover".into()), false, CheckStatus::Fail)]
    #[case::partly_wired(
        vec![("SessionStart", Some("/x/carryover hook")), ("UserPromptSubmit", None), ("PreCompact", None), ("SessionEnd", None)],
        ProgramLocation::Found("/x/carryover".into()),
        false,
        CheckStatus::Fail
    )]
    #[case::not_wired(
        claude_events(None),
        ProgramLocation::Missing,
        false,
        CheckStatus::Warn
    )]
    #[case::not_wired_but_elsewhere(
        claude_events(None),
        ProgramLocation::Missing,
        true,
        CheckStatus::Ok
    )]
    fn a_settings_file_is_judged_by_its_hooks_and_their_binary(
        #[case] events: Vec<(&'static str, Option<&str>)>,
        #[case] location: ProgramLocation,
        #[case] wired_elsewhere: bool,
        #[case] expected: CheckStatus,
    ) {
        let mut found = settings("/h/.claude/settings.json", &events);
        if events.iter().any(|(_, c)| c.is_some()) {
            found.programs = vec![("/x/carryover".into(), location)];
        }
        let check = wiring_check(&found, wired_elsewhere, Path::new(ROOT));
        assert_eq!(check.status, expected, "{check:?}");
        if expected == CheckStatus::Fail {
            assert_eq!(
                check.fix.as_deref(),
                Some("carryover install --agent claude --scope user")
            );
        }
    }

    #[rstest]
    #[case::project_file_runs_it_by_name(
        InstallScope::Project,
        "carryover",
        "put carryover on PATH: the project's committed hooks run it by name"
    )]
    #[case::user_file_is_installed_again(
        InstallScope::User,
        "carryover",
        "carryover install --agent claude --scope user"
    )]
    #[case::project_file_with_a_path(
        InstallScope::Project,
        "/x/carryover",
        "carryover install --agent claude --scope project --cwd /code/p"
    )]
    fn a_missing_binary_is_fixed_where_it_can_be(
        #[case] scope: InstallScope,
        #[case] program: &str,
        #[case] fix: &str,
    ) {
        let command = format!("{program} hook");
        let mut found = settings(
            "/code/p/.claude/settings.json",
            &claude_events(Some(&command)),
        );
        found.scope = scope;
        found.programs = vec![(program.into(), ProgramLocation::Missing)];
        let check = wiring_check(&found, false, Path::new(ROOT));
        assert_eq!(check.status, CheckStatus::Fail);
        assert_eq!(check.fix.as_deref(), Some(fix));
    }

    #[test]
    fn a_project_file_is_fixed_in_its_project() {
        assert_eq!(
            install_fix(AgentKind::Gemini, InstallScope::Project, Path::new(ROOT)),
            "carryover install --agent gemini --scope project --cwd /code/p"
        );
    }

    #[test]
    fn an_agent_wired_by_two_files_is_warned_of_with_the_narrower_to_take_out() {
        let mut user = settings(
            "/h/.claude/settings.json",
            &claude_events(Some("/x/carryover hook")),
        );
        user.programs = vec![(
            "/x/carryover".into(),
            ProgramLocation::Found("/x/carryover".into()),
        )];
        let mut project = settings(
            "/code/p/.claude/settings.json",
            &claude_events(Some("carryover hook")),
        );
        project.scope = InstallScope::Project;
        project.programs = user.programs.clone();
        let checks = wiring_checks(&[user.clone(), project.clone()], Path::new(ROOT));
        let double: Vec<&Check> = checks
            .iter()
            .filter(|c| c.subject.ends_with("wiring"))
            .collect();
        assert_eq!(double.len(), 1, "{checks:?}");
        assert_eq!(double[0].status, CheckStatus::Warn);
        assert!(
            double[0].detail.contains("runs carryover more than once"),
            "{:?}",
            double[0]
        );
        assert_eq!(
            double[0].fix.as_deref(),
            Some("carryover uninstall --agent claude --scope project --cwd /code/p")
        );
        // The same commands in two files run once: the agent merges them.
        let mut same = user.clone();
        same.scope = InstallScope::Local;
        same.path = "/code/p/.claude/settings.local.json".into();
        // Beside the project's own, the local file that repeats the user's is not the one to
        // take out: that would leave the double run.
        let checks = wiring_checks(&[user.clone(), project, same.clone()], Path::new(ROOT));
        let fixes: Vec<Option<&str>> = checks
            .iter()
            .filter(|c| c.subject.ends_with("wiring"))
            .map(|c| c.fix.as_deref())
            .collect();
        assert_eq!(
            fixes,
            vec![Some(
                "carryover uninstall --agent claude --scope project --cwd /code/p"
            )]
        );
        let checks = wiring_checks(&[user.clone(), same], Path::new(ROOT));
        assert!(
            !checks.iter().any(|c| c.subject.ends_with("wiring")),
            "{checks:?}"
        );
        // Nor is a second file without carryover's hooks.
        let mut bare = user.clone();
        bare.scope = InstallScope::Local;
        bare.events = settings("/code/p/.claude/settings.local.json", &claude_events(None)).events;
        let checks = wiring_checks(&[user, bare], Path::new(ROOT));
        assert!(
            !checks.iter().any(|c| c.subject.ends_with("wiring")),
            "{checks:?}"
        );
    }

    #[test]
    fn no_agent_wired_anywhere_fails() {
        let checks = wiring_checks(&[], Path::new(ROOT));
        assert_eq!(checks.len(), 1);
        assert_eq!(checks[0].status, CheckStatus::Fail);
        assert_eq!(checks[0].fix.as_deref(), Some("carryover install"));
    }

    #[test]
    fn with_no_agent_wired_an_unreadable_file_is_fixed_first() {
        let mut found = settings("/h/.claude/settings.json", &[]);
        found.problem = Some("not JSON".into());
        let checks = wiring_checks(&[found], Path::new(ROOT));
        let agents = checks.iter().find(|c| c.subject == "agents").unwrap();
        assert_eq!(
            agents.fix.as_deref(),
            Some("fix the settings file above by hand, then carryover install")
        );
    }

    #[test]
    fn an_unreadable_settings_file_fails() {
        let mut found = settings("/h/.claude/settings.json", &[]);
        found.problem = Some("not JSON".into());
        let check = wiring_check(&found, false, Path::new(ROOT));
        assert_eq!(check.status, CheckStatus::Fail);
        assert!(check.fix.unwrap().contains("by hand"));
    }
}
