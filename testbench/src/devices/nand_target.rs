//! NAND target (one chip enable, one LUN) for the sequencer test bench, in plain Rust like
//! rust-hdl-sim's SDRAM chip model: decodes the bus cycles the sequencer drives at its PHY
//! boundary (command/address latches, data beats), enforces the ONFI 4.1 timing the sequencer
//! must respect (tWC between latches, tADL, tWHR, tCCS, tRR, no command while busy), holds page
//! data, and drives R/B# with the array time the bench gives each operation (tR/tPROG/tBERS from
//! the same config the model uses). Sequential cache read (ONFI 4.1 section 5.6): after a
//! 00h-30h read, 31h moves the data register's page into the cache register and starts the
//! array read of the next page; R/B# (RDY) is low for tWB, the rest of any array read in
//! progress and tRCBSY; 3Fh moves the last page without a new read. Rejected: 31h/3Fh with no
//! read before it, 31h past the block's last page, other commands while the array still reads
//! (ARDY = 0), data out before RDY + tRR. One-shot (TLC) program: each page's planes loaded
//! as a multi-plane program closed by 1Ah instead of 10h, the last page's by 10h, which programs
//! every page loaded. Any illegal sequence or timing is recorded as a violation; the bench fails
//! the test on the first one.
//!
//! Row address layout (bench convention): `row = block * plane_stride + page`, the plane is the
//! lowest block bit (`(row / plane_stride) % 4`).

mod array;
mod data;
mod suspend;

pub use suspend::TargetSuspend;

use ssdlab_model::encoding::onfi::*;
use ssdlab_model::nand::sequencer::SeqTiming;
use std::collections::{HashMap, VecDeque};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Next latch must be a command.
    Command,
    /// Collecting `left` address bytes after command `cmd`.
    Address { cmd: u8, left: u32 },
    /// Address of `cmd` complete: waiting for its confirm command (or data in for 80h).
    Confirm { cmd: u8 },
}

/// One target (way).
#[derive(Debug)]
pub struct NandTarget {
    t: SeqTiming,
    plane_stride: u32,
    way: u8,
    expect: Expect,
    addr: Vec<u8>,
    last_latch: Option<u64>,
    /// Cycle the last latch ended (WE# high).
    last_latch_end: u64,
    busy_until: u64,
    /// Array cycles of the coming busy periods, in op order (given by the bench).
    array_cycles: VecDeque<u64>,
    /// Rows addressed since the last confirm (multi-plane).
    planes_addressed: Vec<u32>,
    /// Pages of a one-shot program loaded so far (closed by 1Ah), programmed at its 10h.
    one_shot: Vec<(u32, Vec<u8>)>,
    /// Page registers by plane: data read from the array or loaded by data in.
    page_reg: HashMap<u8, Vec<u8>>,
    /// Row whose register data out reads, and the column (byte) pointer.
    out_row: Option<u32>,
    out_col: usize,
    /// Earliest cycle data out may start (tRR, tWHR, tCCS).
    out_ok_from: u64,
    status_mode: bool,
    in_row: Option<u32>,
    in_ok_from: u64,
    /// Cache read: row the data register holds (or is being read into), after 30h/31h.
    data_row: Option<u32>,
    /// End of the array read in progress (ARDY low until then).
    array_free: u64,
    /// tR of the read sequence in progress (each 31h reads one more page with it).
    cache_tr: u64,
    /// The flash array: row -> page bytes.
    pages: HashMap<u32, Vec<u8>>,
    page_bytes: usize,
    /// Suspend support (none: B0h is an illegal command).
    sus: Option<TargetSuspend>,
    /// A program or erase was confirmed and its status not yet read.
    pe_open: bool,
    /// Suspended: the array cycles the operation had left.
    suspended: Option<u64>,
    /// Cycle (at the pins) the last resume was latched at.
    resumed_at: Option<u64>,
    pub violations: Vec<String>,
}

