//! One channel with its dies, driven standalone by FTL-level ops: each [`NandOp`] gets its array
//! time from the die timing ([`NandTiming`]: tR by cell mode and page type, tPROG, tBERS) and runs
//! on the channel's sequencer ([`run_op_list`]), which reports issue, first bus cycle and
//! completion per op. The block-level view the HDL sequencer is compared against, one level up
//! from raw `SeqOp`s.

use super::sequencer::{run_op_list, SeqCompletion, SeqOp};
use super::NandTiming;
use crate::config::DriveConfig;
use crate::ftl::NandOp;
use crate::time::SimTime;

/// Runs `ops` (issue time non-decreasing, all on one channel) and returns each op's completion;
/// the completion `id` is the op's index in `ops`. No cache-read overlap (ops are pre-issued).
pub fn run_channel_ops(cfg: &DriveConfig, ops: &[(SimTime, NandOp)]) -> Vec<SeqCompletion> {
    let timing = NandTiming::new(&cfg.nand, &cfg.onfi);
    let g = &cfg.geometry;
    let channel = ops.first().map_or(0, |(_, o)| o.addr.die.channel);
    let seq_ops: Vec<(SimTime, SeqOp)> = ops
        .iter()
        .enumerate()
        .map(|(i, (t, op))| {
            assert_eq!(
                op.addr.die.channel, channel,
                "op {i} is on channel {}, not {channel}",
                op.addr.die.channel
            );
            assert!(
                (op.addr.plane as u32 + op.planes.max(1) as u32) <= g.planes_per_die,
                "op {i} addresses planes beyond the die"
            );
            let s = SeqOp {
                id: i as u64,
                way: op.addr.die.way,
                die: op.addr.die.die,
                kind: op.kind,
                planes: op.planes.max(1),
                bus_bytes: op.bus_bytes,
                array_time: timing.array_time(op),
                pages: 1,
            };
            (*t, s)
        })
        .collect();
    run_op_list(
        &cfg.onfi,
        g.ways_per_channel as u8,
        g.dies_per_way as u8,
        &seq_ops,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ftl::{NandOpKind, OpPurpose};
    use crate::nand::{CellMode, DieId, PhysPage};

    #[test]
    fn page_type_sets_the_read_time_on_the_channel() {
        // Two single-unit reads on ways 0 and 1 of channel 0, issued together: page 0 (LSB,
        // tR 56 us) and page 2 (MSB, 76 us). Each needs 7 command/address latches (175 ns),
        // tWB 100 ns, tR, tRR 20 ns and 4648 B of data out (5.81 us); they overlap, so the MSB
        // read completes about 20 us (the tR difference) after the LSB one.
        let mut cfg = DriveConfig::default_drive();
        // tR pinned to the figures above (the preset's TLC tR values are fitted).
        cfg.nand.tlc.t_read_lsb_us = 56.0;
        cfg.nand.tlc.t_read_csb_us = 66.0;
        cfg.nand.tlc.t_read_msb_us = 76.0;
        let op = |way: u8, page: u32| NandOp {
            kind: NandOpKind::Read,
            mode: CellMode::Tlc,
            addr: PhysPage {
                die: DieId {
                    channel: 0,
                    way,
                    die: 0,
                },
                plane: 0,
                block: 3,
                page,
            },
            planes: 1,
            bus_bytes: 4648,
            purpose: OpPurpose::HostRead,
            after: None,
        };
        let done = run_channel_ops(
            &cfg,
            &[(SimTime::ZERO, op(0, 0)), (SimTime::ZERO, op(1, 2))],
        );
        let lsb = done.iter().find(|c| c.id == 0).unwrap().completed;
        let msb = done.iter().find(|c| c.id == 1).unwrap().completed;
        let base = SimTime::from_ns(175 + 100 + 20 + 5_810);
        assert!(
            lsb >= base + SimTime::from_us(56)
                && lsb <= base + SimTime::from_us(56) + SimTime::from_ns(100),
            "{lsb}"
        );
        // The MSB read's commands went out right after the LSB read's (175 ns later at most).
        assert!(
            msb >= base + SimTime::from_us(76)
                && msb <= base + SimTime::from_us(76) + SimTime::from_ns(300),
            "{msb}"
        );
    }
}
