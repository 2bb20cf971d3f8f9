//! The I/O pattern of one fio job as the co-simulation host runs it ([`IoPattern`]): what the
//! host driver supports of a parsed job (one block size up to 256 KiB, 1-8 clones sharing the
//! job's region, queue depth under the I/O queue size), each refusal naming the job's line.

use super::{IO_ENTRIES, MAX_JOBS};
use crate::fio::job::JobSpec;

/// The I/O pattern of one fio job, as the host driver runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoPattern {
    /// The block size, bytes (the commands themselves come from `workload::runner::Draws`).
    pub bs: u32,
    /// Region start and length, 4 KiB units.
    pub first_unit: u64,
    pub units: u64,
    pub iodepth: u32,
    /// Clones of the job, each on its own queue pair (fio `numjobs`).
    pub numjobs: u32,
    /// Commands each clone issues (the run stops submitting earlier if `stop` is called).
    pub ios: u64,
    /// fio's `runtime`, in PCIe cycles (`CLOCK_PS`): the clones stop submitting this long after
    /// the end of the ramp ([`IoPattern::ramp_cycles`]), as fio stops a job at its runtime; with
    /// `time_based` (which the parser accepts only with a runtime) the job runs until then
    /// whatever its size (`ios` unbounded).
    pub runtime_cycles: Option<u64>,
    /// fio's `ramp_time`, in PCIe cycles from the job's first command: completions before its
    /// end are not counted (`IoFigures::of`), and it adds to the runtime (fio: "lead in time").
    pub ramp_cycles: u64,
}

