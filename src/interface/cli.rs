//! The command line, as clap sees it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Makes every AI coding session start already oriented: identity, learnings, pending
/// proposals and session state, injected by hooks in a few milliseconds.
#[derive(Debug, Parser)]
#[command(name = "carryover", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run as an agent hook: reads the agent's JSON on stdin, always exits 0.
    #[command(subcommand)]
    #[command(
        after_help = "Examples:\n  echo '{\"session_id\":\"s1\",\"source\":\"startup\",\"cwd\":\"'$PWD'\"}' | carryover hook session-start\n  carryover install"
    )]
    Hook(HookCommand),
    /// Show what the next session would receive (changes nothing).
    #[command(
        after_help = "Examples:\n  carryover context\n  carryover context --json --source compact --session-id s1"
    )]
    Context(ContextArgs),
    /// Show which learnings a prompt would recall (changes nothing).
    Recall(RecallArgs),
    /// Claude Code's status line: context fill, tier and waiting proposals on one line
    /// (reads the client's status payload on stdin; wired by `install`).
    #[command(
        after_help = "Example (prints `ctx 17% (171k/1M) NOMINAL`):\n  echo '{\"context_window\":{\"total_input_tokens\":171000,\"context_window_size\":1000000,\"current_usage\":{}}}' | carryover statusline"
    )]
    Statusline,
    /// Set up the assistant's identity (asks on a terminal for what flags leave out).
    Init(InitArgs),
    /// Show the identity, or change one of its fields (name, style, time zone, locale…).
    #[command(subcommand)]
    #[command(
        after_help = "Examples:\n  carryover identity show\n  carryover identity set timezone Europe/Lisbon"
    )]
    Identity(IdentityCommand),
    /// Show where the seed is and what state it is in.
    #[command(after_help = "Example: carryover status --json")]
    Status(StatusArgs),
    /// Check that carryover is wired and will work, and say what fixes what does not.
    Doctor(DoctorArgs),
    /// Add a confirmed learning and commit it.
    Learn(LearnArgs),
    /// Show or list the handoffs sessions left in a project.
    #[command(after_help = "Examples:\n  carryover handoff show\n  carryover handoff list --json")]
    Handoff(HandoffArgs),
    /// Set, read and remove feature flags (global, or per project with --project).
    #[command(
        after_help = "Examples:\n  carryover flags set startup-instruction \"make status\"\n  carryover flags list --json"
    )]
    Flags(FlagsArgs),
    /// Trust the project's start-up template as it is now (or --revoke, --list).
    Trust(TrustArgs),
    /// Embed the confirmed learnings so session starts only embed their query (incremental).
    #[command(after_help = "Example: carryover index --json")]
    Index(IndexArgs),
    /// Review proposed learnings: list, show, accept, reject, or review them one by one.
    #[command(subcommand)]
    #[command(after_help = "Examples:\n  carryover proposals list\n  carryover proposals review")]
    Proposals(ProposalsCommand),
    /// Confirmed learnings: list, show, search, forget.
    #[command(subcommand)]
    #[command(
        after_help = "Examples:\n  carryover learnings list --all\n  carryover learnings search retry budget"
    )]
    Learnings(LearningsCommand),
    /// Propose what an agent remembered on its own as learnings (pending, for review).
    #[command(subcommand)]
    #[command(after_help = "Example: carryover import claude-memory --dry-run")]
    Import(ImportCommand),
    /// Wire carryover's hooks into an agent's settings (keeps everything else; idempotent).
    Install(InstallArgs),
    /// Remove carryover's hooks from an agent's settings (and nothing else).
    Uninstall(UninstallArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Share the seed with your other machines through a git remote: fetch, merge, push.
    Sync(SyncArgs),
    /// git's merge driver for the seed (registered by `sync`; git runs it, people need not).
    #[command(
        hide = true,
        after_help = "Registered in the data home's .git/config as `carryover merge-driver %O %A %B`.\n\nExample: carryover merge-driver base.json seed.json theirs.json"
    )]
    MergeDriver(MergeDriverArgs),
}

