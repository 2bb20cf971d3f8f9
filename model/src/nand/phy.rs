//! The ONFI PHY of one channel, as pin-cycle counts: how many controller core cycles each bus
//! phase occupies at the pins (ONFI 4.1 sections 4.16-4.17: SDR command/address cycles with
//! WE#, NV-DDR2/NV-DDR3 data-in with DQS and data-out with RE#), derived once from `[onfi]` and
//! `[onfi.pins]` through [`OnfiConfig::cycles_ceil`]. The HDL PHY (`ssdlab_hdl::nand::phy`) is
//! elaborated from these counts and the pin-level tests take their expected timing from them.
//!
//! Pin schedule, in core cycles (the bus engine's latch window is tWC = `latch` cycles):
//! - command / address latch: CLE (ALE) and DQ high/driven for the whole window; WE# low for
//!   `we_low` cycles starting `we_setup` cycles into it, so WE# rises `we_setup + we_low`
//!   cycles after CLE/ALE (>= tCLS/tALS), CLE/ALE stay `cl_hold` cycles after (>= tCLH/tALH)
//!   and WE# is high `latch - we_low` cycles between pulses (>= tWH).
//! - data in of N bytes: DQS driven low `wpre` cycles (tWPRE), then N / `bytes_per_cycle`
//!   cycles of data (one byte per DQS edge; 4 edges per cycle at 4 bytes per cycle, 2 at 2, 1
//!   at 1), then low `wpst` cycles (tWPST) before release.
//! - data out of N bytes: RE# low `rpre` cycles (tRPRE), N / `bytes_per_cycle` cycles of
//!   toggling (one byte per RE# edge), low `rpst` cycles (tRPST), then high (not a data edge).
//!   The byte of each RE# edge comes back `dqsre` cycles later (tDQSRE rounded up).
//!
//! The PHY works in quarter cycles (slots): an 8-bit DDR bus moves one byte per DQS or RE#
//! edge, so 4 bytes per core cycle (800 MT/s at 200 MHz, every preset) is two strobe periods
//! per cycle, serialized 4:1 by the io wrapper's cells; 2 bytes per cycle is one period (a DDR
//! cell), 1 byte one edge per cycle. Other ratios (3 bytes per cycle) have no serializer and
//! are refused.

use crate::config::OnfiConfig;
use crate::error::{check, ConfigError};

/// Deepest pin pipeline the HDL PHY builds (its delay line is 8 stages).
pub const MAX_PIPE: u32 = 8;
/// Longest tDQSRE capture delay, cycles (the HDL's 32-stage read-valid line).
pub const MAX_DQSRE: u32 = 30;
/// Core cycles the io wrapper adds between an RE# edge the PHY produces and the byte it
/// answers reaching the PHY: one output register (the DDR output cell) and one input
/// register (the DDR input cell) in the generic wrapper (`hdl::nand::phy::io`).
pub const IO_ROUND_TRIP: u32 = 2;

/// Pin-cycle counts of the PHY, in core (sequencer) clock cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhyTiming {
    /// One command/address latch window, tWC (the sequencer's `SeqTiming::latch`).
    pub latch: u32,
    /// Cycles from the window's start (CLE/ALE high) to WE# falling.
    pub we_setup: u32,
    /// WE# low cycles, tWP rounded up.
    pub we_low: u32,
    /// CLE/ALE (and DQ) hold after WE# rises: `latch - we_setup - we_low`.
    pub cl_hold: u32,
    /// Bytes per core cycle at the beat port and on DQ (1, 2 or 4).
    pub bytes_per_cycle: u32,
    /// DQS write preamble, cycles (tWPRE rounded up).
    pub wpre: u32,
    /// DQS write postamble, cycles after the last data cycle (tWPST rounded up).
    pub wpst: u32,
    /// RE# read preamble, cycles (tRPRE rounded up).
    pub rpre: u32,
    /// RE# read postamble, cycles after the last data cycle (tRPST rounded up, at least 1).
    pub rpst: u32,
    /// tDQSRE rounded up: cycles from a data-out cycle's RE# edges to its bytes.
    pub dqsre: u32,
    /// Cycles the pins lag the beat port: 1 + max(wpre, rpre) (room for the preambles).
    pub pipe: u32,
}

