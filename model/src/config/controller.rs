//! Controller resources: DRAM, data buffer, firmware CPU cores.
//! Sources: SM2262 product brief (dual-core ARM, DDR3/DDR4 support), Nanya DDR3 data sheet.

use crate::error::{check, check_latency_ns, ConfigError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ControllerConfig {
    /// External DRAM capacity in MiB (0 = DRAM-less).
    pub dram_mb: u32,
    /// DRAM bandwidth in MB/s.
    pub dram_bandwidth_mbps: u32,
    /// DRAM access latency (random), ns.
    pub dram_latency_ns: f64,
    /// Data buffer (write cache / read staging) in KiB, carved from DRAM or SRAM.
    pub write_buffer_kib: u32,
    /// Firmware CPU cores that process host commands.
    pub cpu_cores: u32,
    /// Firmware time per host command (parse, map lookup bookkeeping, completion), ns.
    pub cpu_ns_per_cmd: f64,
    /// Additional firmware time per 4 KiB mapping unit of a command, ns.
    pub cpu_ns_per_unit: f64,
    /// Additional firmware time per write command (write-buffer allocation, early-completion and
    /// program scheduling bookkeeping that reads do not have), ns. 0 when absent.
    #[serde(default)]
    pub cpu_ns_per_write_cmd: f64,
    /// Read staging buffer in KiB (controller SRAM that holds read data from NAND until it has
    /// gone up the link). A read command takes room for all its units before its NAND reads are
    /// issued and frees it when its last byte is sent, so a command whose units are scattered over
    /// many dies holds its room until the slowest of them is read. 0 (the default) = no limit.
    #[serde(default)]
    pub read_buffer_kib: u32,
    /// Foreground relocation (GC, SLC folding, wear levelling: the NAND ops the FTL emits while
    /// serving a host write) interleaved with host programs on each die, a quota of relocation
    /// ops per host program, instead of queued ahead of them as one whole-victim burst (the
    /// firmware's GC quota / partial block cleaning). false (the default) = burst. See
    /// `drive::reloc_queue`.
    #[serde(default)]
    pub interleave_relocation: bool,
    /// With `interleave_relocation`: how many host blocks (times `wordlines_per_block` host
    /// programs on the die) the queued relocation work is spread over. 1 (the default) = done by
    /// the time the host fills the block whose opening queued it; K > 1 lets the die's free-block
    /// reserve carry up to K blocks of cleaning debt (a gentler GC quota), so more of a write
    /// phase's relocation falls after it. Ops a host program or erase waits for still start at
    /// once. At least 1; plausible up to `ftl.gc_threshold_free_blocks`, the reserve that
    /// physically carries the debt (not enforced: a smaller reserve makes host programs wait for
    /// the relocation their blocks need, which the drive models anyway).
    #[serde(default = "one")]
    pub relocation_spread_blocks: u32,
    /// With `interleave_relocation`: a die with queued relocation and no host op may run it,
    /// without the credit host programs earn, while host writes wait for write-buffer room (the
    /// stream is held up behind another die, so this die would otherwise idle). false (the
    /// default): relocation is paced by the die's own host programs only, and a die whose
    /// stream is stalled elsewhere waits idle with its relocation queued.
    #[serde(default)]
    pub relocation_while_writes_wait: bool,
    /// Where a read's `cpu_ns_per_unit` (the per-unit mapping work) is done. false (the default):
    /// up front, for every unit of the command, before the FTL sees it. true: at the lookup, on
    /// a firmware core: a unit the read-ahead already holds was looked up when its prefetch was
    /// issued (each ReadAhead op waits for the work of its units), the others after the command
    /// reaches the FTL (its own NAND reads wait for that work). The cores' total work is the
    /// same; at queue depth 1 a stream's lookups run ahead of it, behind the link transfer,
    /// instead of in front of every command. See `drive::prefetch`.
    #[serde(default)]
    pub cpu_unit_work_at_lookup: bool,
}

fn one() -> u32 {
    1
}

impl ControllerConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(
            self.dram_mb <= 65536,
            "controller.dram_mb",
            "must be at most 65536 MiB",
        )?;
        check(
            self.dram_bandwidth_mbps > 0,
            "controller.dram_bandwidth_mbps",
            "must be positive",
        )?;
        check_latency_ns(self.dram_latency_ns, "controller.dram_latency_ns")?;
        check(
            self.write_buffer_kib >= 4,
            "controller.write_buffer_kib",
            "must be at least 4 KiB",
        )?;
        check(
            self.read_buffer_kib == 0 || self.read_buffer_kib >= 4,
            "controller.read_buffer_kib",
            "must be 0 (no limit) or at least 4 KiB",
        )?;
        check(
            (1..=64).contains(&self.cpu_cores),
            "controller.cpu_cores",
            "must be 1..=64",
        )?;
        check(
            self.relocation_spread_blocks >= 1,
            "controller.relocation_spread_blocks",
            "must be at least 1",
        )?;
        for (name, v) in [
            ("controller.cpu_ns_per_cmd", self.cpu_ns_per_cmd),
            ("controller.cpu_ns_per_unit", self.cpu_ns_per_unit),
            ("controller.cpu_ns_per_write_cmd", self.cpu_ns_per_write_cmd),
        ] {
            check_latency_ns(v, name)?;
        }
        Ok(())
    }
}
