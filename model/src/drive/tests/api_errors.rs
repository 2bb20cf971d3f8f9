//! The drive API refuses bad values with a `DriveError` and leaves the drive as it was: a read
//! or write of no bytes, a range past the capacity (or past 2^64 bytes), 4 GiB in one command,
//! a run target before now, an idle window past `SimTime::LIMIT`.

use super::*;

fn drive() -> Drive {
    Drive::new(&flat_cfg(), 1).unwrap()
}

fn io(op: IoOp, offset: u64, len: u64) -> HostIo {
    HostIo {
        op,
        offset,
        len,
        queue: 0,
    }
}

#[test]
fn a_read_or_write_of_no_bytes_is_refused() {
    let mut d = drive();
    for op in [IoOp::Read, IoOp::Write] {
        let e = d.submit(io(op, 8192, 0)).unwrap_err();
        assert_eq!(
            e,
            DriveError::ZeroLength {
                op: op.name(),
                offset: 8192
            }
        );
        assert!(e.to_string().contains("zero-length"), "{e}");
    }
    assert_eq!(d.outstanding(), 0, "nothing was submitted");
    // A trim of no bytes discards nothing and is a valid command.
    d.submit(io(IoOp::Trim, 0, 0)).unwrap();
    assert_eq!(run_all(&mut d).len(), 1);
}

#[test]
fn ranges_past_the_capacity_or_past_2_to_the_64_are_refused() {
    let mut d = drive();
    let cap = d.capacity_bytes();
    // offset + len wraps u64: without a checked sum it would pass as a small range.
    let wraps = io(IoOp::Read, u64::MAX - 511, 4096);
    let past = io(IoOp::Write, cap - 4096, 8192);
    for bad in [wraps, past, io(IoOp::Trim, cap, 4096)] {
        match d.submit(bad).unwrap_err() {
            DriveError::BeyondCapacity {
                offset, capacity, ..
            } => assert_eq!((offset, capacity), (bad.offset, cap)),
            e => panic!("{bad:?}: {e}"),
        }
    }
    assert_eq!(d.outstanding(), 0);
    // The last 4 KiB of the drive is inside.
    d.submit(io(IoOp::Write, cap - 4096, 4096)).unwrap();
    assert_eq!(run_all(&mut d).len(), 1);
}

#[test]
fn one_command_of_4_gib_is_refused() {
    let mut d = drive();
    let len = 4u64 << 30;
    assert!(d.capacity_bytes() > len, "inside the capacity");
    let e = d.submit(io(IoOp::Read, 0, len)).unwrap_err();
    assert_eq!(e, DriveError::TooLong { op: "read", len });
    assert_eq!(d.outstanding(), 0);
}

#[test]
fn run_targets_before_now_are_refused_and_time_does_not_move() {
    let mut d = drive();
    let mut done = Vec::new();
    d.run_until(SimTime::from_us(10), &mut done).unwrap();
    let before = SimTime::from_us(5);
    let e = d.run_until(before, &mut done).unwrap_err();
    assert!(
        matches!(
            e,
            DriveError::TimeBeforeNow {
                call: "run_until",
                ..
            }
        ),
        "{e}"
    );
    let e = d.run_until_completion_or(before, &mut done).unwrap_err();
    assert!(e.to_string().contains("is before now"), "{e}");
    assert_eq!(d.now(), SimTime::from_us(10));
}

#[test]
fn an_idle_window_past_the_time_limit_is_refused() {
    let mut d = drive();
    let mut done = Vec::new();
    d.run_until(SimTime::from_us(1), &mut done).unwrap();
    // now + LIMIT is one microsecond past the limit; SimTime::MAX would overflow u64.
    for span in [SimTime::LIMIT, SimTime::MAX] {
        let e = d.idle(span, &mut done).unwrap_err();
        assert!(e.to_string().contains("200 days"), "{e}");
    }
    assert_eq!(d.now(), SimTime::from_us(1));
}

#[test]
fn functional_writes_and_trims_past_the_capacity_change_nothing() {
    let mut d = drive();
    let cap = d.capacity_bytes();
    assert!(d.functional_write(cap, 4096).is_err());
    assert!(d.functional_write(u64::MAX - 4095, 8192).is_err());
    assert!(d.functional_trim(cap - 4096, 8192).is_err());
    // One bad offset among good ones: refused before anything is written.
    let e = d.functional_write_many(&[0, cap], 4096).unwrap_err();
    assert!(matches!(e, DriveError::BeyondCapacity { offset, .. } if offset == cap));
    assert_eq!(d.ftl.stats().host_units_written, 0);
    // The same call with both offsets inside writes one 4 KiB unit at each.
    d.functional_write_many(&[0, cap - 4096], 4096).unwrap();
    assert_eq!(d.ftl.stats().host_units_written, 2);
}
