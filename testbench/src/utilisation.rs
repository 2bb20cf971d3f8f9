//! Utilisation of the drive's resources over a measurement window and the rule that names the
//! bottleneck. The busy times come from the model's `DriveStats` (`model/src/drive/stats.rs`):
//! each channel's ONFI bus, each die's array (tR/tPROG/tBERS of the ops started in the window)
//! and each of its planes, each firmware core, DRAM, and the PCIe link per direction; the write
//! buffer's peak occupancy and the SLC cache and free blocks at the end of the window are
//! reported beside them.
//!
//! Rule: the bottleneck is the server resource with the highest busy fraction — a channel bus,
//! a die array, the firmware cores (mean over cores), DRAM, PCIe up (drive to host: read data)
//! or PCIe down (host to drive: write data). A saturated server is the one whose service rate
//! sets the throughput; the buffers and caches are queues in front of servers, so a full write
//! buffer is a symptom (its NAND side is busy) and never named. Channels and dies report their
//! busiest member, since striping makes one slow member hold back the others. The firmware
//! hands each command to the core that frees first, so the cores are one pool serving one queue
//! and their mean is the pool's load (each core's fraction is reported beside it). Planes are
//! reported and never named: the model runs one array operation per die at a time, a
//! multi-plane operation on all its planes at once, so a plane is never busier than its die and
//! the die is the server; planes of one die that differ show single-plane operations. Equal
//! fractions go to the first in that order.

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
    /// Per firmware core (empty where the device does not time cores one by one).
    pub cpu_core: Vec<SimTime>,
    /// Per plane, indexed `die x planes_per_die + plane` (empty where planes are not timed).
    pub plane_array: Vec<SimTime>,
    pub planes_per_die: u32,
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
    /// Per plane, indexed `die x planes_per_die + plane`.
    pub plane_array: Vec<f64>,
    pub planes_per_die: u32,
    /// Mean over the firmware cores, and each core's own fraction.
    pub firmware: f64,
    pub firmware_core: Vec<f64>,
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
            plane_array: b.plane_array.iter().map(|x| frac(*x, t)).collect(),
            planes_per_die: b.planes_per_die,
            firmware: frac(b.cpu, cores),
            firmware_core: b.cpu_core.iter().map(|x| frac(*x, t)).collect(),
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
        let mut out = format!(
            "  utilisation: channel buses mean {} (busiest ch {c} {}), die arrays mean {} (busiest die {d} {})\n  \
             utilisation: firmware cores {}, dram {}, pcie up {}, pcie down {}, write buffer peak {}, SLC {slc_blocks} blocks, {free_blocks} free blocks\n",
            pct(Self::mean(&self.channel_bus)),
            pct(cb),
            pct(Self::mean(&self.die_array)),
            pct(db),
            pct(self.firmware),
            pct(self.dram),
            pct(self.pcie_up),
            pct(self.pcie_down),
            pct(self.write_buffer_peak),
        );
        if let Some(line) = self.core_and_plane_line() {
            out.push_str(&line);
        }
        out.push_str(&format!("  bottleneck: {name} {}\n", pct(busy)));
        out
    }

    /// "firmware core 0 51.0 %, core 1 49.0 %; busiest die 3 planes 40.0 % 40.0 %", when the
    /// device times cores or planes one by one.
    fn core_and_plane_line(&self) -> Option<String> {
        let pct = |x: &f64| format!("{:.1} %", x * 100.0);
        let mut parts = Vec::new();
        if !self.firmware_core.is_empty() {
            let cores: Vec<String> = self
                .firmware_core
                .iter()
                .enumerate()
                .map(|(i, x)| format!("core {i} {}", pct(x)))
                .collect();
            parts.push(format!("firmware {}", cores.join(", ")));
        }
        let ppd = self.planes_per_die as usize;
        if ppd > 0 && self.plane_array.len() == self.die_array.len() * ppd {
            let (d, _) = busiest(&self.die_array);
            let planes: Vec<String> = self.plane_array[d * ppd..(d + 1) * ppd]
                .iter()
                .map(pct)
                .collect();
            parts.push(format!("busiest die {d} planes {}", planes.join(" ")));
        }
        (!parts.is_empty()).then(|| format!("  utilisation: {}\n", parts.join("; ")))
    }

    pub fn json(&self) -> Value {
        let (name, busy) = self.bottleneck();
        json!({
            "channel_bus": self.channel_bus,
            "die_array": self.die_array,
            "firmware_cores": self.firmware,
            "firmware_core": self.firmware_core,
            "plane_array": self.plane_array,
            "planes_per_die": self.planes_per_die,
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
            cpu_core: vec![us(cpu / 2), us(cpu - cpu / 2)],
            plane_array: dies.iter().flat_map(|x| [us(*x), us(*x / 2)]).collect(),
            planes_per_die: 2,
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
        // 100 us of firmware split 50/50 over 2 cores of 1000 us; die 0 (200 us) has planes at
        // 200 and 100 us.
        assert!(
            text.contains("  utilisation: firmware core 0 5.0 %, core 1 5.0 %; busiest die 0 planes 20.0 % 10.0 %\n"),
            "{text}"
        );
    }

    #[test]
    fn cores_and_planes_are_reported_one_by_one_and_never_named() {
        // Core 0 busy 900 of 1000 us, core 1 100: the pool is 50 % busy. Die 1's plane 0 at
        // 600 us is its die's whole 600 us: the die is named, not the plane.
        let mut b = window(&[10, 10], &[100, 600], 1000, 0, 0);
        b.cpu_core = vec![us(900), us(100)];
        let u = Utilisation::of(&b);
        assert_eq!(u.firmware_core, vec![0.9, 0.1]);
        assert_eq!(u.firmware, 0.5);
        assert_eq!(u.plane_array, vec![0.1, 0.05, 0.6, 0.3]);
        assert_eq!(u.bottleneck(), ("die 1 array".to_string(), 0.6));
        let j = u.json();
        assert_eq!(j["firmware_core"], serde_json::json!([0.9, 0.1]));
        assert_eq!(j["plane_array"][2], 0.6);
        assert_eq!(j["planes_per_die"], 2);
    }

    #[test]
    fn devices_without_cores_or_planes_timed_print_no_line_for_them() {
        let mut b = window(&[10], &[100], 100, 0, 0);
        b.cpu_core.clear();
        b.plane_array.clear();
        let text = Utilisation::of(&b).text_block(0, 0);
        assert_eq!(text.lines().count(), 3, "{text}");
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
