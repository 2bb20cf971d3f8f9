//! PCIe link parameters at transaction-layer level. Source: PCI Express Base Specification 3.0,
//! sections 4.2 (128b/130b), 2.2 (TLP headers), 3.5 (DLLPs).

use crate::error::{check, check_latency_ns, ConfigError};
use serde::{Deserialize, Serialize};

/// `[pcie]`: the link at transaction-layer level.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PcieConfig {
    /// Lanes (x1, x2, x4, x8, x16).
    /// Unit: lanes. Range: 1, 2, 4, 8 or 16. Moves: sequential reads and writes (link-bound).
    pub lanes: u32,
    /// Per-lane signalling rate (8 for Gen3).
    /// Unit: GT/s. Range: (0, 64]. Moves: sequential reads and writes (link-bound).
    pub lane_gts: f64,
    /// Line coding payload bits per block (128 of 128b/130b for Gen3).
    /// Unit: bits. Range: 1..=encoding_total_bits. Moves: link rate.
    pub encoding_payload_bits: u32,
    /// Line coding total bits per block (130 of 128b/130b for Gen3).
    /// Unit: bits. Range: >= encoding_payload_bits. Moves: link rate.
    pub encoding_total_bits: u32,
    /// Max payload size of a TLP.
    /// Unit: bytes. Range: power of two, 128..=4096. Moves: TLP overhead of reads (MWr).
    pub mps_bytes: u32,
    /// Max read request size.
    /// Unit: bytes. Range: power of two, 128..=4096. Moves: TLP overhead of writes (MRd).
    pub mrrs_bytes: u32,
    /// TLP header bytes (12 for 3DW, 16 for 4DW with 64-bit addresses).
    /// Unit: bytes. Range: 12 or 16. Moves: TLP overhead.
    pub tlp_header_bytes: u32,
    /// Framing, sequence number and LCRC bytes per TLP (see `pcie::link`).
    /// Unit: bytes. Range: >= 0. Moves: TLP overhead.
    pub tlp_overhead_bytes: u32,
    /// DLLP (ACK / flow-control update) bytes sent in the opposite direction per
    /// `tlps_per_ack` TLPs. Unit: bytes. Range: >= 0. Moves: link overhead.
    pub dllp_bytes: u32,
    /// TLPs acknowledged by one DLLP.
    /// Unit: TLPs. Range: >= 1. Moves: link overhead.
    pub tlps_per_ack: u32,
    /// Round-trip latency of a host memory read (request to first completion).
    /// Unit: ns. Range: >= 0. Moves: write latency, SQ fetch time.
    pub host_read_latency_ns: f64,
}

impl PcieConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(
            matches!(self.lanes, 1 | 2 | 4 | 8 | 16),
            "pcie.lanes",
            "must be 1, 2, 4, 8 or 16",
        )?;
        check(
            self.lane_gts.is_finite() && self.lane_gts > 0.0 && self.lane_gts <= 64.0,
            "pcie.lane_gts",
            "must be in (0, 64]",
        )?;
        check(
            self.encoding_payload_bits > 0
                && self.encoding_payload_bits <= self.encoding_total_bits,
            "pcie.encoding_payload_bits",
            "must be positive and at most pcie.encoding_total_bits",
        )?;
        check(
            self.mps_bytes.is_power_of_two() && (128..=4096).contains(&self.mps_bytes),
            "pcie.mps_bytes",
            "must be a power of two from 128 to 4096",
        )?;
        check(
            self.mrrs_bytes.is_power_of_two() && (128..=4096).contains(&self.mrrs_bytes),
            "pcie.mrrs_bytes",
            "must be a power of two from 128 to 4096",
        )?;
        check(
            matches!(self.tlp_header_bytes, 12 | 16),
            "pcie.tlp_header_bytes",
            "must be 12 or 16",
        )?;
        check(
            self.tlps_per_ack >= 1,
            "pcie.tlps_per_ack",
            "must be at least 1",
        )?;
        check_latency_ns(self.host_read_latency_ns, "pcie.host_read_latency_ns")?;
        Ok(())
    }
    /// Raw bytes per second per direction after line coding.
    pub fn line_bytes_per_sec(&self) -> u64 {
        let bits = self.lane_gts * 1e9 * self.lanes as f64 * self.encoding_payload_bits as f64
            / self.encoding_total_bits as f64;
        (bits / 8.0).round() as u64
    }
}