impl NandTarget {
    /// The cycle the NAND sees a beat-port event of cycle `n` at: `SeqTiming::rb_lag` later, the
    /// delay an ONFI PHY puts between the beat port and the pins (and R/B# back), so the
    /// controller sees R/B# as it would through the PHY. 0 behind the pin-level target, whose
    /// pins carry the PHY's real delay.
    fn at_pins(&self, n: u64) -> u64 {
        n + self.t.rb_lag as u64
    }

    pub fn new(t: SeqTiming, plane_stride: u32, way: u8, page_bytes: usize) -> Self {
        NandTarget {
            t,
            plane_stride,
            way,
            expect: Expect::Command,
            addr: Vec::new(),
            last_latch: None,
            last_latch_end: 0,
            busy_until: 0,
            array_cycles: VecDeque::new(),
            planes_addressed: Vec::new(),
            one_shot: Vec::new(),
            page_reg: HashMap::new(),
            out_row: None,
            out_col: 0,
            out_ok_from: u64::MAX,
            status_mode: false,
            in_row: None,
            in_ok_from: u64::MAX,
            data_row: None,
            array_free: 0,
            cache_tr: 0,
            pages: HashMap::new(),
            page_bytes,
            sus: None,
            pe_open: false,
            suspended: None,
            resumed_at: None,
            violations: Vec::new(),
        }
    }
    /// Stores `data` at byte `column` of the page at `row` (the rest of a new page erased,
    /// 0xFF), as a program there would have: a functional precondition's data.
    pub fn preload(&mut self, row: u32, column: usize, data: &[u8]) {
        let page = self
            .pages
            .entry(row)
            .or_insert_with(|| vec![0xFF; self.page_bytes]);
        page[column..column + data.len()].copy_from_slice(data);
    }

    /// The array time of the next operation that goes busy.
    pub fn push_array_cycles(&mut self, c: u64) {
        self.array_cycles.push_back(c);
    }
    /// R/B# at cycle `n`: true = ready.
    pub fn ready(&self, n: u64) -> bool {
        n >= self.busy_until
    }
    /// The cycle R/B# goes ready (changes only on commands and pushed array times): a bench
    /// may run ahead to it without stepping the target.
    pub fn ready_at(&self) -> u64 {
        self.busy_until
    }
    fn violation(&mut self, n: u64, what: String) {
        if self.violations.len() < 16 {
            self.violations
                .push(format!("way {} cycle {n}: {what}", self.way));
        }
    }
    fn plane_of(&self, row: u32) -> u8 {
        ((row / self.plane_stride) % 4) as u8
    }
    fn row_of_addr(&self, full: bool) -> u32 {
        let row_bytes = if full {
            &self.addr[2..]
        } else {
            &self.addr[..]
        };
        row_bytes
            .iter()
            .enumerate()
            .fold(0u32, |r, (i, b)| r | (*b as u32) << (8 * i))
    }
    /// The column of a full (column + row) address: its first two bytes, low byte first.
    fn col_of_addr(&self) -> usize {
        self.addr[0] as usize | (self.addr[1] as usize) << 8
    }
    fn check_latch(&mut self, n: u64) {
        if let Some(l) = self.last_latch {
            if n < l + self.t.latch as u64 {
                self.violation(
                    n,
                    format!(
                        "latch {} cycles after the previous one (tWC = {})",
                        n - l,
                        self.t.latch
                    ),
                );
            }
        }
        self.last_latch = Some(n);
        self.last_latch_end = n + self.t.latch as u64;
    }

