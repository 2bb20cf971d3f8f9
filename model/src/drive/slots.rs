//! Per-die and per-channel state of the drive's NAND back end: a `DieSlot` is one die (its
//! planes' busy times, `nand::Die`) with the controller's three op queues for it (host path,
//! foreground relocation, idle-time background work; the scheduling rules are in
//! `nand_path.rs` and `reloc_queue.rs`), a `ChanSlot` is one channel's ONFI sequencer
//! (`nand::sequencer`, ONFI 4.1) with its pending wake-up. Dies are numbered channel fastest,
//! then way, then LUN (the order `nand_path.rs`'s `die_index` computes).

use crate::config::{DriveConfig, GeometryConfig};
use crate::nand::sequencer::ChannelSequencer;
use crate::nand::Die;
use crate::time::SimTime;
use std::collections::VecDeque;

/// One die and the controller's queues of NAND ops for it.
pub(crate) struct DieSlot {
    pub(super) die: Die,
    /// Ops not yet handed to the sequencer, in FTL order.
    pub(super) fifo: VecDeque<u32>,
    /// Background ops (idle-time GC, folding, wear levelling, buffer flush) not yet started, in
    /// FTL order. They start only while the host is idle (`Drive::idle`) and the die has no
    /// host-path op running or startable, at most [`BG_INFLIGHT_PER_DIE`](super::BG_INFLIGHT_PER_DIE) at a time; host IO
    /// arriving after an idle period waits behind at most that many NAND operations instead of
    /// a whole block's relocation, and what is left resumes in the next idle period (firmware
    /// preempts background relocation between NAND operations; MQSim's preemptible GC; Lee et
    /// al., "Preemptible I/O scheduling of garbage collection for SSDs", IEEE TCAD 2013). A
    /// host program or erase on a block with queued background ops lets them run first.
    pub(super) bg: VecDeque<u32>,
    /// Background ops handed to the sequencer and not finished.
    pub(super) bg_inflight: u32,
    /// (block, count) of the queued background ops: a host-path op addressing one of these
    /// blocks waits until they have started (an erase must not be overtaken by a program into
    /// the block it frees).
    pub(super) bg_blocks: Vec<(u32, u32)>,
    /// With `controller.interleave_relocation`: foreground relocation ops (GC, folding, wear
    /// levelling, their erases) not yet started, in FTL order; how many run; (block, count) of
    /// the queued ones (as `bg_blocks`); relocation ops host programs have earned the right to
    /// start ahead of ready host ops, and the host programs left to spread the queue over
    /// (`reloc_queue.rs`).
    pub(super) reloc: VecDeque<u32>,
    pub(super) reloc_inflight: u32,
    pub(super) reloc_blocks: Vec<(u32, u32)>,
    pub(super) reloc_credit: u32,
    pub(super) reloc_budget: u32,
    pub(super) channel: u16,
    pub(super) way: u8,
    pub(super) lun: u8,
}

/// One ONFI channel: its sequencer and the time of its one live wake-up event (older ones are
/// stale and dropped).
pub(crate) struct ChanSlot {
    pub(super) seq: ChannelSequencer,
    pub(super) wake_at: Option<SimTime>,
    /// The channel's op FIFO across the clock crossing, as the firmware side sees it
    /// (`NandCrossing::room_from`, `NandCrossing::push`).
    pub(super) fifo: crate::ctrl::nand_crossing::DownFifo,
}

impl DieSlot {
    /// An idle die at (`channel`, `way`, `lun`) with empty queues.
    fn new(g: &GeometryConfig, channel: u16, way: u8, lun: u8) -> DieSlot {
        DieSlot {
            die: Die::new(g),
            fifo: VecDeque::new(),
            bg: VecDeque::new(),
            bg_inflight: 0,
            bg_blocks: Vec::new(),
            reloc: VecDeque::new(),
            reloc_inflight: 0,
            reloc_blocks: Vec::new(),
            reloc_credit: 0,
            reloc_budget: 1,
            channel,
            way,
            lun,
        }
    }
}

/// Every die of the geometry, channel fastest, then way, then LUN.
pub(super) fn die_slots(g: &GeometryConfig) -> Vec<DieSlot> {
    let mut dies = Vec::with_capacity(g.dies() as usize);
    for lun in 0..g.dies_per_way {
        for way in 0..g.ways_per_channel {
            for ch in 0..g.channels {
                dies.push(DieSlot::new(g, ch as u16, way as u8, lun as u8));
            }
        }
    }
    dies
}

/// One sequencer per channel, driving its ways × dies-per-way targets, none with a wake-up due.
pub(super) fn chan_slots(cfg: &DriveConfig) -> Vec<ChanSlot> {
    let g = &cfg.geometry;
    (0..g.channels)
        .map(|_| {
            let mut seq =
                ChannelSequencer::new(&cfg.onfi, g.ways_per_channel as u8, g.dies_per_way as u8);
            seq.set_suspend(&cfg.nand.suspend);
            ChanSlot {
                seq,
                wake_at: None,
                fifo: Default::default(),
            }
        })
        .collect()
}
