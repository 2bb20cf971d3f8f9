//! Co-simulation of HDL blocks against the behavioural model: device models (NAND target),
//! cycle-level DUT wrappers (rust_hdl simulation and Verilator) and benches.

pub mod channel_bench;
pub mod channel_dut;
pub mod nand_target;
pub mod datapath;

/// Re-evaluates a rust_hdl block's combinational logic until nothing changes (the settle step of
/// a cycle-by-cycle rust_hdl DUT). At most `max_passes` passes; more means a combinational loop,
/// which is a bug in the block, so this panics naming `what`.
pub(crate) fn settle_block<B: rust_hdl::prelude::Block + ?Sized>(uut: &mut B, max_passes: usize, what: &str) {
    for _ in 0..max_passes {
        uut.update_all();
        if !uut.has_changed() {
            return;
        }
    }
    panic!("rust_hdl {what} did not settle in {max_passes} passes (combinational loop?)");
}
