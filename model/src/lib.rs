//! ssdlab-model: a behavioural, cycle-approximate model of an NVMe SSD.
//!
//! Layering follows the data path (MQSim's host interface → cache → FTL → scheduler → PHY →
//! chip): [`pcie`] and [`nvme`] at the host side, [`ctrl`] for controller resources (DRAM,
//! buffer, firmware cores), [`ftl`] for the flash translation layer, [`nand`] for dies and
//! channel sequencers, all driven by the discrete-event [`engine`] and assembled by [`drive`].
//! This crate never depends on rust-hdl and never reads the wall clock.

pub mod config;
pub mod ctrl;
pub mod drive;
pub mod encoding;
pub mod engine;
pub mod error;
pub mod ftl;
pub mod nand;
pub mod nvme;
pub mod pcie;
pub mod rng;
pub mod time;

pub use config::DriveConfig;
pub use error::{ConfigError, DriveError};
pub use rng::SeedTree;
pub use time::SimTime;
