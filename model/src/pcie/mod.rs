//! PCIe link between host (root complex) and drive, modelled at transaction-layer-packet level.
//! Source: PCI Express Base Specification 3.0: §4.2.2 (128b/130b encoding, Gen3 framing
//! tokens), §2.2 (TLP headers, max payload / max read request size), §3.5 (DLLPs, ACK/NAK).
//!
//! The model is reservation-based: each direction is one serial resource, and a transfer asked for
//! at simulated time `t` occupies it from `max(t, free)` for its wire bytes. Callers ask in
//! non-decreasing simulated time (the engine's order), so service is first-come first-served.

pub mod link;

pub use link::{Dir, Link, LinkDirStats};
