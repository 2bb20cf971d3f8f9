//! Non-uniform random offsets (`random_distribution`, fio's `zipf.c`, `gauss.c` and zoned
//! splits). Draws are with repetition (a skewed workload revisits its hot blocks; fio's random
//! map does not apply).
//!
//! - `zipf:θ`: block ranks 1..N with P(rank k) = k^-θ / ζ(N, θ), drawn by the method of Gray
//!   et al. ("Quickly generating billion-record synthetic databases", SIGMOD 1994) that fio's
//!   `zipf_next` uses: rank 1 exactly when u·ζ(N) < 1, rank 2 when below 1 + 2^-θ, else the
//!   closed-form tail. ζ(N, θ) is summed exactly up to 10^7 terms (fio's `ZIPF_MAX_GEN`), the
//!   rest by the Euler–Maclaurin integral with its end correction.
//! - `pareto:h`: rank = N·u^(ln h / ln(1 - h)), fio's `pareto_next`.
//!   Ranks are spread over the region by a keyed permutation (fio scrambles them with a hash),
//!   so the hot blocks are not adjacent; the hottest block gets 1/ζ(N, θ) of zipf's accesses.
//! - `normal:σ`: block = N/2 + σ % of N × a standard normal deviate (Box–Muller), wrapped into
//!   the region; locality around the centre is kept.
//! - `zoned`/`zoned_abs`: a zone by its access share, then a uniform block inside it.

use super::offsets::feistel;
use crate::fio::distribution::{Distribution, ZoneSize};
use rand::Rng;
use ssdlab_model::rng::ModelRng;

const ZIPF_EXACT_TERMS: u64 = 10_000_000;

/// ζ(n, θ) = Σ_{k=1..n} k^-θ.
pub fn zeta(n: u64, theta: f64) -> f64 {
    let m = n.min(ZIPF_EXACT_TERMS);
    let mut s = 0.0;
    for k in 1..=m {
        s += (k as f64).powf(-theta);
    }
    if n > m {
        // Σ_{k=m+1..n} f(k) ≈ ∫_m^n f + (f(n) - f(m)) / 2.
        let (a, b) = (m as f64, n as f64);
        let f = |x: f64| x.powf(-theta);
        s += (b.powf(1.0 - theta) - a.powf(1.0 - theta)) / (1.0 - theta) + (f(b) - f(a)) / 2.0;
    }
    s
}

#[derive(Clone, Debug)]
enum Kind {
    Zipf {
        theta: f64,
        zetan: f64,
        eta: f64,
        alpha: f64,
    },
    Pareto {
        pow: f64,
    },
    Normal {
        sd_blocks: f64,
    },
    /// (cumulative access share 0..1, first block, blocks).
    Zoned(Vec<(f64, u64, u64)>),
}

/// A block sampler over `0..blocks`.
#[derive(Clone, Debug)]
pub struct Skew {
    kind: Kind,
    blocks: u64,
    keys: [u64; 4],
    half_bits: u32,
}

/// Zones of a zoned distribution in blocks of `bs`; `Err` when `zoned_abs` zones exceed the
/// region.
pub fn zone_blocks(
    zones: &[(f64, ZoneSize)],
    blocks: u64,
    bs: u64,
) -> Result<Vec<(f64, u64, u64)>, String> {
    let mut out = Vec::new();
    let (mut cum, mut start, mut pct_sum) = (0.0, 0u64, 0.0);
    for (a, size) in zones {
        let end = match size {
            ZoneSize::Pct(p) => {
                pct_sum += p;
                ((pct_sum / 100.0) * blocks as f64).round() as u64
            }
            ZoneSize::Bytes(b) => start.saturating_add(b.div_ceil(bs)),
        };
        if end > blocks {
            return Err(format!(
                "random_distribution: the zones cover {} blocks of {bs} bytes, the region holds {blocks}",
                end
            ));
        }
        cum += a / 100.0;
        if end > start {
            out.push((cum, start, end - start));
        } else if *a > 0.0 {
            return Err("random_distribution: a zone with accesses holds no block".to_string());
        }
        start = end;
    }
    Ok(out)
}

