use super::*;

fn sets(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}

/// A scratch directory of one test, removed when it drops.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("ssdlab-drive-cfg-")
        .tempdir()
        .unwrap()
}

/// `text` in a file `name` of `dir`; its path.
fn tmp(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn set_overrides_one_key_and_marks_it() {
    let r = resolve(Some("sm2262-512g"), None, &sets(&["geometry.channels=4"])).unwrap();
    assert_eq!(r.cfg.geometry.channels, 4);
    assert_eq!(r.marks["geometry.channels"], MARK_SET);
    // Everything else is the preset's.
    let base = presets::load("sm2262-512g").unwrap();
    assert_eq!(r.cfg.nand, base.nand);
    assert_eq!(
        r.cfg.geometry.ways_per_channel,
        base.geometry.ways_per_channel
    );
}

#[test]
fn unknown_key_names_close_matches() {
    let e = resolve(None, None, &sets(&["geometry.chanels=4"])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "--set: unknown config key `geometry.chanels`; did you mean geometry.channels?"
    );
}

#[test]
fn bad_value_names_key_and_type_or_range() {
    let e = resolve(None, None, &sets(&["geometry.channels=many"])).unwrap_err();
    assert!(
        e.to_string()
            .contains("`geometry.channels` expects an integer"),
        "{e}"
    );
    // Parses, but out of the range validation allows: the field and its range are named.
    let e = resolve(None, None, &sets(&["onfi.transfer_mts=5"])).unwrap_err();
    assert!(
        e.to_string().contains("onfi.transfer_mts")
            && e.to_string().contains("between 10 and 3600"),
        "{e}"
    );
    let e = resolve(None, None, &sets(&["ftl.gc_policy=fastest"])).unwrap_err();
    assert!(
        e.to_string().contains("fastest") && e.to_string().contains("greedy"),
        "{e}"
    );
}

#[test]
fn base_file_gives_only_its_changes() {
    let dir = scratch();
    let p = tmp(
        &dir,
        "four.toml",
        "base = \"sm2262-512g\"\n[geometry]\nchannels = 4\n",
    );
    let r = resolve(None, Some(&p), &[]).unwrap();
    assert_eq!(r.cfg.geometry.channels, 4);
    assert_eq!(r.marks["geometry.channels"], format!("from {p}"));
    // A base that is itself a partial file, relative to the file naming it.
    let q = tmp(
        &dir,
        "four-slc-off.toml",
        "base = \"four.toml\"\n[ftl.slc_cache]\nenabled = false\n",
    );
    let r = resolve(None, Some(&q), &sets(&["geometry.ways_per_channel=1"])).unwrap();
    assert_eq!(
        (
            r.cfg.geometry.channels,
            r.cfg.geometry.ways_per_channel,
            r.cfg.ftl.slc_cache.enabled
        ),
        (4, 1, false)
    );
}

#[test]
fn base_file_with_unknown_key_is_named() {
    let dir = scratch();
    let p = tmp(
        &dir,
        "typo.toml",
        "base = \"sm2262-512g\"\n[onfi]\ntransfer_mt = 400\n",
    );
    let e = resolve(None, Some(&p), &[]).unwrap_err().to_string();
    assert!(
        e.contains("onfi.transfer_mt") && e.contains("onfi.transfer_mts"),
        "{e}"
    );
}

#[test]
fn partial_file_without_base_suggests_one() {
    let dir = scratch();
    let p = tmp(
        &dir,
        "partial.toml",
        "name = \"x\"\n[geometry]\nchannels = 4\n",
    );
    let e = resolve(None, Some(&p), &[]).unwrap_err().to_string();
    assert!(
        e.contains("missing field") && e.contains("base = \"sm2262-512g\""),
        "{e}"
    );
}

#[test]
fn transfer_rate_derives_the_sequencer_clock() {
    // 1066 MT/s at 2 bytes per cycle: 533 MHz.
    let r = resolve(None, None, &sets(&["onfi.transfer_mts=1066"])).unwrap();
    assert_eq!(r.cfg.onfi.core_clock_mhz, 533);
    assert_eq!(
        r.marks["onfi.core_clock_mhz"],
        "derived from onfi.transfer_mts"
    );
    // 400 MT/s fits the preset's 200 MHz (2 bytes per cycle): unchanged.
    let r = resolve(None, None, &sets(&["onfi.transfer_mts=400"])).unwrap();
    assert_eq!(r.cfg.onfi.core_clock_mhz, 200);
}

#[test]
fn inconsistent_rate_and_clock_name_both_and_a_fix() {
    let e = resolve(
        None,
        None,
        &sets(&["onfi.transfer_mts=1066", "onfi.core_clock_mhz=200"]),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "--set: onfi.transfer_mts = 1066 and onfi.core_clock_mhz = 200 do not fit (1 to 4 bytes \
         per sequencer cycle); onfi.core_clock_mhz = 533 would work"
    );
}

#[test]
fn dram_size_derives_the_mapping_table() {
    // 4 ways double the raw capacity: 32 dies x 2 planes x 940 blocks x 4608 units = 277 217 280
    // units; exported x 0.905 = 250 881 638, / 4096 entries per 16 KiB translation page = 61 251
    // pages x 16 KiB = 957.05 MiB. The 512 MB DRAM leaves 504 MiB beside the 8 MiB buffer: the
    // preset's 480 grows to 504, and with 1024 MB of DRAM to the whole 958.
    let r = resolve(None, None, &sets(&["geometry.ways_per_channel=4"])).unwrap();
    assert_eq!(r.cfg.ftl.map_cache.dram_table_mb, 504);
    assert_eq!(
        r.marks["ftl.map_cache.dram_table_mb"],
        "derived from geometry.ways_per_channel"
    );
    let both = sets(&["geometry.ways_per_channel=4", "controller.dram_mb=1024"]);
    let r = resolve(None, None, &both).unwrap();
    assert_eq!(r.cfg.ftl.map_cache.dram_table_mb, 958);
    // 4 channels halve the table to 240 MiB: the preset's 480 already holds it all and stays.
    let r = resolve(None, None, &sets(&["geometry.channels=4"])).unwrap();
    assert_eq!(r.cfg.ftl.map_cache.dram_table_mb, 480);
    assert!(!r.marks.contains_key("ftl.map_cache.dram_table_mb"));
    // 256 MB DRAM with the 8 MiB write buffer leaves 248 MiB: the 480 MiB table is cut to it.
    let r = resolve(None, None, &sets(&["controller.dram_mb=256"])).unwrap();
    assert_eq!(r.cfg.ftl.map_cache.dram_table_mb, 248);
    assert!(r.marks["ftl.map_cache.dram_table_mb"].contains("controller.dram_mb"));
}

#[test]
fn table_larger_than_dram_names_both() {
    let e = resolve(
        None,
        None,
        &sets(&["controller.dram_mb=256", "ftl.map_cache.dram_table_mb=480"]),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("ftl.map_cache.dram_table_mb = 480")
            && e.contains("controller.dram_mb = 256")
            && e.contains(
                "ftl.map_cache.dram_table_mb = 248 or controller.dram_mb = 488 would work"
            ),
        "{e}"
    );
}

#[test]
fn hash_follows_the_config_not_the_route() {
    let a = resolve(None, None, &sets(&["geometry.channels=4"])).unwrap();
    let dir = scratch();
    let p = tmp(
        &dir,
        "four-hash.toml",
        "base = \"sm2262-512g\"\ngeometry.channels = 4\n",
    );
    let b = resolve(None, Some(&p), &[]).unwrap();
    assert_eq!(config_hash(&a.cfg), config_hash(&b.cfg));
    let c = resolve(None, None, &[]).unwrap();
    assert_ne!(config_hash(&a.cfg), config_hash(&c.cfg));
    assert_eq!(config_hash(&a.cfg).len(), 16);
}

#[test]
fn summary_line_names_the_drive() {
    let r = resolve(None, None, &[]).unwrap();
    let s = summary_line(&r.cfg);
    assert!(
        s.starts_with("drive: SMI SM2262 512 GB")
            && s.contains("8 ch x 2 ways x 1 dies x 2 planes, TLC + SLC cache, ONFI 800 MT/s"),
        "{s}"
    );
    // 125 440 819 exported units x 4096 B = 513.8 GB.
    assert!(s.contains(": 514 GB,"), "{s}");
}

#[test]
fn show_marks_overrides_and_round_trips() {
    let given = sets(&["geometry.channels=4", "geometry.ways_per_channel=4"]);
    let r = resolve(Some("sm2262-512g"), None, &given).unwrap();
    let text = show::render(&r, "ssdlab presets show sm2262-512g --set ...");
    let line = text.lines().find(|l| l.starts_with("channels")).unwrap();
    assert_eq!(line, "channels = 4                 # set by --set");
    assert!(
        !text.contains("SM2262: 8 NAND channels"),
        "the inherited comment is gone"
    );
    // The derived table size is marked; keys the preset left to defaults are written out.
    // 16 dies again: the 479 MiB table is below the preset's 480 and fits: kept, not marked.
    assert!(text.contains("dram_table_mb = 480"), "{text}");
    assert!(!text.contains("# derived from"), "{text}");
    assert!(text.contains("t_rcbsy_us = 3.0"), "{text}");
    // The printed TOML is the resolved config.
    let back = DriveConfig::from_toml_str(&text, "shown").unwrap();
    assert_eq!(back, r.cfg);
}

#[test]
fn show_drops_continuation_comments_of_changed_keys() {
    let r = resolve(None, None, &sets(&["nand.tlc.t_prog_us=1800"])).unwrap();
    let text = show::render(&r, "show");
    assert!(text.contains("t_prog_us = 1800.0"), "{text}");
    assert!(!text.contains("one-shot TLC program of 3 pages"));
    assert!(
        !text.contains("with the free-block queue"),
        "continuation lines go too"
    );
}
