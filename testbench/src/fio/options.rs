//! The fio options ssdlab knows, for the reference table in `docs/fio.md` (generated from these
//! lists by `testbench/tests/fio_reference.rs`, which also checks the parser against them).
//! Source: fio HOWTO (fio 3.x), "Job file parameters".

/// An option the parser models with fio's semantics.
pub struct Supported {
    /// The option and its fio aliases.
    pub names: &'static [&'static str],
    /// A value the parser accepts ("" for a bare flag).
    pub example: &'static str,
    /// What it does here, and any documented difference from fio.
    pub meaning: &'static str,
}

/// Options with fio's semantics.
pub const SUPPORTED_OPTIONS: &[Supported] = &[
    Supported { names: &["name"], example: "j", meaning: "job name in reports" },
    Supported { names: &["rw", "readwrite"], example: "randread", meaning: "read, write, randread, randwrite, rw/readwrite, randrw" },
    Supported { names: &["bs", "blocksize"], example: "4k", meaning: "block size; `bs=READ,WRITE` with fio's comma rules" },
    Supported { names: &["bssplit"], example: "4k/75:64k/25", meaning: "size/percent list, or `READS,WRITES`; blank percents share the rest; offsets on the smallest size, a block past the region's end is moved back inside it" },
    Supported { names: &["bsrange", "blocksize_range"], example: "4k-64k", meaning: "sizes drawn per IO as fio's `get_next_buflen`: `min + max x r` rounded down to a multiple of `min`, capped at `max`; per direction with `bs`'s comma rules; offsets on `min`" },
    Supported { names: &["bs_unaligned", "blocksize_unaligned"], example: "", meaning: "`bsrange` sizes in 512-byte sectors instead of multiples of the minimum (direct IO needs whole sectors)" },
    Supported { names: &["loops"], example: "2", meaning: "passes over the job's IO (1..); each starts when the previous one's commands completed and repeats its offsets (fio's default `randrepeat`); `runtime` bounds them all; ignored with `time_based`" },
    Supported { names: &["iodepth"], example: "32", meaning: "commands outstanding per clone (1..=65536), each clone on its own NVMe queue" },
    Supported { names: &["iodepth_batch_submit", "iodepth_batch"], example: "8", meaning: "accepted (0..=65536; 0 = `iodepth`): with no host time modelled every IO reaches the device when drawn, batched or not (fio commits a partial batch whenever it waits)" },
    Supported { names: &["iodepth_batch_complete_min", "iodepth_batch_complete"], example: "4", meaning: "with every slot in use, wait for this many completions (at most those in flight; 0 = 1) and free their slots together; their clat ends at the reap, as fio stamps it" },
    Supported { names: &["iodepth_batch_complete_max"], example: "16", meaning: "reap at most this many at once (default and minimum: `iodepth_batch_complete_min`)" },
    Supported { names: &["iodepth_low"], example: "4", meaning: "after the queue filled, reap until at most this many are in flight before refilling (default and above `iodepth`: `iodepth`)" },
    Supported { names: &["numjobs"], example: "4", meaning: "clones of the job (1..=256), each a closed loop" },
    Supported { names: &["size"], example: "1g", meaning: "region size, bytes or `N%` of the space from `offset` to the end; absent or 0 = the whole drive from `offset`; includes any `ramp_time` IO" },
    Supported { names: &["offset"], example: "4k", meaning: "region start, bytes or `N%` of the drive rounded up to a block" },
    Supported { names: &["offset_increment"], example: "1g", meaning: "clone k of `numjobs` starts k increments further (fio's `get_start_offset`)" },
    Supported { names: &["nrfiles", "nr_files"], example: "4", meaning: "without `filename`: the region as that many files back to back (1..=65536), one IO per file in turn (fio's default `file_service_type=roundrobin`), each with its own offsets" },
    Supported { names: &["filesize"], example: "16m", meaning: "each file's size (one value; a range is refused): the region is `nrfiles x filesize` from `offset`; `size` then only limits the IO" },
    Supported { names: &["filename"], example: "/dev/nvme0n1", meaning: "the name is not used (the device is the modelled drive); as fio, a named file makes `nrfiles` 1 and `filesize` its region" },
    Supported { names: &["io_size", "io_limit"], example: "64m", meaning: "bytes of IO per clone; 0 = the region size" },
    Supported { names: &["runtime", "timeout"], example: "30", meaning: "simulated seconds (fio time suffixes); 0 = unset" },
    Supported { names: &["time_based"], example: "", meaning: "run for `runtime`, wrapping the region" },
    Supported { names: &["ramp_time"], example: "1", meaning: "completions in the first seconds are not counted" },
    Supported { names: &["rwmixread"], example: "70", meaning: "percent reads of a mixed job" },
    Supported { names: &["rwmixwrite"], example: "30", meaning: "percent writes of a mixed job" },
    Supported { names: &["direct"], example: "1", meaning: "`direct=0` runs as direct IO with a warning naming its line: no host page cache is modelled" },
    Supported { names: &["buffered"], example: "0", meaning: "`buffered=1` is `direct=0`: runs as direct IO with a warning" },
    Supported { names: &["stonewall", "wait_for_previous"], example: "", meaning: "starts a new reporting group after the previous jobs end" },
    Supported { names: &["thinktime"], example: "10", meaning: "idle time between IOs, us by default" },
    Supported { names: &["number_ios"], example: "1000", meaning: "IOs per clone; 0 = unset" },
    Supported { names: &["randseed"], example: "7", meaning: "seed of the job's offsets (else derived from `--seed`)" },
    Supported { names: &["norandommap"], example: "", meaning: "uniform random offsets; without it every block is visited once per pass" },
    Supported { names: &["group_reporting"], example: "", meaning: "one result per group instead of per clone" },
    Supported { names: &["kb_base"], example: "1000", meaning: "1024 (default) or 1000; fio's compatibility rule: `4k` = 4096 but `4KiB` = 4000 at 1024" },
    Supported { names: &["percentile_list"], example: "50:99:99.9", meaning: "completion-latency percentiles reported (up to 20)" },
    Supported { names: &["bwavgtime"], example: "500", meaning: "bandwidth sample window, ms (default 500, at least 1)" },
    Supported { names: &["iopsavgtime"], example: "500", meaning: "IOPS sample window, ms (default 500, at least 1)" },
    Supported { names: &["verify"], example: "crc32c", meaning: "any of fio's types: after each pass its written blocks are read back in offset order and checked by the drive's integrity checker (versions, no data bytes); a mismatch exits 1 with fio's EILSEQ" },
    Supported { names: &["latency_target"], example: "500", meaning: "fio's queue-depth search (us by default): from depth 1, up while each `latency_window` meets it, bisecting down on a miss; JSON `latency_depth`; a miss at depth 1 with percentile 100 fails the job" },
    Supported { names: &["latency_window"], example: "100ms", meaning: "time each depth runs before it is judged, us by default" },
    Supported { names: &["latency_percentile"], example: "99", meaning: "percent of IOs that must meet `latency_target` (0 < p <= 100, default 100)" },
    Supported { names: &["latency_run"], example: "1", meaning: "keep adjusting the depth instead of ending when the search settles" },
    Supported { names: &["steadystate", "ss"], example: "iops_slope:0.1%", meaning: "`iops`, `bw`, `lat` (largest deviation from the window's mean) or `*_slope` (least-squares slope), a limit or `N%` of the mean; the clone stops when it holds; JSON `steadystate` as fio" },
    Supported { names: &["ss_dur", "steadystate_duration"], example: "30", meaning: "rolling window, s (0 = off); a multiple of `ss_interval`, at least two" },
    Supported { names: &["ss_ramp", "steadystate_ramp_time"], example: "5", meaning: "time before collecting, s (collection starts one interval later, as fio)" },
    Supported { names: &["ss_interval", "steadystate_check_interval"], example: "1", meaning: "sample period, s (default 1, at least 1 ms)" },
    Supported { names: &["write_bw_log"], example: "bw", meaning: "`run` writes `PREFIX_bw.N.log` (PREFIX the value or the job name, N the clone's number in the file) in fio's log format, KiB/s" },
    Supported { names: &["write_iops_log"], example: "iops", meaning: "`PREFIX_iops.N.log`, IOPS, as `write_bw_log`" },
    Supported { names: &["write_lat_log"], example: "lat", meaning: "`PREFIX_lat.N.log`, `PREFIX_slat.N.log` (0: no submission latency is modelled), `PREFIX_clat.N.log`, ns" },
    Supported { names: &["log_avg_msec"], example: "1000", meaning: "0 (default): a line per IO; W: per direction one line per W ms window (mean latency, bytes or IOs over the window), block size 0" },
    Supported { names: &["rate"], example: "100m", meaning: "bandwidth cap, bytes/s, per direction with `bs`'s comma rules" },
    Supported { names: &["rate_iops"], example: "1000", meaning: "IOPS cap per direction (comma rules as `bs`)" },
    Supported { names: &["rate_min", "ratemin"], example: "50m", meaning: "minimum bandwidth; the job fails (exit 2, naming this line) when not met after fio's 2 s settle" },
    Supported { names: &["rate_iops_min"], example: "500", meaning: "minimum IOPS, as `rate_min`" },
    Supported { names: &["rate_process"], example: "poisson", meaning: "`linear` (even spacing) or `poisson` (exponential gaps, seeded by `randseed`)" },
    Supported { names: &["rate_cycle", "ratecycle"], example: "1000", meaning: "averaging window of `rate_min`, ms" },
    Supported { names: &["random_distribution"], example: "zipf:1.2", meaning: "`random`, `zipf:θ`, `pareto:h`, `normal:σ`, `zoned:...`, `zoned_abs:...`; non-uniform draws repeat blocks (docs/fio.md, skewed offsets)" },
];

