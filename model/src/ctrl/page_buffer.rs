//! The page buffer between the NAND channels and the PCIe data path, and its DMA port, as the
//! datapath top builds them (`ssdlab_hdl::top::page_buffer::PageBuffer` and the top's "DMA
//! latency", `hdl/src/top.rs`): one region of [`region_bytes`] per (channel, way), filled and
//! drained on the NAND side by one [`ChannelBuffer`] per channel, read and written on the PCIe
//! side by the PRP data path one 16-byte beat per core cycle. The datapath co-simulation
//! (`testbench::cosim::datapath::model_exec`) runs this model against the RTL; the `Drive`
//! charges its latencies on every host data move and every NAND op.
//!
//! DMA port timing (derived register by register in `hdl/src/top.rs`, asserted on the RTL by
//! `testbench/tests/top_dma_latency.rs`): a move handshaken in cycle 0 has its first request on
//! the requester stream in cycle [`DMA_START_CYCLES`] = 5 (walker latch, screen, splitter,
//! stream register, requester-mux lock; a move without a PRP list), so the front end's data
//! path (`FrontEnd::start_move`) is asked for it at cycle 4; `dma_done` comes
//! [`DMA_END_CYCLES`] = 0 cycles after the move's own end (last beat + 1), and the port takes
//! the next move from that cycle. A move the front end rejects (bad PRP) reports its status at
//! handshake + 5. On the PCIe side the region moves 16 B per cycle (4 GB/s at 250 MHz), above
//! a Gen3 x4 link, so the link, not the buffer, paces a move.
//!
//! Clock: the front end's core clock (`nvme::frontend::tlp::CLOCK_PS`, 250 MHz).

use super::channel_buffer::ChannelBuffer;
use crate::config::GeometryConfig;
use crate::nand::NandOpKind;
use crate::nvme::frontend::tlp::{Cycle, CLOCK_PS};
use crate::time::SimTime;

/// Bytes of one bank of a region: four 32-bit lanes x 1024 rows (one 16-byte row per PCIe beat;
/// a lane of a bank is one 36 Kbit block RAM of Xilinx 7-series / UltraScale, 1K x 36 mode).
pub const BANK_BYTES: u64 = 16 * 1024;

/// Bytes of one (channel, way) region for geometry `g`: the largest data op on a way, a
/// one-shot program of `bits_per_cell` pages on every plane (TLC: 3 pages per plane; the FTL's
/// `program_units`), planes x bits per cell x (page + spare), rounded up to whole
/// [`BANK_BYTES`] banks (a read moves at most a page per plane). The co-simulation geometry
/// (SLC-native: 2 x 1 x (4096 + 256) = 8704 B) has 1 bank, 16 KiB; sm2262-512g (2 x 3 x 18 592
/// = 111 552 B) 7, 112 KiB.
pub fn region_bytes(g: &GeometryConfig) -> u64 {
    region_banks(g) * BANK_BYTES
}

/// Byte offset of a region's upper half for geometry `g`: half its banks, where an op whose
/// word sets the region-half bit (`ssdlab_hdl::nand::op::HALF_LSB`) starts its data, so a way
/// reads into one half while the other half's data moves to the host. A region of 1 bank has
/// its upper half at 8 KiB, sm2262-512g's 7 banks at 56 KiB.
pub fn half_region_bytes(g: &GeometryConfig) -> u64 {
    region_bytes(g) / 2
}

/// Banks of one region for geometry `g` (see [`region_bytes`]).
pub fn region_banks(g: &GeometryConfig) -> u64 {
    one_shot_program_bytes(g).div_ceil(BANK_BYTES).max(1)
}

/// Bytes of a one-shot program, the largest data op on a way: planes x bits per cell x (page +
/// spare).
pub fn one_shot_program_bytes(g: &GeometryConfig) -> u64 {
    g.planes_per_die as u64 * g.bits_per_cell as u64 * (g.page_bytes as u64 + g.spare_bytes as u64)
}
/// Cycles from the `dma` handshake to the move's first TLP on the requester stream.
pub const DMA_START_CYCLES: Cycle = 5;
/// Cycles from the move's end (last beat + 1) to `dma_done`.
pub const DMA_END_CYCLES: Cycle = 0;

/// Counters of the DMA port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageBufferStats {
    /// Host data moves started.
    pub dma_moves: u64,
    /// Their bytes.
    pub dma_bytes: u64,
}

/// The page buffer: its channels' NAND sides and the DMA port.
#[derive(Clone, Debug)]
pub struct PageBuffer {
    channels: Vec<ChannelBuffer>,
    ways: u32,
    /// First cycle the DMA port takes a new move (the previous move's `dma_done` cycle).
    dma_free: Cycle,
    stats: PageBufferStats,
}

impl PageBuffer {
    /// Regions for `channels` x `ways`.
    pub fn new(channels: u32, ways: u32) -> PageBuffer {
        PageBuffer {
            channels: vec![ChannelBuffer::new(); channels as usize],
            ways,
            dma_free: 0,
            stats: PageBufferStats::default(),
        }
    }

    /// Regions held: channels x ways.
    pub fn regions(&self) -> u64 {
        self.channels.len() as u64 * self.ways as u64
    }

    /// One core cycle.
    pub const fn cycle() -> SimTime {
        SimTime::from_ps(CLOCK_PS)
    }

    /// Whether the DMA port takes a move in cycle `c`.
    #[inline]
    pub fn dma_ready(&self, c: Cycle) -> bool {
        c >= self.dma_free
    }

