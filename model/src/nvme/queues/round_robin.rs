//! Round-robin queue arbitration (NVMe 1.4 §4.11.1, arbitration burst of 1): the queues with a
//! command ready are served in index order, one command each, starting after the last served.

use super::Arbiter;

#[derive(Clone, Debug)]
pub struct RoundRobin {
    /// Queue served last; the search starts at the next one.
    last: u16,
    queues: u16,
}

impl RoundRobin {
    pub fn new(queues: u32) -> Self {
        assert!((1..=65535).contains(&queues), "validated queue count");
        RoundRobin {
            last: (queues - 1) as u16,
            queues: queues as u16,
        }
    }
}

impl Arbiter for RoundRobin {
    fn pick(&mut self, ready: &[bool]) -> Option<u16> {
        debug_assert_eq!(ready.len(), self.queues as usize);
        let n = self.queues as usize;
        for k in 1..=n {
            let q = (self.last as usize + k) % n;
            if ready[q] {
                self.last = q as u16;
                return Some(q as u16);
            }
        }
        None
    }
}