/// Options fio has that ssdlab refuses, and why: each is an error naming the option and line.
pub const REFUSED_OPTIONS: &[(&str, &str)] = &[
    ("new_group", "use `stonewall`"),
    ("exec_prerun", "host commands are not run"),
    ("exec_postrun", "host commands are not run"),
    (
        "hostname",
        "network engines: there is no network, only the modelled drive",
    ),
    (
        "port",
        "network engines: there is no network, only the modelled drive",
    ),
    (
        "listen",
        "network engines: there is no network, only the modelled drive",
    ),
    (
        "fallocate",
        "file-system only: the device is a raw namespace",
    ),
    (
        "fsync",
        "file-system only: no file system, and writes are not cached by a host",
    ),
    (
        "fdatasync",
        "file-system only: no file system, and writes are not cached by a host",
    ),
    (
        "create_serialize",
        "file-system only: the device is a raw namespace",
    ),
    ("opendir", "file-system only: the device is a raw namespace"),
    (
        "file_service_type",
        "files are served round robin only (fio's default)",
    ),
    (
        "verify_backlog",
        "verification reads back after each pass only",
    ),
    (
        "verify_async",
        "verification is done by the drive's integrity checker",
    ),
    ("trim_percentage", "trims come only from trace replay"),
    ("zonemode", "zoned namespaces are not modelled"),
    ("thinktime_blocks", "thinktime follows each completion"),
    ("log_offset", "log lines hold fio's default columns"),
    (
        "write_hist_log",
        "use `--output-format json+` for the latency histogram",
    ),
];
