//! What `make verilog` writes (docs/hdl.md, "Integrable Verilog"): every block elaborated for a
//! drive config, in integrable form — the top module `ssdlab_<block>`, its children
//! `ssdlab_<block>__<path>`, no `$` in any name ([`names`]), a synchronous `reset` input
//! ([`reset`]) — under a header comment naming the block, the config it was elaborated for, the
//! generating command, its clock and its reset. rust-hdl's own output (`crate::verilog_of`,
//! module `top`) stays what the simulations and the Verilator co-simulation load; this module
//! renames and adds the reset, so with `reset` low both are the same circuit.

pub mod names;
pub mod reset;

use crate::top::CORE_CLOCK_MHZ;
use ssdlab_model::DriveConfig;

/// The drive configs one export elaborates for, with their names for the headers.
pub struct Target {
    /// Config of the blocks (NAND timing from its `onfi`, NVMe queue sizes from its `nvme`).
    pub cfg: DriveConfig,
    /// What `cfg` is, as the header says it: `preset sm2262-512g (presets/sm2262-512g.toml)`.
    pub label: String,
    /// Config of the whole datapath and its page buffer.
    pub datapath_cfg: DriveConfig,
    /// What `datapath_cfg` is.
    pub datapath_label: String,
}

/// One block of an export: its file stem and its integrable Verilog, or why it does not
/// elaborate for the target (the config field and the limit).
pub struct Exported {
    /// File stem: `<stem>.v`, top module `ssdlab_<stem>`.
    pub stem: &'static str,
    /// The file's text (header + Verilog), or the refusal.
    pub verilog: Result<String, String>,
}

/// Which clock a block runs on (its `clock` input), for the header.
#[derive(Clone, Copy)]
enum Domain {
    /// The PCIe user clock: the front end, the mapping cache, the page buffer.
    Pcie,
    /// The NAND sequencer clock, `onfi.core_clock_mhz` of the config.
    Nand,
    /// Both: the PCIe user clock `clock` and the NAND sequencer clock `nand_clock` (the page
    /// buffer, the datapath), elaborated for the datapath's config.
    Both,
}

