//! Suspend when the read would wait longer than a threshold (`nand.suspend.wait_over_us`): a
//! program or erase near its end finishes first, since the suspend and resume latencies would
//! cost more than the wait they save.

use super::{SuspendPolicy, SuspendQuery};
use crate::time::SimTime;

#[derive(Clone, Copy, Debug)]
pub struct WaitOver {
    pub threshold: SimTime,
}

impl SuspendPolicy for WaitOver {
    fn suspend(&self, q: &SuspendQuery) -> bool {
        q.array_left > self.threshold
    }
}
