//! Hand-worked decision sequences for the mapping cache (expected values derived on paper from
//! the rule in the module doc, not from the model's output).

use super::*;
use crate::rng::SeedTree;
use rand::Rng;
use std::collections::HashMap;

fn cfg(sets: u32, ways: u32, line_entries: u32, dram_table_mb: u32) -> MapCacheConfig {
    MapCacheConfig {
        sets,
        ways,
        line_entries,
        dram_table_mb,
    }
}
fn look(lpn: u64) -> MapAccess {
    MapAccess { lpn, update: None }
}
fn upd(lpn: u64, v: u32) -> MapAccess {
    MapAccess {
        lpn,
        update: Some(v),
    }
}

#[test]
fn two_way_a_b_a_c_evicts_b() {
    let mut c = MapCache::new(&cfg(1, 2, 1, 1)).unwrap();
    let (a, b, cc) = (0, 1, 2);
    let d = c.access(look(a));
    assert!(!d.hit && d.way == 0 && d.evicted.is_none() && d.data == UNMAPPED);
    let d = c.access(look(b));
    assert!(!d.hit && d.way == 1 && d.evicted.is_none());
    let d = c.access(look(a));
    assert!(d.hit && d.way == 0);
    assert_eq!((d.dram_bursts(), d.tp_reads(), d.tp_writes()), (0, 0, 0));
    let d = c.access(look(cc));
    assert!(!d.hit && d.way == 1);
    assert_eq!(
        d.evicted,
        Some(Eviction {
            line: b,
            dirty: false
        })
    );
    assert!(!d.wrote_back());
}

#[test]
fn four_way_plru_differs_from_true_lru() {
    // Fill A..D into ways 0..3, touch A, miss E. True LRU would evict B (way 1); tree PLRU:
    // root points right (A was left), right node points at way 2 (D, way 3, touched last) -> C.
    let mut c = MapCache::new(&cfg(1, 4, 1, 1)).unwrap();
    for (i, lpn) in [10u64, 11, 12, 13].into_iter().enumerate() {
        let d = c.access(look(lpn));
        assert!(!d.hit && d.way == i as u32);
    }
    assert!(c.access(look(10)).hit);
    let d = c.access(look(14));
    assert_eq!(
        (d.way, d.evicted),
        (
            2,
            Some(Eviction {
                line: 12,
                dirty: false
            })
        )
    );
    // Bits after touching way 2: root 0, left node 1 (from A), right node 1 -> 0b110.
    assert_eq!(c.policy_bits(0), 0b110);
}

#[test]
fn dirty_eviction_writes_back_and_refetches() {
    let mut c = MapCache::new(&cfg(1, 1, 8, 1)).unwrap();
    let d = c.access(upd(3, 77));
    assert!(!d.hit && d.data == 77 && d.evicted.is_none());
    assert_eq!(
        c.dram().value(3),
        UNMAPPED,
        "write-back cache: DRAM untouched before eviction"
    );
    let d = c.access(look(9)); // line 1 replaces line 0 (dirty)
    assert_eq!(
        d.evicted,
        Some(Eviction {
            line: 0,
            dirty: true
        })
    );
    assert!(d.wrote_back());
    assert_eq!(c.dram().value(3), 77);
    let d = c.access(look(3));
    assert_eq!(
        (d.hit, d.data, d.evicted),
        (
            false,
            77,
            Some(Eviction {
                line: 1,
                dirty: false
            })
        )
    );
    let s = c.stats();
    assert_eq!((s.hits, s.misses, s.evictions, s.writebacks), (0, 3, 2, 1));
}

#[test]
fn address_split_set_and_tag() {
    // sets 4, 8 entries/line: lpn 179 = line 22 (offset 3) = tag 5, set 2.
    let mut c = MapCache::new(&cfg(4, 2, 8, 1)).unwrap();
    let d = c.access(upd(179, 5));
    assert_eq!((d.set, d.way, d.hit), (2, 0, false));
    // lpn 176..183 share the line; 183 hits, 184 (line 23, set 3) misses.
    assert!(c.access(look(183)).hit);
    assert_eq!(c.access(look(184)).set, 3);
    assert_eq!(c.access(look(179)).data, 5);
}

