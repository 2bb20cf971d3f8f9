//! ONFI PHY of one channel ([`OnfiPhy`]): takes the beat port the bus engine drives
//! ([`super::NandPhy`], core clock) and drives the ONFI 4.x pins of a channel — CE#[7:0], CLE,
//! ALE, WE#, WP#, RE_t/RE_c, DQS_t/DQS_c, DQ[7:0] with output enables; R/B#[7:0] (one per way, up to
//! `arbiter::MAX_WAYS`; bits of absent ways: CE# high, R/B# ignored) and DQ in —
//! as per-quarter values on the core clock (RE#, DQS and DQ have one value per quarter of a
//! cycle, bit or byte k = quarter k) that the `io` wrapper (`nand::phy::io`) maps onto DDR
//! cells (1 or 2 bytes per cycle) or 4:1 serializers (4 bytes per cycle).
//! Sources: ONFI 4.1 section 4.16 (SDR command and address cycles: tWC, tWP, tWH, tCLS/tALS,
//! tCLH/tALH, tADL), section 4.17 (NV-DDR2/NV-DDR3 data input with DQS from the host, tWPRE,
//! tWPST; data output with RE# from the host and DQS from the target, tRPRE, tRPST, tDQSRE).
//!
//! Every count comes from `ssdlab_model::nand::phy::PhyTiming` (the model-side description,
//! from `[onfi]` and `[onfi.pins]` through `OnfiConfig::cycles_ceil`). The pins lag the beat
//! port by `pipe` cycles (a delay line), so the PHY sees each data burst `pipe - 1` cycles
//! before it reaches the pins and drives its preamble (DQS or RE# low) in time; commands,
//! addresses and waits keep the engine's spacing exactly.
//!
//! Files: this one declares the ports and builds the block; `kernel.rs` is its logic.

use crate::nand::arbiter::MAX_WAYS;
use rust_hdl::prelude::*;
use ssdlab_model::config::OnfiConfig;
use ssdlab_model::nand::phy::{PhyTiming, IO_ROUND_TRIP};

/// Stages of the pin delay line (`model::nand::phy::MAX_PIPE`).
pub const STAGES: usize = 8;

