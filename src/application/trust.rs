//! `carryover trust`: record, revoke and list trust in projects' start-up templates.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::domain::ports::{Clock, TemplateFile, TemplateSource, TrustEntry, TrustStore};
use crate::domain::startup::StartupTemplate;
use crate::domain::{RuleError, TemplateError};

use super::AppError;

/// A project template about to be trusted, with what was trusted before at its path.
#[derive(Debug, Clone, PartialEq)]
pub struct TrustPreview {
    /// The template as it is now.
    pub file: TemplateFile,
    /// The earlier decision for its path, if any.
    pub previous: Option<TrustEntry>,
}

/// What the user is shown before trusting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrustView {
    /// Trusted already, exactly as it is.
    Unchanged,
    /// Never trusted (or trusted before its text was kept): the whole template.
    Whole(String),
    /// Trusted before in another version: a unified diff from that version.
    Diff(String),
}

impl TrustPreview {
    /// The template, or its diff against the version trusted before.
    pub fn view(&self) -> TrustView {
        let path = self.file.path.display().to_string();
        match &self.previous {
            Some(previous) if previous.sha256 == self.file.sha256 => TrustView::Unchanged,
            Some(TrustEntry {
                text: Some(before), ..
            }) => TrustView::Diff(
                similar::TextDiff::from_lines(before.as_str(), self.file.text.as_str())
                    .unified_diff()
                    .context_radius(3)
                    .header(&format!("{path} (trusted)"), &format!("{path} (now)"))
                    .to_string(),
            ),
            _ => TrustView::Whole(self.file.text.clone()),
        }
    }
}

/// Trust decisions over project templates.
pub struct Trust<T, Tr> {
    templates: T,
    trust: Tr,
    clock: Arc<dyn Clock>,
}

impl<T: TemplateSource, Tr: TrustStore> Trust<T, Tr> {
    /// A service over the given ports.
    pub fn new(templates: T, trust: Tr, clock: Arc<dyn Clock>) -> Self {
        Self {
            templates,
            trust,
            clock,
        }
    }

    /// The project's template as it is now, with the decision recorded for it before;
    /// records nothing. A file that is not a template session start can use is refused.
    pub async fn preview(
        &self,
        root: &Path,
        expected_path: PathBuf,
    ) -> Result<TrustPreview, AppError> {
        let file = self
            .templates
            .project_template(root)
            .await?
            .ok_or(AppError::Rule(RuleError::NoProjectTemplate {
                path: expected_path,
            }))?;
        // Trusting a file session start would skip anyway only hides the mistake.
        if let Err(problem) = StartupTemplate::parse(&file.text) {
            return Err(AppError::Rule(RuleError::UnusableTemplate {
                path: file.path,
                problem: problem.to_string(),
            }));
        }
        // An unreadable list trusts nothing: the template is shown whole, as never trusted,
        // and recording it sets the bad list aside.
        let trusted = match self.trust.list().await {
            Err(TemplateError::CorruptTrust { .. }) => Vec::new(),
            listed => listed?,
        };
        let previous = trusted.into_iter().find(|entry| entry.path == file.path);
        Ok(TrustPreview { file, previous })
    }

    /// Trusts the template exactly as previewed (what the user saw, not what the file may
    /// hold by now: a file changed since is simply not trusted).
    pub async fn record(&self, preview: &TrustPreview) -> Result<(), AppError> {
        let file = &preview.file;
        self.trust
            .trust(&file.path, &file.sha256, &file.text, self.clock.now())
            .await?;
        Ok(())
    }

    /// Stops trusting the template at `path`; returns whether it was trusted.
    pub async fn revoke(&self, path: &Path) -> Result<bool, AppError> {
        Ok(self.trust.revoke(path).await?)
    }

