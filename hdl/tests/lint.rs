//! `make lint` as a test: the integrable Verilog `make verilog` writes (every block for the
//! default drive, the datapath for the co-simulation geometry) passes `verilator --lint-only
//! -Wall` with only the rust-hdl library waivers of `hdl/verilator-waivers.vlt`
//! (`scripts/lint.sh`). Our own code gets no waivers, so a width mismatch or an unused signal
//! in a block fails here, naming the file and the warning.

use std::path::Path;
use std::process::Command;

#[test]
fn the_exported_verilog_is_lint_clean() {
    let dir = tempfile::Builder::new()
        .prefix("ssdlab-lint-")
        .tempdir()
        .expect("temp dir");
    let out = Command::new(env!("CARGO_BIN_EXE_export-verilog"))
        .arg(dir.path())
        .output()
        .expect("export-verilog runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/lint.sh");
    let lint = Command::new("bash")
        .arg(script)
        .arg(dir.path())
        .output()
        .expect("bash runs scripts/lint.sh (verilator: `make tools`)");
    let report = String::from_utf8_lossy(&lint.stdout);
    assert!(
        lint.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&lint.stderr)
    );
    assert!(report.contains("lint: clean  datapath.v"), "{report}");
}
