//! Utilisation of the drive's resources over a measurement window and the rule that names the
//! bottleneck. The busy times come from the model's `DriveStats` (`model/src/drive/stats.rs`):
//! each channel's ONFI bus, each die's array (tR/tPROG/tBERS of the ops started in the window),
//! the firmware cores (summed, so divided by the core count), DRAM, and the PCIe link per
//! direction; the write buffer's peak occupancy and the SLC cache and free blocks at the end of
//! the window are reported beside them.
//!
//! Rule: the bottleneck is the server resource with the highest busy fraction — a channel bus,
//! a die array, the firmware cores (mean over cores), DRAM, PCIe up (drive to host: read data)
//! or PCIe down (host to drive: write data). A saturated server is the one whose service rate
//! sets the throughput; the buffers and caches are queues in front of servers, so a full write
//! buffer is a symptom (its NAND side is busy) and never named. Channels and dies report their
//! busiest member, since striping makes one slow member hold back the others. Equal fractions
//! go to the first in that order.

use serde_json::{json, Value};
use ssdlab_model::SimTime;

/// Busy times of one window, as the device reports them.
#[derive(Clone, Debug, PartialEq)]
pub struct BusyTimes {
    pub elapsed: SimTime,
    pub channel_bus: Vec<SimTime>,
    /// Per die, indexed `(die x ways + way) x channels + channel`.
    pub die_array: Vec<SimTime>,
    pub cpu_cores: u32,
    /// Firmware busy time summed over the cores.
    pub cpu: SimTime,
    pub dram: SimTime,
    pub link_up: SimTime,
    pub link_down: SimTime,
    pub write_buffer_peak_units: u64,
    pub write_buffer_units: u64,
}

/// Busy fractions (0..=1) of a window.
#[derive(Clone, Debug, PartialEq)]
pub struct Utilisation {
    pub channel_bus: Vec<f64>,
    pub die_array: Vec<f64>,
    pub firmware: f64,
    pub dram: f64,
    pub pcie_up: f64,
    pub pcie_down: f64,
    pub write_buffer_peak: f64,
}

fn frac(busy: SimTime, over: u128) -> f64 {
    if over == 0 {
        return 0.0;
    }
    (busy.as_ps() as u128 as f64 / over as f64).min(1.0)
}

fn busiest(v: &[f64]) -> (usize, f64) {
    v.iter().copied().enumerate().fold(
        (0, 0.0),
        |best, (i, x)| if x > best.1 { (i, x) } else { best },
    )
}

impl Utilisation {
    pub fn of(b: &BusyTimes) -> Self {
        let t = b.elapsed.as_ps() as u128;
        let cores = t * b.cpu_cores.max(1) as u128;
        Utilisation {
            channel_bus: b.channel_bus.iter().map(|x| frac(*x, t)).collect(),
            die_array: b.die_array.iter().map(|x| frac(*x, t)).collect(),
            firmware: frac(b.cpu, cores),
            dram: frac(b.dram, t),
            pcie_up: frac(b.link_up, t),
            pcie_down: frac(b.link_down, t),
            write_buffer_peak: if b.write_buffer_units == 0 {
                0.0
            } else {
                (b.write_buffer_peak_units as f64 / b.write_buffer_units as f64).min(1.0)
            },
        }
    }

    /// The server resources in rule order, with their busy fractions.
    pub fn servers(&self) -> Vec<(String, f64)> {
        let (c, cb) = busiest(&self.channel_bus);
        let (d, db) = busiest(&self.die_array);
        vec![
            (format!("channel {c} bus"), cb),
            (format!("die {d} array"), db),
            ("firmware cores".to_string(), self.firmware),
            ("dram".to_string(), self.dram),
            ("pcie up".to_string(), self.pcie_up),
            ("pcie down".to_string(), self.pcie_down),
        ]
    }

    /// The bottleneck by the module's rule: name and busy fraction.
    pub fn bottleneck(&self) -> (String, f64) {
        self.servers().into_iter().fold(
            (String::new(), -1.0),
            |best, s| if s.1 > best.1 { s } else { best },
        )
    }

    fn mean(v: &[f64]) -> f64 {
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    }

