//! The ONFI pins of one channel as the datapath presents them ([`OnfiPins`]): the
//! [`OnfiPhy`](super::OnfiPhy)'s pin ports, per quarter of a core cycle where ONFI has DDR
//! timing, for the `io` wrapper of the board's FPGA family (`nand::phy::io`) to put on DDR cells
//! or serializers. In the datapath's Verilog they are `phy_<channel>_<pin>`.

use crate::nand::arbiter::MAX_WAYS;
use rust_hdl::prelude::*;

#[derive(LogicInterface, Clone, Debug, Default)]
pub struct OnfiPins {
    /// CE# per way, active low (bit w = way w; high for ways the channel lacks).
    pub ce_n: Signal<Out, Bits<MAX_WAYS>>,
    /// CLE, active high (one value per core cycle).
    pub cle: Signal<Out, Bit>,
    /// ALE, active high (one value per core cycle).
    pub ale: Signal<Out, Bit>,
    /// WE#, active low (one value per core cycle).
    pub we_n: Signal<Out, Bit>,
    /// WP#, active low: held high.
    pub wp_n: Signal<Out, Bit>,
    /// RE_t per quarter of the cycle, bit k = quarter k (RE_c is its complement).
    pub re: Signal<Out, Bits<4>>,
    /// DQS_t driven by the controller per quarter of the cycle, bit k = quarter k.
    pub dqs: Signal<Out, Bits<4>>,
    /// DQS_t/DQS_c output enable (whole cycle).
    pub dqs_oe: Signal<Out, Bit>,
    /// DQ[7:0] out per quarter of the cycle, quarter k in bits 8k+7:8k.
    pub dq: Signal<Out, Bits<32>>,
    /// DQ[7:0] output enable (whole cycle).
    pub dq_oe: Signal<Out, Bit>,
    /// R/B# per way, 1 = ready (open drain; asynchronous).
    pub rb_n: Signal<In, Bits<MAX_WAYS>>,
    /// DQ[7:0] in per quarter of a cycle, quarter k in bits 8k+7:8k, from the io wrapper's
    /// input cells (`IO_ROUND_TRIP - 1` cycles after the pins).
    pub dq_in: Signal<In, Bits<32>>,
}
