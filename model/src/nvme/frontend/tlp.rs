//! Transaction-layer packets as the front end sees them on the hard block's streaming
//! interfaces (PCI Express Base 3.0, section 2.2), and the clocking of that interface: a
//! 128-bit datapath at 250 MHz (4 GB/s per direction, above Gen3x4's 3.94 GB/s line rate).
//!
//! A request occupies one header beat (the 4DW descriptor) plus one beat per 16 payload bytes,
//! the layout of AXI-streaming requester interfaces such as Xilinx's PCIe4 RQ/RC ports.

/// Clock of the front end and the TLP interface, in picoseconds (250 MHz).
pub const CLOCK_PS: u64 = 4_000;
/// Bytes per beat on the 128-bit datapath.
pub const BEAT_BYTES: u32 = 16;
/// Clock cycles of the front end's clock.
pub type Cycle = u64;

/// The time of clock edge `c` (the start of cycle `c`).
pub fn edge_time(c: Cycle) -> crate::time::SimTime {
    crate::time::SimTime::from_ps(c * CLOCK_PS)
}

/// The first clock edge at or after `t`.
pub fn cycle_at_or_after(t: crate::time::SimTime) -> Cycle {
    t.as_ps().div_ceil(CLOCK_PS)
}

/// Transaction type as carried in the header's Fmt/Type fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TlpKind {
    /// Memory read request (MRd) from the device.
    MemRead,
    /// Memory write request (MWr) from the device: data, completion entries, MSI-X.
    MemWrite,
}

/// Why the front end sent a TLP; not on the wire, used for reports and checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TlpPurpose {
    SqFetch,
    PrpList,
    /// Host → device data (write commands): MRd.
    DataIn,
    /// Device → host data (read commands, identify): MWr.
    DataOut,
    CqEntry,
    Msix,
}

/// One upstream TLP with the cycle its header beat left the front end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tlp {
    pub kind: TlpKind,
    pub purpose: TlpPurpose,
    pub addr: u64,
    pub len_bytes: u32,
    pub cycle: Cycle,
}

impl Tlp {
    /// The (type, address, length) triple the HDL comparison checks.
    pub fn key(&self) -> (TlpKind, u64, u32) {
        (self.kind, self.addr, self.len_bytes)
    }
}

/// Beats a TLP occupies on the 128-bit interface: header, then payload for writes.
pub fn beats(kind: TlpKind, len_bytes: u32) -> u64 {
    match kind {
        TlpKind::MemRead => 1,
        TlpKind::MemWrite => 1 + len_bytes.div_ceil(BEAT_BYTES) as u64,
    }
}

/// Beats of a completion with data (3DW descriptor beat + payload beats).
pub fn cpld_beats(len_bytes: u32) -> u64 {
    1 + len_bytes.div_ceil(BEAT_BYTES) as u64
}

/// Cuts `[addr, addr + len)` into requests of at most `max_bytes` that end on naturally
/// aligned `max_bytes` boundaries (and so never cross a 4 KiB boundary, max_bytes ≤ 4096).
pub fn split_aligned(addr: u64, len: u32, max_bytes: u32, out: &mut Vec<(u64, u32)>) {
    assert!(
        max_bytes.is_power_of_two() && max_bytes <= 4096,
        "bad max size {max_bytes}"
    );
    if len == 0 {
        return;
    }
    let end = addr + len as u64;
    // The next boundary after `addr` is `(addr | mask) + 1` (`max_bytes` is a power of two).
    let (max, mask) = (max_bytes as u64, max_bytes as u64 - 1);
    let first = ((addr | mask) + 1).min(end);
    out.push((addr, (first - addr) as u32));
    // From `first` on every request starts on a boundary: whole requests, then the tail.
    let rest = (end - first + mask) >> max_bytes.trailing_zeros();
    out.extend((0..rest).map(|i| {
        let a = first + i * max;
        (a, ((a + max).min(end) - a) as u32)
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datapath_carries_gen3x4_with_margin() {
        // 16 B per 4 ns = 4.0e9 B/s; Gen3x4 = 8 GT/s * 4 * 128/130 / 8 = 3.938e9 B/s.
        let datapath = BEAT_BYTES as u64 * 1_000_000_000_000 / CLOCK_PS;
        assert_eq!(datapath, 4_000_000_000);
        assert!(datapath > 3_938_461_538);
    }

    #[test]
    fn split_respects_alignment_and_4k() {
        let mut v = Vec::new();
        split_aligned(0x1F10, 0x300, 256, &mut v);
        // 0x1F10..0x2000 (0xF0), 0x2000..0x2100, 0x2100..0x2200, 0x2200..0x2210 (0x10).
        assert_eq!(
            v,
            vec![
                (0x1F10, 0xF0),
                (0x2000, 0x100),
                (0x2100, 0x100),
                (0x2200, 0x10)
            ]
        );
        assert_eq!(beats(TlpKind::MemWrite, 0xF0), 16);
        assert_eq!(beats(TlpKind::MemRead, 512), 1);
    }

    /// Over many starts, lengths and sizes: the requests tile the range in order, none longer
    /// than `max`, each but the last ending on a multiple of `max`, and as few as that allows
    /// (one more than the boundaries strictly inside the range).
    #[test]
    fn split_tiles_the_range_at_every_boundary() {
        for max in [64u32, 128, 256, 512, 4096] {
            for addr in (0u64..700).step_by(37).chain([4096 - 1, 8192]) {
                for len in [1u32, 2, 63, 64, 65, 255, 256, 257, 1000, 4096, 12_345] {
                    let mut v = vec![(7, 7)]; // appended to, not replaced
                    split_aligned(addr, len, max, &mut v);
                    let end = addr + len as u64;
                    let inside = (addr / max as u64 + 1..=(end - 1) / max as u64).count();
                    assert_eq!(v.len(), 2 + inside, "{addr:#x}+{len} at {max}");
                    let mut at = addr;
                    for (i, &(a, n)) in v[1..].iter().enumerate() {
                        assert_eq!(a, at, "gap or overlap");
                        assert!(n >= 1 && n <= max);
                        if i + 2 < v.len() {
                            assert_eq!((a + n as u64) % max as u64, 0, "not cut at a boundary");
                        }
                        at += n as u64;
                    }
                    assert_eq!(at, end);
                }
            }
        }
        let mut none = Vec::new();
        split_aligned(0x100, 0, 256, &mut none);
        assert!(none.is_empty());
    }
}