impl IoPattern {
    /// From a parsed fio job on a drive of `capacity_units`; errors name the job's line.
    pub fn from_job(j: &JobSpec, capacity_units: u64) -> Result<IoPattern, String> {
        let at = |m: String| format!("job `{}` (line {}): {m}", j.name, j.line);
        let bs = j.bs_read.max(j.bs_write);
        if j.bs_read != j.bs_write || !bs.is_multiple_of(4096) || bs > 64 * 4096 {
            return Err(at(format!("co-simulation needs one block size, a multiple of 4 KiB up to 256 KiB (bs read {}, write {})", j.bs_read, j.bs_write)));
        }
        if !j.bssplit_read.is_empty() || !j.bssplit_write.is_empty() {
            return Err(at(
                "co-simulation runs one block size: bssplit is not supported".to_string(),
            ));
        }
        if j.bsrange_read.is_some() || j.bsrange_write.is_some() {
            return Err(at(
                "co-simulation runs one block size: bsrange is not supported".to_string(),
            ));
        }
        if !(1..=MAX_JOBS).contains(&j.numjobs) || j.iodepth == 0 || j.iodepth >= IO_ENTRIES {
            return Err(at(format!(
                "co-simulation runs numjobs 1..={MAX_JOBS} and iodepth 1..{} (got {} x {})",
                IO_ENTRIES - 1,
                j.numjobs,
                j.iodepth
            )));
        }
        if j.numjobs > 1 && j.offset_increment != crate::fio::value::SizeSpec::Bytes(0) {
            return Err(at(
                "co-simulation clones share the job's region: offset_increment is not supported"
                    .to_string(),
            ));
        }
        let (off, size) =
            crate::workload::runner::job_region(j, capacity_units * 4096).map_err(at)?;
        let (first_unit, units) = (off / 4096, size / 4096);
        if off % 4096 != 0 || size % 4096 != 0 {
            return Err(at(format!("region offset {off} size {size} must be whole 4 KiB units on the co-simulation drive")));
        }
        let files = crate::workload::runner::file_regions(j, (off, size)).map_err(at)?;
        if let Some((o, n)) = files.iter().find(|f| f.0 % 4096 != 0 || f.1 % 4096 != 0) {
            return Err(at(format!(
                "file at byte {o} of {n} bytes (nrfiles, filesize) must be whole 4 KiB units on the co-simulation drive"
            )));
        }
        let ios = match j.time_based {
            true => u64::MAX,
            false => j.number_ios.unwrap_or(j.io_size.unwrap_or(size) / bs),
        };
        let clock_ps = ssdlab_model::nvme::frontend::tlp::CLOCK_PS;
        let runtime_cycles = j.runtime.map(|t| t.as_ps() / clock_ps);
        let ramp_cycles = j.ramp_time.as_ps() / clock_ps;
        Ok(IoPattern {
            bs: bs as u32,
            first_unit,
            units,
            iodepth: j.iodepth,
            numjobs: j.numjobs,
            ios,
            runtime_cycles,
            ramp_cycles,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::IoPattern;
    use crate::fio::parse_job_file;

    fn pattern(job: &str, capacity_units: u64) -> Result<IoPattern, String> {
        IoPattern::from_job(&parse_job_file(job, "t.fio").unwrap()[0], capacity_units)
    }

    #[test]
    fn region_follows_fio_percentages() {
        // fio: offset=50% of 1000 units starts at unit 500; size=50% is half of the 500 units
        // after the offset = 250 units; ios = 250 units / 2 units per 8 KiB command = 125.
        let p = pattern(
            "[a]\nrw=randread\nbs=8k\noffset=50%\nsize=50%\niodepth=4\n",
            1000,
        )
        .unwrap();
        assert_eq!(
            (p.first_unit, p.units, p.bs, p.ios, p.iodepth),
            (500, 250, 8192, 125, 4)
        );
    }

    #[test]
    fn bssplit_and_oversized_regions_are_refused_with_the_job_line() {
        let e = pattern("[a]\nrw=randread\nbssplit=4k/50:8k/50\n", 1000).unwrap_err();
        assert!(e.contains("line 1") && e.contains("bssplit"), "{e}");
        let e = pattern("[a]\nrw=read\nbs=4k\nsize=5000k\n", 1000).unwrap_err();
        assert!(e.contains("exceed"), "{e}");
        let e = pattern("[a]\nrw=read\nnumjobs=2\noffset_increment=1m\n", 1000).unwrap_err();
        assert!(
            e.contains("line 1") && e.contains("offset_increment"),
            "{e}"
        );
        let e = pattern("[a]\nrw=read\nnumjobs=9\n", 1000).unwrap_err();
        assert!(e.contains("numjobs 1..=8"), "{e}");
    }

    #[test]
    fn runtime_is_counted_in_pcie_cycles_from_the_first_command() {
        // 5000 us at 4 ns per cycle = 1 250 000 cycles; time_based runs until then whatever
        // the size (no command count bounds it); runtime alone keeps the size's count.
        let p = pattern(
            "[a]\nrw=randread\nsize=400k\ntime_based=1\nruntime=5000us\n",
            1000,
        )
        .unwrap();
        assert_eq!(p.runtime_cycles, Some(1_250_000));
        assert!(p.ios > 1 << 40, "time_based: {}", p.ios);
        let p = pattern("[a]\nrw=randread\nsize=400k\nruntime=2ms\n", 1000).unwrap();
        assert_eq!((p.runtime_cycles, p.ios), (Some(500_000), 100));
    }

    #[test]
    fn ramp_time_is_counted_in_pcie_cycles() {
        // 3 ms at 4 ns per cycle = 750 000 cycles; none when absent.
        let p = pattern(
            "[a]\nrw=write\ntime_based=1\nruntime=5ms\nramp_time=3ms\n",
            1000,
        );
        assert_eq!(p.unwrap().ramp_cycles, 750_000);
        let p = pattern("[a]\nrw=write\ntime_based=1\nruntime=5ms\n", 1000);
        assert_eq!(p.unwrap().ramp_cycles, 0);
    }

    #[test]
    fn clones_each_issue_the_job_ios() {
        // fio: number_ios is per clone; 4 clones of 10 I/Os at QD 2 hold 8 command slots.
        let p = pattern(
            "[a]\nrw=randread\nnumjobs=4\niodepth=2\nnumber_ios=10\n",
            1000,
        )
        .unwrap();
        assert_eq!((p.numjobs, p.ios, p.iodepth), (4, 10, 2));
    }
}
