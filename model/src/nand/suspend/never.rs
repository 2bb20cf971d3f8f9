//! Never suspend: a read waits for the whole program (tPROG) or erase (tBERS) ahead of it, as on
//! a die without suspend support.

use super::{SuspendPolicy, SuspendQuery};

#[derive(Clone, Copy, Debug)]
pub struct Never;

impl SuspendPolicy for Never {
    fn suspend(&self, _q: &SuspendQuery) -> bool {
        false
    }
}
