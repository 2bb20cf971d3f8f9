//! Per-channel ONFI sequencer, behavioural: executes page operations of the dies (ways) on one
//! channel, sharing the channel's DQ bus; one way transfers while others are busy in tR/tPROG.
//! Mirrored by `ssdlab_hdl::nand::sequencer`, which must produce the same bus-cycle sequence
//! and the same completion cycles. Timing comes from [`crate::config::OnfiConfig`] (ONFI 4.1).
//!
//! API CONTRACT (fixed; internals are the sequencer owner's):
//! - [`ChannelSequencer::enqueue`] adds an op at simulated time `now` (non-decreasing);
//! - [`ChannelSequencer::next_event_time`] tells the drive's engine when to call back;
//! - [`ChannelSequencer::advance`] runs internal events up to `until` and appends completions.
//! - [`run_op_list`] drives one channel standalone from a list of timed ops (block tests, HDL
//!   comparison).

use crate::config::OnfiConfig;
use crate::nand::NandOpKind;
use crate::time::SimTime;

/// One operation handed to a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeqOp {
    /// Caller's tag, returned in the completion.
    pub id: u64,
    /// Target (chip enable) on this channel.
    pub way: u8,
    /// Die (LUN) within the target.
    pub die: u8,
    pub kind: NandOpKind,
    /// Planes addressed together (multi-plane when > 1).
    pub planes: u8,
    /// Bytes moved over the bus for the whole op (all planes).
    pub bus_bytes: u32,
    /// Array time of the op (tR for the page type, tPROG, tBERS), chosen by the caller.
    pub array_time: SimTime,
}

/// When an op was issued, when its first bus cycle happened, and when it completed
/// (last data byte out for reads; ready after tPROG/tBERS for programs and erases).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeqCompletion {
    pub id: u64,
    pub issued: SimTime,
    pub started: SimTime,
    pub completed: SimTime,
}

/// One channel with `ways` targets of `dies_per_way` dies each.
#[derive(Debug, Clone)]
pub struct ChannelSequencer {
    onfi: OnfiConfig,
    ways: u8,
    dies_per_way: u8,
}

impl ChannelSequencer {
    pub fn new(onfi: &OnfiConfig, ways: u8, dies_per_way: u8) -> Self {
        ChannelSequencer { onfi: onfi.clone(), ways, dies_per_way }
    }
    pub fn enqueue(&mut self, _now: SimTime, _op: SeqOp) {
        let _ = (&self.onfi, self.ways, self.dies_per_way);
        unimplemented!("sequencer owner lands the implementation")
    }
    pub fn next_event_time(&self) -> Option<SimTime> {
        unimplemented!("sequencer owner lands the implementation")
    }
    pub fn advance(&mut self, _until: SimTime, _done: &mut Vec<SeqCompletion>) {
        unimplemented!("sequencer owner lands the implementation")
    }
    /// Total time the DQ/command bus was driven so far.
    pub fn bus_busy_time(&self) -> SimTime {
        unimplemented!("sequencer owner lands the implementation")
    }
}

/// Runs `ops` (each with its issue time, non-decreasing) on one channel until all complete.
pub fn run_op_list(onfi: &OnfiConfig, ways: u8, dies_per_way: u8, ops: &[(SimTime, SeqOp)]) -> Vec<SeqCompletion> {
    let mut seq = ChannelSequencer::new(onfi, ways, dies_per_way);
    let mut done = Vec::with_capacity(ops.len());
    let mut i = 0;
    loop {
        let next_issue = ops.get(i).map(|(t, _)| *t);
        let next_ev = seq.next_event_time();
        match (next_issue, next_ev) {
            (Some(t), Some(e)) if e < t => seq.advance(e, &mut done),
            (Some(t), _) => {
                seq.advance(t, &mut done);
                seq.enqueue(t, ops[i].1);
                i += 1;
            }
            (None, Some(e)) => seq.advance(e, &mut done),
            (None, None) => break,
        }
    }
    done
}