/// `sync` options.
#[derive(Debug, Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "The data home is a git repository that tracks the seed; `sync` fetches the \
remote's seed, merges it into this one by id (learnings and proposals are unioned, a forgotten \
learning stays forgotten, a decision on either side stands, the identity takes the newer change \
per field) and pushes the result. Any git remote works: a private GitHub repository, a bare \
repository over SSH, a local path. A seed in which the redactor finds a secret is not pushed.\n\n\
Examples:\n  carryover sync remote add git@github.com:mara/carryover-seed.git\n  carryover sync\n  carryover sync --json"
)]
pub struct SyncArgs {
    /// Set or show the remote.
    #[command(subcommand)]
    pub command: Option<SyncCommand>,
    /// Print JSON for scripts: `remote`, `fetched`, `merged`, `pushed`, `conflicts`,
    /// `learnings`, `proposals`, `forgotten`.
    #[arg(long)]
    pub json: bool,
    /// Run as the automatic sync does: print nothing, record the result for `status`.
    #[arg(long, hide = true)]
    pub background: bool,
}

/// `sync` subcommands.
#[derive(Debug, Subcommand)]
pub enum SyncCommand {
    /// The remote the seed is synced through.
    #[command(subcommand)]
    #[command(after_help = "Example: carryover sync remote add /srv/git/carryover-seed.git")]
    Remote(SyncRemoteCommand),
}

/// `sync remote add|show`.
#[derive(Debug, Subcommand)]
pub enum SyncRemoteCommand {
    /// Set the remote (replacing one already set) and register the seed's merge driver.
    #[command(
        after_help = "Examples:\n  carryover sync remote add git@github.com:mara/carryover-seed.git\n  carryover sync remote add ssh://devbox/home/mara/seed.git\n  carryover sync remote add /srv/git/carryover-seed.git"
    )]
    Add {
        /// Any URL git understands.
        url: String,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Print the remote.
    #[command(after_help = "Example: carryover sync remote show --json")]
    Show {
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Stop syncing: forget the remote (the remote itself, and the local seed, are kept).
    #[command(after_help = "Example: carryover sync remote remove")]
    Remove {
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
}

/// `merge-driver` arguments, as git passes them.
#[derive(Debug, Args)]
pub struct MergeDriverArgs {
    /// The common ancestor's seed (%O; empty when there is none).
    pub base: PathBuf,
    /// This side's seed (%A), where the result is written.
    pub ours: PathBuf,
    /// The other side's seed (%B).
    pub theirs: PathBuf,
}

/// `completions` options.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  carryover completions bash > ~/.local/share/bash-completion/completions/carryover\n  carryover completions zsh > \"${fpath[1]}/_carryover\"\n  carryover completions fish > ~/.config/fish/completions/carryover.fish"
)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    pub shell: clap_complete::Shell,
}

/// `install` options.
#[derive(Debug, Args)]
#[command(
    after_help = "Claude Code: SessionStart (startup|resume|clear|compact), UserPromptSubmit, \
PreCompact and SessionEnd in ~/.claude/settings.json (user), .claude/settings.json (project) or \
.claude/settings.local.json (local), and the status line (`carryover statusline`) where you \
have none. Codex CLI: SessionStart, UserPromptSubmit, PreCompact and SessionEnd in hooks.json \
(trust them with /hooks in codex). \
Gemini CLI: SessionStart, BeforeAgent, PreCompress and SessionEnd in settings.json. \
Copilot CLI: sessionStart, userPromptSubmitted, preCompact and sessionEnd in \
~/.copilot/hooks/carryover.json (user) or .github/hooks/carryover.json (project). \
Cursor (untested in the real client): sessionStart, preCompact and sessionEnd in \
~/.cursor/hooks.json or .cursor/hooks.json. The \
original file is kept once as <file>.carryover-backup-<time> (later changes add none); a file \
that is not valid JSON is never touched. --scope project writes the bare `carryover` command \
(found on PATH) rather than this machine's path, since the file is committed.\n\n\
Examples:\n  carryover install --scope user\n  carryover install --scope project --dry-run"
)]
pub struct InstallArgs {
    /// Which settings file, and whether to print the change without writing it.
    #[command(flatten)]
    pub target: TargetArgs,
    /// The carryover executable the hooks run (default: this one): an executable file named
    /// carryover, or the bare name `carryover` to run it from PATH.
    #[arg(long, value_name = "PATH")]
    pub binary: Option<PathBuf>,
    /// Wire carryover's status line (Claude Code), and fail rather than replace yours. By
    /// default it is wired only where you have none.
    #[arg(long, conflicts_with = "no_statusline")]
    pub statusline: bool,
    /// Do not wire the status line.
    #[arg(long)]
    pub no_statusline: bool,
}

