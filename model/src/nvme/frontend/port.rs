//! The requester-request port of the front end: one TLP at a time on the 128-bit interface,
//! paced by the host side's link ceiling ([`HostPort::upstream`], the root complex's
//! `model::pcie::Link`), with every TLP logged (type, address, length, cycle).
//!
//! Requests are granted in the order the front end's engines ask; an engine asking for an
//! earlier cycle than one already granted waits behind it (a reservation model, the
//! transaction-level approximation of the HDL's priority mux).

use super::tlp::{beats, Cycle, Tlp, TlpKind, TlpPurpose};
use super::HostPort;

/// Whether `len` bytes (at least 1) from `addr` stay inside one 4 KiB page (PCI Express Base
/// 3.0, section 2.2.7: no request crosses a 4 KiB boundary).
fn within_4k(addr: u64, len: u32) -> bool {
    addr / 4096 == (addr + len as u64 - 1) / 4096
}

#[derive(Clone, Debug)]
pub struct ReqPort {
    free: Cycle,
    /// Keep every TLP in `log` (test benches, co-simulation); off, the port only paces.
    logging: bool,
    log: Vec<Tlp>,
}

impl ReqPort {
    pub fn new() -> Self {
        ReqPort {
            free: 0,
            logging: true,
            log: Vec::new(),
        }
    }

    /// Turns the TLP log on or off (off: `log` stays as it is and grows no more).
    pub fn set_logging(&mut self, on: bool) {
        self.logging = on;
    }
    /// Whether the front end keeps its logs (TLPs here, posted CQEs in the completion engine).
    pub fn logging(&self) -> bool {
        self.logging
    }

    /// Sends one TLP no earlier than `ready`; returns the cycle of its header beat.
    pub fn send(
        &mut self,
        host: &mut impl HostPort,
        ready: Cycle,
        kind: TlpKind,
        purpose: TlpPurpose,
        addr: u64,
        len_bytes: u32,
    ) -> Cycle {
        assert!(
            len_bytes > 0 && len_bytes <= 4096,
            "TLP length {len_bytes} out of range"
        );
        assert!(
            within_4k(addr, len_bytes),
            "TLP at {addr:#x}+{len_bytes} crosses 4 KiB"
        );
        let start = host.upstream(ready.max(self.free), kind, len_bytes);
        assert!(
            start >= ready.max(self.free),
            "host granted the link before the TLP was ready"
        );
        self.free = start + beats(kind, len_bytes);
        if self.logging {
            self.log.push(Tlp {
                kind,
                purpose,
                addr,
                len_bytes,
                cycle: start,
            });
        }
        start
    }

    /// Data MWr TLPs `reqs` (values not modelled), each sent no earlier than `ready`, one after
    /// another, while the log is off ([`HostPort::upstream_writes`]); returns the cycle the port
    /// is free after the last: what one [`ReqPort::send`] per TLP gives.
    pub fn send_writes(
        &mut self,
        host: &mut impl HostPort,
        ready: Cycle,
        reqs: &[(u64, u32)],
    ) -> Cycle {
        self.check_burst(reqs);
        self.free = host.upstream_writes(ready, self.free, reqs);
        self.free
    }

    /// Data MRd TLPs `reqs` (values not modelled) from `ready`, at most `DATA_TAGS` in flight,
    /// while the log is off ([`HostPort::upstream_reads`]); returns the cycle after the last
    /// completion beat arrived (at least `ready`): what one [`ReqPort::send`] per TLP gives.
    pub fn send_reads(
        &mut self,
        host: &mut impl HostPort,
        ready: Cycle,
        reqs: &[(u64, u32)],
    ) -> Cycle {
        self.check_burst(reqs);
        let (free, done) = host.upstream_reads(ready, self.free, reqs);
        self.free = free;
        done
    }

    /// A burst bypasses the log, and each of its TLPs is a whole request within one 4 KiB page.
    fn check_burst(&self, reqs: &[(u64, u32)]) {
        assert!(!self.logging, "a logged port sends TLP by TLP");
        debug_assert!(reqs
            .iter()
            .all(|&(a, n)| n > 0 && n <= 4096 && within_4k(a, n)));
    }

    /// Cycle from which the port is idle.
    pub fn free_cycle(&self) -> Cycle {
        self.free
    }

    pub fn log(&self) -> &[Tlp] {
        &self.log
    }
}
