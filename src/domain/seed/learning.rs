//! A confirmed (or not yet confirmed) learning and the three kinds a seed keeps apart.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::Timestamp;

/// The three kinds of learning, each with its own list in `$.learned`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LearningKind {
    /// How the principal works (`$.learned.patterns`).
    Pattern,
    /// Facts about projects and environments (`$.learned.insights`).
    Insight,
    /// What the assistant learned about itself (`$.learned.selfKnowledge`).
    SelfKnowledge,
}

impl LearningKind {
    /// Every kind, in the seed's order.
    pub const ALL: [LearningKind; 3] = [Self::Pattern, Self::Insight, Self::SelfKnowledge];

    /// The spelling used on the command line and in proposals (`self_knowledge`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pattern => "pattern",
            Self::Insight => "insight",
            Self::SelfKnowledge => "self_knowledge",
        }
    }

    /// Parses the command-line spelling; `self-knowledge` is accepted too.
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "pattern" | "patterns" => Some(Self::Pattern),
            "insight" | "insights" => Some(Self::Insight),
            "self_knowledge" | "self-knowledge" | "selfKnowledge" => Some(Self::SelfKnowledge),
            _ => None,
        }
    }

    /// The key of this kind's list under `$.learned`.
    pub fn list_key(self) -> &'static str {
        match self {
            Self::Pattern => "patterns",
            Self::Insight => "insights",
            Self::SelfKnowledge => "selfKnowledge",
        }
    }

    /// Plural heading for people (`Patterns`, `Insights`, `Self-knowledge`).
    pub fn heading(self) -> &'static str {
        match self {
            Self::Pattern => "Patterns",
            Self::Insight => "Insights",
            Self::SelfKnowledge => "Self-knowledge",
        }
    }

    /// Prefix of the ids of this kind's learnings.
    pub fn id_prefix(self) -> &'static str {
        match self {
            Self::Pattern => "pat_",
            Self::Insight => "ins_",
            Self::SelfKnowledge => "slf_",
        }
    }
}

impl fmt::Display for LearningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One learning (`$.learned.<kind>[i]`). Deserialised by hand: a seed holds thousands of
/// these, and `#[serde(flatten)]` would buffer each one in serde's intermediate form before
/// reading it, which made up most of a session start's parse time.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Learning {
    /// Stable id such as `pat_7Qm2vXk9LdRa`.
    pub id: String,
    /// The learning, one sentence.
    pub content: String,
    /// Where it came from (a session id or a note).
    pub source: String,
    /// When it was first written down.
    pub extracted_at: Timestamp,
    /// When the principal confirmed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmed_at: Option<Timestamp>,
    /// Whether the principal confirmed it.
    pub confirmed: bool,
    /// Free-form labels.
    pub tags: Vec<String>,
    /// The project it belongs to (a [`ProjectId`](crate::domain::project::ProjectId)'s
    /// spelling); none for a global learning. A key pai-seed v1 readers do not know and keep
    /// (ADR 0010).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// Always shown first at session start, whatever the ranking (a standing rule).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
    /// Keys this version does not know, kept on write.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Learning {
    /// A learning with no scope, pin, tags or unknown keys.
    pub fn new(
        id: String,
        content: String,
        source: String,
        at: Timestamp,
        confirmed: bool,
    ) -> Self {
        Self {
            id,
            content,
            source,
            extracted_at: at,
            confirmed_at: confirmed.then_some(at),
            confirmed,
            tags: Vec::new(),
            project: None,
            pinned: false,
            extra: Map::new(),
        }
    }

    /// Whether a session in `project` may be shown it: global, or that project's.
    pub fn visible_in(&self, project: &str) -> bool {
        self.project.as_deref().is_none_or(|own| own == project)
    }

    /// When it became part of what the assistant knows: confirmation, else extraction.
    pub fn recency(&self) -> Timestamp {
        self.confirmed_at.unwrap_or(self.extracted_at)
    }
}

impl<'de> Deserialize<'de> for Learning {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(LearningVisitor)
    }
}

struct LearningVisitor;

impl<'de> serde::de::Visitor<'de> for LearningVisitor {
    type Value = Learning;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a learning object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Learning, A::Error> {
        use serde::de::Error;
        let mut id = None;
        let mut content = None;
        let mut source = None;
        let mut extracted_at = None;
        let mut confirmed_at = None;
        let mut confirmed = None;
        let mut tags = None;
        let mut project = None;
        let mut pinned = None;
        let mut extra = Map::new();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match key.as_str() {
                "id" => id = Some(map.next_value::<String>()?),
                "content" => content = Some(map.next_value::<String>()?),
                "source" => source = Some(map.next_value::<String>()?),
                "extractedAt" => extracted_at = Some(map.next_value::<Timestamp>()?),
                "confirmedAt" => confirmed_at = map.next_value::<Option<Timestamp>>()?,
                "confirmed" => confirmed = Some(map.next_value::<bool>()?),
                "tags" => tags = Some(map.next_value::<Vec<String>>()?),
                "project" => project = map.next_value::<Option<String>>()?,
                "pinned" => pinned = Some(map.next_value::<bool>()?),
                _ => {
                    let value = map.next_value::<Value>()?;
                    extra.insert(key.as_str().to_owned(), value);
                }
            }
        }
        Ok(Learning {
            id: id.ok_or_else(|| A::Error::missing_field("id"))?,
            content: content.ok_or_else(|| A::Error::missing_field("content"))?,
            source: source.unwrap_or_default(),
            extracted_at: extracted_at.ok_or_else(|| A::Error::missing_field("extractedAt"))?,
            confirmed_at,
            confirmed: confirmed.unwrap_or(false),
            tags: tags.unwrap_or_default(),
            project,
            pinned: pinned.unwrap_or(false),
            extra,
        })
    }
}

/// A map key that borrows from the input when it can (no escapes), so the known keys of
/// thousands of learnings cost no allocation.
enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl Key<'_> {
    fn as_str(&self) -> &str {
        match self {
            Self::Borrowed(key) => key,
            Self::Owned(key) => key,
        }
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> serde::de::Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key::Borrowed(key))
            }
            fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key::Owned(key.to_owned()))
            }
            fn visit_string<E: serde::de::Error>(self, key: String) -> Result<Key<'de>, E> {
                Ok(Key::Owned(key))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}
