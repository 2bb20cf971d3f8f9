//! Controller resources: DRAM, data buffer, firmware CPU cores.
//! Sources: SM2262 product brief (dual-core ARM, DDR3/DDR4 support), Nanya DDR3 data sheet.

use crate::error::{check, check_latency_ns, ConfigError};
use serde::{Deserialize, Serialize};

/// `[controller]`: the controller's DRAM, data buffers and firmware cores, and how the firmware
/// schedules relocation and mapping work.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ControllerConfig {
    /// External DRAM capacity (0 = DRAM-less: the mapping table lives in NAND and SRAM).
    /// Unit: MiB. Range: 0..=65536. Moves: random reads over a span the table cache cannot hold.
    pub dram_mb: u32,
    /// DRAM bandwidth shared by table lookups and buffered data, in 10^6 bytes per second.
    /// Unit: MB/s. Range: >= 1. Moves: little unless far below the link rate.
    #[serde(alias = "dram_bandwidth_mbps")]
    pub dram_bandwidth_mb_per_s: u32,
    /// DRAM access latency of one random access (a mapping-table miss in SRAM).
    /// Unit: ns. Range: >= 0. Moves: QD1 read latency.
    pub dram_latency_ns: f64,
    /// Data buffer (write cache / read staging) carved from DRAM or SRAM. Host writes complete
    /// early once in it. Unit: KiB. Range: >= 4. Moves: burst writes, write latency.
    pub write_buffer_kib: u32,
    /// Firmware CPU cores that process host commands.
    /// Unit: cores. Range: 1..=64. Moves: small-block IOPS (with the per-command costs).
    pub cpu_cores: u32,
    /// Firmware time per host command (parse, lookup bookkeeping, completion).
    /// Unit: ns. Range: >= 0. Moves: 4 KiB random IOPS at high queue depth.
    pub cpu_ns_per_cmd: f64,
    /// Additional firmware time per 4 KiB mapping unit of a command.
    /// Unit: ns. Range: >= 0. Moves: large-block throughput when core-bound.
    pub cpu_ns_per_unit: f64,
    /// Additional firmware time per write command (write-buffer allocation, early completion and
    /// program scheduling that reads do not have); 0 when absent.
    /// Unit: ns. Range: >= 0. Moves: 4 KiB random write IOPS.
    #[serde(default)]
    pub cpu_ns_per_write_cmd: f64,
    /// Read staging buffer (controller SRAM that holds read data from NAND until it has gone up
    /// the link). A read command takes room for all its units before its NAND reads are issued
    /// and frees it when its last byte is sent, so a command whose units are scattered over many
    /// dies holds its room until the slowest of them is read. 0 (the default) = no limit.
    /// Unit: KiB. Range: 0 or >= 4. Moves: sequential reads of fragmented data.
    #[serde(default)]
    pub read_buffer_kib: u32,
    /// Foreground relocation (GC, SLC folding, wear levelling: the NAND ops the FTL emits while
    /// serving a host write) interleaved with host programs on each die, a quota of relocation
    /// ops per host program, instead of queued ahead of them as one whole-victim burst (the
    /// firmware's GC quota / partial block cleaning). false (the default) = burst. See
    /// `drive::reloc_queue`. Moves: steady-state writes and their throughput over time.
    #[serde(default)]
    pub interleave_relocation: bool,
    /// With `interleave_relocation`: how many host blocks (times `wordlines_per_block` host
    /// programs on the die) the queued relocation work is spread over. 1 (the default) = done by
    /// the time the host fills the block whose opening queued it; K > 1 lets the die's free-block
    /// reserve carry up to K blocks of cleaning debt (a gentler GC quota), so more of a write
    /// phase's relocation falls after it. Ops a host program or erase waits for still start at
    /// once. Plausible up to `ftl.gc_threshold_free_blocks`, the reserve that physically carries
    /// the debt (not enforced: a smaller reserve makes host programs wait for the relocation
    /// their blocks need, which the drive models anyway).
    /// Unit: blocks. Range: >= 1. Moves: the sequential write after a random overwrite.
    #[serde(default = "one")]
    pub relocation_spread_blocks: u32,
    /// With `interleave_relocation`: a die with queued relocation and no host op may run it,
    /// without the credit host programs earn, while host writes wait for write-buffer room (the
    /// stream is held up behind another die, so this die would otherwise idle). false (the
    /// default): relocation is paced by the die's own host programs only, and a die whose
    /// stream is stalled elsewhere waits idle with its relocation queued.
    /// Moves: every steady-state write.
    #[serde(default)]
    pub relocation_while_writes_wait: bool,
    /// Where a read's `cpu_ns_per_unit` (the per-unit mapping lookup) is done. false (the
    /// default): up front, for every unit of the command, before the FTL sees it. true: on
    /// demand, on a firmware core: a unit the read-ahead already holds was looked up when its
    /// prefetch was issued (each ReadAhead op waits for the work of its units), the others after
    /// the command reaches the FTL (its own NAND reads wait for that work). The cores' total work
    /// is the same; at queue depth 1 a stream's lookups run ahead of it, behind the link
    /// transfer, instead of in front of every command. See `drive::prefetch`.
    /// Moves: QD1 sequential and burst reads.
    #[serde(default, alias = "cpu_unit_work_at_lookup")]
    pub read_lookup_on_demand: bool,
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
            self.dram_bandwidth_mb_per_s > 0,
            "controller.dram_bandwidth_mb_per_s",
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
