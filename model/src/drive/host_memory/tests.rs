use super::*;
use crate::rng::Lcg;

#[test]
fn prps_follow_the_page_count() {
    let buf = data_addr(1, 3);
    // One page: PRP2 unused; two: the next page; more: the list entry of the next page.
    assert_eq!(prps(1, 3, 0, 4096), (buf, 0));
    assert_eq!(prps(1, 3, 4096, 8192), (buf + 4096, buf + 8192));
    assert_eq!(prps(1, 3, 8192, 12288), (buf + 8192, list_addr(1, 3) + 16));
}

/// HostMemory paced one TLP at a time: the trait's per-TLP `upstream_writes` and
/// `upstream_reads`, and each read's completions sent by `Link::send_tlp` one by one.
struct PerTlp(HostMemory);

impl PerTlp {
    /// The completions of a read of `len` bytes at `addr`, MPS-split, one `send_tlp` each.
    fn completions(&mut self, addr: u64, len: u32) -> Cycle {
        let h = &mut self.0;
        let ready = h.up_end + h.rc.latency;
        let (mut a, stop, mut last) = (addr, addr + len as u64, ready);
        while a < stop {
            let next = ((a & !(h.rc.mps - 1)) + h.rc.mps).min(stop);
            last = h
                .link
                .send_tlp(ready, Dir::Down, CPL_HEADER_BYTES, next - a)
                .1;
            a = next;
        }
        cycle_at_or_after(last)
    }
}

impl HostPort for PerTlp {
    fn read(&mut self, c: Cycle, a: u64, n: u32) -> (Vec<u8>, Cycle) {
        (self.0.region_bytes(a, n), self.read_timing(c, a, n))
    }
    fn read_timing(&mut self, _c: Cycle, a: u64, n: u32) -> Cycle {
        self.completions(a, n)
    }
    fn write(&mut self, c: Cycle, a: u64, d: &[u8]) {
        self.0.write(c, a, d)
    }
    fn write_timing(&mut self, c: Cycle, a: u64, n: u32) {
        self.0.write_timing(c, a, n)
    }
    fn upstream(&mut self, r: Cycle, k: TlpKind, n: u32) -> Cycle {
        self.0.upstream(r, k, n)
    }
}

/// A host on a random link with random traffic behind it on both directions (either busy or
/// idle, owing ACK bytes or counting unacknowledged TLPs), and a copy paced TLP by TLP.
fn random_hosts(rng: &mut Lcg) -> (HostMemory, PerTlp) {
    let mut pcie = crate::config::DriveConfig::default_drive().pcie;
    pcie.lanes = [1, 4, 16][rng.below(3) as usize];
    pcie.mps_bytes = [128, 256, 512][rng.below(3) as usize];
    pcie.tlps_per_ack = 1 + rng.below(6) as u32;
    pcie.host_read_latency_ns = [0.0, 100.0, 800.0][rng.below(3) as usize];
    let (mut fast, mut slow) = (
        HostMemory::new(&pcie, 2, 8),
        PerTlp(HostMemory::new(&pcie, 2, 8)),
    );
    for _ in 0..rng.below(6) {
        let d = [Dir::Up, Dir::Down][rng.below(2) as usize];
        let (at, bytes) = (SimTime(rng.below(2_000_000)), rng.below(9000));
        for h in [&mut fast, &mut slow.0] {
            h.link.memory_write(at, d, bytes);
        }
    }
    (fast, slow)
}

#[test]
fn random_data_moves_pace_as_one_tlp_at_a_time() {
    let mut rng = Lcg(17);
    let mut reqs = Vec::new();
    for case in 0..2000 {
        let (mut fast, mut slow) = random_hosts(&mut rng);
        // A move as the front end cuts it: MRd <= MRRS or MWr <= MPS at aligned boundaries,
        // from an unaligned address, of a length not a multiple of either (up to 80 KiB).
        let addr = data_addr(1, 2) + rng.below(8192);
        let len = 1 + rng.below(80 * 1024) as u32;
        let max = [128, 256, 512, 1024][rng.below(4) as usize];
        reqs.clear();
        crate::nvme::frontend::tlp::split_aligned(addr, len, max, &mut reqs);
        let (ready, port_free) = (rng.below(600), rng.below(600));
        if rng.below(2) == 0 {
            let got = fast.upstream_reads(ready, port_free, &reqs);
            let want = slow.upstream_reads(ready, port_free, &reqs);
            assert_eq!(got, want, "case {case}: reads' port free and done cycles");
        } else {
            let got = fast.upstream_writes(ready, port_free, &reqs);
            let want = slow.upstream_writes(ready, port_free, &reqs);
            assert_eq!(got, want, "case {case}: writes' port free cycle");
        }
        assert_eq!(
            fast.up_end, slow.0.up_end,
            "case {case}: last TLP's arrival"
        );
        assert_eq!(
            fast.link.dirs_state(),
            slow.0.link.dirs_state(),
            "case {case}"
        );
    }
}

