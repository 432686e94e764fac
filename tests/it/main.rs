//! Integration tests: the real `carryover` binary in a hermetic environment, on real files and
//! real git. One test binary, so everything links once.

mod agent_memory;
mod attack;
mod budget;
mod commands;
mod compaction;
mod doctor;
mod embedder;
mod extraction;
mod gemini_standin;
mod handoff;
mod handoff_golden;
mod handoff_sessions;
mod hostile;
mod http_standin;
mod identity;
mod install;
mod learn;
mod model_standin;
mod real_client;
mod real_codex;
mod real_gemini;
mod recall;
mod reliability;
mod repair;
mod responses_standin;
mod resume;
mod retrieval;
mod review;
mod scope;
mod seed_store;
mod session_start;
mod startup;
mod statusline;
mod support;
mod trust;
