//! The ONFI PHY's read return as the beat-level benches see it: the word of every data-out beat
//! comes back a fixed number of sequencer cycles after the beat (`SeqTiming::rd_return`: the
//! pin pipe, tDQSRE, the io wrapper's round trip and the capture register), in beat order. The
//! beat-level channel bench returns read data through it, so it exercises the overlap of a
//! word's return with the next phase (the benches at the pins get it from the PHY itself).

use std::collections::VecDeque;

/// Words on their way back, each with the cycle it arrives at.
#[derive(Debug)]
pub struct ReadReturn<T> {
    delay: u64,
    queue: VecDeque<(u64, T)>,
}

impl<T> ReadReturn<T> {
    /// Words come back `delay` cycles (1 or more) after their beats.
    pub fn new(delay: u32) -> Self {
        assert!(delay >= 1, "a read word comes back after its beat");
        ReadReturn {
            delay: delay as u64,
            queue: VecDeque::new(),
        }
    }
    /// The word a beat at cycle `n` reads.
    pub fn push(&mut self, n: u64, word: T) {
        debug_assert!(self.queue.back().is_none_or(|b| b.0 < n + self.delay));
        self.queue.push_back((n + self.delay, word));
    }
    /// The word arriving at cycle `n`, if any.
    pub fn take(&mut self, n: u64) -> Option<T> {
        debug_assert!(
            self.queue.front().is_none_or(|f| f.0 >= n),
            "a word was missed"
        );
        match self.queue.front() {
            Some(&(at, _)) if at == n => self.queue.pop_front().map(|f| f.1),
            _ => None,
        }
    }
}
