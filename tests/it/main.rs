//! Integration tests: the real `carryover` binary in a hermetic environment, on real files and
//! real git. One test binary, so everything links once.

mod budget;
mod commands;
mod compaction;
mod embedder;
mod extraction;
mod handoff;
mod hostile;
mod install;
mod model_standin;
mod real_client;
mod reliability;
mod repair;
mod retrieval;
mod review;
mod seed_store;
mod session_start;
mod startup;
mod support;
