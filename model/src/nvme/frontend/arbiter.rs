//! Submission queue arbitration policy (NVM Express Base Specification 1.4, section 4.13).
//! The trait is the policy boundary; [`RoundRobin`] is the mandatory method (4.13.1: the admin
//! SQ and all I/O SQs at equal priority), [`super::wrr::WeightedRoundRobin`] the optional one.

/// Picks the next submission queue to fetch from. A pick allocates nothing (the front end
/// arbitrates once per fetched command).
pub trait SqArbiter: std::fmt::Debug {
    /// `ready[q]` tells whether queue `q` (0 = admin) has an unfetched entry. Returns the queue
    /// to fetch one command from, or `None` when none is ready.
    fn pick(&mut self, ready: &[bool]) -> Option<usize>;
    /// The policy's type name (`std::any::type_name`), for the drive's table of blocks it runs.
    fn policy(&self) -> &'static str;
}

/// Round robin starting after the queue served last (arbitration burst of one command).
#[derive(Clone, Debug, Default)]
pub struct RoundRobin {
    last: usize,
}

impl RoundRobin {
    /// Round robin whose first search starts after queue `last` (`RoundRobin::after(n - 1)`
    /// over `n` queues serves queue 0 first; the default, `after(0)`, serves queue 1 first,
    /// the first I/O queue when queue 0 is the admin SQ).
    pub fn after(last: usize) -> Self {
        RoundRobin { last }
    }

    /// Round robin over the `n` queues for which `eligible(q)` holds (a class of queues in
    /// weighted round robin, without building a mask).
    pub fn pick_where(&mut self, n: usize, eligible: impl Fn(usize) -> bool) -> Option<usize> {
        assert!(n > 0, "arbiter over zero queues");
        let last = if self.last < n {
            self.last
        } else {
            self.last % n
        };
        for i in 1..=n {
            // `last < n` and `i <= n`: one subtraction is the modulo.
            let q = match last + i {
                s if s >= n => s - n,
                s => s,
            };
            if eligible(q) {
                self.last = q;
                return Some(q);
            }
        }
        None
    }
}

impl SqArbiter for RoundRobin {
    fn pick(&mut self, ready: &[bool]) -> Option<usize> {
        self.pick_where(ready.len(), |q| ready[q])
    }
    fn policy(&self) -> &'static str {
        std::any::type_name::<Self>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_rotates_over_ready_queues() {
        let mut rr = RoundRobin::default();
        let ready = [true, false, true, true];
        // Starts after queue 0: serves 2, 3, 0, 2, ...
        let got: Vec<usize> = (0..5).map(|_| rr.pick(&ready).unwrap()).collect();
        assert_eq!(got, vec![2, 3, 0, 2, 3]);
        assert_eq!(rr.pick(&[false; 4]), None);
    }

    #[test]
    fn round_robin_after_the_last_queue_serves_queue_zero_first() {
        // Four queues, queue 2 empty: starting after queue 3 the order is 0, 1, 3, 0.
        let mut rr = RoundRobin::after(3);
        let ready = [true, true, false, true];
        let got: Vec<usize> = (0..4).map(|_| rr.pick(&ready).unwrap()).collect();
        assert_eq!(got, vec![0, 1, 3, 0]);
    }

    #[test]
    fn a_last_queue_beyond_the_count_wraps_as_its_remainder() {
        // After queue 9 of 4 queues is after queue 1 (9 mod 4): queue 2 is served first.
        let mut rr = RoundRobin::after(9);
        assert_eq!(rr.pick(&[true; 4]), Some(2));
        assert_eq!(rr.pick(&[true; 4]), Some(3));
    }
}
