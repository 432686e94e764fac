//! Programs on this machine: the binary a hook runs, and the agents' own.

use std::path::PathBuf;

/// Where a program a command names is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgramLocation {
    /// An executable file.
    Found(PathBuf),
    /// A file that exists but cannot be executed (or is not a regular file).
    NotExecutable(PathBuf),
    /// Nowhere: the path does not exist, or the name is on no `PATH` directory.
    Missing,
}

/// Looks programs up as a shell would. Implementations MUST bound the time `versions` takes
/// (a program that hangs is reported absent) and MUST NOT run anything but `--version`.
#[cfg_attr(test, mockall::automock)]
#[async_trait::async_trait]
pub trait Programs: Send + Sync {
    /// `program` as a shell runs it: a path (with a `/`) as it is, a bare name on `PATH`.
    async fn locate(&self, program: &str) -> ProgramLocation;

    /// The first line `<name> --version` prints, for each bare name on `PATH`, in order;
    /// `None` where the program is absent, fails or takes too long.
    async fn versions(&self, names: &[String]) -> Vec<Option<String>>;
}
