//! The start-up instruction: a `_startup.md` template whose front matter says when it applies
//! and whose body is rendered with the session's variables.

mod render;
mod template;

pub use render::{RenderVariables, render_template};
pub use template::{INSTRUCTION_TYPE, StartupTemplate, TemplateProblem, requirements_hold};
