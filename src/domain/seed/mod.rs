//! The seed (pai-seed v1): identity, learnings, proposals and session state, with its codec and
//! rules.

mod change;
mod codec;
mod document;
mod identity;
mod identity_field;
mod learning;
mod locale;
mod merge;
mod proposal;
mod purge;
mod state;
mod time_zone;
mod timestamp;
mod tombstone;
mod validation;
mod version;

pub use change::SeedChange;
pub use codec::{SeedDecodeError, decode_seed, encode_seed};
pub use document::{CURRENT_VERSION, Learned, Seed};
pub use identity::{DEFAULT_PRINCIPAL, Identity, Preferences, ResponseStyle};
pub use identity_field::{IdentityField, default_catchphrase};
pub use learning::{Learning, LearningKind};
pub use locale::{LocaleTag, suggest_locale};
pub use merge::{MergeConflict, Merged, Side, merge_seeds};
pub use proposal::{Proposal, ProposalStatus};
pub use purge::{PURGED, purge_version};
pub use state::SeedState;
pub use time_zone::{TimeZoneName, suggest_time_zone};
pub use timestamp::Timestamp;
pub use tombstone::{TOMBSTONES_KEY, Tombstone, normalised_text, text_hash};
pub use validation::{ValidationIssue, validate};
pub use version::{FormatVersion, SUPPORTED_MAJOR};
