//! Who the assistant is and whom it serves.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The name a fresh seed gives the principal; a seed that still carries it is not set up yet.
pub const DEFAULT_PRINCIPAL: &str = "User";

/// The assistant's identity (`$.identity`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Identity {
    /// The person the assistant serves.
    pub principal_name: String,
    /// The assistant's own name.
    pub ai_name: String,
    /// A line the assistant may open with.
    #[serde(default)]
    pub catchphrase: String,
    /// Voice for text-to-speech front ends; carried, not used here.
    #[serde(default = "default_voice")]
    pub voice_id: String,
    /// How the principal likes to be answered.
    #[serde(default)]
    pub preferences: Preferences,
    /// Keys this version does not know, kept on write.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The principal's preferences (`$.identity.preferences`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Preferences {
    /// Answer length and depth.
    #[serde(default)]
    pub response_style: ResponseStyle,
    /// IANA zone name such as `Europe/Lisbon`.
    #[serde(default = "default_timezone")]
    pub timezone: String,
    /// BCP 47 tag such as `en-GB`.
    #[serde(default = "default_locale")]
    pub locale: String,
    /// Keys this version does not know, kept on write.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// How long and detailed answers should be. A style this version does not know (written by
/// a newer one) is kept as it is spelled, never lost or "repaired".
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum ResponseStyle {
    /// Short answers.
    Concise,
    /// Thorough answers.
    Detailed,
    /// Whatever the question needs.
    #[default]
    Adaptive,
    /// A style a newer version wrote.
    Other(String),
}

impl ResponseStyle {
    /// Every style this version knows, in the order help texts list them.
    pub const ALL: [ResponseStyle; 3] = [Self::Concise, Self::Detailed, Self::Adaptive];

    /// The seed's spelling.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Concise => "concise",
            Self::Detailed => "detailed",
            Self::Adaptive => "adaptive",
            Self::Other(raw) => raw,
        }
    }

    /// Parses one of the styles this version knows.
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|style| style.as_str() == raw)
    }
}

impl From<String> for ResponseStyle {
    fn from(raw: String) -> Self {
        Self::parse(&raw).unwrap_or(Self::Other(raw))
    }
}

impl From<ResponseStyle> for String {
    fn from(style: ResponseStyle) -> Self {
        style.as_str().to_owned()
    }
}

impl fmt::Display for ResponseStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Default for Identity {
    fn default() -> Self {
        Self {
            principal_name: DEFAULT_PRINCIPAL.to_owned(),
            ai_name: "PAI".to_owned(),
            catchphrase: "PAI here, ready to go.".to_owned(),
            voice_id: default_voice(),
            preferences: Preferences::default(),
            extra: Map::new(),
        }
    }
}

impl Default for Preferences {
    fn default() -> Self {
        Self {
            response_style: ResponseStyle::default(),
            timezone: default_timezone(),
            locale: default_locale(),
            extra: Map::new(),
        }
    }
}

impl Identity {
    /// True while the principal is still the placeholder a fresh seed carries.
    pub fn is_placeholder(&self) -> bool {
        self.principal_name.trim().is_empty() || self.principal_name == DEFAULT_PRINCIPAL
    }
}

fn default_voice() -> String {
    "default".to_owned()
}

fn default_timezone() -> String {
    "UTC".to_owned()
}

fn default_locale() -> String {
    "en-US".to_owned()
}
