//! Three-way co-simulation of the controller datapath (issue #9, docs/hdl.md): one
//! stimulus — a fio job on a small drive geometry — played by a shared host driver
//! ([`host`]) and firmware (the model's FTL + queue handling, [`firmware`], [`jobs`]) against
//! three executions of the datapath behind its firmware port ([`port`], [`exec`]): the
//! behavioural model blocks ([`model_exec`]), the rust_hdl `Datapath` (short runs) and its
//! Verilated Verilog (long runs). [`scoreboard`] compares their transaction streams.

pub mod drive_figures;
pub mod exec;
pub mod firmware;
pub mod hdl_exec;
pub mod host;
pub mod hw_exec;
pub mod jobs;
pub mod model_exec;
pub mod port;
pub mod scoreboard;
pub mod seqread;
pub mod setup;
pub mod sig;
pub mod sim;