/// `uninstall` options.
#[derive(Debug, Args)]
#[command(
    after_help = "Takes out what install put in: carryover's hooks and status line, a settings \
file install created (when nothing else is left in it), and carryover's backups that hold \
nothing the file lacks now.\n\nExample: carryover uninstall --scope project"
)]
pub struct UninstallArgs {
    /// Which settings file, and whether to print the change without writing it.
    #[command(flatten)]
    pub target: TargetArgs,
}

/// Which agent settings file `install` and `uninstall` change.
#[derive(Debug, Args)]
pub struct TargetArgs {
    /// The agent to wire.
    #[arg(long, value_enum, default_value_t = InstallAgent::Claude)]
    pub agent: InstallAgent,
    /// Which settings file: the user's, the project's (committed) or the project's local one.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// The project directory for --scope project|local (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Print the change as a diff and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print JSON for scripts.
    #[arg(long)]
    pub json: bool,
    /// With --scope user: write the target of a settings file that is a symbolic link (as
    /// dotfile managers make them); without it such a file is refused.
    #[arg(long)]
    pub follow_links: bool,
}

/// Agents `install` knows the settings of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InstallAgent {
    /// Claude Code.
    Claude,
    /// Codex CLI.
    Codex,
    /// Gemini CLI.
    Gemini,
    /// GitHub Copilot CLI.
    Copilot,
    /// Cursor (from its documentation; untested in the real client).
    Cursor,
}

/// Settings scopes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Scope {
    /// Every project of the user.
    User,
    /// This project, in the file meant to be committed.
    Project,
    /// This project on this machine only.
    Local,
}

