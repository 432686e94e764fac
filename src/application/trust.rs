//! `carryover trust`: record, revoke and list trust in projects' start-up templates.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::domain::RuleError;
use crate::domain::ports::{Clock, TemplateSource, TrustEntry, TrustStore};

use super::AppError;

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

    /// Trusts the project's template as it is now; returns its path and digest.
    pub async fn trust(
        &self,
        root: &Path,
        expected_path: PathBuf,
    ) -> Result<(PathBuf, String), AppError> {
        let file = self
            .templates
            .project_template(root)
            .await?
            .ok_or(AppError::Rule(RuleError::NoProjectTemplate {
                path: expected_path,
            }))?;
        self.trust
            .trust(&file.path, &file.sha256, self.clock.now())
            .await?;
        Ok((file.path, file.sha256))
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

    #[test]
    fn trusts_the_template_as_it_is_now() {
        let mut templates = MockTemplateSource::new();
        templates.expect_project_template().returning(|root| {
            Ok(Some(TemplateFile {
                path: root.join(".carryover/_startup.md"),
                text: "x".into(),
                sha256: "d1".into(),
            }))
        });
        let mut trust = MockTrustStore::new();
        trust
            .expect_trust()
            .withf(|path, sha, _| path.ends_with(".carryover/_startup.md") && sha == "d1")
            .times(1)
            .returning(|_, _, _| Ok(()));
        let service = Trust::new(templates, trust, fixed_clock());
        let (path, sha) = pollster::block_on(service.trust(
            Path::new("/code/p"),
            "/code/p/.carryover/_startup.md".into(),
        ))
        .unwrap();
        assert_eq!(
            (path, sha.as_str()),
            (PathBuf::from("/code/p/.carryover/_startup.md"), "d1")
        );
    }

    #[test]
    fn a_project_without_a_template_is_refused() {
        let mut templates = MockTemplateSource::new();
        templates.expect_project_template().returning(|_| Ok(None));
        let mut trust = MockTrustStore::new();
        trust.expect_trust().never();
        let service = Trust::new(templates, trust, fixed_clock());
        let error = pollster::block_on(service.trust(
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
