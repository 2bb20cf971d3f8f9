//! Data beats on the NAND target: data in into the addressed plane's page register after tADL,
//! data out from the selected register (or the status byte after 70h) after tRR, tWHR or tCCS,
//! never while busy or past the register's end.

use super::NandTarget;

impl NandTarget {
    /// A data-in beat at cycle `n` carrying `bytes`.
    pub fn data_in(&mut self, n: u64, bytes: &[u8]) {
        let n = self.at_pins(n);
        let Some(row) = self.in_row else {
            self.violation(n, "data in outside a program".into());
            return;
        };
        if n < self.in_ok_from {
            self.violation(
                n,
                format!(
                    "data in {} cycles early (tADL = {})",
                    self.in_ok_from - n,
                    self.t.t_adl
                ),
            );
            self.in_ok_from = 0;
        }
        let p = self.plane_of(row);
        let reg = self.page_reg.entry(p).or_default();
        reg.extend_from_slice(bytes);
    }

    /// A data-out beat at cycle `n`: the bytes the target puts on DQ.
    pub fn data_out(&mut self, n: u64, nbytes: usize) -> Vec<u8> {
        let n = self.at_pins(n);
        if n < self.out_ok_from {
            self.violation(
                n,
                format!(
                    "data out {} cycles early (tRR/tWHR/tCCS)",
                    self.out_ok_from - n
                ),
            );
            self.out_ok_from = 0;
        }
        if !self.ready(n) {
            self.violation(n, "data out while busy".into());
        }
        if self.status_mode {
            // SR[6] RDY, SR[5] ARDY, SR[0] FAIL = 0.
            let mut v = vec![0u8; nbytes];
            v[0] = 0xE0;
            return v;
        }
        let Some(row) = self.out_row else {
            self.violation(n, "data out with no page selected".into());
            return vec![0; nbytes];
        };
        let p = self.plane_of(row);
        let col = self.out_col;
        let (out, len): (Vec<u8>, usize) = match self.page_reg.get(&p) {
            Some(reg) => (
                (0..nbytes)
                    .map(|k| reg.get(col + k).copied().unwrap_or(0))
                    .collect(),
                reg.len(),
            ),
            None => (vec![0; nbytes], 0),
        };
        if col + nbytes > len {
            self.violation(n, format!("data out past the page register ({len} bytes)"));
        }
        self.out_col += nbytes;
        out
    }
}
