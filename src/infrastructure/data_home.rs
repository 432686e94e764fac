//! Where carryover keeps its data, and the files inside.

use std::path::{Path, PathBuf};

/// The data home: `$CARRYOVER_HOME`, else `$XDG_DATA_HOME/carryover`, else
/// `~/.local/share/carryover`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataHome {
    root: PathBuf,
}

/// Why no data home could be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataHomeError {
    /// None of the variables is set.
    #[error("cannot tell where to keep data: none of CARRYOVER_HOME, XDG_DATA_HOME, HOME is set")]
    Unknown,
    /// `CARRYOVER_HOME` is relative: it would name a different directory in every project a
    /// hook runs in.
    #[error("CARRYOVER_HOME={0:?} is a relative path; it must be absolute")]
    Relative(PathBuf),
}

impl DataHome {
    /// Resolves the data home from the variables that choose it (passed in, so the rule is
    /// testable without touching the process environment). A relative `XDG_DATA_HOME` is
    /// ignored, as the XDG specification says; a relative `CARRYOVER_HOME` is refused.
    pub fn resolve(
        carryover_home: Option<PathBuf>,
        xdg_data_home: Option<PathBuf>,
        home: Option<PathBuf>,
    ) -> Result<Self, DataHomeError> {
        let non_empty = |path: Option<PathBuf>| path.filter(|p| !p.as_os_str().is_empty());
        if let Some(root) = non_empty(carryover_home) {
            return match root.is_absolute() {
                true => Ok(Self { root }),
                false => Err(DataHomeError::Relative(root)),
            };
        }
        let root = non_empty(xdg_data_home)
            .filter(|p| p.is_absolute())
            .map(|p| p.join("carryover"))
            .or_else(|| {
                non_empty(home)
                    .filter(|h| h.is_absolute())
                    .map(|h| h.join(".local").join("share").join("carryover"))
            })
            .ok_or(DataHomeError::Unknown)?;
        Ok(Self { root })
    }

    /// A path from the configuration: `~` is the home, a relative path is taken inside the
    /// data home (never the working directory, which is whatever project a hook runs in),
    /// and an empty one is refused.
    pub fn config_path_value(&self, raw: &Path, home: Option<&Path>) -> Result<PathBuf, String> {
        if raw.as_os_str().is_empty() {
            return Err("is empty".to_owned());
        }
        let expanded = match (raw.strip_prefix("~"), home) {
            (Ok(rest), Some(home)) => home.join(rest),
            (Ok(_), None) => return Err("starts with ~ but HOME is not set".to_owned()),
            (Err(_), _) => raw.to_path_buf(),
        };
        Ok(match expanded.is_absolute() {
            true => expanded,
            false => self.root.join(expanded),
        })
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
    #[case::relative_carryover_home_is_refused(p("data"), None, p("/h"), None)]
    fn resolves_in_order(
        #[case] carryover: Option<PathBuf>,
        #[case] xdg: Option<PathBuf>,
        #[case] home: Option<PathBuf>,
        #[case] expected: Option<&str>,
    ) {
        let resolved = DataHome::resolve(carryover, xdg, home);
        assert_eq!(
            resolved.ok().map(|d| d.root().to_path_buf()),
            expected.map(PathBuf::from)
        );
    }

    #[rstest]
    #[case::absolute("/srv/seed.json", Ok("/srv/seed.json"))]
    #[case::home("~/.pai/seed.json", Ok("/home/mara/.pai/seed.json"))]
    #[case::relative_is_inside_the_data_home("seeds/seed.json", Ok("/data/seeds/seed.json"))]
    #[case::empty("", Err("is empty"))]
    fn config_paths_never_leave_for_the_working_directory(
        #[case] raw: &str,
        #[case] expected: Result<&str, &str>,
    ) {
        let home = DataHome::at("/data");
        let resolved = home.config_path_value(Path::new(raw), Some(Path::new("/home/mara")));
        assert_eq!(
            resolved
                .as_ref()
                .map(|p| p.to_str().unwrap())
                .map_err(String::as_str),
            expected
        );
    }
}
