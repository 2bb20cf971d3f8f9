//! The datapath's ONFI pins of one channel read into the pin-level target's input form.

use crate::cosim::datapath::sig::{ChSig, DatapathDut};
use crate::devices::onfi_pins::dut::PhyOut;

/// The pins of channel `ch` as the DUT drives them after its last `eval`.
pub(super) fn pins_of<D: DatapathDut>(d: &D, ch: usize) -> PhyOut {
    let g = |s: ChSig| d.get(s.at(ch));
    PhyOut {
        ce_n: g(ChSig::CeN) as u8,
        cle: g(ChSig::Cle) != 0,
        ale: g(ChSig::Ale) != 0,
        we_n: g(ChSig::WeN) != 0,
        re: g(ChSig::Re) as u8,
        dqs: g(ChSig::Dqs) as u8,
        dqs_oe: g(ChSig::DqsOe) != 0,
        dq: g(ChSig::Dq) as u32,
        dq_oe: g(ChSig::DqOe) != 0,
        ..Default::default()
    }
}
