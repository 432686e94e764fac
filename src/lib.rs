//! carryover: makes every AI coding session start already oriented.
//!
//! Hexagonal layout (see `docs/adr/0001-hexagonal-layout.md`): [`domain`] is pure and owns the
//! ports, [`application`] composes ports into use cases, [`infrastructure`] implements the
//! ports, and [`interface`] is the CLI and the only composition root.

pub mod application;
pub mod domain;
pub mod infrastructure;
pub mod interface;