#[test]
fn a_burst_of_data_writes_paces_as_one_tlp_at_a_time() {
    let cfg = crate::config::DriveConfig::default_drive();
    let (mut burst, mut single) = (
        HostMemory::new(&cfg.pcie, 2, 8),
        PerTlp(HostMemory::new(&cfg.pcie, 2, 8)),
    );
    // Downstream traffic first, so ACK DLLPs are owed upstream and ride on the first MWr.
    for h in [&mut burst, &mut single.0] {
        h.link.memory_write(SimTime::ZERO, Dir::Down, 8192);
    }
    // A 4 KiB move at 256 B (16 MWr, link-bound) and an uneven one that starts late.
    let buf = data_addr(1, 2);
    let even: Vec<(u64, u32)> = (0..16).map(|i| (buf + 256 * i, 256)).collect();
    let uneven = [(buf + 8192, 100), (buf + 8292, 156), (buf + 8448, 64)];
    for (ready, reqs) in [(3, &even[..]), (2_000, &uneven[..])] {
        let free = burst.upstream_writes(ready, 5, reqs);
        assert_eq!(
            free,
            single.upstream_writes(ready, 5, reqs),
            "port free cycle"
        );
        assert_eq!(burst.up_end, single.0.up_end, "last TLP's arrival");
        for d in [Dir::Up, Dir::Down] {
            assert_eq!(
                burst.link.stats(d),
                single.0.link.stats(d),
                "{d:?} counters"
            );
            assert_eq!(burst.link.free_at(d), single.0.link.free_at(d));
        }
    }
    // By hand (MPS 256, 4DW headers of 16 B, 8 B framing, one 8 B ACK per 4 TLPs): 8 KiB
    // down is 32 MWr, so 8 ACKs are owed upstream and ride ahead of the first upstream MWr;
    // the 19 MWr up owe 4 ACKs downstream. Upstream wire bytes: 16 x (256 + 24) +
    // (100 + 24) + (156 + 24) + (64 + 24) + 8 x 8 = 4936.
    let up = burst.link.stats(Dir::Up);
    assert_eq!((up.tlps, up.dllps, up.wire_bytes), (19, 8, 4936));
    assert_eq!(burst.link.stats(Dir::Down).dllps, 4);
}

#[test]
fn a_burst_of_data_reads_paces_as_one_tlp_at_a_time() {
    let cfg = crate::config::DriveConfig::default_drive();
    let (mut burst, mut single) = (
        HostMemory::new(&cfg.pcie, 2, 8),
        PerTlp(HostMemory::new(&cfg.pcie, 2, 8)),
    );
    for h in [&mut burst, &mut single.0] {
        h.link.memory_write(SimTime::ZERO, Dir::Up, 8192);
    }
    // A 4 KiB move at MRRS 512 (8 MRd), an uneven one, and 40 MRd (tags reused past 32).
    let buf = data_addr(1, 2);
    let even: Vec<(u64, u32)> = (0..8).map(|i| (buf + 512 * i, 512)).collect();
    let uneven = [(buf + 8192, 100), (buf + 8292, 412), (buf + 8704, 64)];
    let many: Vec<(u64, u32)> = (0..40).map(|i| (buf + 512 * i, 512)).collect();
    for (ready, reqs) in [(3, &even[..]), (2_000, &uneven[..]), (2_100, &many[..])] {
        let got = burst.upstream_reads(ready, 5, reqs);
        assert_eq!(got, single.upstream_reads(ready, 5, reqs), "free, done");
        assert_eq!(burst.up_end, single.0.up_end, "last TLP's arrival");
        for d in [Dir::Up, Dir::Down] {
            assert_eq!(burst.link.stats(d), single.0.link.stats(d), "{d:?}");
            assert_eq!(burst.link.free_at(d), single.0.link.free_at(d));
        }
    }
}

#[test]
fn list_entries_point_at_the_following_pages() {
    let h = HostMemory::new(&crate::config::DriveConfig::default_drive().pcie, 2, 8);
    let l = h.region_bytes(list_addr(1, 3) + 16, 16);
    let e0 = u64::from_le_bytes(l[..8].try_into().unwrap());
    let e1 = u64::from_le_bytes(l[8..].try_into().unwrap());
    // Entries 2 and 3 describe pages 3 and 4 of the buffer.
    assert_eq!(
        (e0, e1),
        (data_addr(1, 3) + 3 * 4096, data_addr(1, 3) + 4 * 4096)
    );
}