/// Every block of `make verilog` for `t`, in its order (NAND, ONFI PHY, mapping cache, front
/// end, PRP data path, page buffer, datapath). `command` is the generating command for the headers.
pub fn blocks(t: &Target, command: &str) -> Vec<Exported> {
    let mut raw: Vec<(&'static str, Domain, &str, Result<String, String>)> = vec![];
    match crate::nand::verilog_blocks(&t.cfg) {
        Ok(v) => raw.extend(
            v.into_iter()
                .map(|(s, v)| (s, Domain::Nand, &*t.label, Ok(v))),
        ),
        Err(e) => {
            for s in NAND_STEMS {
                raw.push((s, Domain::Nand, &t.label, Err(e.clone())));
            }
        }
    }
    // The ONFI PHY refuses what it cannot serialize (3 bytes per cycle) apart from the
    // sequencer's own limits.
    raw.push((
        "nand_phy",
        Domain::Nand,
        &t.label,
        crate::nand::phy_verilog(&t.cfg),
    ));
    let map_label = "the mapping-cache export instance (ssdlab_hdl::ftl::map_cache::export_config)";
    raw.push((
        "map_cache",
        Domain::Pcie,
        map_label,
        Ok(crate::ftl::map_cache::export_verilog()),
    ));
    for (s, v) in crate::nvme::verilog_blocks(&t.cfg) {
        raw.push((s, Domain::Pcie, &t.label, Ok(v)));
    }
    let fixed = "fixed parameters (no drive config)";
    for (s, v) in crate::nvme::prp::verilog_blocks() {
        raw.push((s, Domain::Pcie, fixed, Ok(v)));
    }
    // The page buffer's regions follow the datapath's geometry: both are elaborated for it.
    for (s, v) in crate::top::verilog_blocks(&t.datapath_cfg) {
        raw.push((s, Domain::Both, &t.datapath_label, v));
    }
    raw.into_iter()
        .map(|(stem, domain, label, v)| Exported {
            stem,
            verilog: v.and_then(|v| {
                let cfg = match domain {
                    Domain::Both => &t.datapath_cfg,
                    _ => &t.cfg,
                };
                file_text(stem, domain, label, command, cfg, &v)
            }),
        })
        .collect()
}

/// The integrable form of block `stem`'s rust-hdl Verilog `raw` (names, reset), without the
/// header; and the reset inputs the block got, each with its clock input.
pub fn integrable(stem: &str, raw: &str) -> Result<(String, Vec<(String, String)>), String> {
    reset::add_reset(&names::integrable(stem, raw)?).map_err(|e| format!("{stem}: reset pass: {e}"))
}

/// The header's reset line for the reset inputs `resets` (each with its clock input).
fn reset_line(resets: &[(String, String)]) -> String {
    match resets {
        [] => "none (no registers)".to_string(),
        [(c, r)] if c == "clock" && r == "reset" => "`reset`, synchronous, active high: every \
             register back to its power-on value (memories keep their contents)"
            .to_string(),
        _ => {
            let each: Vec<String> = resets
                .iter()
                .map(|(c, r)| format!("`{r}` for the registers on `{c}`"))
                .collect();
            format!(
                "{}; each synchronous to its clock, active high: the registers of that clock back \
                 to their power-on value (memories keep their contents). Assert them together, \
                 each for at least one edge of its clock, and release each from a synchronizer \
                 on its own clock; drive them from one reset where the clocks are one",
                each.join(", ")
            )
        }
    }
}

/// Header + integrable form of block `stem`'s rust-hdl Verilog `raw`.
fn file_text(
    stem: &str,
    domain: Domain,
    label: &str,
    command: &str,
    cfg: &DriveConfig,
    raw: &str,
) -> Result<String, String> {
    let clock = clock_line(stem, raw, domain, cfg);
    let (body, resets) = integrable(stem, raw)?;
    let reset = reset_line(&resets);
    Ok(header(stem, label, command, &clock, &reset) + &body)
}

/// File stems of `crate::nand::verilog_blocks`, for the refusals when NAND timing fails.
pub(crate) const NAND_STEMS: [&str; 6] = [
    "nand_way_queue",
    "nand_way_fsm",
    "nand_arbiter",
    "nand_bus_engine",
    "nand_channel",
    "nand_array",
];

/// The header's clock line for a block whose rust-hdl Verilog is `raw`.
fn clock_line(stem: &str, raw: &str, domain: Domain, cfg: &DriveConfig) -> String {
    let ports = raw
        .find("module top(")
        .map(|i| &raw[i + "module top(".len()..])
        .and_then(|r| r.find(')').map(|e| &r[..e]))
        .unwrap_or("");
    if !ports.split(',').any(|p| p.trim() == "clock") {
        return "none (combinational block)".to_string();
    }
    let (mhz, cross) = (cfg.onfi.core_clock_mhz, crate::top::crosses_clocks(cfg));
    let nand = format!("{mhz} MHz (NAND sequencer clock, onfi.core_clock_mhz)");
    let pcie = format!("{CORE_CLOCK_MHZ} MHz (PCIe user clock, PG213)");
    let has = |p: &str| ports.split(',').any(|q| q.trim() == p);
    match domain {
        Domain::Pcie => format!("`clock`, {pcie}"),
        Domain::Nand if has("pcie_clock") && cross => {
            format!("`clock`, {nand}; `pcie_clock`, {pcie}: the command port and completions")
        }
        Domain::Nand if has("pcie_clock") => format!(
            "`clock`, {nand}, which is the PCIe clock: `pcie_clock` {SECOND_CLOCK_UNUSED} (no crossing)"
        ),
        Domain::Nand => format!("`clock`, {nand}"),
        Domain::Both if cross => format!("`clock`, {pcie}; `nand_clock`, {nand}"),
        // Without a crossing the datapath runs its NAND side on `clock`; the page buffer takes
        // both clocks as they come.
        Domain::Both if stem != "datapath" => {
            format!("`clock`, {pcie}; `nand_clock`, {nand}: {SECOND_CLOCK_SHARED}")
        }
        Domain::Both => format!(
            "`clock`, {pcie} and NAND sequencer clock (onfi.core_clock_mhz = {mhz}); `nand_clock` {SECOND_CLOCK_UNUSED} (tie it low)"
        ),
    }
}

/// How the `// Clock:` line says that a block's second clock input is driven from `clock`
/// (`pnr::harness::second_clock_use` reads it).
pub const SECOND_CLOCK_SHARED: &str = "one clock here, drive both inputs from it";
/// How the `// Clock:` line says that a block's second clock input is unused.
pub const SECOND_CLOCK_UNUSED: &str = "is unused";

/// The comment atop an exported file.
pub fn header(stem: &str, elaborated_for: &str, command: &str, clock: &str, reset: &str) -> String {
    format!(
        "// ssdlab_{stem}: block `{stem}` of the ssdlab controller datapath (docs/hdl.md).\n\
         // Elaborated for: {elaborated_for}.\n\
         // Generated by: {command}\n\
         //   (rust-hdl 0.46, made integrable by ssdlab_hdl::export::names and ::reset).\n\
         // Clock: {clock}.\n\
         // Reset: {reset}.\n"
    )
}

#[cfg(test)]
mod tests;