    /// A move of `bytes` is handshaken in cycle `c` (the port is ready): the cycle its first
    /// request is offered to the requester port (it leaves one cycle later on a free port).
    pub fn dma_take(&mut self, c: Cycle, bytes: u64) -> Cycle {
        debug_assert!(self.dma_ready(c), "DMA handshake at {c} while busy");
        self.stats.dma_moves += 1;
        self.stats.dma_bytes += bytes;
        self.dma_free = Cycle::MAX;
        c + DMA_START_CYCLES - 1
    }

    /// The move in flight ended (last beat + 1) at `end`: its `dma_done` cycle, from which the
    /// port is ready again.
    pub fn dma_finish(&mut self, end: Cycle) -> Cycle {
        self.dma_free = end + DMA_END_CYCLES;
        self.dma_free
    }

    /// The move handshaken in `c` was rejected by the data path: its `dma_done` cycle.
    pub fn dma_reject(&mut self, c: Cycle) -> Cycle {
        self.dma_finish(c + DMA_START_CYCLES)
    }

    /// The drive's form of [`Self::dma_take`]: a host data move of `bytes` handed to the port at
    /// `now` has its first TLP asked of the link at the returned time (the drive's link is a
    /// reservation, so the move's whole start latency is charged before it).
    #[inline]
    pub fn host_move_start(&mut self, now: SimTime, bytes: u64) -> SimTime {
        self.stats.dma_moves += 1;
        self.stats.dma_bytes += bytes;
        now + Self::cycle() * DMA_START_CYCLES
    }

    /// The drive's form of [`Self::dma_finish`]: the link finished the move at `end`.
    #[inline]
    pub fn host_move_done(&self, end: SimTime) -> SimTime {
        end + Self::cycle() * DMA_END_CYCLES
    }

    /// Channel `ch`'s NAND side accepts an op at `now`: when its sequencer sees it.
    #[inline]
    pub fn nand_accept(
        &mut self,
        ch: usize,
        now: SimTime,
        kind: NandOpKind,
        bus_bytes: u32,
    ) -> SimTime {
        self.channels[ch].accept(now, Self::cycle(), kind, bus_bytes)
    }

    /// The cycle form of [`Self::nand_accept`].
    #[inline]
    pub fn nand_accept_cycle(
        &mut self,
        ch: usize,
        c: Cycle,
        kind: NandOpKind,
        bytes: u32,
    ) -> Cycle {
        self.channels[ch].accept_cycle(c, kind, bytes)
    }

    pub fn channel(&self, ch: usize) -> &ChannelBuffer {
        &self.channels[ch]
    }

    pub fn stats(&self) -> &PageBufferStats {
        &self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// hdl/src/top.rs "DMA latency": handshake 0 -> first TLP at 5 (offered at 4); a 4 KiB MWr
    /// move ending at 5 + 267 + 17 = 289 is done at 289 and the port takes the next move then.
    #[test]
    fn dma_port_latencies_follow_the_top_level_derivation() {
        let mut pb = PageBuffer::new(8, 4);
        assert_eq!(pb.regions(), 32);
        assert!(pb.dma_ready(0));
        assert_eq!(pb.dma_take(0, 4096), 4);
        assert!(!pb.dma_ready(100));
        assert_eq!(pb.dma_finish(289), 289);
        assert!(!pb.dma_ready(288));
        assert!(pb.dma_ready(289));
        assert_eq!(pb.dma_take(300, 512), 304);
        assert_eq!(pb.dma_reject(300), 305);
        assert_eq!(
            *pb.stats(),
            PageBufferStats {
                dma_moves: 2,
                dma_bytes: 4608
            }
        );
    }

    /// Regions hold planes x bits per cell x (page + spare) in whole 16 KiB banks (hand
    /// arithmetic).
    #[test]
    fn regions_hold_the_largest_data_op_in_whole_banks() {
        let mut g = crate::config::DriveConfig::default_drive().geometry;
        (g.planes_per_die, g.page_bytes, g.spare_bytes) = (2, 16384, 2208);
        // TLC: 2 x 3 x 18 592 = 111 552 B = 6.8 banks of 16 384 B.
        g.bits_per_cell = 3;
        assert_eq!((region_banks(&g), region_bytes(&g)), (7, 114688));
        assert_eq!(half_region_bytes(&g), 57344, "3.5 banks: row 3584");
        // SLC-native: 37 184 B = 2.27 banks.
        g.bits_per_cell = 1;
        assert_eq!((region_banks(&g), region_bytes(&g)), (3, 49152));
        (g.planes_per_die, g.page_bytes, g.spare_bytes) = (2, 4096, 256);
        assert_eq!((region_banks(&g), region_bytes(&g)), (1, 16384));
        // Exactly one bank: 4 x 4096 B.
        (g.planes_per_die, g.page_bytes, g.spare_bytes) = (4, 4096, 0);
        assert_eq!((region_banks(&g), region_bytes(&g)), (1, 16384));
        // 4 planes of TLC: 4 x 3 x 18 592 = 223 104 B, 13.6 banks.
        (g.planes_per_die, g.page_bytes, g.spare_bytes) = (4, 16384, 2208);
        g.bits_per_cell = 3;
        assert_eq!(region_banks(&g), 14);
    }

    /// The drive's form: 5 cycles of 4 ns = 20 ns before the link is asked; no end latency.
    #[test]
    fn drive_moves_start_twenty_ns_after_the_handshake() {
        let mut pb = PageBuffer::new(1, 1);
        let now = SimTime::from_us(3);
        assert_eq!(pb.host_move_start(now, 4096), now + SimTime::from_ns(20));
        assert_eq!(pb.host_move_done(now), now);
        let t = pb.nand_accept(0, now, NandOpKind::Read, 100);
        assert_eq!(t, now);
        assert_eq!(pb.channel(0).stats().filled_bytes, 100);
    }
}
