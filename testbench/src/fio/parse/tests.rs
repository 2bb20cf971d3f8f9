//! Tests of the job-file parser: `[global]` inheritance, units, errors naming the line.

use super::*;
use crate::fio::SizeSpec;

const FILE: &str = "[global]\nioengine=libaio\ndirect=1\nbs=4k\nruntime=30\ntime_based\n\n\
    [rr]\nrw=randread\niodepth=32\nnumjobs=4\nsize=20g\n\n[sw]\nstonewall\nrw=write\nbs=128k\n";

#[test]
fn global_defaults_and_overrides() {
    let jobs = parse_job_file(FILE, "t.fio").unwrap();
    assert_eq!(jobs.len(), 2);
    let rr = &jobs[0];
    assert_eq!(
        (rr.rw, rr.bs_read, rr.iodepth, rr.numjobs),
        (RwMode::RandRead, 4096, 32, 4)
    );
    assert_eq!(rr.size, Some(SizeSpec::Bytes(20 << 30)));
    assert_eq!(rr.runtime, Some(SimTime::from_secs(30)));
    assert!(rr.time_based && !rr.stonewall);
    let sw = &jobs[1];
    assert_eq!(
        (sw.rw, sw.bs_write, sw.iodepth, sw.line),
        (RwMode::Write, 131_072, 1, 14)
    );
    assert!(sw.stonewall && sw.time_based);
    // As written, for fio's JSON "job options" / "global options".
    assert_eq!(
        sw.options,
        [
            ("stonewall".into(), String::new()),
            ("rw".into(), "write".into()),
            ("bs".into(), "128k".into())
        ]
    );
    assert_eq!(
        sw.global_options[1],
        ("direct".to_string(), "1".to_string())
    );
    assert_eq!(sw.global_options.len(), 5);
}

#[test]
fn unsupported_option_names_option_and_line() {
    let e = parse_job_file("[a]\nrw=read\nexec_prerun=ls\n", "x.fio").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("x.fio:3: unsupported option `exec_prerun`"),
        "{e}"
    );
    let e = parse_job_file("[a]\nrw=trimwrite\n", "x.fio").unwrap_err();
    assert!(e.to_string().starts_with("x.fio:2: rw=trimwrite"), "{e}");
    let e = parse_job_file("[global]\nbs=4k\n", "x.fio").unwrap_err();
    assert_eq!(
        e.to_string(),
        "x.fio: no job sections (only [global] or nothing)"
    );
}

#[test]
fn rwmix_and_thinktime_units() {
    let j = &parse_job_file("[a]\nrw=randrw\nrwmixwrite=30\nthinktime=250\n", "x").unwrap()[0];
    assert_eq!(j.rwmixread, 70);
    assert_eq!(j.rw.read_pct(j.rwmixread), 70);
    assert_eq!(j.thinktime, SimTime::from_us(250));
}

#[test]
fn zero_means_unset_as_in_fio() {
    // fio HOWTO: number_ios and io_size default to 0 = no limit / the region size;
    // runtime=0 = no time limit.
    let j = &parse_job_file("[a]\nnumber_ios=0\nio_size=0\nruntime=0\n", "x").unwrap()[0];
    assert_eq!((j.number_ios, j.io_size, j.runtime), (None, None, None));
}

#[test]
fn buffered_io_runs_direct_with_a_warning_naming_the_line() {
    let text = "[global]\ndirect=0\n[a]\nrw=read\n[b]\nbuffered=1\n[c]\ndirect=1\nbuffered=0\n";
    let jobs = parse_job_file(text, "x.fio").unwrap();
    let want = "x.fio:2: direct=0: no host page cache is modelled; the job runs as direct=1";
    assert_eq!(jobs[0].warnings, [want]);
    assert_eq!(jobs[1].warnings.len(), 2);
    assert!(jobs[1].warnings[1].starts_with("x.fio:6: buffered=1: no host page cache"));
    // The global warning once, then b's own; c's direct=1 / buffered=0 add nothing.
    assert_eq!(crate::fio::warnings(&jobs).len(), 2);
    assert!(parse_job_file("[a]\ndirect=2\n", "x.fio").is_err());
}

#[test]
fn an_unset_variable_is_named_in_the_options_error() {
    let e = parse_job_file("[a]\nsize=${SSDLAB_TEST_SURELY_UNSET}\n", "x.fio")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "x.fio:2: option `size` needs a value (${SSDLAB_TEST_SURELY_UNSET} unset: fio substitutes the empty string)"
    );
}

#[test]
fn percentile_list_is_sorted_and_bounded() {
    let j = &parse_job_file("[a]\npercentile_list=99.999:50:99\n", "x").unwrap()[0];
    assert_eq!(j.percentiles, [50.0, 99.0, 99.999]);
    let e = parse_job_file("[a]\npercentile_list=50:101\n", "x").unwrap_err();
    assert!(
        e.to_string().starts_with("x:2: percentile_list: 101"),
        "{e}"
    );
}
