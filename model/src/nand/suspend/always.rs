//! Always suspend: every read the sequencer's rules allow (next in the queue, under the cap,
//! after the minimum progress) suspends the program or erase ahead of it.

use super::{SuspendPolicy, SuspendQuery};

#[derive(Clone, Copy, Debug)]
pub struct Always;

impl SuspendPolicy for Always {
    fn suspend(&self, _q: &SuspendQuery) -> bool {
        true
    }
}
