//! One NAND channel's share of the page buffer: the NAND side of the regions of its ways, as
//! `ssdlab_hdl::top::channel_buffer::ChannelBuffer` builds it (module doc there; the datapath
//! co-simulation checks the RTL against this model's timing).
//!
//! Timing, from the RTL: an op handshaken on the datapath's NAND command port reaches the
//! channel's intake in the same cycle ([`NAND_DISPATCH_CYCLES`] = 0: the port is the array's
//! own, no extra stage). A read or cache read accepted on way w restarts w's fill pointer and
//! each read word is written to the region in the cycle it arrives; a program restarts w's drain
//! pointer and the region's read port is addressed with the pointer's next value, so the word a
//! program beat takes is on the bus in that cycle. The buffer therefore adds no cycle to the bus
//! phases the channel's sequencer (`nand::sequencer`) times: an op's NAND-side data time is the
//! sequencer's. Narrow NAND beats (1 or 2 bytes per core cycle) are packed into 4-byte words per
//! channel, so every data phase must move whole words ([`ChannelBuffer::phase_fits`]).
//!
//! State: bytes filled (reads) and drained (programs) through the channel's regions, counted
//! per op as the channel accepts it.

use crate::nand::NandOpKind;
use crate::time::SimTime;

/// Core cycles from the NAND command handshake to the channel's intake.
pub const NAND_DISPATCH_CYCLES: u64 = 0;

/// Bytes per region word (one lane of the region RAM).
pub const WORD_BYTES: u32 = 4;

/// Byte traffic of one channel's regions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChannelBufferStats {
    /// Bytes written into the regions by read data-out phases.
    pub filled_bytes: u64,
    /// Bytes read out of the regions by program data-in phases.
    pub drained_bytes: u64,
}

/// The NAND side of one channel's page-buffer regions.
#[derive(Clone, Debug, Default)]
pub struct ChannelBuffer {
    stats: ChannelBufferStats,
}

impl ChannelBuffer {
    pub fn new() -> ChannelBuffer {
        ChannelBuffer::default()
    }

    /// An op of `kind` moving `bus_bytes` over the bus is accepted by the channel at `now`:
    /// returns when the channel's sequencer sees it (`now` + [`NAND_DISPATCH_CYCLES`] cycles at
    /// `cycle`) and counts its region traffic. Erases move no data.
    #[inline]
    pub fn accept(
        &mut self,
        now: SimTime,
        cycle: SimTime,
        kind: NandOpKind,
        bus_bytes: u32,
    ) -> SimTime {
        match kind {
            NandOpKind::Read => self.stats.filled_bytes += bus_bytes as u64,
            NandOpKind::Program => self.stats.drained_bytes += bus_bytes as u64,
            NandOpKind::Erase => {}
        }
        now + cycle * NAND_DISPATCH_CYCLES
    }

    /// The op accepted in core cycle `c` is seen by the channel's intake in the returned cycle.
    #[inline]
    pub fn accept_cycle(&mut self, c: u64, kind: NandOpKind, bus_bytes: u32) -> u64 {
        self.accept(SimTime::ZERO, SimTime::ZERO, kind, bus_bytes);
        c + NAND_DISPATCH_CYCLES
    }

    /// Whether a data phase of `bytes` at `bytes_per_beat` bytes per cycle leaves the packing
    /// position at a word boundary (4-byte beats always do; 1- and 2-byte beats need whole words).
    pub fn phase_fits(bytes_per_beat: u32, bytes: u32) -> bool {
        bytes_per_beat == WORD_BYTES || bytes.is_multiple_of(WORD_BYTES)
    }

    pub fn stats(&self) -> &ChannelBufferStats {
        &self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads fill, programs drain, erases move nothing; the intake sees the op in its
    /// handshake cycle.
    #[test]
    fn accepted_ops_count_their_region_traffic() {
        let mut b = ChannelBuffer::new();
        let now = SimTime::from_ns(100);
        let cycle = SimTime::from_ps(4_000);
        assert_eq!(b.accept(now, cycle, NandOpKind::Read, 8704), now);
        assert_eq!(b.accept(now, cycle, NandOpKind::Program, 4352), now);
        assert_eq!(b.accept_cycle(17, NandOpKind::Erase, 0), 17);
        assert_eq!(
            *b.stats(),
            ChannelBufferStats {
                filled_bytes: 8704,
                drained_bytes: 4352
            }
        );
    }

    /// 4 KiB + 256 B pages are whole words; a 4354-byte phase is not at 1 or 2 bytes per beat.
    #[test]
    fn narrow_beats_need_whole_words() {
        assert!(ChannelBuffer::phase_fits(1, 4352));
        assert!(!ChannelBuffer::phase_fits(2, 4354));
        assert!(ChannelBuffer::phase_fits(4, 4354));
    }
}
