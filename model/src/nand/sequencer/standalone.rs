//! Standalone runs of one channel from a list of timed ops (block tests, the HDL comparison).

use super::{BusEvent, ChannelSequencer, SeqCompletion, SeqOp};
use crate::config::{OnfiConfig, SuspendConfig};
use crate::time::SimTime;

/// Runs `ops` (each with its issue time, non-decreasing) on one channel until all complete.
pub fn run_op_list(
    onfi: &OnfiConfig,
    ways: u8,
    dies_per_way: u8,
    ops: &[(SimTime, SeqOp)],
) -> Vec<SeqCompletion> {
    run_op_list_traced(onfi, ways, dies_per_way, ops).0
}

/// [`run_op_list`] that also returns the bus-cycle trace and the bus cycles held.
pub fn run_op_list_traced(
    onfi: &OnfiConfig,
    ways: u8,
    dies_per_way: u8,
    ops: &[(SimTime, SeqOp)],
) -> (Vec<SeqCompletion>, Vec<BusEvent>, u64) {
    let seq = ChannelSequencer::new(onfi, ways, dies_per_way);
    run_on(seq, ops)
}

/// [`run_op_list_traced`] with program/erase suspend rules `suspend`.
pub fn run_op_list_suspend(
    onfi: &OnfiConfig,
    ways: u8,
    dies_per_way: u8,
    suspend: &SuspendConfig,
    ops: &[(SimTime, SeqOp)],
) -> (Vec<SeqCompletion>, Vec<BusEvent>, u64) {
    let mut seq = ChannelSequencer::new(onfi, ways, dies_per_way);
    seq.set_suspend(suspend);
    run_on(seq, ops)
}

fn run_on(
    mut seq: ChannelSequencer,
    ops: &[(SimTime, SeqOp)],
) -> (Vec<SeqCompletion>, Vec<BusEvent>, u64) {
    seq.set_trace(true);
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
    let busy = seq.bus_cycles_until_now();
    (done, seq.take_trace(), busy)
}
