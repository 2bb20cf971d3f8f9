//! Writes the generated Verilog of every HDL block into the folder given as the first argument.
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "out/verilog".to_string()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("export-verilog: cannot create {}: {e}", dir.display());
        std::process::exit(2);
    }
    // Each block registers one line here: (file stem, generated Verilog).
    let blocks: Vec<(&str, String)> = vec![
        ("nvme_rq_mux", ssdlab_hdl::pcie::rq_mux::export_verilog()),
        ("nvme_regs", ssdlab_hdl::nvme::regfile::export_verilog(1024)),
        ("nvme_sq_fetch", ssdlab_hdl::nvme::sq_fetch::export_verilog()),
        ("nvme_cq_post", ssdlab_hdl::nvme::cq_post::export_verilog(1)),
        ("nvme_frontend", ssdlab_hdl::nvme::frontend::export_verilog(1024, 1)),
    ];
    for (name, verilog) in blocks {
        let path = dir.join(format!("{name}.v"));
        if let Err(e) = std::fs::write(&path, verilog) {
            eprintln!("export-verilog: cannot write {}: {e}", path.display());
            std::process::exit(2);
        }
        println!("wrote {}", path.display());
    }
}
