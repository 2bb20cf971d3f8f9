//! The I/O sequence of one fio job clone ([`Draws`]): each command's direction (`rwmixread`
//! from the clone's `mix` stream), offset (`OffsetGen`: sequential, or random with fio's random
//! map unless `norandommap`, skewed by `random_distribution`) and size (`bs`, `bssplit`,
//! `bsrange`), file by file (`nrfiles`, round robin), each drawn from its own named stream of
//! the seed. The runner issues it; the datapath co-simulation's host issues the same sequence
//! for the same job file and seed.

use super::super::device::Op;
use super::super::offsets::OffsetGen;
use super::regions::{clone_region, file_regions};
use crate::fio::JobSpec;
use rand::Rng;
use ssdlab_model::rng::{ModelRng, SeedTree};

/// The command sequence of one clone: one generator per file (`nrfiles`) and direction; `file`
/// is the next command's file (fio's default `file_service_type=roundrobin`: one IO per file
/// in turn).
#[derive(Clone)]
pub struct Draws {
    read_gen: Vec<DirGen>,
    write_gen: Vec<DirGen>,
    file: usize,
    mix: ModelRng,
    read_pct: u32,
}

impl Draws {
    /// Clone `k` of job `ji` (`j`) on a device of `capacity` bytes, its streams from the job's
    /// `randseed` or else `seeds`; Err when the job's region does not fit the device.
    pub fn for_clone(
        j: &JobSpec,
        (ji, k): (usize, u32),
        capacity: u64,
        seeds: &SeedTree,
    ) -> Result<Draws, String> {
        let region = clone_region(j, k, capacity)?;
        let files = file_regions(j, region)?;
        Ok(Draws::new(j, &files, &clone_stream(j, (ji, k), seeds)))
    }

    /// A clone's sequence over `files` (each (start, length) bytes) from its `stream`s.
    pub(super) fn new(
        j: &JobSpec,
        files: &[(u64, u64)],
        stream: &impl Fn(&str) -> ModelRng,
    ) -> Draws {
        Draws {
            read_gen: clone_gens(j, files, true, stream),
            write_gen: clone_gens(j, files, false, stream),
            file: 0,
            mix: stream("mix"),
            read_pct: j.rw.read_pct(j.rwmixread),
        }
    }

    /// The next command: its direction by `rwmixread`, then offset and size (bytes).
    pub fn next_io(&mut self) -> (Op, u64, u64) {
        let read = self.read_pct == 100
            || (self.read_pct > 0 && self.mix.gen_range(0..100) < self.read_pct);
        let f = self.file;
        self.file = (f + 1) % self.read_gen.len();
        let (op, (offset, len)) = if read {
            (Op::Read, self.read_gen[f].next())
        } else {
            (Op::Write, self.write_gen[f].next())
        };
        (op, offset, len)
    }
}

/// The random streams of clone `k` of job `ji`, named by purpose: from the job's `randseed`, or
/// the run's seed tree.
pub(super) fn clone_stream(
    j: &JobSpec,
    (ji, k): (usize, u32),
    seeds: &SeedTree,
) -> impl Fn(&str) -> ModelRng {
    let tree = match j.randseed {
        Some(s) => SeedTree::new(s),
        None => *seeds,
    };
    let name = j.name.clone();
    move |what: &str| tree.stream(&format!("fio/{name}/{what}"), ji as u64 * 4096 + k as u64)
}

/// One direction's generators of a clone, one per file; file 0 keeps the job's stream names.
fn clone_gens(
    j: &JobSpec,
    files: &[(u64, u64)],
    read: bool,
    stream: &impl Fn(&str) -> ModelRng,
) -> Vec<DirGen> {
    files
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let s = move |what: &str| match i {
                0 => stream(what),
                _ => stream(&format!("{what}/file{i}")),
            };
            DirGen::new(j, *r, read, s)
        })
        .collect()
}

/// Offsets and sizes of one direction of a clone: one block size, or a `bssplit` or `bsrange`
/// drawn per IO from its own stream (offsets then on the smallest size).
#[derive(Clone)]
struct DirGen {
    offsets: OffsetGen,
    bs: u64,
    split: Vec<(u64, u32)>,
    range: Option<(u64, u64)>,
    unaligned: bool,
    pick: ModelRng,
}

impl DirGen {
    fn new(
        j: &JobSpec,
        region: (u64, u64),
        read: bool,
        stream: impl Fn(&str) -> ModelRng,
    ) -> DirGen {
        let (bs, split, range, name) = if read {
            (j.bs_read, &j.bssplit_read, j.bsrange_read, "read")
        } else {
            (j.bs_write, &j.bssplit_write, j.bsrange_write, "write")
        };
        let granule = split.iter().map(|e| e.0).min().unwrap_or(bs);
        let offsets = OffsetGen::new(
            region.0,
            region.1,
            granule,
            j.rw.is_random(),
            j.norandommap,
            stream(name),
        );
        let offsets = if j.rw.is_random() {
            offsets.skewed(&j.distribution)
        } else {
            offsets
        };
        DirGen {
            offsets,
            bs,
            split: split.clone(),
            range,
            unaligned: j.bs_unaligned,
            pick: stream(&format!("{name}/bssplit")),
        }
    }
    fn next(&mut self) -> (u64, u64) {
        let len = if let Some(r) = self.range {
            crate::fio::bs::range_len(r, self.unaligned, self.pick.gen::<f64>())
        } else if self.split.is_empty() {
            self.bs
        } else {
            let mut x = self.pick.gen_range(0..100u32);
            let e = self.split.iter().find(|e| {
                x < e.1 || {
                    x -= e.1;
                    false
                }
            });
            e.map_or(self.split[self.split.len() - 1].0, |e| e.0)
        };
        (self.offsets.next_offset_len(len), len)
    }
}