impl PhyTiming {
    /// The counts for `onfi`; refuses, naming the field, what the PHY cannot build.
    pub fn new(onfi: &OnfiConfig) -> Result<Self, ConfigError> {
        let bpc = onfi.bytes_per_cycle();
        check(
            matches!(bpc, 1 | 2 | 4),
            "onfi.transfer_mts",
            &format!(
                "{bpc} bytes per core cycle (onfi.core_clock_mhz {}); the PHY serializes 1, 2 \
                 or 4 (one byte per DQS/RE# edge, up to 4 edges per cycle)",
                onfi.core_clock_mhz
            ),
        )?;
        let (latch, we_setup, we_low) = latch_window(onfi)?;
        let mut t = strobes(onfi, latch - we_setup - we_low)?;
        (t.latch, t.we_setup, t.we_low, t.bytes_per_cycle) = (latch, we_setup, we_low, bpc);
        Ok(t)
    }
    /// CLE-high cycles of one command latch.
    pub fn command_cycles(&self) -> u32 {
        self.latch
    }
    /// ALE-high cycles of `n` back-to-back address latches (one WE# pulse each).
    pub fn address_cycles(&self, n: u32) -> u32 {
        n * self.latch
    }
    /// Data cycles (DQS or RE# toggling) for `bytes`.
    pub fn data_cycles(&self, bytes: u32) -> u32 {
        bytes.div_ceil(self.bytes_per_cycle)
    }
    /// DQS-driven cycles of a data-in burst of `bytes`: preamble, data, postamble.
    pub fn data_in_cycles(&self, bytes: u32) -> u32 {
        self.wpre + self.data_cycles(bytes) + self.wpst
    }
    /// RE#-not-idle cycles of a data-out burst of `bytes`: preamble, data, postamble.
    pub fn data_out_cycles(&self, bytes: u32) -> u32 {
        self.rpre + self.data_cycles(bytes) + self.rpst
    }
    /// Cycles from a read beat at the beat port to its bytes on the beat port's `dq_in`:
    /// the pin pipeline, tDQSRE, the io wrapper's round trip and the capture register.
    pub fn read_return(&self) -> u32 {
        return_of(self.pipe, self.dqsre)
    }
}

/// [`PhyTiming::read_return`] computed without [`PhyTiming::new`]'s checks, so a config the
/// PHY refuses still has a bus timing: the pin pipe, tDQSRE, the io wrapper's round trip and
/// the capture register (11 cycles at 200 MHz with the `[onfi.pins]` defaults).
pub fn read_return_cycles(onfi: &OnfiConfig) -> u32 {
    return_of(pipe_cycles(onfi), onfi.cycles_ceil(onfi.pins.t_dqsre_ns))
}

/// The read return of a PHY whose pins lag `pipe` cycles and whose capture waits `dqsre`: both,
/// the io wrapper's round trip and the capture register.
fn return_of(pipe: u32, dqsre: u32) -> u32 {
    pipe + dqsre + IO_ROUND_TRIP + 1
}

/// Cycles the ONFI PHY delays what the controller sees of the NAND's R/B#, against a NAND on the
/// beat port: the NAND latches a command at WE#'s rise, `pipe` cycles behind the beat port and
/// WE# setup + low cycles into the `latch`-cycle window (so `pipe - cl_hold` cycles after the
/// window's end, which the sequencer's tWB counts from), and its R/B# comes back through the io
/// wrapper's input register (1 cycle). Computed without [`PhyTiming::new`]'s checks, so a
/// config the PHY refuses still has a bus timing; 2 at 200 MHz with the `[onfi.pins]` defaults.
pub fn rb_lag_cycles(onfi: &OnfiConfig) -> u32 {
    let (latch, we_setup, we_low) = window_counts(onfi);
    (pipe_cycles(onfi) + we_setup + we_low + 1).saturating_sub(latch)
}

/// The latch window's (latch, WE# setup, WE# low) cycles, unchecked: tWC, tCLS/tALS less tWP,
/// tWP, each rounded up (the latch and the pulse at least 1).
fn window_counts(onfi: &OnfiConfig) -> (u32, u32, u32) {
    let p = &onfi.pins;
    let c = |ns: f64| onfi.cycles_ceil(ns);
    let we_low = c(p.t_wp_ns).max(1);
    let we_setup = c(p.t_cls_ns).max(c(p.t_als_ns)).saturating_sub(we_low);
    (c(onfi.t_wc_ns).max(1), we_setup, we_low)
}

/// Cycles the pins lag the beat port, unchecked: 1 + the longer of tWPRE and tRPRE.
fn pipe_cycles(onfi: &OnfiConfig) -> u32 {
    1 + onfi
        .cycles_ceil(onfi.pins.t_wpre_ns)
        .max(onfi.cycles_ceil(onfi.pins.t_rpre_ns))
}

