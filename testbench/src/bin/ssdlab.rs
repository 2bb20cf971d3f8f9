//! The `ssdlab` command line (being built; see ARCHITECTURE.md).
fn main() {
    let cfg = ssdlab_model::DriveConfig::default_drive();
    println!("ssdlab: default drive `{}` loaded; the run commands are being built", cfg.name);
}