    /// The short text block: one line per resource class, then `bottleneck: <resource> <busy %>`.
    pub fn text_block(&self, slc_blocks: u64, free_blocks: u64) -> String {
        let pct = |x: f64| format!("{:.1} %", x * 100.0);
        let (c, cb) = busiest(&self.channel_bus);
        let (d, db) = busiest(&self.die_array);
        let (name, busy) = self.bottleneck();
        format!(
            "  utilisation: channel buses mean {} (busiest ch {c} {}), die arrays mean {} (busiest die {d} {})\n  \
             utilisation: firmware cores {}, dram {}, pcie up {}, pcie down {}, write buffer peak {}, SLC {slc_blocks} blocks, {free_blocks} free blocks\n  \
             bottleneck: {name} {}\n",
            pct(Self::mean(&self.channel_bus)),
            pct(cb),
            pct(Self::mean(&self.die_array)),
            pct(db),
            pct(self.firmware),
            pct(self.dram),
            pct(self.pcie_up),
            pct(self.pcie_down),
            pct(self.write_buffer_peak),
            pct(busy),
        )
    }

    pub fn json(&self) -> Value {
        let (name, busy) = self.bottleneck();
        json!({
            "channel_bus": self.channel_bus,
            "die_array": self.die_array,
            "firmware_cores": self.firmware,
            "dram": self.dram,
            "pcie_up": self.pcie_up,
            "pcie_down": self.pcie_down,
            "write_buffer_peak": self.write_buffer_peak,
            "bottleneck": name,
            "bottleneck_busy": busy,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us(x: u64) -> SimTime {
        SimTime::from_us(x)
    }

    fn window(channels: &[u64], dies: &[u64], cpu: u64, up: u64, down: u64) -> BusyTimes {
        BusyTimes {
            elapsed: us(1000),
            channel_bus: channels.iter().map(|x| us(*x)).collect(),
            die_array: dies.iter().map(|x| us(*x)).collect(),
            cpu_cores: 2,
            cpu: us(cpu),
            dram: us(10),
            link_up: us(up),
            link_down: us(down),
            write_buffer_peak_units: 0,
            write_buffer_units: 2048,
        }
    }

    #[test]
    fn die_bound_random_read() {
        // 2 dies on 2 channels at QD 32, 4 KiB reads: each die reads back to back, 16 reads of
        // tR 56 us + 5.9 us data out in 1 ms = 990 us array time; the bus carries 16 x 5.9 us;
        // 2 cores at 4.8 us per command for 32 commands = 154 us of 2 ms core time; the link
        // moves 32 x 4 KiB at 3.6 GB/s = 36 us.
        let b = window(&[94, 94], &[990, 990], 154, 36, 2);
        let u = Utilisation::of(&b);
        assert_eq!(u.bottleneck(), ("die 0 array".to_string(), 0.99));
        assert!((u.firmware - 0.077).abs() < 1e-9);
    }

    #[test]
    fn link_bound_sequential_read() {
        // Gen3 x1 (0.9 GB/s): 128 KiB reads keep the upstream direction busy 1000 of 1000 us
        // while 8 channels at 800 MB/s carry 0.9 GB/s / 6.4 GB/s = 14 % each.
        let b = window(&[141; 8], &[300; 16], 800, 1000, 20);
        assert_eq!(
            Utilisation::of(&b).bottleneck(),
            ("pcie up".to_string(), 1.0)
        );
    }

    #[test]
    fn firmware_bound_small_writes() {
        // 4 KiB writes at 24.8 us of firmware each on 2 cores: 80 commands per ms fill both
        // cores (1984 of 2000 us); the data (320 KiB) takes 91 us down the link; SLC programs
        // of 80 units over 16 dies keep each die 300 us busy.
        let b = window(&[60; 8], &[300; 16], 1984, 10, 91);
        assert_eq!(
            Utilisation::of(&b).bottleneck(),
            ("firmware cores".to_string(), 0.992)
        );
    }

    #[test]
    fn busiest_member_names_the_channel_and_block_ends_with_bottleneck() {
        let b = window(&[100, 950, 100, 100], &[200; 4], 100, 10, 10);
        let u = Utilisation::of(&b);
        assert_eq!(u.bottleneck().0, "channel 1 bus");
        let text = u.text_block(3, 40);
        assert!(
            text.ends_with("bottleneck: channel 1 bus 95.0 %\n"),
            "{text}"
        );
        assert!(text.contains("busiest ch 1 95.0 %") && text.contains("SLC 3 blocks, 40 free"));
    }

    #[test]
    fn empty_window_is_all_idle() {
        let mut b = window(&[], &[], 0, 0, 0);
        b.elapsed = SimTime::ZERO;
        let u = Utilisation::of(&b);
        assert_eq!(u.firmware, 0.0);
        assert_eq!(u.bottleneck().1, 0.0);
    }
}
