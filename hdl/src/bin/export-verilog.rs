//! Writes the generated Verilog of every HDL block into the folder given as the first argument.
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "out/verilog".to_string()),
    );
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("export-verilog: cannot create {}: {e}", dir.display());
        std::process::exit(2);
    }
    // Each block registers one line here: (file stem, generated Verilog).
    let mut blocks: Vec<(&str, String)> = vec![];
    blocks.extend(ssdlab_hdl::nand::verilog_blocks(
        &ssdlab_model::DriveConfig::default_drive(),
    ));
    blocks.push(("map_cache", ssdlab_hdl::ftl::map_cache::export_verilog()));
    blocks.extend(ssdlab_hdl::nvme::verilog_blocks(
        &ssdlab_model::DriveConfig::default_drive(),
    ));
    blocks.extend(ssdlab_hdl::nvme::prp::verilog_blocks());
    blocks.extend(ssdlab_hdl::top::verilog_blocks().unwrap_or_else(|e| {
        eprintln!("export-verilog: datapath top: {e}");
        std::process::exit(2)
    }));
    for (name, verilog) in blocks {
        let path = dir.join(format!("{name}.v"));
        if let Err(e) = std::fs::write(&path, verilog) {
            eprintln!("export-verilog: cannot write {}: {e}", path.display());
            std::process::exit(2);
        }
        println!("wrote {}", path.display());
    }
}