#[derive(LogicBlock)]
pub struct OnfiPhy {
    /// Core clock: the beat port's clock and the pins' per-quarter clock (`onfi.core_clock_mhz`).
    pub clock: Signal<In, Clock>,
    /// Beat port: chip-enable mask, one bit per way, active high.
    pub beat_ce: Signal<In, Bits<MAX_WAYS>>,
    /// Beat port: command latch window (held for the tWC cycles of a latch).
    pub beat_cle: Signal<In, Bit>,
    /// Beat port: address latch window (held across consecutive address latches).
    pub beat_ale: Signal<In, Bit>,
    /// Beat port: first cycle of each command or address latch window.
    pub beat_we: Signal<In, Bit>,
    /// Beat port: command/address byte in 7:0, or data bytes (byte 0 in 7:0) on `beat_wr`.
    pub beat_dq: Signal<In, Bits<32>>,
    /// Beat port: data-in beat of bytes-per-cycle bytes this cycle.
    pub beat_wr: Signal<In, Bit>,
    /// Beat port: data-out beat of bytes-per-cycle bytes this cycle.
    pub beat_rd: Signal<In, Bit>,
    /// Beat port: R/B# per way, 1 = ready (the pins' level, not synchronized here).
    pub beat_rb: Signal<Out, Bits<MAX_WAYS>>,
    /// Beat port: bytes read (byte 0 in 7:0; bytes-per-cycle bytes), valid with `beat_dq_in_valid`.
    pub beat_dq_in: Signal<Out, Bits<32>>,
    /// Beat port: `beat_dq_in` holds one read beat, `PhyTiming::read_return` cycles after its `beat_rd`.
    pub beat_dq_in_valid: Signal<Out, Bit>,
    /// Pins: CE# per way, active low (high for ways the channel lacks).
    pub ce_n: Signal<Out, Bits<MAX_WAYS>>,
    /// Pin CLE, active high (one value per core cycle).
    pub cle: Signal<Out, Bit>,
    /// Pin ALE, active high (one value per core cycle).
    pub ale: Signal<Out, Bit>,
    /// Pin WE#, active low (one value per core cycle): commands and addresses latch on its rise.
    pub we_n: Signal<Out, Bit>,
    /// Pin WP#, active low: held high (writes allowed).
    pub wp_n: Signal<Out, Bit>,
    /// Pin RE_t per quarter of the cycle, bit k = quarter k (RE_c is its complement); idle 1111.
    pub re: Signal<Out, Bits<4>>,
    /// Pin DQS_t driven by the controller (data in) per quarter of the cycle, bit k = quarter k.
    pub dqs: Signal<Out, Bits<4>>,
    /// DQS_t/DQS_c output enable (whole cycle): preamble, data in, postamble.
    pub dqs_oe: Signal<Out, Bit>,
    /// Pins DQ[7:0] out per quarter of the cycle, quarter k in bits 8k+7:8k (a latch byte
    /// fills all four).
    pub dq: Signal<Out, Bits<32>>,
    /// DQ[7:0] output enable (whole cycle): command/address windows and data-in cycles.
    pub dq_oe: Signal<Out, Bit>,
    /// Pins R/B# per way (open drain, 1 = ready).
    pub rb_n: Signal<In, Bits<MAX_WAYS>>,
    /// Pins DQ[7:0] in per quarter of a cycle, quarter k in bits 8k+7:8k, from the io
    /// wrapper's input cells (which deliver them `IO_ROUND_TRIP - 1` cycles later; the PHY
    /// captures at a fixed latency).
    pub dq_in: Signal<In, Bits<32>>,
    pub(super) st: [DFF<Bits<32>>; STAGES],
    pub(super) sc: [DFF<Bits<MAX_WAYS>>; STAGES],
    pub(super) s_cle: DFF<Bits<8>>,
    pub(super) s_ale: DFF<Bits<8>>,
    pub(super) s_we: DFF<Bits<8>>,
    pub(super) s_wr: DFF<Bits<8>>,
    pub(super) s_rd: DFF<Bits<8>>,
    pub(super) lc: DFF<Bits<8>>,
    pub(super) lat_b: DFF<Bits<8>>,
    pub(super) wtog: DFF<Bit>,
    pub(super) rtog: DFF<Bit>,
    pub(super) wc: DFF<Bits<8>>,
    pub(super) rc: DFF<Bits<8>>,
    pub(super) s_rv: DFF<Bits<32>>,
    pub(super) dqi: DFF<Bits<32>>,
    pub(super) dqv: DFF<Bit>,
    pub(super) pst_ce: DFF<Bits<MAX_WAYS>>,
    pub(super) tap: Constant<Bits<3>>,
    pub(super) cap: Constant<Bits<5>>,
    pub(super) pre_w: Constant<Bits<8>>,
    pub(super) pre_r: Constant<Bits<8>>,
    pub(super) we_from: Constant<Bits<8>>,
    pub(super) we_to: Constant<Bits<8>>,
    pub(super) wpst: Constant<Bits<8>>,
    pub(super) rpst: Constant<Bits<8>>,
    pub(super) bpc1: Constant<Bit>,
    pub(super) bpc2: Constant<Bit>,
    pub(super) bpc4: Constant<Bit>,
    pub(super) strobe: Constant<Bits<4>>,
    pub(super) all4: Constant<Bits<4>>,
    pub(super) none4: Constant<Bits<4>>,
    pub(super) one8: Constant<Bits<8>>,
    pub(super) zero8: Constant<Bits<8>>,
    pub(super) max8: Constant<Bits<8>>,
    pub(super) one32: Constant<Bits<32>>,
    pub(super) bit_k: [Constant<Bits<32>>; 16],
    pub(super) q01_k: [Constant<Bits<32>>; 8],
    pub(super) q23_k: [Constant<Bits<32>>; 8],
    pub(super) zero32: Constant<Bits<32>>,
    pub(super) t_w: Signal<Local, Bits<32>>,
    pub(super) t_c: Signal<Local, Bits<MAX_WAYS>>,
    pub(super) lat_q: Signal<Local, Bits<32>>,
    pub(super) b0_q: Signal<Local, Bits<32>>,
    pub(super) b01_q: Signal<Local, Bits<32>>,
    pub(super) t_cle: Signal<Local, Bit>,
    pub(super) t_ale: Signal<Local, Bit>,
    pub(super) t_we: Signal<Local, Bit>,
    pub(super) t_wr: Signal<Local, Bit>,
    pub(super) t_rd: Signal<Local, Bit>,
    pub(super) pos: Signal<Local, Bits<8>>,
    pub(super) pos1: Signal<Local, Bits<8>>,
    pub(super) lat_v: Signal<Local, Bits<8>>,
    pub(super) pw: Signal<Local, Bits<8>>,
    pub(super) pr: Signal<Local, Bits<8>>,
    pub(super) in_w: Signal<Local, Bit>,
    pub(super) in_r: Signal<Local, Bit>,
    pub(super) cw: Signal<Local, Bits<32>>,
    pub(super) ce_w: Signal<Local, Bits<MAX_WAYS>>,
}

