//! The requester-request port of the front end: one TLP at a time on the 128-bit interface,
//! paced by the link's throughput ceiling, with every TLP logged (type, address, length, cycle).
//!
//! Requests are granted in the order the front end's engines ask; an engine asking for an
//! earlier cycle than one already granted waits behind it (a reservation model, the
//! transaction-level approximation of the HDL's priority mux).

use super::link::LinkDirection;
use super::tlp::{beats, Cycle, Tlp, TlpKind, TlpPurpose};
use crate::config::PcieConfig;

#[derive(Clone, Debug)]
pub struct ReqPort {
    free: Cycle,
    link: LinkDirection,
    header_bytes: u32,
    log: Vec<Tlp>,
}

impl ReqPort {
    pub fn new(pcie: &PcieConfig) -> Self {
        ReqPort { free: 0, link: LinkDirection::new(pcie), header_bytes: pcie.tlp_header_bytes, log: Vec::new() }
    }

    /// Sends one TLP no earlier than `ready`; returns the cycle of its header beat.
    pub fn send(&mut self, ready: Cycle, kind: TlpKind, purpose: TlpPurpose, addr: u64, len_bytes: u32) -> Cycle {
        assert!(len_bytes > 0 && len_bytes <= 4096, "TLP length {len_bytes} out of range");
        assert!(addr / 4096 == (addr + len_bytes as u64 - 1) / 4096, "TLP at {addr:#x}+{len_bytes} crosses 4 KiB");
        let payload = if kind == TlpKind::MemWrite { len_bytes } else { 0 };
        let start = self.link.send(ready.max(self.free), self.header_bytes, payload);
        self.free = start + beats(kind, len_bytes);
        self.log.push(Tlp { kind, purpose, addr, len_bytes, cycle: start });
        start
    }

    /// Cycle from which the port is idle.
    pub fn free_cycle(&self) -> Cycle {
        self.free
    }

    pub fn log(&self) -> &[Tlp] {
        &self.log
    }
}