/// `proposals` subcommands.
#[derive(Debug, Subcommand)]
pub enum ProposalsCommand {
    /// Pending proposals, newest first, with their short ids: the global ones and the current
    /// project's (those its session start lists), unless `--all-projects`.
    #[command(after_help = "Example: carryover proposals list --all-projects --json")]
    List {
        /// Include accepted and rejected ones.
        #[arg(long)]
        all: bool,
        /// Include other projects' proposals.
        #[arg(long)]
        all_projects: bool,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Propose learnings from a transcript's user messages, as a session end does.
    #[command(
        after_help = "Example: carryover proposals extract --transcript ~/.claude/projects/-home-mara-shop-api/5d2c9a41.jsonl --dry-run --json"
    )]
    Extract {
        /// The session transcript (Claude Code JSONL).
        #[arg(long, value_name = "FILE")]
        transcript: PathBuf,
        /// The session the proposals come from (default: the transcript's file name).
        #[arg(long, value_name = "ID")]
        session_id: Option<String>,
        /// Show what would be proposed, and what was left out and why; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// One proposal in full.
    #[command(after_help = "Example: carryover proposals show Q4mZ8")]
    Show {
        /// The start of its id (`Q4mZ8` or `prp_Q4mZ8`).
        prefix: String,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Turn proposals into confirmed learnings (committed and indexed), in the scope each
    /// was proposed with unless told otherwise.
    #[command(after_help = "Example: carryover proposals accept Q4mZ8 --global")]
    Accept {
        /// The starts of their ids.
        #[arg(required = true)]
        prefixes: Vec<String>,
        /// Make them global, whatever their proposed scope.
        #[arg(long, conflicts_with = "project")]
        global: bool,
        /// Make them the current directory's project's.
        #[arg(long)]
        project: bool,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Decline proposals; they are not proposed again.
    #[command(after_help = "Example: carryover proposals reject F2hJ6 T7nB3")]
    Reject {
        /// The starts of their ids.
        #[arg(required = true)]
        prefixes: Vec<String>,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Go through pending proposals on a terminal: accept, reject, skip or quit; the
    /// decisions are applied together, as one commit. The global ones and the current
    /// project's, unless `--all-projects`.
    #[command(after_help = "Example: carryover proposals review")]
    Review {
        /// Include other projects' proposals.
        #[arg(long)]
        all_projects: bool,
    },
}

/// `import` subcommands.
#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    /// Propose the memories Claude Code saved for a project as pending learnings, in one
    /// commit; the ones the seed already holds (or nearly) are skipped, and each skip says why.
    #[command(after_help = "Claude Code keeps a project's memories in \
~/.claude/projects/<project path, non-alphanumerics as '-'>/memory/*.md ($CLAUDE_CONFIG_DIR \
instead of ~/.claude when set); MEMORY.md is its index and is skipped. Feedback becomes a \
pattern, user memories self-knowledge (global), project and reference memories insights.\n\n\
Example: carryover import claude-memory --cwd ~/code/shop-api --dry-run")]
    ClaudeMemory(ClaudeMemoryArgs),
}

/// `import claude-memory` options.
#[derive(Debug, Args)]
pub struct ClaudeMemoryArgs {
    /// The project whose memories to import (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Read this memory folder instead of the project's.
    #[arg(long, value_name = "MEMORY_DIR")]
    pub dir: Option<PathBuf>,
    /// Scope every memory to the project, user memories included.
    #[arg(long)]
    pub project: bool,
    /// Show what would be imported and what skipped; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print JSON for scripts.
    #[arg(long)]
    pub json: bool,
}

/// `learnings` subcommands.
#[derive(Debug, Subcommand)]
pub enum LearningsCommand {
    /// Confirmed learnings, pinned first, then most recent first: the global ones and the
    /// current project's, unless told otherwise.
    #[command(after_help = "Example: carryover learnings list --project --json")]
    List {
        /// Which ones.
        #[command(flatten)]
        scope: ListScope,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// One learning in full.
    #[command(after_help = "Example: carryover learnings show 7Qm2v")]
    Show {
        /// The start of its id (`7Qm2v` or `pat_7Qm2v`).
        prefix: String,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// The learnings closest to a query (the ranking session starts use): the global ones and
    /// the current project's, unless told otherwise.
    #[command(after_help = "Example: carryover learnings search why do the payment tests time out")]
    Search {
        /// What to look for.
        #[arg(required = true, num_args = 1..)]
        query: Vec<String>,
        /// How many to show (at least 1).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..))]
        top: u16,
        /// Which ones.
        #[command(flatten)]
        scope: ListScope,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Remove a learning (the seed's git history keeps it, unless --purge).
    #[command(
        after_help = "--purge rewrites the data home's git history so that no commit holds the \
text any more (old objects are pruned at once). The cost: every commit from the first one that \
held it gets a new hash, and a clone or copy made before (a backup, another machine) still \
holds the old text; only carryover's own repository of seed files is rewritten.\n\n\
Examples:\n  carryover learnings forget ins_7Qm2v\n  carryover learnings forget --purge ins_7Qm2v"
    )]
    Forget {
        /// The start of its id.
        prefix: String,
        /// Also rewrite the seed's git history so the text is in no commit (see below).
        #[arg(long)]
        purge: bool,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Move a learning to the current directory's project, or make it global. Another
    /// project's learning moves only with `--force`.
    #[command(after_help = "Example: carryover learnings scope pat_7Qm2v project")]
    Scope {
        /// The start of its id.
        prefix: String,
        /// `project` (the project of the current directory) or `global`.
        #[arg(value_enum)]
        scope: ScopeArg,
        /// Move it even when it belongs to another project.
        #[arg(long)]
        force: bool,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Always show a learning first at session start (a standing rule).
    #[command(after_help = "Example: carryover learnings pin 7Qm2v")]
    Pin {
        /// The start of its id.
        prefix: String,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Stop showing a learning first.
    #[command(after_help = "Example: carryover learnings unpin 7Qm2v")]
    Unpin {
        /// The start of its id.
        prefix: String,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
}

/// Which learnings `learnings list` and `search` show (default: global and the current
/// project's).
#[derive(Debug, Clone, Copy, Args)]
#[group(multiple = false)]
pub struct ListScope {
    /// Only the current directory's project's.
    #[arg(long)]
    pub project: bool,
    /// Only the global ones.
    #[arg(long)]
    pub global: bool,
    /// Every project's and the global ones.
    #[arg(long)]
    pub all: bool,
}

/// Where a learning belongs, as the command line spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScopeArg {
    /// The project of the current directory.
    Project,
    /// Every project.
    Global,
}

/// `index` options.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Print JSON for scripts.
    #[arg(long)]
    pub json: bool,
}

/// `flags` subcommands.
#[derive(Debug, Args)]
pub struct FlagsArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: FlagsCommand,
}

/// `flags set|get|unset|list`.
#[derive(Debug, Subcommand)]
pub enum FlagsCommand {
    /// Set a flag: `true`/`false` are bools, `[a, b]` is a list, anything else is text.
    #[command(
        after_help = "Examples:\n  carryover flags set startup-instruction \"make status\"\n  carryover flags set --project startup-instruction \"make check\""
    )]
    Set {
        /// Set it for this project only (over the global value).
        #[arg(long)]
        project: bool,
        /// The project directory (default: the current directory).
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// The flag's name, such as startup-instruction.
        name: String,
        /// Its value.
        value: String,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Print a flag's value in force for the project (`--json` adds where it comes from).
    #[command(after_help = "Example: carryover flags get startup-instruction")]
    Get {
        /// The project directory (default: the current directory).
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// The flag's name.
        name: String,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Remove a flag.
    #[command(after_help = "Example: carryover flags unset --project startup-instruction")]
    Unset {
        /// Remove the project's own value (the global one applies again).
        #[arg(long)]
        project: bool,
        /// The project directory (default: the current directory).
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// The flag's name.
        name: String,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// List the flags in force for the project.
    #[command(after_help = "Example: carryover flags list --json")]
    List {
        /// The project directory (default: the current directory).
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
}

/// `trust` options.
#[derive(Debug, Args)]
#[command(
    after_help = "Shows the template (or what changed since you last trusted it) before \
recording anything; on a terminal it asks you to confirm. Without a terminal it needs --yes. \
A trusted template's text reaches the model at each new session, so read it.\n\n\
Examples:\n  carryover trust --cwd ~/code/shop-api\n  carryover trust --yes   (in a script, after reading it)"
)]
pub struct TrustArgs {
    /// The project directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Stop trusting the project's template.
    #[arg(long, conflicts_with = "list")]
    pub revoke: bool,
    /// List every trusted template.
    #[arg(long)]
    pub list: bool,
    /// Trust without asking (scripts); the template or its diff is still printed.
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Print JSON for scripts.
    #[arg(long)]
    pub json: bool,
}

/// `handoff` subcommands.
#[derive(Debug, Args)]
pub struct HandoffArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: HandoffCommand,
}

/// `handoff show` and `handoff list`.
#[derive(Debug, Subcommand)]
pub enum HandoffCommand {
    /// Print the newest handoff of the project (the one the next session receives).
    #[command(after_help = "Example: carryover handoff show --cwd ~/code/shop-api")]
    Show {
        /// The project directory (default: the current directory).
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// List the project's handoffs, newest first.
    #[command(after_help = "Example: carryover handoff list --json")]
    List {
        /// The project directory (default: the current directory).
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
}

/// Agent hooks.
#[derive(Debug, Subcommand)]
pub enum HookCommand {
    /// SessionStart: print the session context for the agent.
    #[command(
        after_help = "Example: echo '{\"session_id\":\"s1\",\"source\":\"startup\",\"cwd\":\"'$PWD'\"}' | carryover hook session-start"
    )]
    SessionStart(SessionStartArgs),
    /// UserPromptSubmit: print the few learnings the prompt needs, or nothing.
    #[command(
        after_help = "Example: echo '{\"session_id\":\"s1\",\"prompt\":\"why do the payment tests time out\",\"cwd\":\"'$PWD'\"}' | carryover hook prompt"
    )]
    Prompt(PromptArgs),
    /// PreCompact: record how full the context was and write a checkpoint (prints nothing).
    #[command(
        after_help = "Example: echo '{\"session_id\":\"s1\",\"transcript_path\":\"/path/to/session.jsonl\",\"cwd\":\"'$PWD'\",\"trigger\":\"manual\"}' | carryover hook pre-compact"
    )]
    PreCompact,
    /// SessionEnd: write the session's handoff for the next one (prints nothing).
    #[command(
        after_help = "Example: echo '{\"session_id\":\"s1\",\"transcript_path\":\"/path/to/session.jsonl\",\"cwd\":\"'$PWD'\",\"reason\":\"other\"}' | carryover hook session-end"
    )]
    SessionEnd(SessionEndArgs),
}

/// `hook session-end` options.
#[derive(Debug, Args)]
pub struct SessionEndArgs {
    /// The agent whose session ends (claude, codex, gemini, copilot, cursor or plain):
    /// Copilot CLI's payload names no transcript, so carryover finds it under
    /// `$COPILOT_HOME/session-state/`.
    // The values' own help describes the output shapes of the hooks that print.
    #[arg(long, value_enum, default_value_t = Agent::Claude, hide_possible_values = true)]
    pub agent: Agent,
}

/// `hook session-start` options.
#[derive(Debug, Args)]
pub struct SessionStartArgs {
    /// The agent whose output shape to print.
    #[arg(long, value_enum, default_value_t = Agent::Claude)]
    pub agent: Agent,
}

/// `hook prompt` options.
#[derive(Debug, Args)]
pub struct PromptArgs {
    /// The agent whose output shape to print.
    #[arg(long, value_enum, default_value_t = Agent::Claude)]
    pub agent: Agent,
}

/// `recall` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "Example: carryover recall --cwd ~/code/shop-api why do the payment tests time out"
)]
pub struct RecallArgs {
    /// The prompt (several words need no quotes).
    #[arg(required = true, num_args = 1.., value_name = "PROMPT")]
    pub prompt: Vec<String>,
    /// The session's directory (default: the current one).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Leave out what this session was already given.
    #[arg(long, value_name = "ID")]
    pub session_id: Option<String>,
    /// Print JSON for scripts.
    #[arg(long)]
    pub json: bool,
}

/// Agents whose hook output carryover knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Agent {
    /// Claude Code: `{"hookSpecificOutput": {...}}`.
    Claude,
    /// Codex CLI: Claude Code's format (its output schemas allow no other key).
    Codex,
    /// Gemini CLI: `{"hookSpecificOutput": {"additionalContext": ...}}`.
    Gemini,
    /// GitHub Copilot CLI: `{"additionalContext": ...}` (it ignores `hookSpecificOutput`).
    Copilot,
    /// Cursor: `{"additional_context": ...}`.
    Cursor,
    /// The bare context text, for scripts and agents without a JSON protocol.
    Plain,
}

/// `context` options.
#[derive(Debug, Args)]
pub struct ContextArgs {
    /// The project directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Preview as this session.
    #[arg(long, value_name = "ID")]
    pub session_id: Option<String>,
    /// Preview as this kind of session start.
    #[arg(long, value_enum)]
    pub source: Option<StartSource>,
    /// Full (with identity) or complement (without; the default when PAI_DIR is set).
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// Print JSON for scripts.
    #[arg(long)]
    pub json: bool,
}

/// How a session started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StartSource {
    /// A new session.
    Startup,
    /// A resumed session.
    Resume,
    /// After `/clear`.
    Clear,
    /// After a compaction.
    Compact,
}

/// `--mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Identity, learnings, proposals and state.
    Full,
    /// Everything but the identity.
    Complement,
}

/// `identity` subcommands.
#[derive(Debug, Subcommand)]
pub enum IdentityCommand {
    /// The assistant's name, the principal's, the catchphrase, style, time zone and locale.
    #[command(after_help = "Example: carryover identity show --json")]
    Show {
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Change one field and commit it; everything else is kept.
    #[command(
        after_help = "Keys: ai-name, principal, catchphrase, style (concise, detailed, \
adaptive), timezone (an IANA name such as Europe/Lisbon), locale (a BCP 47 tag such as en-GB), \
voice-id.\n\nExample: carryover identity set timezone Europe/Lisbon"
    )]
    Set {
        /// The field, such as timezone.
        key: String,
        /// Its new value (several words need quotes).
        value: String,
        /// Print JSON for scripts.
        #[arg(long)]
        json: bool,
    },
}

/// `init` options.
#[derive(Debug, Args)]
#[command(
    after_help = "With --force, the fields not given keep their current values (learnings, \
proposals and state are always kept); on a terminal each question offers the current value.\n\n\
Example: carryover init --ai-name Juno --principal Mara --timezone Europe/Lisbon --locale en-GB"
)]
pub struct InitArgs {
    /// The assistant's name.
    #[arg(long, value_name = "NAME")]
    pub ai_name: Option<String>,
    /// The name of the person it serves.
    #[arg(long, value_name = "NAME")]
    pub principal: Option<String>,
    /// A line the assistant may open with.
    #[arg(long, value_name = "TEXT")]
    pub catchphrase: Option<String>,
    /// How answers should be.
    #[arg(long, value_enum)]
    pub style: Option<StyleArg>,
    /// IANA time zone, such as Europe/Lisbon (default: the current one, else $TZ, else UTC).
    #[arg(long, value_name = "ZONE")]
    pub timezone: Option<String>,
    /// BCP 47 locale such as en-GB (default: the current one, else from $LANG, else en-US).
    #[arg(long, value_name = "TAG")]
    pub locale: Option<String>,
    /// Change the identity of a seed that is already set up: only the fields given (the rest,
    /// learnings and state are kept; the old version stays in the seed's git history).
    #[arg(long)]
    pub force: bool,
    /// Print the resulting identity as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `--style`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StyleArg {
    /// Short answers.
    Concise,
    /// Thorough answers.
    Detailed,
    /// Whatever the question needs.
    Adaptive,
}

/// `status` options.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Print JSON for scripts.
    #[arg(long)]
    pub json: bool,
}

/// `doctor` options.
#[derive(Debug, Args)]
#[command(
    after_help = "Checks each agent settings file that exists (Claude Code user, project \
and local; Codex CLI; Gemini CLI; Copilot CLI; Cursor): whether carryover's hooks are wired \
for every event and whether the binary they run still exists and is executable. Then the seed \
and its git history, the last sync, the embedding index against the learnings, config.toml (unknown keys, bad values, \
with their line), the project's start-up template and its trust, and the agents' versions \
(`claude --version` and the like; an agent not installed is no failure). Each check is ok, \
warn or fail; a warning or failure says what fixes it.\n\n\
Exit status: 0 when no check fails (warnings included), 1 when one does.\n\n\
Example: carryover doctor --cwd ~/code/shop-api"
)]
pub struct DoctorArgs {
    /// The project whose settings and template to check (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Print JSON for scripts: `status` (ok|warn|fail), `checks` (each `area`, `subject`,
    /// `status`, `detail`, `fix`), `agents` and `clients`.
    #[arg(long)]
    pub json: bool,
}

/// `learn` arguments.
#[derive(Debug, Args)]
#[command(
    after_help = "Text that looks like a secret (an API key, a token, a password) is refused: \
learnings are committed and injected into every session. Text close to a stored learning is \
learned with a warning that shows the close one; the same text again is refused.\n\n\
Words that start with `-` go after `--`, which ends the options; a `--` between two words \
of the text is text.\n\n\
Examples:\n  carryover learn insight --project 'The tests run with `make check`'\n  \
carryover learn pattern --pin -- Build release binaries with --locked"
)]
pub struct LearnArgs {
    /// pattern (how the user works), insight (a fact about a project or environment) or
    /// self_knowledge (about the assistant itself).
    #[arg(value_enum)]
    pub kind: KindArg,
    /// The learning, one sentence (several words need no quotes).
    #[arg(required = true, num_args = 1.., value_name = "TEXT")]
    pub text: Vec<String>,
    /// A label; repeat for more.
    #[arg(long = "tag", value_name = "TAG")]
    pub tags: Vec<String>,
    /// It belongs to the project of the current directory: shown only there.
    #[arg(long, conflicts_with = "global")]
    pub project: bool,
    /// It holds in every project (the default).
    #[arg(long)]
    pub global: bool,
    /// Always show it first at session start (a standing rule, like how you want answers).
    #[arg(long)]
    pub pin: bool,
    /// Print the new learning as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The learning kinds as the command line spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// How the principal works.
    Pattern,
    /// A fact about a project or environment.
    Insight,
    /// What the assistant knows about itself.
    #[value(name = "self_knowledge", alias = "self-knowledge")]
    SelfKnowledge,
}

#[cfg(test)]
mod help_examples {
    use clap::{CommandFactory, Parser};

    use super::Cli;

    /// Every command a user can type, with its full name (`proposals accept`).
    fn commands(command: &clap::Command, prefix: &str, out: &mut Vec<(String, clap::Command)>) {
        for sub in command
            .get_subcommands()
            .filter(|sub| sub.get_name() != "help")
        {
            let name = format!("{prefix}{}", sub.get_name());
            out.push((name.clone(), sub.clone()));
            commands(sub, &format!("{name} "), out);
        }
    }

    #[test]
    fn every_command_shows_an_example_in_its_help() {
        let mut all = Vec::new();
        commands(&Cli::command(), "", &mut all);
        let missing: Vec<&str> = all
            .iter()
            .filter(|(_, command)| {
                let after = [command.get_after_help(), command.get_after_long_help()];
                !after
                    .iter()
                    .flatten()
                    .any(|text| text.to_string().contains("carryover "))
            })
            .map(|(name, _)| name.as_str())
            .collect();
        assert!(missing.is_empty(), "no example in the help of: {missing:?}");
    }

    /// The words of a shell command line: split at spaces outside quotes, quotes removed.
    fn words(line: &str) -> Vec<String> {
        let (mut words, mut word, mut quote) = (Vec::new(), String::new(), None);
        for c in line.chars() {
            match (quote, c) {
                (None, '\'' | '"') => quote = Some(c),
                (Some(open), c) if c == open => quote = None,
                (None, ' ') if !word.is_empty() => words.push(std::mem::take(&mut word)),
                (None, ' ') => {}
                (_, c) => word.push(c),
            }
        }
        if !word.is_empty() {
            words.push(word);
        }
        words
    }

    #[test]
    fn every_example_in_the_help_parses() {
        let mut all = Vec::new();
        commands(&Cli::command(), "", &mut all);
        let mut checked = 0;
        for (name, command) in &all {
            let after = [command.get_after_help(), command.get_after_long_help()];
            for text in after.iter().flatten().map(ToString::to_string) {
                for line in text.lines() {
                    let line = line.trim_start();
                    let line = line.strip_prefix("Example: ").unwrap_or(line);
                    let example = line.rsplit_once("| ").map_or(line, |(_, tail)| tail);
                    if !example.starts_with("carryover ") {
                        continue;
                    }
                    let example = example.split(" >").next().unwrap_or(example);
                    let example = example.split("  (").next().unwrap_or(example);
                    let parsed = Cli::try_parse_from(words(example));
                    assert!(parsed.is_ok(), "{name}: {example}: {:?}", parsed.err());
                    checked += 1;
                }
            }
        }
        assert!(
            checked >= all.len(),
            "{checked} examples for {} commands",
            all.len()
        );
    }

    /// Commands whose output is not a report a script would parse: an agent's hook payloads
    /// and status line, a shell script, git's merge driver and the dialogue on a terminal.
    const NOT_FOR_SCRIPTS: &[&str] = &[
        "hook",
        "statusline",
        "completions",
        "merge-driver",
        "proposals review",
    ];

    #[test]
    fn every_command_a_script_would_run_answers_in_json() {
        let mut all = Vec::new();
        commands(&Cli::command(), "", &mut all);
        let missing: Vec<&str> = all
            .iter()
            .filter(|(name, command)| {
                let leaf =
                    !command.has_subcommands() || command.is_args_conflicts_with_subcommands_set();
                let exempt = NOT_FOR_SCRIPTS
                    .iter()
                    .any(|exempt| name == exempt || name.starts_with(&format!("{exempt} ")));
                leaf && !exempt && !command.get_arguments().any(|arg| arg.get_id() == "json")
            })
            .map(|(name, _)| name.as_str())
            .collect();
        assert!(missing.is_empty(), "no --json for: {missing:?}");
    }
}