impl Skew {
    /// `None` for the uniform distribution. `blocks` > 0; zones already checked against it.
    pub fn new(d: &Distribution, blocks: u64, bs: u64, rng: &mut ModelRng) -> Option<Skew> {
        let n = blocks as f64;
        let kind = match d {
            Distribution::Random => return None,
            &Distribution::Zipf(theta) => {
                let zetan = zeta(blocks, theta);
                let zeta2 = 1.0 + 0.5f64.powf(theta);
                let eta = if blocks > 2 {
                    (1.0 - (2.0 / n).powf(1.0 - theta)) / (1.0 - zeta2 / zetan)
                } else {
                    0.0
                };
                Kind::Zipf {
                    theta,
                    zetan,
                    eta,
                    alpha: 1.0 / (1.0 - theta),
                }
            }
            &Distribution::Pareto(h) => Kind::Pareto {
                pow: h.ln() / (1.0 - h).ln(),
            },
            &Distribution::Normal(sd) => Kind::Normal {
                sd_blocks: sd / 100.0 * n,
            },
            Distribution::Zoned(z) => Kind::Zoned(zone_blocks(z, blocks, bs).ok()?),
        };
        Some(Skew {
            kind,
            blocks,
            keys: rng.gen(),
            half_bits: (64 - blocks.saturating_sub(1).leading_zeros())
                .max(2)
                .div_ceil(2),
        })
    }

    /// Rank 0..blocks (0 the hottest) to block, a bijection.
    fn place(&self, rank: u64) -> u64 {
        let mut x = feistel(rank, &self.keys, self.half_bits);
        while x >= self.blocks {
            x = feistel(x, &self.keys, self.half_bits);
        }
        x
    }

    /// Rank (0-based) a zipf draw of `u` in [0, 1) gives.
    fn zipf_rank(&self, u: f64) -> u64 {
        let Kind::Zipf {
            theta,
            zetan,
            eta,
            alpha,
        } = self.kind
        else {
            unreachable!("zipf_rank on another distribution")
        };
        let uz = u * zetan;
        let rank1 = if uz < 1.0 {
            1
        } else if uz < 1.0 + 0.5f64.powf(theta) {
            2
        } else {
            1 + (self.blocks as f64 * (eta * u - eta + 1.0).powf(alpha)) as u64
        };
        (rank1 - 1).min(self.blocks - 1)
    }