impl OnfiPhy {
    /// The PHY for `onfi`; the error names the config field it cannot build (3 bytes per core
    /// cycle, a WE# pulse that does not fit tWC, preambles over 7 cycles, ...).
    pub fn new(onfi: &OnfiConfig) -> Result<Self, String> {
        let t = PhyTiming::new(onfi).map_err(|e| e.to_string())?;
        Ok(Self::from_timing(&t))
    }

    /// The PHY for counts already derived (`PhyTiming::new` checked them).
    pub fn from_timing(t: &PhyTiming) -> Self {
        let c8 = |v: u32| Constant::new(bits::<8>(v as u64));
        let tap = t.pipe - 1;
        // Stage j of a 1-bit line holds the beat of `j + 1` cycles ago; the pins show stage
        // `tap`. A burst starts at the pins within `pre` cycles when it sits in stages
        // tap - pre ..= tap - 1.
        let window = |pre: u32| ((1u32 << tap) - 1) & !((1u32 << (tap - pre)) - 1);
        crate::elab::with_defaults!(OnfiPhy {
            tap: Constant::new(bits::<3>(tap as u64)),
            // The bytes of a pin cycle reach `dq_in_*` dqsre + IO_ROUND_TRIP cycles later; stage j of
            // the read-valid line is j + 1 cycles old.
            cap: Constant::new(bits::<5>((t.dqsre + IO_ROUND_TRIP - 1) as u64)),
            pre_w: c8(window(t.wpre)),
            pre_r: c8(window(t.rpre)),
            we_from: c8(t.we_setup),
            we_to: c8(t.we_setup + t.we_low),
            wpst: c8(t.wpst),
            rpst: c8(t.rpst),
            bpc1: Constant::new(t.bytes_per_cycle == 1),
            bpc2: Constant::new(t.bytes_per_cycle == 2),
            bpc4: Constant::new(t.bytes_per_cycle == 4),
            // DQS/RE# in a data cycle: one period per 2 bytes (high, then low), 2 periods at 4.
            strobe: Constant::new(bits::<4>(if t.bytes_per_cycle == 4 { 0b0101 } else { 0b0011 })),
            all4: Constant::new(bits::<4>(0xF)),
            none4: Constant::new(bits::<4>(0)),
            one8: c8(1),
            zero8: c8(0),
            max8: c8(0xFF),
            one32: Constant::new(bits::<32>(1)),
            bit_k: std::array::from_fn(|i| Constant::new(bits::<32>(1u64 << i))),
            // Bit i of a byte in quarters 0 and 1 (the first half), or 2 and 3.
            q01_k: std::array::from_fn(|i| Constant::new(bits::<32>(0x101u64 << i))),
            q23_k: std::array::from_fn(|i| Constant::new(bits::<32>(0x101_0000u64 << i))),
            zero32: Constant::new(bits::<32>(0)),
        } defaults {
            clock, beat_ce, beat_cle, beat_ale, beat_we, beat_dq, beat_wr, beat_rd, beat_rb,
            beat_dq_in, beat_dq_in_valid, ce_n, cle, ale, we_n, wp_n, re, dqs, dqs_oe, dq, dq_oe,
            rb_n, dq_in, s_cle, s_ale, s_we, s_wr, s_rd, lc, lat_b, wtog, rtog, wc, rc, s_rv, dqi,
            dqv, pst_ce, t_w, t_c, lat_q, b0_q, b01_q, t_cle, t_ale, t_we, t_wr, t_rd, pos, pos1,
            lat_v, pw, pr, in_w, in_r, cw, ce_w,
        } arrays { st, sc })
    }
}