#[test]
fn partly_resident_table_fetches_translation_pages() {
    // 1 MiB of table = 256 slots of 1024 entries; lpn 262144 is translation page 256 -> slot 0.
    let far = 256 * 1024;
    let mut c = MapCache::new(&cfg(1, 2, 8, 1)).unwrap();
    let d = c.access(upd(far, 9)); // fill of tp 256 replaces boot-resident tp 0 (clean)
    assert_eq!(
        d.fill_fetch,
        Some(TpFetch {
            tp: 256,
            slot: 0,
            evicted_tp: 0,
            evicted_dirty: false
        })
    );
    let d = c.access(look(8)); // tp 0 again: replaces tp 256, still clean (line 'far' is in SRAM)
    assert_eq!(
        d.fill_fetch,
        Some(TpFetch {
            tp: 0,
            slot: 0,
            evicted_tp: 256,
            evicted_dirty: false
        })
    );
    assert_eq!(d.way, 1);
    // Third line in the 2-way set: PLRU victim is way 0 (line of 'far', dirty). Its write-back
    // fetches tp 256 (evicting clean tp 0), then the fill fetches tp 0 back, evicting the now
    // dirty tp 256 (a translation-page write to NAND).
    let d = c.access(look(16));
    assert_eq!(
        d.evicted,
        Some(Eviction {
            line: far / 8,
            dirty: true
        })
    );
    assert_eq!(
        d.wb_fetch,
        Some(TpFetch {
            tp: 256,
            slot: 0,
            evicted_tp: 0,
            evicted_dirty: false
        })
    );
    assert_eq!(
        d.fill_fetch,
        Some(TpFetch {
            tp: 0,
            slot: 0,
            evicted_tp: 256,
            evicted_dirty: true
        })
    );
    assert_eq!((d.dram_bursts(), d.tp_reads(), d.tp_writes()), (2, 2, 1));
    assert_eq!(c.stats().tp_fetches, 4);
    assert_eq!(c.stats().tp_writebacks, 1);
    assert_eq!(c.access(look(far)).data, 9);
}

#[test]
fn bad_config_names_the_field() {
    let e = MapCache::new(&cfg(3, 2, 8, 1)).err().unwrap();
    assert!(e.to_string().contains("ftl.map_cache.sets"), "{e}");
    let e = MapCache::new(&cfg(4, 3, 8, 1)).err().unwrap();
    assert!(e.to_string().contains("ftl.map_cache.ways"), "{e}");
    let e = MapCache::new(&cfg(4, 2, 8, 0)).err().unwrap();
    assert!(e.to_string().contains("ftl.map_cache.dram_table_mb"), "{e}");
}

#[test]
fn random_traces_are_coherent_and_deterministic() {
    let seed = 0x5eed_0008;
    let mut rng = SeedTree::new(seed).stream("map_cache_test", 0);
    let trace: Vec<MapAccess> = (0..20_000)
        .map(|_| {
            let lpn = if rng.gen_bool(0.5) {
                rng.gen_range(0..4096)
            } else {
                rng.gen_range(0..600_000)
            };
            if rng.gen_bool(0.3) {
                upd(lpn, rng.gen())
            } else {
                look(lpn)
            }
        })
        .collect();
    let mut a = MapCache::new(&cfg(8, 4, 8, 1)).unwrap();
    let mut b = MapCache::new(&cfg(8, 4, 8, 1)).unwrap();
    let mut truth: HashMap<u64, u32> = HashMap::new();
    for (i, &acc) in trace.iter().enumerate() {
        let da = a.access(acc);
        assert_eq!(
            da,
            b.access(acc),
            "seed {seed:#x}: access {i} decided differently on a second run"
        );
        if let Some(v) = acc.update {
            truth.insert(acc.lpn, v);
        }
        let want = truth.get(&acc.lpn).copied().unwrap_or(UNMAPPED);
        assert_eq!(
            da.data, want,
            "seed {seed:#x}: access {i} {acc:?} returned stale data"
        );
    }
    let s = a.stats();
    assert_eq!(s.hits + s.misses, trace.len() as u64);
    assert!(
        s.tp_writebacks > 0 && s.writebacks > 0,
        "seed {seed:#x}: trace did not exercise write-backs: {s:?}"
    );
    for (&lpn, &v) in &truth {
        assert_eq!(a.peek(lpn), v, "seed {seed:#x}: lpn {lpn}");
    }
}
