//! The array side of the NAND target: the confirm commands that start an array operation
//! (30h/32h read, 10h/11h/1Ah program, D0h/D1h erase, multi-plane), the page registers moved to or
//! from the flash array, R/B# low for tWB plus the bench's array time, and the sequential cache
//! read (31h/3Fh: the data register moves to the cache register, tRCBSY, the next page's read
//! running behind it).

use super::{Expect, NandTarget};
use ssdlab_model::encoding::onfi::*;

impl NandTarget {
    /// Starts the array operation confirmed at cycle `n`; returns its array time.
    pub(super) fn go_busy(&mut self, n: u64) -> u64 {
        let Some(a) = self.array_cycles.pop_front() else {
            self.violation(
                n,
                "operation confirmed but the bench gave no array time".into(),
            );
            return 0;
        };
        // R/B# falls within tWB of WE# high and rises after the array time.
        self.busy_until = n + self.t.latch as u64 + self.t.t_wb as u64 + a;
        self.array_free = self.busy_until;
        a
    }
    pub(super) fn page_or_erased(&self, row: u32) -> Vec<u8> {
        self.pages
            .get(&row)
            .cloned()
            .unwrap_or_else(|| vec![0xFF; self.page_bytes])
    }
    /// 31h (read cache sequential) or 3Fh (read cache end) latched at cycle `n`.
    pub(super) fn cache_command(&mut self, n: u64, cmd: u8) {
        let Some(row) = self.data_row else {
            self.violation(
                n,
                format!("{cmd:02X}h with no page read (00h-30h/31h) before it"),
            );
            return;
        };
        // RDY low within tWB, until the array read in progress ends, then tRCBSY while the
        // data register moves into the cache register.
        let ready = (n + self.t.latch as u64 + self.t.t_wb as u64).max(self.array_free)
            + self.t.t_rcbsy as u64;
        self.busy_until = ready;
        let data = self.page_or_erased(row);
        self.page_reg.insert(self.plane_of(row), data);
        self.out_row = Some(row);
        self.out_col = 0;
        self.out_ok_from = ready + self.t.t_rr as u64;
        if cmd == READ_CACHE_SEQ {
            if (row + 1) % self.plane_stride == 0 {
                self.violation(
                    n,
                    format!("31h after the last page of the block (row {row:#x})"),
                );
            }
            self.data_row = Some(row + 1);
            self.array_free = ready + self.cache_tr;
        } else {
            self.data_row = None;
            self.array_free = ready;
        }
    }

    /// 32h (one plane of a multi-plane read addressed) or 30h: the addressed planes' pages go to
    /// their page registers and the array read starts (tWB, tR; data out after tRR).
    pub(super) fn read_confirm(&mut self, n: u64, cmd: u8) {
        let row = self.row_of_addr(true);
        self.planes_addressed.push(row);
        if cmd == READ_2 {
            let single = self.planes_addressed.len() == 1;
            for r in std::mem::take(&mut self.planes_addressed) {
                let data = self.page_or_erased(r);
                let p = self.plane_of(r);
                self.page_reg.insert(p, data);
            }
            self.out_row = Some(row);
            self.out_col = self.col_of_addr();
            self.cache_tr = self.go_busy(n);
            self.out_ok_from = self.busy_until + self.t.t_rr as u64;
            // A single-plane read may continue as a sequential cache read (31h/3Fh).
            self.data_row = single.then_some(row);
        }
        self.expect = Expect::Command;
    }

    /// 11h (one plane's data loaded), 1Ah (a one-shot program's page loaded on every addressed
    /// plane, the next page follows) or 10h: every page loaded (the addressed planes' page
    /// registers, and a one-shot program's earlier pages) is written to its row (a whole page,
    /// never twice without an erase) and tPROG starts.
    pub(super) fn program_confirm(&mut self, n: u64, cmd: u8) {
        self.in_row = None;
        if cmd == PROGRAM_NEXT_PAGE {
            for r in std::mem::take(&mut self.planes_addressed) {
                let p = self.plane_of(r);
                let data = self.page_reg.remove(&p).unwrap_or_default();
                self.one_shot.push((r, data));
            }
        }
        if cmd == PROGRAM_2 {
            let mut loaded = std::mem::take(&mut self.one_shot);
            for r in std::mem::take(&mut self.planes_addressed) {
                let p = self.plane_of(r);
                loaded.push((r, self.page_reg.remove(&p).unwrap_or_default()));
            }
            for (r, data) in loaded {
                if data.len() != self.page_bytes {
                    self.violation(
                        n,
                        format!(
                            "program of row {r:#x} with {} bytes, page is {}",
                            data.len(),
                            self.page_bytes
                        ),
                    );
                }
                if self.pages.contains_key(&r) {
                    self.violation(n, format!("row {r:#x} programmed twice without erase"));
                }
                self.pages.insert(r, data);
            }
            self.pe_open = true;
            self.go_busy(n);
        }
        self.expect = Expect::Command;
    }

    /// D1h (one plane's block addressed) or D0h: every addressed block is erased and tBERS starts.
    pub(super) fn erase_confirm(&mut self, n: u64, cmd: u8) {
        let row = self.row_of_addr(false);
        self.planes_addressed.push(row);
        if cmd == ERASE_2 {
            for r in std::mem::take(&mut self.planes_addressed) {
                let block = r / self.plane_stride;
                self.pages.retain(|k, _| k / self.plane_stride != block);
            }
            self.pe_open = true;
            self.go_busy(n);
        }
        self.expect = Expect::Command;
    }
}