    /// A command latch at cycle `n`.
    pub fn command(&mut self, n: u64, cmd: u8) {
        let n = self.at_pins(n);
        if self.suspend_command(n, cmd) {
            return;
        }
        if self.suspended.is_some()
            && !matches!(
                cmd,
                READ_1 | READ_2 | READ_MULTIPLANE | CHANGE_COL_1 | CHANGE_COL_2
            )
        {
            self.violation(
                n,
                format!("command {cmd:02X}h while suspended (only reads)"),
            );
        }
        if cmd == READ_STATUS {
            self.pe_open = false;
        }
        self.check_latch(n);
        if !self.ready(n) {
            self.violation(
                n,
                format!("command {cmd:02X}h while busy (until {})", self.busy_until),
            );
        }
        self.status_mode = false;
        let cache_cmd = matches!(cmd, READ_CACHE_SEQ | READ_CACHE_END | READ_STATUS);
        if n < self.array_free && !cache_cmd {
            self.violation(n, format!("command {cmd:02X}h while the array reads the next cache page (ARDY = 0 until {})", self.array_free));
        }
        if !cache_cmd {
            self.data_row = None;
        }
        if !self.one_shot.is_empty() && self.expect == Expect::Command && cmd != PROGRAM_1 {
            self.violation(
                n,
                format!("command {cmd:02X}h inside a one-shot program (after 1Ah, 80h next)"),
            );
        }
        match (self.expect, cmd) {
            (Expect::Command, READ_CACHE_SEQ | READ_CACHE_END) => self.cache_command(n, cmd),
            (Expect::Command, READ_1 | PROGRAM_1 | CHANGE_COL_1) => {
                self.start_address(cmd, self.t.addr_cycles)
            }
            (Expect::Command, ERASE_1) => self.start_address(cmd, self.t.row_cycles),
            (Expect::Command, READ_STATUS) => {
                self.status_mode = true;
                self.out_ok_from = n + self.t.latch as u64 + self.t.t_whr as u64;
            }
            (Expect::Confirm { cmd: READ_1 }, READ_MULTIPLANE | READ_2) => {
                self.read_confirm(n, cmd)
            }
            (Expect::Confirm { cmd: CHANGE_COL_1 }, CHANGE_COL_2) => {
                self.out_row = Some(self.row_of_addr(true));
                self.out_col = self.col_of_addr();
                self.out_ok_from = n + self.t.latch as u64 + self.t.t_ccs as u64;
                self.expect = Expect::Command;
            }
            (
                Expect::Confirm { cmd: PROGRAM_1 },
                PROGRAM_MULTIPLANE | PROGRAM_NEXT_PAGE | PROGRAM_2,
            ) => self.program_confirm(n, cmd),
            (Expect::Confirm { cmd: ERASE_1 }, ERASE_MULTIPLANE | ERASE_2) => {
                self.erase_confirm(n, cmd)
            }
            (e, c) => {
                self.violation(
                    n,
                    format!("command {c:02X}h not legal here (expecting {e:?})"),
                );
                self.expect = Expect::Command;
            }
        }
    }

    /// The first command of an addressed sequence (00h, 80h, 06h, 60h): `left` address bytes follow.
    fn start_address(&mut self, cmd: u8, left: u32) {
        self.addr.clear();
        self.expect = Expect::Address { cmd, left };
    }

    /// An address latch at cycle `n`.
    pub fn address(&mut self, n: u64, byte: u8) {
        let n = self.at_pins(n);
        self.check_latch(n);
        if !self.ready(n) {
            self.violation(n, "address while busy".into());
        }
        match self.expect {
            Expect::Address { cmd, left } => {
                self.addr.push(byte);
                if left == 1 {
                    self.expect = Expect::Confirm { cmd };
                    if cmd == PROGRAM_1 {
                        let row = self.row_of_addr(true);
                        self.planes_addressed.push(row);
                        self.in_row = Some(row);
                        // Data in lands from the column on; the bytes before it stay erased.
                        let mut reg = Vec::with_capacity(self.page_bytes);
                        reg.resize(self.col_of_addr(), 0xFF);
                        self.page_reg.insert(self.plane_of(row), reg);
                        self.in_ok_from = n + self.t.latch as u64 + self.t.t_adl as u64;
                    }
                } else {
                    self.expect = Expect::Address {
                        cmd,
                        left: left - 1,
                    };
                }
            }
            e => self.violation(n, format!("address latch not legal here (expecting {e:?})")),
        }
    }
}

#[cfg(test)]
mod tests;
