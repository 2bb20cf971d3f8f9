//! The channel bench's checks: a completed op's data against the shadow pages (reads return
//! what was programmed, or erased bytes; program and erase end with a passing status read), and
//! a whole run against the behavioural model's bus trace, completion order and completion
//! cycles.

use super::{page_byte, BenchOp, BenchResult};
use ssdlab_model::nand::sequencer::{BusEvent, BusKind, SeqTiming};
use ssdlab_model::nand::NandOpKind;
use std::collections::HashMap;

/// Checks a completed op's data: reads return what the shadow says; program/erase status passes.
pub(super) fn check_completion(
    b: &BenchOp,
    shadow: &mut HashMap<u32, Vec<u8>>,
    got: Vec<u8>,
    page: usize,
    stride: u32,
) -> Result<(), String> {
    // In bus order (`BenchOp::load_row`).
    let loads = b.op.pages as u32 * b.op.planes as u32;
    let rows: Vec<u32> = (0..loads).map(|l| b.load_row(l, stride)).collect();
    match b.op.kind {
        NandOpKind::Read => {
            // Each row's bytes from the op's column: a page, or the part the op moves.
            let per_row = b.op.bus_bytes as usize / rows.len();
            let col = b.column as usize;
            let want: Vec<u8> = rows
                .iter()
                .flat_map(|r| {
                    let pg = shadow.get(r).cloned().unwrap_or_else(|| vec![0xFF; page]);
                    pg[col..col + per_row].to_vec()
                })
                .collect();
            if got != want {
                let at = got
                    .iter()
                    .zip(&want)
                    .position(|(a, b)| a != b)
                    .unwrap_or(got.len().min(want.len()));
                return Err(format!(
                    "read data differs at byte {at} ({} bytes read, {} expected)",
                    got.len(),
                    want.len()
                ));
            }
        }
        NandOpKind::Program | NandOpKind::Erase => {
            if got.first() != Some(&0xE0) {
                return Err(format!(
                    "status read returned {:02X?}, want E0h (ready, pass)",
                    got.first()
                ));
            }
            for r in rows {
                if b.op.kind == NandOpKind::Program {
                    shadow.insert(r, (0..page).map(|k| page_byte(b.op.way, r, k)).collect());
                } else {
                    shadow.retain(|k, _| k / stride != r / stride);
                }
            }
        }
    }
    Ok(())
}

/// Compares a bench result with the model's completions and trace; returns the worst relative
/// completion-time difference (0.0 when exact), or the first mismatch.
pub fn compare_with_model(
    res: &BenchResult,
    model_done: &[ssdlab_model::nand::sequencer::SeqCompletion],
    model_trace: &[BusEvent],
    t: &SeqTiming,
) -> Result<f64, String> {
    if let Some(i) = res.trace.iter().zip(model_trace).position(|(a, b)| a != b) {
        return Err(format!(
            "bus trace differs at event {i}: hdl {:?}, model {:?}",
            res.trace[i], model_trace[i]
        ));
    }
    if res.trace.len() != model_trace.len() {
        return Err(format!(
            "bus trace lengths differ: hdl {}, model {}",
            res.trace.len(),
            model_trace.len()
        ));
    }
    let hdl_order: Vec<u64> = res.completions.iter().map(|c| c.0).collect();
    let model_order: Vec<u64> = model_done.iter().map(|c| c.id).collect();
    if hdl_order != model_order {
        return Err(format!(
            "completion order differs: hdl {hdl_order:?}, model {model_order:?}"
        ));
    }
    let mut worst: f64 = 0.0;
    for ((_, hc), m) in res.completions.iter().zip(model_done) {
        let mc = t.to_cycles_ceil(m.completed);
        let span = mc.saturating_sub(t.to_cycles_ceil(m.issued)).max(1);
        worst = worst.max((*hc as f64 - mc as f64).abs() / span as f64);
    }
    Ok(worst)
}

/// The cycle the first bus event `kind` of `way` starts at in a trace, if any.
pub fn first_event(trace: &[BusEvent], way: u8, kind: BusKind) -> Option<u64> {
    trace
        .iter()
        .find(|e| e.way == way && e.kind == kind)
        .map(|e| e.cycle)
}