/// The command/address latch window: (latch, WE# setup, WE# low) cycles, checked against
/// tCLS/tALS, tCLH/tALH and tWH.
fn latch_window(onfi: &OnfiConfig) -> Result<(u32, u32, u32), ConfigError> {
    let p = &onfi.pins;
    let c = |ns: f64| onfi.cycles_ceil(ns);
    let (latch, we_setup, we_low) = window_counts(onfi);
    let hold_min = c(p.t_clh_ns).max(c(p.t_alh_ns)).max(1);
    check(
        latch <= 255,
        "onfi.t_wc_ns",
        "over 255 cycles (the PHY's 8-bit latch counter)",
    )?;
    check(
        we_setup + we_low + hold_min <= latch,
        "onfi.pins.t_wp_ns",
        &format!(
            "WE# setup {we_setup} + low {we_low} + CLE/ALE hold {hold_min} cycles exceed \
             the {latch}-cycle latch (onfi.t_wc_ns; tCLS/tALS, tCLH/tALH)"
        ),
    )?;
    check(
        latch - we_low >= c(p.t_wh_ns),
        "onfi.pins.t_wh_ns",
        &format!("WE# high {} cycles is under tWH", latch - we_low),
    )?;
    Ok((latch, we_setup, we_low))
}

/// The strobe counts (preambles, postambles, tDQSRE, pipe) with `cl_hold`; the latch fields
/// are left for the caller.
fn strobes(onfi: &OnfiConfig, cl_hold: u32) -> Result<PhyTiming, ConfigError> {
    let p = &onfi.pins;
    let c = |ns: f64| onfi.cycles_ceil(ns);
    let (wpre, rpre) = (c(p.t_wpre_ns), c(p.t_rpre_ns));
    let pipe = pipe_cycles(onfi);
    let pre_key = if wpre >= rpre {
        "onfi.pins.t_wpre_ns"
    } else {
        "onfi.pins.t_rpre_ns"
    };
    check(
        pipe <= MAX_PIPE,
        pre_key,
        &format!(
            "a preamble of {} cycles; the PHY holds at most {}",
            pipe - 1,
            MAX_PIPE - 1
        ),
    )?;
    // No bound of tRPRE by the CLE hold: the sequencer puts every data-out burst's preamble in
    // the burst's own bus time (`SeqTiming::rd_lead`), after its tWHR/tCCS/tRR wait, so RE#
    // falls at least that wait after the last latch's window ends (the pin target checks it).
    let dqsre = c(p.t_dqsre_ns);
    check(
        (1..=MAX_DQSRE).contains(&dqsre),
        "onfi.pins.t_dqsre_ns",
        &format!("{dqsre} cycles; the PHY's capture delay is 1..={MAX_DQSRE}"),
    )?;
    // At least one postamble cycle: RE# returning high right after its last data edge would
    // read as one more edge.
    let (wpst, rpst) = (c(p.t_wpst_ns), c(p.t_rpst_ns).max(1));
    check(wpst <= 255, "onfi.pins.t_wpst_ns", "over 255 cycles")?;
    check(rpst <= 255, "onfi.pins.t_rpst_ns", "over 255 cycles")?;
    Ok(PhyTiming {
        latch: 0,
        we_setup: 0,
        we_low: 0,
        cl_hold,
        bytes_per_cycle: 0,
        wpre,
        wpst,
        rpre,
        rpst,
        dqsre,
        pipe,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DriveConfig;

    fn onfi_400mts() -> OnfiConfig {
        let mut o = DriveConfig::default_drive().onfi;
        // 200 MHz core clock, 400 MT/s: 2 bytes per cycle.
        o.core_clock_mhz = 200;
        o.transfer_mts = 400;
        o.t_wc_ns = 25.0;
        o.pins = Default::default();
        o
    }

    #[test]
    fn counts_at_200_mhz_by_hand() {
        let t = PhyTiming::new(&onfi_400mts()).unwrap();
        // 5 ns cycles: tWC 25 ns = 5; tWP 10 ns = 2; tCLS/tALS 10 ns = 2, so WE# falls at the
        // window's start (setup 2 - 2 = 0) and CLE holds 5 - 0 - 2 = 3 cycles (tCLH 5 ns = 1).
        assert_eq!((t.latch, t.we_setup, t.we_low, t.cl_hold), (5, 0, 2, 3));
        // tWPRE 15 ns = 3, tWPST 6.5 ns -> 2, tRPRE 15 ns = 3, tRPST 25 ns = 5, tDQSRE 20 = 4.
        assert_eq!((t.wpre, t.wpst, t.rpre, t.rpst, t.dqsre), (3, 2, 3, 5, 4));
        // Pipe 1 + max(3, 3) = 4; 400 / 200 = 2 bytes per cycle.
        assert_eq!((t.pipe, t.bytes_per_cycle), (4, 2));
        // Command 5 cycles, 5 address latches 25, 16 bytes in 3 + 8 + 2 = 13, out 3 + 8 + 5 = 16.
        assert_eq!(t.command_cycles(), 5);
        assert_eq!(t.address_cycles(5), 25);
        assert_eq!(t.data_in_cycles(16), 13);
        assert_eq!(t.data_out_cycles(16), 16);
        // Read return: pipe 4 + tDQSRE 4 + io round trip 2 + capture 1 = 11 cycles.
        assert_eq!(t.read_return(), 11);
        assert_eq!(read_return_cycles(&onfi_400mts()), 11);
    }

    #[test]
    fn rb_lag_is_the_pipe_less_the_cle_hold_plus_the_input_register() {
        // 200 MHz defaults: pipe 4, CLE hold 3 after WE# rises: 4 - 3 + 1 = 2 cycles.
        let o = onfi_400mts();
        let t = PhyTiming::new(&o).unwrap();
        assert_eq!(rb_lag_cycles(&o), 2);
        assert_eq!(rb_lag_cycles(&o), t.pipe - t.cl_hold + 1);
        // tCLS 20 ns: WE# falls 2 cycles in, CLE holds 1: 4 - 1 + 1 = 4 (tRPRE 5 ns keeps the
        // pipe at 1 + tWPRE 3 = 4).
        let mut o = onfi_400mts();
        o.pins.t_cls_ns = 20.0;
        o.pins.t_rpre_ns = 5.0;
        assert_eq!(rb_lag_cycles(&o), 4);
    }

    #[test]
    fn four_bytes_per_cycle_at_the_default_preset() {
        // The default drive: 800 MT/s on the 200 MHz sequencer clock, 4 bytes (4 DQS or RE#
        // edges) per 5 ns cycle; the strobe counts are those of 200 MHz above.
        let mut o = DriveConfig::default_drive().onfi;
        o.pins = Default::default();
        assert_eq!((o.transfer_mts, o.core_clock_mhz), (800, 200));
        let t = PhyTiming::new(&o).unwrap();
        assert_eq!(t.bytes_per_cycle, 4);
        assert_eq!((t.wpre, t.wpst, t.rpre, t.rpst, t.pipe), (3, 2, 3, 5, 4));
        // 16 bytes: 4 data cycles; in 3 + 4 + 2 = 9, out 3 + 4 + 5 = 12; a 1-byte status
        // poll still takes a whole data cycle: 3 + 1 + 5 = 9.
        assert_eq!(t.data_in_cycles(16), 9);
        assert_eq!(t.data_out_cycles(16), 12);
        assert_eq!(t.data_out_cycles(1), 9);
    }

    #[test]
    fn one_byte_per_cycle_and_long_setup() {
        let mut o = onfi_400mts();
        o.transfer_mts = 200;
        o.pins.t_cls_ns = 20.0;
        o.pins.t_rpre_ns = 5.0;
        let t = PhyTiming::new(&o).unwrap();
        // tCLS 20 ns = 4 cycles > tWP 2: WE# falls 2 cycles in, CLE holds 5 - 2 - 2 = 1.
        assert_eq!((t.we_setup, t.cl_hold, t.bytes_per_cycle), (2, 1, 1));
        // 16 bytes at 1 per cycle: 3 + 16 + 2 = 21 cycles in.
        assert_eq!(t.data_in_cycles(16), 21);
        // Pipe 1 + max(tWPRE 3, tRPRE 1) = 4.
        assert_eq!(t.pipe, 4);
        // A read preamble longer than that hold builds: it is in the burst's own lead-in, after
        // the sequencer's tWHR/tCCS/tRR wait (3 cycles of RE# low, pipe 1 + 3 = 4).
        o.pins.t_rpre_ns = 15.0;
        let t = PhyTiming::new(&o).unwrap();
        assert_eq!((t.rpre, t.cl_hold, t.pipe), (3, 1, 4));
    }

    #[test]
    fn refusals_name_the_field() {
        let err = |o: &OnfiConfig| PhyTiming::new(o).unwrap_err().to_string();
        // 600 MT/s at 200 MHz = 3 bytes per cycle: no serializer ratio.
        let mut o = onfi_400mts();
        o.transfer_mts = 600;
        let e = err(&o);
        assert!(
            e.contains("onfi.transfer_mts") && e.contains("3 bytes"),
            "{e}"
        );
        let mut o = onfi_400mts();
        o.pins.t_wp_ns = 25.0;
        assert!(err(&o).contains("onfi.pins.t_wp_ns"));
        let mut o = onfi_400mts();
        o.pins.t_wpre_ns = 40.0;
        assert!(err(&o).contains("onfi.pins.t_wpre_ns"));
        let mut o = onfi_400mts();
        o.pins.t_dqsre_ns = 200.0;
        assert!(err(&o).contains("onfi.pins.t_dqsre_ns"));
    }
}
