//! The channel bench's side of the NAND bus each cycle: at most one chip enable, bus activity
//! only under one (bus cycles counted), command and address latches to the way's target, data
//! beats to or from it (a data-out word reaches the DUT through the PHY next cycle), all in
//! the model's [`BusEvent`] trace form, consecutive beats merged into one burst.

use super::Bench;
use crate::cosim::channel_dut::ChanOut;
use ssdlab_model::nand::sequencer::{BusEvent, BusKind};

impl Bench<'_> {
    /// At most one chip enable, bus activity only under one; counts bus cycles. Returns the
    /// way on the bus (meaningless when none is).
    pub(super) fn check_bus(&mut self, n: u64, o: &ChanOut) -> Result<u8, String> {
        if o.ce.count_ones() > 1 {
            return Err(format!(
                "cycle {n}: chip enables {:04b} asserted together",
                o.ce
            ));
        }
        if o.ce != 0 {
            self.res.bus_cycles += 1;
        }
        if (o.we || o.wr_beat || o.rd_beat) && o.ce == 0 {
            return Err(format!("cycle {n}: bus activity with no chip enable"));
        }
        Ok(o.ce.trailing_zeros() as u8)
    }

    /// Command and address latches: to the target and into the trace.
    pub(super) fn latch(&mut self, n: u64, way: u8, o: &ChanOut) {
        // At the pins the target decodes the latches from the PHY's pins itself.
        let direct = self.pins.is_none();
        if o.we && o.cle {
            if direct {
                self.targets[way as usize].command(n, o.dq_out as u8);
            }
            self.res.trace.push(BusEvent {
                cycle: n,
                way,
                kind: BusKind::Cmd(o.dq_out as u8),
            });
        }
        if o.we && o.ale {
            if direct {
                self.targets[way as usize].address(n, o.dq_out as u8);
            }
            self.res.trace.push(BusEvent {
                cycle: n,
                way,
                kind: BusKind::Addr,
            });
        }
    }

    /// A data beat: extends the trace's burst (or starts one) and moves the bytes to or from
    /// the target; a data-out word reaches the DUT next cycle.
    pub(super) fn data_beat(&mut self, n: u64, way: u8, o: &ChanOut) {
        let contiguous = self.last_data == Some((n.wrapping_sub(1), o.wr_beat));
        match self.res.trace.last_mut() {
            Some(BusEvent {
                kind: BusKind::DataIn { cycles },
                ..
            }) if contiguous && o.wr_beat => *cycles += 1,
            Some(BusEvent {
                kind: BusKind::DataOut { cycles },
                ..
            }) if contiguous && o.rd_beat => *cycles += 1,
            _ => {
                let kind = if o.wr_beat {
                    BusKind::DataIn { cycles: 1 }
                } else {
                    BusKind::DataOut { cycles: 1 }
                };
                self.res.trace.push(BusEvent {
                    cycle: n,
                    way,
                    kind,
                });
            }
        }
        self.last_data = Some((n, o.wr_beat));
        if o.wr_beat {
            let bytes = o.dq_out.to_le_bytes();
            if self.pins.is_none() {
                self.targets[way as usize].data_in(n, &bytes[..self.bpc]);
            }
            self.prog_pos[way as usize] += self.bpc;
        }
        if let (true, Some(p)) = (o.rd_beat, &mut self.pins) {
            p.rd_ways.push_back(way);
        } else if o.rd_beat {
            let bytes = self.targets[way as usize].data_out(n, self.bpc);
            let mut w4 = [0u8; 4];
            w4[..self.bpc].copy_from_slice(&bytes);
            self.returning.push(n, (way, u32::from_le_bytes(w4)));
        }
    }
}
