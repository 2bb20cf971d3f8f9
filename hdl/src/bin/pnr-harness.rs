//! `pnr-harness <block.v> <harness.v> [clock]`: writes the place-and-route harness of the first
//! module of `block.v` (`ssdlab_hdl::pnr`: four pins, every port of the block on a register)
//! as module `<name>_pnr`, and prints its input and output register bits (`156 80`). A block
//! whose `// Clock:` header names a second clock of its own gets a pin and register chains
//! for it (`pnr::harness::second_clock_use`). Exit 0:
//! written; 2: bad input (unreadable file, a port list it
//! cannot parse, no such clock input).
use std::process::exit;

fn bad(msg: String) -> ! {
    eprintln!("pnr-harness: {msg}");
    exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !(2..=3).contains(&args.len()) {
        bad("usage: pnr-harness <block.v> <harness.v> [clock]".to_string());
    }
    let clock = args.get(2).map_or("clock", String::as_str);
    let src =
        std::fs::read_to_string(&args[0]).unwrap_or_else(|e| bad(format!("{}: {e}", args[0])));
    let (name, ports) =
        ssdlab_hdl::pnr::ports(&src).unwrap_or_else(|e| bad(format!("{}: {e}", args[0])));
    let second = ssdlab_hdl::pnr::harness::second_clock_use(&src);
    let h = ssdlab_hdl::pnr::harness(&name, &ports, clock, second)
        .unwrap_or_else(|e| bad(format!("{}: {e}", args[0])));
    std::fs::write(&args[1], h.verilog).unwrap_or_else(|e| bad(format!("{}: {e}", args[1])));
    println!("{} {}", h.in_bits, h.out_bits);
}
