//! Where carryover keeps its data, and the files inside.

use std::path::{Path, PathBuf};

/// The data home: `$CARRYOVER_HOME`, else `$XDG_DATA_HOME/carryover`, else
/// `~/.local/share/carryover`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataHome {
    root: PathBuf,
}

impl DataHome {
    /// Resolves the data home from the variables that choose it (passed in, so the rule is
    /// testable without touching the process environment). `None` when even `HOME` is unknown.
    pub fn resolve(
        carryover_home: Option<PathBuf>,
        xdg_data_home: Option<PathBuf>,
        home: Option<PathBuf>,
    ) -> Option<Self> {
        let non_empty = |path: Option<PathBuf>| path.filter(|p| !p.as_os_str().is_empty());
        let root = non_empty(carryover_home)
            .or_else(|| {
                non_empty(xdg_data_home)
                    .filter(|p| p.is_absolute())
                    .map(|p| p.join("carryover"))
            })
            .or_else(|| {
                non_empty(home).map(|h| h.join(".local").join("share").join("carryover"))
            })?;
        Some(Self { root })
    }

    /// A data home at an explicit directory.
    pub fn at(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// The directory itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The default seed location.
    pub fn seed_path(&self) -> PathBuf {
        self.root.join("seed.json")
    }

    /// The optional configuration file.
    pub fn config_path(&self) -> PathBuf {
        self.root.join("config.toml")
    }

    /// Per-project state, checkpoints and handoffs.
    pub fn projects_dir(&self) -> PathBuf {
        self.root.join("projects")
    }

    /// Where hooks write what went wrong.
    pub fn log_path(&self) -> PathBuf {
        self.root.join("logs").join("carryover.log")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn p(path: &str) -> Option<PathBuf> {
        Some(PathBuf::from(path))
    }

    #[rstest]
    #[case::carryover_home_wins(p("/c"), p("/x"), p("/h"), Some("/c"))]
    #[case::xdg_next(None, p("/x"), p("/h"), Some("/x/carryover"))]
    #[case::relative_xdg_is_ignored(None, p("rel"), p("/h"), Some("/h/.local/share/carryover"))]
    #[case::empty_values_are_unset(p(""), p(""), p("/h"), Some("/h/.local/share/carryover"))]
    #[case::home_last(None, None, p("/h"), Some("/h/.local/share/carryover"))]
    #[case::nothing(None, None, None, None)]
    fn resolves_in_order(
        #[case] carryover: Option<PathBuf>,
        #[case] xdg: Option<PathBuf>,
        #[case] home: Option<PathBuf>,
        #[case] expected: Option<&str>,
    ) {
        let resolved = DataHome::resolve(carryover, xdg, home);
        assert_eq!(
            resolved.map(|d| d.root().to_path_buf()),
            expected.map(PathBuf::from)
        );
    }
}
