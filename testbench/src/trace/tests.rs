//! Trace loading and open-loop replay against the fixed-latency device.

use super::*;
use crate::workload::testdev::FixedLatencyDevice;
use crate::workload::Quiet;

/// `text` in a file `name` of a scratch directory, and its path; the directory is removed when
/// the returned guard drops.
fn write_tmp(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::Builder::new()
        .prefix("ssdlab-trace-")
        .tempdir()
        .unwrap();
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    (dir, p.display().to_string())
}

#[test]
fn msr_replay_open_loop() {
    // Arrivals at 0, 1 ms, 1 ms (10 000 ticks of 100 ns = 1 ms); 100 us service each.
    let text =
        "100,wdev,0,Read,0,4096,5\n10100,wdev,0,Write,8192,8192,5\n10100,wdev,1,Read,4096,4096,5\n";
    let (_dir, path) = write_tmp("a.csv", text);
    let ios = load(&path, None).unwrap();
    assert_eq!(ios.len(), 3);
    assert_eq!(ios[1].t, SimTime::from_ms(1));
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(100));
    let g = replay(
        &mut dev,
        &ios,
        &path,
        ReplayOptions {
            speed: 1.0,
            wrap: false,
        },
        &mut Quiet,
    )
    .unwrap();
    let j = &g.jobs[0];
    assert_eq!((j.read.ios, j.write.ios, j.write.bytes), (2, 1, 8192));
    assert_eq!(dev.log[1].0, SimTime::from_ms(1));
    assert_eq!((dev.log[1].1.queue, dev.log[2].1.queue), (0, 1));
    assert_eq!(g.window(), SimTime::from_us(1_100));
    // Twice as fast: the second arrival at 0.5 ms.
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(100));
    replay(
        &mut dev,
        &ios,
        &path,
        ReplayOptions {
            speed: 2.0,
            wrap: false,
        },
        &mut Quiet,
    )
    .unwrap();
    assert_eq!(dev.log[1].0, SimTime::from_us(500));
}

#[test]
fn blkparse_file_with_summary() {
    let text = "  8,0    1        1     0.000000000  10  Q   R 8 + 8 [fio]\n  8,0    1        2     0.000001000  10  G   R 8 + 8 [fio]\n  8,0    1        3     0.000200000  10  Q   W 16 + 16 [fio]\nCPU1 (8,0):\n Reads Queued: 1\n";
    let (_dir, path) = write_tmp("b.txt", text);
    let ios = load(&path, Some(Format::Blkparse)).unwrap();
    assert_eq!(ios.len(), 2);
    assert_eq!(
        (ios[1].op, ios[1].offset, ios[1].len, ios[1].t),
        (Op::Write, 8192, 8192, SimTime::from_us(200))
    );
}

#[test]
fn beyond_the_drive_is_an_error_unless_wrapped() {
    let (_dir, path) = write_tmp("c.csv", "1,h,0,Read,2147483648,4096,1\n");
    let ios = load(&path, None).unwrap();
    let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(10));
    let e = replay(
        &mut dev,
        &ios,
        &path,
        ReplayOptions {
            speed: 1.0,
            wrap: false,
        },
        &mut Quiet,
    )
    .unwrap_err();
    assert!(e.to_string().contains(":1: IO at byte 2147483648"), "{e}");
    let g = replay(
        &mut dev,
        &ios,
        &path,
        ReplayOptions {
            speed: 1.0,
            wrap: true,
        },
        &mut Quiet,
    )
    .unwrap();
    assert_eq!(g.jobs[0].read.ios, 1);
    assert_eq!(dev.log[0].1.offset, 0); // 2 GiB mod 1 GiB
}

#[test]
fn malformed_line_is_named() {
    let (_dir, path) = write_tmp("d.csv", "1,h,0,Read,0,4096,1\n2,h,0,Read,zero,4096,1\n");
    let e = load(&path, None).unwrap_err().to_string();
    assert!(e.ends_with(":2: Offset `zero` is not an integer"), "{e}");
}

#[test]
fn msr_records_out_of_order_are_replayed_in_time_order_from_the_earliest() {
    // The second record is 1 ms (10 000 ticks) earlier than the first: it arrives at 0, the
    // first at 1 ms, the third 2 ms after the earliest.
    let text = "20000,wdev,0,Read,0,4096,5\n10000,wdev,0,Write,8192,4096,5\n30000,wdev,0,Read,4096,4096,5\n";
    let (_dir, path) = write_tmp("order.csv", text);
    let ios = load(&path, None).unwrap();
    let got: Vec<(usize, SimTime, Op)> = ios.iter().map(|io| (io.line, io.t, io.op)).collect();
    assert_eq!(
        got,
        vec![
            (2, SimTime::ZERO, Op::Write),
            (1, SimTime::from_ms(1), Op::Read),
            (3, SimTime::from_ms(2), Op::Read),
        ]
    );
}
