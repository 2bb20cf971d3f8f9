//! PRP data movement (section 4.3): list fetches, then host→device data as MRd ≤ MRRS with up
//! to `DATA_TAGS` reads in flight, or device→host data as MWr ≤ MPS, cut at naturally aligned
//! boundaries so no request crosses 4 KiB (PCI Express Base 3.0, section 2.2.7).

use super::prp;
use super::tlp::{split_aligned, Cycle, TlpKind, TlpPurpose};
use super::{FrontEnd, HostPort, DATA_TAGS};
use crate::encoding::nvme::Status;

/// Direction of a command's data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Host memory → controller (NVM Write): MRd.
    FromHost,
    /// Controller → host memory (NVM Read, Identify): MWr.
    ToHost,
}

impl FrontEnd {
    /// Moves `len` bytes described by `prp1`/`prp2`, starting at `cycle`. For `ToHost`,
    /// `data` holds the bytes to write; for `FromHost` the bytes read are returned. Returns the
    /// data and the cycle the transfer finished, or the PRP status that failed it.
    // The arguments are the DMA command's own fields (PRP1, PRP2, length, direction, data) plus
    // the clock and the host: a struct for them would be built at each call and taken apart here.
    #[allow(clippy::too_many_arguments)]
    pub fn transfer(
        &mut self,
        cycle: Cycle,
        prp1: u64,
        prp2: u64,
        len: u32,
        dir: Direction,
        data: &[u8],
        host: &mut impl HostPort,
    ) -> Result<(Vec<u8>, Cycle), Status> {
        assert!(
            dir == Direction::FromHost || data.len() == len as usize,
            "write data length mismatch"
        );
        let mut out = Vec::new();
        if dir == Direction::FromHost {
            out.reserve(len as usize);
        }
        let done = self.run_move(
            cycle,
            (prp1, prp2, len),
            dir,
            Some(data),
            Some(&mut out),
            host,
        )?;
        Ok((out, done))
    }

    /// [`FrontEnd::transfer`] without data bytes (the host's [`HostPort::read_timing`] and
    /// [`HostPort::write_timing`]): the same TLPs at the same cycles, for a caller that models
    /// no data (the drive). Returns the cycle the move finished.
    pub fn move_timing(
        &mut self,
        cycle: Cycle,
        (prp1, prp2, len): (u64, u64, u32),
        dir: Direction,
        host: &mut impl HostPort,
    ) -> Result<Cycle, Status> {
        self.run_move(cycle, (prp1, prp2, len), dir, None, None, host)
    }

    fn run_move(
        &mut self,
        cycle: Cycle,
        (prp1, prp2, len): (u64, u64, u32),
        dir: Direction,
        data: Option<&[u8]>,
        mut out: Option<&mut Vec<u8>>,
        host: &mut impl HostPort,
    ) -> Result<Cycle, Status> {
        let mut now = cycle;
        let mut reqs = std::mem::take(&mut self.move_reqs);
        let planned = self.plan_requests(&mut now, prp1, prp2, len, dir, host, &mut reqs);
        if let Err(s) = planned {
            self.move_reqs = reqs;
            return Err(s);
        }
        let mut done = now;
        match dir {
            // No bytes and no TLP log: the host paces the whole burst at once (same cycles).
            Direction::FromHost if out.is_none() && !self.port.logging() && !reqs.is_empty() => {
                done = self.port.send_reads(host, now, &reqs);
            }
            Direction::FromHost => {
                let mut tags = [now; DATA_TAGS];
                for (i, &(a, n)) in reqs.iter().enumerate() {
                    let slot = i % DATA_TAGS;
                    let at = self.port.send(
                        host,
                        tags[slot],
                        TlpKind::MemRead,
                        TlpPurpose::DataIn,
                        a,
                        n,
                    );
                    let arrived = match out.as_deref_mut() {
                        Some(o) => {
                            let (d, arrived) = host.read(at, a, n);
                            o.extend_from_slice(&d);
                            arrived
                        }
                        None => host.read_timing(at, a, n),
                    };
                    tags[slot] = arrived;
                    done = done.max(arrived + 1);
                }
            }
            // No bytes and no TLP log: the host paces the whole burst at once (same cycles).
            Direction::ToHost if data.is_none() && !self.port.logging() && !reqs.is_empty() => {
                done = self.port.send_writes(host, now, &reqs);
            }
            Direction::ToHost => {
                let mut off = 0usize;
                for &(a, n) in &reqs {
                    let at =
                        self.port
                            .send(host, now, TlpKind::MemWrite, TlpPurpose::DataOut, a, n);
                    match data {
                        Some(d) => host.write(at, a, &d[off..off + n as usize]),
                        None => host.write_timing(at, a, n),
                    }
                    off += n as usize;
                    done = self.port.free_cycle();
                }
            }
        }
        self.move_reqs = reqs;
        Ok(done)
    }

    /// Walks the PRPs of a move from cycle `*now`, sending its PRP list reads (MRd <= MRRS, one
    /// after another; `*now` becomes the cycle after the last list completion), and returns its
    /// data requests into `reqs` (cleared first): MRd <= MRRS or MWr <= MPS at naturally
    /// aligned boundaries.
    // The move's own fields, the clock, the host and the output buffer (see `transfer`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn plan_requests(
        &mut self,
        now: &mut Cycle,
        prp1: u64,
        prp2: u64,
        len: u32,
        dir: Direction,
        host: &mut impl HostPort,
        reqs: &mut Vec<(u64, u32)>,
    ) -> Result<(), Status> {
        let (port, mrrs, walk) = (&mut self.port, self.mrrs, &mut self.move_walk);
        let listed = prp::walk_into(
            prp1,
            prp2,
            len,
            |addr, bytes| {
                let mut parts = Vec::new();
                split_aligned(addr, bytes, mrrs, &mut parts);
                let mut buf = Vec::with_capacity(bytes as usize);
                for (a, n) in parts {
                    let at = port.send(host, *now, TlpKind::MemRead, TlpPurpose::PrpList, a, n);
                    let (d, arrived) = host.read(at, a, n);
                    buf.extend_from_slice(&d);
                    *now = arrived + 1;
                }
                buf
            },
            walk,
        );
        listed?;
        let max = if dir == Direction::FromHost {
            self.mrrs
        } else {
            self.mps
        };
        reqs.clear();
        for &(a, n) in &self.move_walk.segments {
            split_aligned(a, n, max, reqs);
        }
        Ok(())
    }
}
