//! What carryover reads from an agent's transcript, independent of the transcript's format.

mod answer;
mod command_output;
mod digest;
mod injection;
mod numbered_link;
mod plan;
mod question_tool;
mod refusal;
mod request;
mod usage;
mod user_shell;
mod working_tree;
mod written_notes;

pub use answer::{Answer, answered_question, answers_to, opens_numbered_answers};
pub use command_output::{
    ahead_of_upstream, check_gist, check_output_failed, check_summary, command_gist, find_links,
    is_check_command, is_read_only_command, merged_pull_request, parse_commit, parse_logged_commit,
    parse_push, pull_request_suggestion, vulnerability_notice,
};
pub use digest::{
    ChangedFile, CheckRun, Commit, Ending, MAX_AGENT_MEMORIES, MAX_FILES_CHANGED, MAX_TODOS, Merge,
    SessionDigest, TodoItem, TodoStatus,
};
pub use injection::PriorInjection;
pub use numbered_link::{LinkKind, NumberedLink, link_label};
pub use plan::{Plan, PlanVerdict, implemented_plan, is_plan_file, plan_request};
pub use question_tool::tool_answers;
pub use refusal::{Refusal, RefusedAction, refused};
pub use request::{clean_request, remembered_note};
pub use usage::{CompactBoundary, ContextUsage};
pub use user_shell::{user_shell_input, user_shell_output};
pub use working_tree::{
    WorkingTree, is_named, named_paths, puts_everything_away, read_status, stages_everything,
};
pub use written_notes::{
    MAX_HEADINGS, MAX_NOTES, NotesChange, NotesKind, WrittenNotes, is_decision_file, is_state_file,
    note_headings,
};
