//! Least-recently-used replacement over dense integer keys (translation-page numbers), as an
//! intrusive doubly linked list in two arrays: O(1) touch/insert/evict, no hashing, no
//! allocation after construction. Source: the DFTL page-level cache (Gupta et al., ASPLOS'09).

use super::layout::NONE;
use super::trans_cache::Replacement;

#[derive(Clone, Debug)]
pub struct Lru {
    prev: Vec<u32>,
    next: Vec<u32>,
    /// Most recently used.
    head: u32,
    /// Least recently used.
    tail: u32,
    len: u32,
}

impl Lru {
    pub fn new(keys: u32) -> Lru {
        Lru {
            prev: vec![NONE; keys as usize],
            next: vec![NONE; keys as usize],
            head: NONE,
            tail: NONE,
            len: 0,
        }
    }
    fn unlink(&mut self, k: u32) {
        let (p, n) = (self.prev[k as usize], self.next[k as usize]);
        if p == NONE {
            self.head = n
        } else {
            self.next[p as usize] = n
        }
        if n == NONE {
            self.tail = p
        } else {
            self.prev[n as usize] = p
        }
        self.len -= 1;
    }
    fn push_front(&mut self, k: u32) {
        self.prev[k as usize] = NONE;
        self.next[k as usize] = self.head;
        if self.head == NONE {
            self.tail = k
        } else {
            self.prev[self.head as usize] = k
        }
        self.head = k;
        self.len += 1;
    }
}

impl Replacement for Lru {
    fn touch(&mut self, k: u32) {
        if self.head != k {
            self.unlink(k);
            self.push_front(k);
        }
    }
    fn insert(&mut self, k: u32) {
        self.push_front(k);
    }
    fn evict(&mut self) -> u32 {
        let k = self.tail;
        assert!(k != NONE, "evict from an empty LRU");
        self.unlink(k);
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_least_recent() {
        let mut l = Lru::new(8);
        for k in [1, 2, 3] {
            l.insert(k);
        }
        l.touch(1);
        assert_eq!(l.evict(), 2);
        assert_eq!(l.evict(), 3);
        l.insert(5);
        assert_eq!(l.evict(), 1);
        assert_eq!(l.evict(), 5);
        assert_eq!(l.len, 0);
    }
}