    pub fn next_block(&self, rng: &mut ModelRng) -> u64 {
        let n = self.blocks;
        match &self.kind {
            Kind::Zipf { .. } => self.place(self.zipf_rank(rng.gen::<f64>())),
            Kind::Pareto { pow } => {
                let r = (n as f64 * rng.gen::<f64>().powf(*pow)) as u64;
                self.place(r.min(n - 1))
            }
            Kind::Normal { sd_blocks } => {
                let (u1, u2): (f64, f64) = (1.0 - rng.gen::<f64>(), rng.gen::<f64>());
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                let b = (n / 2) as f64 + (z * sd_blocks).round();
                b.rem_euclid(n as f64) as u64 % n
            }
            Kind::Zoned(zones) => {
                let u = rng.gen::<f64>();
                let z = zones
                    .iter()
                    .find(|z| u < z.0)
                    .unwrap_or(&zones[zones.len() - 1]);
                z.1 + rng.gen_range(0..z.2)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ssdlab_model::SeedTree;

    fn counts(d: &Distribution, blocks: u64, draws: u64) -> Vec<u64> {
        let mut rng = SeedTree::new(3).stream("skew", 0);
        let s = Skew::new(d, blocks, 4096, &mut rng).unwrap();
        let mut c = vec![0u64; blocks as usize];
        for _ in 0..draws {
            c[s.next_block(&mut rng) as usize] += 1;
        }
        c
    }

    #[test]
    fn zeta_by_hand() {
        // ζ(3, 2) = 1 + 1/4 + 1/9.
        assert!((zeta(3, 2.0) - (1.0 + 0.25 + 1.0 / 9.0)).abs() < 1e-12);
    }

    #[test]
    fn zipf_hottest_block_share_is_one_over_zeta() {
        // zipf:1.2 over N = 1000 blocks: the hottest block's share is 1 / ζ(1000, 1.2) and the
        // second's 2^-1.2 / ζ. ζ(1000, 1.2) = 4.3358 (the sum by hand: ζ(∞, 1.2) = 5.5916 less
        // the tail ≈ 1000^-0.2 / 0.2 = 1.2559), so 0.2306 and 0.1004. The binomial sd of a
        // 0.23 share over 200 000 draws is sqrt(0.23 x 0.77 / 200 000) = 0.00094: 5 sd 0.0047.
        assert!((zeta(1000, 1.2) - 4.3358).abs() < 1e-3);
        let (n, draws) = (1000u64, 200_000u64);
        let z = zeta(n, 1.2);
        let mut c = counts(&Distribution::Zipf(1.2), n, draws);
        c.sort_unstable_by(|a, b| b.cmp(a));
        let (p1, p2) = (c[0] as f64 / draws as f64, c[1] as f64 / draws as f64);
        assert!((p1 - 1.0 / z).abs() < 0.0047, "hottest {p1} vs {}", 1.0 / z);
        let want2 = 0.5f64.powf(1.2) / z;
        assert!((p2 - want2).abs() < 0.0035, "second {p2} vs {want2}");
    }

    #[test]
    fn zoned_shares_and_bounds() {
        // zoned:60/10:40/90 over 100 blocks: 60 % of draws in blocks 0..10, the rest in 10..100.
        let d = Distribution::Zoned(vec![
            (60.0, ZoneSize::Pct(10.0)),
            (40.0, ZoneSize::Pct(90.0)),
        ]);
        let c = counts(&d, 100, 100_000);
        let hot: u64 = c[..10].iter().sum();
        // Binomial sd sqrt(0.6 x 0.4 / 1e5) = 0.0015; 5 sd.
        assert!((hot as f64 / 1e5 - 0.6).abs() < 0.0078, "{hot}");
        // zoned_abs zones larger than the region are refused.
        let big = [(100.0, ZoneSize::Bytes(1 << 30))];
        assert!(zone_blocks(&big, 100, 4096)
            .unwrap_err()
            .contains("region holds 100"));
    }

    #[test]
    fn normal_centres_on_the_middle() {
        // normal:10 over 1000 blocks: sd 100 blocks around 500; 68.3 % within one sd.
        let c = counts(&Distribution::Normal(10.0), 1000, 100_000);
        let within: u64 = c[400..=600].iter().sum();
        assert!((within as f64 / 1e5 - 0.683).abs() < 0.01, "{within}");
    }
}

#[cfg(test)]
mod job_tests {
    use crate::workload::testdev::FixedLatencyDevice;
    use crate::workload::{run_jobs, Quiet};
    use ssdlab_model::{SeedTree, SimTime};
    use std::collections::HashMap;

    fn offsets(text: &str) -> Vec<u64> {
        let jobs = crate::fio::parse_job_file(text, "t").unwrap();
        let mut dev = FixedLatencyDevice::new(1 << 30, SimTime::from_us(10));
        run_jobs(&mut dev, &jobs, "t", &SeedTree::new(1), &mut Quiet).unwrap();
        dev.log.iter().map(|(_, io)| io.offset).collect()
    }

    #[test]
    fn zipf_job_revisits_its_hottest_block() {
        // 4 MiB of 4 KiB blocks = 1024; 400 MiB = 102 400 reads at zipf:1.2: the hottest block takes
        // 1 / ζ(1024, 1.2) = 1 / 4.3417 = 0.2303 of them (5 binomial sd = 0.0067).
        let job = "[a]\nrw=randread\nsize=4m\nio_size=400m\nrandom_distribution=zipf:1.2\n";
        let offs = offsets(job);
        let mut c: HashMap<u64, u64> = HashMap::new();
        for o in &offs {
            *c.entry(*o).or_default() += 1;
        }
        let top = *c.values().max().unwrap() as f64 / offs.len() as f64;
        assert!((top - 0.2303).abs() < 0.0067, "hottest share {top}");
        assert!(offs.iter().all(|o| o % 4096 == 0 && *o < 4 << 20));
        // randseed fixes the draw; a sequential job ignores the distribution.
        let seeded = format!("{job}randseed=9\n");
        assert_eq!(offsets(&seeded), offsets(&seeded));
        assert_ne!(offsets(&seeded), offs);
        let seq = offsets("[a]\nrw=read\nsize=64k\nrandom_distribution=zipf:1.2\n");
        assert_eq!(seq, (0..16).map(|k| k * 4096).collect::<Vec<u64>>());
    }
}