    /// Every trusted template.
    pub async fn list(&self) -> Result<Vec<TrustEntry>, AppError> {
        Ok(self.trust.list().await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::application::testing::fixed_clock;
    use crate::domain::ports::{MockTemplateSource, MockTrustStore, TemplateFile};

    const TEMPLATE: &str = "---\ntype: agent/instruction\n---\nrun make status\nthen say hello\n";

    fn template_now() -> MockTemplateSource {
        template_reading(TEMPLATE)
    }

    fn template_reading(text: &'static str) -> MockTemplateSource {
        let mut templates = MockTemplateSource::new();
        templates.expect_project_template().returning(move |root| {
            Ok(Some(TemplateFile {
                path: root.join(".carryover/_startup.md"),
                text: text.into(),
                sha256: "d2".into(),
            }))
        });
        templates
    }

    #[rstest::rstest]
    #[case::no_front_matter("run make status\n")]
    #[case::another_type("---\ntype: agent/skill\n---\nrun make status\n")]
    fn a_file_session_start_would_not_use_is_refused(#[case] text: &'static str) {
        let service = Trust::new(template_reading(text), trusted_before(None), fixed_clock());
        let refused = pollster::block_on(service.preview(Path::new("/p"), "/p/x".into()));
        assert!(
            matches!(
                refused,
                Err(AppError::Rule(RuleError::UnusableTemplate { .. }))
            ),
            "{refused:?}"
        );
    }

    fn trusted_before(entry: Option<(&'static str, Option<&'static str>)>) -> MockTrustStore {
        let mut trust = MockTrustStore::new();
        trust.expect_list().returning(move || {
            Ok(entry
                .into_iter()
                .map(|(sha, text)| TrustEntry {
                    path: "/code/p/.carryover/_startup.md".into(),
                    sha256: sha.into(),
                    trusted_at: crate::domain::seed::Timestamp::parse("2026-11-01T00:00:00Z")
                        .unwrap(),
                    text: text.map(str::to_owned),
                })
                .collect())
        });
        trust
    }

    #[rstest::rstest]
    #[case::never_trusted(None, "whole")]
    #[case::trusted_as_it_is(Some(("d2", Some("run make status\nthen say hello\n"))), "unchanged")]
    #[case::trusted_in_another_version(Some(("d1", Some("run make status\n"))), "diff")]
    #[case::trusted_before_texts_were_kept(Some(("d1", None)), "whole")]
    fn shows_the_template_or_what_changed_since_it_was_trusted(
        #[case] before: Option<(&'static str, Option<&'static str>)>,
        #[case] expected: &str,
    ) {
        let service = Trust::new(template_now(), trusted_before(before), fixed_clock());
        let preview = pollster::block_on(service.preview(
            Path::new("/code/p"),
            "/code/p/.carryover/_startup.md".into(),
        ))
        .unwrap();
        match (preview.view(), expected) {
            (TrustView::Unchanged, "unchanged") => {}
            (TrustView::Whole(text), "whole") => assert!(text.contains("then say hello")),
            (TrustView::Diff(diff), "diff") => {
                assert!(diff.contains("+then say hello"), "{diff}");
                assert!(diff.contains(" run make status"), "{diff}");
            }
            (view, _) => panic!("{view:?} is not {expected}"),
        }
    }

    #[test]
    fn records_the_template_as_previewed() {
        let mut trust = trusted_before(None);
        trust
            .expect_trust()
            .withf(|path, sha, text, _| {
                path.ends_with(".carryover/_startup.md")
                    && sha == "d2"
                    && text.contains("then say hello")
            })
            .times(1)
            .returning(|_, _, _, _| Ok(()));
        let service = Trust::new(template_now(), trust, fixed_clock());
        let preview = pollster::block_on(service.preview(
            Path::new("/code/p"),
            "/code/p/.carryover/_startup.md".into(),
        ))
        .unwrap();
        pollster::block_on(service.record(&preview)).unwrap();
    }

    #[test]
    fn a_project_without_a_template_is_refused() {
        let mut templates = MockTemplateSource::new();
        templates.expect_project_template().returning(|_| Ok(None));
        let mut trust = MockTrustStore::new();
        trust.expect_trust().never();
        let service = Trust::new(templates, trust, fixed_clock());
        let error = pollster::block_on(service.preview(
            Path::new("/code/p"),
            "/code/p/.carryover/_startup.md".into(),
        ))
        .unwrap_err();
        assert!(matches!(
            error,
            AppError::Rule(RuleError::NoProjectTemplate { .. })
        ));
    }
}
