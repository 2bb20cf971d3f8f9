//! Impossible FTL configs are rejected at load, naming the field.

use super::*;

fn err_of(edit: impl FnOnce(&mut DriveConfig)) -> String {
    let mut c = small_cfg();
    edit(&mut c);
    c.validate()
        .expect_err("config should be rejected")
        .to_string()
}

#[test]
fn slc_cache_larger_than_the_drive_is_named() {
    let e = err_of(|c| c.ftl.slc_cache.static_blocks_per_plane = 100);
    assert!(e.contains("ftl.slc_cache.static_blocks_per_plane"), "{e}");
}

#[test]
fn static_slc_eating_all_spare_names_over_provisioning() {
    // 10 % of 128 blocks is ~12.8 spare per die; 20 static SLC blocks leave too few.
    let e = err_of(|c| c.ftl.slc_cache.static_blocks_per_plane = 20);
    assert!(
        e.contains("ftl.over_provisioning_pct") && e.contains("static_blocks_per_plane"),
        "{e}"
    );
}

#[test]
fn zero_over_provisioning_is_named() {
    let e = err_of(|c| c.ftl.over_provisioning_pct = 0.0);
    assert!(e.contains("ftl.over_provisioning_pct"), "{e}");
}

#[test]
fn mapping_cache_larger_than_dram_is_named() {
    let e = err_of(|c| c.ftl.map_cache.dram_table_mb = c.controller.dram_mb + 1);
    assert!(e.contains("ftl.map_cache.dram_table_mb"), "{e}");
    // Fits alone but not with the write buffer.
    let e = err_of(|c| {
        c.controller.dram_mb = 64;
        c.controller.write_buffer_kib = 8192;
        c.ftl.map_cache.dram_table_mb = 60;
    });
    assert!(
        e.contains("ftl.map_cache.dram_table_mb") && e.contains("write_buffer_kib"),
        "{e}"
    );
}

#[test]
fn preset_toml_with_unknown_ftl_field_is_named() {
    let text = crate::config::DEFAULT_PRESET_TOML
        .replace("[ftl.slc_cache]", "[ftl.slc_cache]\nsize_gb = 4");
    let e = DriveConfig::from_toml_str(&text, "p.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("size_gb") && e.contains("p.toml"), "{e}");
}

#[test]
fn sm2262_capacity_plan_by_hand() {
    let c = DriveConfig::default_drive();
    let p = c.ftl.capacity_plan(&c.geometry).unwrap();
    // 16 dies x 940 blocks x 9216 units = 138 608 640 raw units; 90.5 % exported
    // (floor(125 440 819.2) units = 513.8 GB).
    assert_eq!(p.logical_units, 125_440_819);
    // 16 KiB table pages of 4096 entries: ceil(125 440 819 / 4096) = 30 626; 480 MiB holds
    // 480 * 64 = 30 720 of them: all resident, no translation log.
    assert_eq!(p.table_pages, 30_626);
    assert_eq!(p.cached_table_pages, 30_720);
    assert_eq!(p.map_blocks, 0);
    assert_eq!(p.general_blocks, 940 - 6);
}

#[test]
fn every_shipped_preset_has_a_valid_capacity_plan() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("presets/ exists") {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            let text = std::fs::read_to_string(&p).unwrap();
            let cfg = DriveConfig::from_toml_str(&text, &p.display().to_string())
                .unwrap_or_else(|e| panic!("{e}"));
            let plan = cfg.ftl.capacity_plan(&cfg.geometry).unwrap();
            assert!(plan.logical_units > 0, "{}", p.display());
            n += 1;
        }
    }
    assert!(n >= 1);
}

#[test]
fn gc_threshold_below_the_relocation_minimum_is_named() {
    let e = err_of(|c| c.ftl.gc_threshold_free_blocks = 1);
    assert!(
        e.contains("ftl.gc_threshold_free_blocks") && e.contains("at least 2"),
        "{e}"
    );
    let e = err_of(|c| c.ftl.gc_threshold_free_blocks = 0);
    assert!(
        e.contains("ftl.gc_threshold_free_blocks") && e.contains("at least 2"),
        "{e}"
    );
}

#[test]
fn gc_at_the_minimum_threshold_survives_steady_state_overwrites() {
    // The smallest accepted threshold must not run out of blocks: fill, then overwrite the whole
    // drive three times at random (foreground GC on every die, many times over).
    let mut c = small_cfg();
    c.ftl.gc_threshold_free_blocks = 2;
    c.validate().expect("threshold 2 is the minimum and valid");
    let mut f = ftl(&c);
    fill_sequential(&mut f, 64, 1);
    let n = f.logical_units();
    random_writes(&mut f, 3 * n, 5);
    assert!(f.stats().gc_foreground_blocks > 0, "no foreground GC ran");
    assert_integrity(&f, "threshold 2 after 3x random overwrite");
}

#[test]
fn gc_threshold_one_would_run_out_of_blocks() {
    // Why 2 is the minimum: with threshold 1 (validation bypassed), the host block opened at
    // 1 free block leaves 0, and the foreground GC that follows has no block to relocate into.
    let mut c = small_cfg();
    c.ftl.gc_threshold_free_blocks = 2;
    let r = std::panic::catch_unwind(move || {
        let mut f = ftl(&c);
        f.cfg.gc_threshold_free_blocks = 1;
        fill_sequential(&mut f, 64, 1);
        let n = f.logical_units();
        random_writes(&mut f, 3 * n, 5);
    });
    let msg = r.expect_err("threshold 1 survived: the minimum of 2 is not needed");
    let text = msg
        .downcast_ref::<String>()
        .map(String::as_str)
        .unwrap_or("");
    assert!(
        text.contains("no free block"),
        "panicked for another reason: {text}"
    );
}

#[test]
fn a_relocation_spread_of_zero_is_named() {
    let e = err_of(|c| c.controller.relocation_spread_blocks = 0);
    assert!(
        e.contains("controller.relocation_spread_blocks") && e.contains("at least 1"),
        "{e}"
    );
}

#[test]
fn a_gc_window_must_match_the_policy() {
    let e = err_of(|c| c.ftl.gc_policy = crate::config::GcPolicyKind::WindowedGreedy);
    assert!(
        e.contains("ftl.gc_window_blocks") && e.contains("at least 1"),
        "{e}"
    );
    let e = err_of(|c| c.ftl.gc_window_blocks = 8);
    assert!(
        e.contains("ftl.gc_window_blocks") && e.contains("only with"),
        "{e}"
    );
}

#[test]
fn a_fold_ahead_needs_fold_when_full_and_enough_static_blocks() {
    let e = err_of(|c| c.ftl.slc_cache.fold_ahead_blocks = 1);
    assert!(
        e.contains("ftl.slc_cache.fold_ahead_blocks") && e.contains("unless fold_when_full"),
        "{e}"
    );
    let e = err_of(|c| {
        c.ftl.slc_cache.fold_when_full = true;
        c.ftl.slc_cache.fold_ahead_blocks = c.ftl.slc_cache.static_blocks_per_plane + 1;
    });
    assert!(e.contains("ftl.slc_cache.fold_ahead_blocks"), "{e}");
}
