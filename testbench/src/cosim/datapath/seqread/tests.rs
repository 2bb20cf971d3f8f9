//! The bus meter, the window and the throughput arithmetic with hand-derived values.

use super::*;
use crate::cosim::datapath::model_exec::ModelExec;
use crate::cosim::datapath::port::{CplRec, TlpRec};

#[test]
fn bus_log_counts_busy_cycles_inside_a_window() {
    let mut log = BusLog::new(2);
    for c in (10..20).chain(25..30) {
        log.mark(0, c);
    }
    assert_eq!(
        log.busy[0],
        vec![(10, 20), (25, 30)],
        "contiguous cycles merge into intervals"
    );
    // [15, 27): 15..20 = 5 cycles, 25..27 = 2 cycles.
    assert_eq!(log.busy_cycles(0, 15, 27), 7);
    assert_eq!(log.busy_cycles(0, 0, 100), 15);
    assert_eq!(log.busy_cycles(1, 0, 100), 0);
}

#[test]
fn window_runs_from_the_qd_th_to_the_n_minus_qd_th_completion() {
    // 9 completions at 100, 200, ..., 900, QD 3: window [300, 600).
    let cpl = (1..=9u64)
        .map(|k| CplRec {
            sqid: 1,
            cid: k as u16,
            status: 0,
            submitted: 0,
            cycle: 100 * k,
        })
        .collect();
    // 256-byte data MWr at 250 (before), 300, 450, 599 (inside), 600 (after); a CQE MWr inside
    // (not data); a 512-byte data MRd inside (a host-to-device move).
    let tlp = |class, kind, len, cycle| {
        (
            class,
            TlpRec {
                kind,
                addr: 0,
                len,
                cycle,
            },
        )
    };
    let mut tlps: Vec<_> = [250, 300, 450, 599, 600]
        .into_iter()
        .map(|c| tlp(TlpClass::Data(0), TlpKind::MemWrite, 256, c))
        .collect();
    tlps.push(tlp(TlpClass::Cqe, TlpKind::MemWrite, 16, 400));
    tlps.push(tlp(TlpClass::Data(1), TlpKind::MemRead, 512, 500));
    let s = Streams {
        tlps,
        cpl,
        ..Default::default()
    };
    let mut log = BusLog::new(2);
    (350..500).for_each(|c| log.mark(0, c));
    (0..1000).for_each(|c| log.mark(1, c));
    let f = figures(&s, &log, 3).expect("9 completions at QD 3");
    assert_eq!(f.window, (300, 600));
    assert_eq!(f.payload_bytes, 3 * 256 + 512);
    assert_eq!(f.bus_busy, vec![0.5, 1.0], "150 of 300 cycles; all 300");
    // 1280 B in 300 cycles x 4 ns = 1.0667 GB/s.
    assert!((f.gbps() - 1280.0 / 1200.0).abs() < 1e-12, "{}", f.gbps());
    assert!(
        figures(&s, &log, 4).is_err(),
        "9 completions cannot make a QD 4 window (needs 12)"
    );
}

#[test]
fn model_meter_sees_one_4k_read_hold_its_bus_49_plus_4107_cycles() {
    // 250 MT/s at 250 MHz: 1 byte per cycle. tWC 25 ns = 7 cycles: 00h + 5 address + 30h =
    // 49 cycles, then the data out: RE# preamble 15 ns = 4 cycles, 4096 beats, postamble 25 ns
    // = 7 cycles; on one channel, the other seven stay idle.
    let cfg = seqread_config(SEQREAD_MTS);
    let mut x = ModelExec::new(&cfg).expect("model execution");
    let (s, log) =
        run_metered(&mut x, &cfg, &seqread_job(4, 1, 1, 1), 1, 200_000).expect("one read runs");
    assert_eq!(s.nand.len(), 1, "one NAND read");
    let ch = s.nand[0].channel as usize;
    let total: Vec<u64> = (0..CHANNELS)
        .map(|c| log.busy_cycles(c, 0, s.cycles))
        .collect();
    let mut want = vec![0u64; CHANNELS];
    want[ch] = 49 + 4 + 4096 + 7;
    assert_eq!(total, want, "busy cycles per channel");
    assert_eq!(
        log.busy[ch].len(),
        2,
        "two phases with tR between them: {:?}",
        log.busy[ch]
    );
}
