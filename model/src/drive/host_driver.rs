//! The host's NVMe driver as the drive's front end sees it (NVM Express Base Specification 1.4,
//! sections 4.1 queues and 7.2 command processing; the shape of Linux's `nvme-pci`): per I/O
//! queue pair, the SQ tail it writes entries at, the command identifiers (CIDs) of the commands
//! it has outstanding (at most `entries - 1`: a full ring keeps one slot empty, section 4.1.1,
//! and a CID is free again when its completion has been taken), and the CQ head it has consumed
//! to. Queue pair `q` of the drive's API is NVMe queue id `q + 1` (id 0 is the admin queue).

/// One I/O queue pair's host-side state.
#[derive(Clone, Debug)]
struct Pair {
    sq_tail: u32,
    cq_head: u32,
    free_cids: Vec<u16>,
    /// Drive command slot of each CID in use.
    cmd_of: Vec<u32>,
}

/// The host driver's queue pairs, indexed by queue id (0 unused).
#[derive(Clone, Debug)]
pub struct HostDriver {
    entries: u32,
    pairs: Vec<Pair>,
}

impl HostDriver {
    /// `io_queues` pairs of `entries` entries each (ids 1..=io_queues).
    pub fn new(io_queues: u16, entries: u32) -> Self {
        assert!(entries >= 2, "validated config");
        let pair = Pair {
            sq_tail: 0,
            cq_head: 0,
            // CIDs are taken from the end: 0 first.
            free_cids: (0..(entries - 1).min(u16::MAX as u32 + 1) as u16)
                .rev()
                .collect(),
            cmd_of: Vec::new(),
        };
        let mut pairs = vec![pair; io_queues as usize + 1];
        pairs[0].free_cids.clear();
        HostDriver { entries, pairs }
    }

    /// Whether queue `qid` can take another command now.
    pub fn has_room(&self, qid: u16) -> bool {
        !self.pairs[qid as usize].free_cids.is_empty()
    }

    /// Places drive command `cmd` in SQ `qid`: its CID, its SQ slot and the new tail to ring.
    pub fn submit(&mut self, qid: u16, cmd: u32) -> (u16, u32, u32) {
        let entries = self.entries;
        let p = &mut self.pairs[qid as usize];
        let cid = p.free_cids.pop().expect("has_room checked before submit");
        if p.cmd_of.len() <= cid as usize {
            p.cmd_of.resize(cid as usize + 1, u32::MAX);
        }
        p.cmd_of[cid as usize] = cmd;
        let slot = p.sq_tail;
        p.sq_tail = crate::nvme::frontend::ring::next_slot(slot, entries);
        (cid, slot, p.sq_tail)
    }

    /// Drive command slot of CID `cid` on queue pair `qid` (outstanding).
    pub fn cmd_of(&self, qid: u16, cid: u16) -> u32 {
        self.pairs[qid as usize].cmd_of[cid as usize]
    }

    /// The host took the completion of CID `cid` on queue pair `qid`: its drive command, and
    /// the CID is free again.
    pub fn take_completion(&mut self, qid: u16, cid: u16) -> u32 {
        let p = &mut self.pairs[qid as usize];
        let cmd = std::mem::replace(&mut p.cmd_of[cid as usize], u32::MAX);
        assert_ne!(
            cmd,
            u32::MAX,
            "completion of CID {cid} on queue {qid}, not outstanding"
        );
        p.free_cids.push(cid);
        cmd
    }

    /// The host consumed `n` more entries of CQ `qid`: the new head for its doorbell.
    pub fn consume(&mut self, qid: u16, n: u32) -> u32 {
        let p = &mut self.pairs[qid as usize];
        // At most `entries` entries are consumed at once: one subtraction is the modulo.
        debug_assert!(p.cq_head < self.entries && n <= self.entries);
        p.cq_head = match p.cq_head + n {
            h if h >= self.entries => h - self.entries,
            h => h,
        };
        p.cq_head
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queue_of_four_entries_holds_three_commands() {
        let mut h = HostDriver::new(1, 4);
        let placed: Vec<_> = (0..3).map(|c| h.submit(1, 10 + c)).collect();
        // CIDs 0, 1, 2 in slots 0, 1, 2; the tail after each is the next slot.
        assert_eq!(placed, [(0, 0, 1), (1, 1, 2), (2, 2, 3)]);
        assert!(!h.has_room(1));
        assert_eq!(h.take_completion(1, 1), 11);
        assert!(h.has_room(1));
        // The freed CID 1 goes to the next command, in slot 3; the tail wraps to 0.
        assert_eq!(h.submit(1, 13), (1, 3, 0));
        assert_eq!(h.consume(1, 3), 3);
        assert_eq!(h.consume(1, 2), 1);
    }
}
