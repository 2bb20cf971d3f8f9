//! Port bundles of the PRP data path's internal hand-offs (PCI Express Base 3.0, 2.2.7 and
//! 2.3.1.1 as `pcie::tlp` lays them out on the 128-bit requester streams at 250 MHz), written
//! once instead of per block: the splitter's request to a data engine ([`ReqSink`]), an MRd
//! descriptor offer from the list reader or the read engine to the RQ stream master
//! ([`MrdSource`] / [`MrdSink`]), a requester-completion beat ([`RcBeat`]), and the data-buffer
//! ports ([`WdBeat`] out, [`BdSink`] in). In the generated Verilog their signals are
//! `req$valid`, `m$ready`, `rc$tdata`, `wd$data`, ...

use rust_hdl::prelude::*;

/// A transfer request offered by the splitter, consumer side (valid/ready handshake).
#[derive(LogicInterface, Clone, Debug, Default)]
pub struct ReqSink {
    /// A request is offered (level; held until `ready`).
    pub valid: Signal<In, Bit>,
    /// Request start, dword address (byte address / 4).
    pub addr: Signal<In, Bits<62>>,
    /// Request length in dwords (1..=1024).
    pub dwords: Signal<In, Bits<11>>,
    /// The request is the transfer's last (flag).
    pub last: Signal<In, Bit>,
    /// The request is taken this cycle (issued, or dropped after a failure).
    pub ready: Signal<Out, Bit>,
}

/// An MRd descriptor offer, producer side (one 128-bit descriptor beat per read).
#[derive(LogicInterface, Clone, Debug, Default)]
#[join = "MrdSink"]
pub struct MrdSource {
    /// An MRd is offered (level; held until `ready`).
    pub valid: Signal<Out, Bit>,
    /// MRd descriptor, 128 bits (`pcie::tlp::ReqDesc`).
    pub desc: Signal<Out, Bits<128>>,
    /// The requester stream takes the MRd this cycle.
    pub ready: Signal<In, Bit>,
}

/// An MRd descriptor offer, consumer side (the RQ stream master).
#[derive(LogicInterface, Clone, Debug, Default)]
#[join = "MrdSource"]
pub struct MrdSink {
    /// An MRd is offered (level; held until `ready`).
    pub valid: Signal<In, Bit>,
    /// MRd descriptor, 128 bits (`pcie::tlp::ReqDesc`).
    pub desc: Signal<In, Bits<128>>,
    /// The MRd is taken this cycle.
    pub ready: Signal<Out, Bit>,
}

/// A requester-completion (RC stream) beat, receiver side; the stream is always accepted.
#[derive(LogicInterface, Clone, Debug, Default)]
pub struct RcBeat {
    /// Completion beat, 128 bits (descriptor beat, then payload dword 0 in bits 31:0).
    pub tdata: Signal<In, Bits<128>>,
    /// The beat is valid this cycle.
    pub tvalid: Signal<In, Bit>,
    /// Last beat of the completion TLP (flag).
    pub tlast: Signal<In, Bit>,
    /// The hard block discontinued the TLP this last beat ends (PG156 `m_axis_rc_tuser[42]`):
    /// its data is corrupt, the completion counts as failed (Data Transfer Error, 04h).
    pub discontinue: Signal<In, Bit>,
}

/// A host→device data beat written to the data buffer, producer side (no backpressure: the
/// buffer reserved room for the whole command before it started).
#[derive(LogicInterface, Clone, Debug, Default)]
pub struct WdBeat {
    /// A beat of transfer data this cycle (transfer order).
    pub valid: Signal<Out, Bit>,
    /// The beat's 16 bytes (byte 0 in bits 7:0).
    pub data: Signal<Out, Bits<128>>,
    /// Valid dwords in the beat, 1..=4 (4, fewer only in the last beat).
    pub dwords: Signal<Out, Bits<3>>,
    /// The transfer's last beat (flag).
    pub last: Signal<Out, Bit>,
}

/// Device→host data read from the data buffer, consumer side (valid/ready handshake).
#[derive(LogicInterface, Clone, Debug, Default)]
pub struct BdSink {
    /// The buffer offers the transfer's next 16 bytes (level; held until `ready`).
    pub valid: Signal<In, Bit>,
    /// The 16 bytes (byte 0 in bits 7:0).
    pub data: Signal<In, Bits<128>>,
    /// The beat is taken this cycle.
    pub ready: Signal<Out, Bit>,
}
