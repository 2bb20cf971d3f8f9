//! The PHY-facing port bundle of one NAND channel (ONFI 4.1 section 2 signals, as the
//! sequencer's core-clock view): CE mask, CLE, ALE, write strobe and DQ bytes out, data beats,
//! R/B# and read bytes in. One `LogicInterface`, written once: the bus engine drives it, the
//! channel (`NandChannel`) and the array pass it up with `NandPhy::link`. In the generated
//! Verilog its signals are `phy$ce`, `phy$cle`, ...
//!
//! Behind the bundle: `onfi` ([`OnfiPhy`], the pin-level PHY that turns these beats into ONFI
//! 4.x pins as per-quarter values on the core clock) and `io` (the wrapper that maps the
//! per-quarter values onto DDR cells or 4:1 serializers; a generic Verilog one for simulation). ODT, ZQ calibration and the
//! DQS-strobed read capture of a real part are out of scope (the PHY captures at a fixed
//! latency, see `onfi`).

pub mod io;
mod kernel;
pub mod onfi;
pub mod pins;

pub use onfi::OnfiPhy;
pub use pins::OnfiPins;

use crate::nand::arbiter::MAX_WAYS;
use rust_hdl::prelude::*;

#[derive(LogicInterface, Clone, Debug, Default)]
pub struct NandPhy {
    /// Chip-enable mask, bit w = way w, active high (bits at and above the channel's way count
    /// stay 0).
    pub ce: Signal<Out, Bits<MAX_WAYS>>,
    /// Command latch enable (held for the tWC cycles of a command latch).
    pub cle: Signal<Out, Bit>,
    /// Address latch enable (held for the tWC cycles of each address latch).
    pub ale: Signal<Out, Bit>,
    /// Write strobe: first cycle of each command or address latch (the PHY forms WE#).
    pub we: Signal<Out, Bit>,
    /// DQ bytes to the PHY: command/address byte in bits 7:0, or 4 data bytes on `wr_beat`.
    pub dq_out: Signal<Out, Bits<32>>,
    /// Data-in beat: `dq_out` carries bytes-per-cycle bytes to the target this cycle.
    pub wr_beat: Signal<Out, Bit>,
    /// Data-out beat: the PHY reads bytes-per-cycle bytes (RE#/DQS) this cycle.
    pub rd_beat: Signal<Out, Bit>,
    /// R/B# per way, bit w = way w, 1 = ready (asynchronous; synchronized in the way FSMs;
    /// bits at and above the channel's way count are not read).
    pub rb: Signal<In, Bits<MAX_WAYS>>,
    /// Bytes read from the target (4 per cycle), valid with `dq_in_valid`.
    pub dq_in: Signal<In, Bits<32>>,
    /// `dq_in` holds a read beat (the PHY's read latency is its own).
    pub dq_in_valid: Signal<In, Bit>,
}

#[cfg(test)]
mod tests;
