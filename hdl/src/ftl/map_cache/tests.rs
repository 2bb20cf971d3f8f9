//! Tests of the mapping-cache block that need no device model: synthesizability, the PLRU
//! tables' layout and the elaboration's config errors. Its rust_hdl simulations against the
//! model, with the DRAM model on its ports, are `testbench/tests/hdl_map_cache.rs`.

use super::*;

#[test]
fn map_cache_is_synthesizable() {
    let vlog = export_verilog();
    crate::test_support::yosys_validate("ssdlab_map_cache", &vlog).unwrap();
}

#[test]
fn plru_tables_follow_the_documented_tree_layout() {
    // Hand-worked from the tree (bits [root, left node, right node], 0 points left): touching
    // way 0 sets root=1 and left=1 (0b011) and keeps the right node (keep 0b100); way 1: root=1,
    // left=0 (0b001); way 2: root=0, right=1 (0b100), keep the left node (0b010); way 3: 0b000.
    let t = PlruTables::from_model(4);
    assert_eq!(t.set, [0b011, 0b001, 0b100, 0b000]);
    assert_eq!(t.keep, [0b100, 0b100, 0b010, 0b010]);
    // Victims: root (bit 0) = 0 -> left half, way 0 + bit 1; root = 1 -> right half, way 2 +
    // bit 2. States 0..7: 000->0, 001->2, 010->1, 011->2, 100->0, 101->3, 110->1, 111->3.
    let v: Vec<usize> = (0..8).map(|s| t.victim(s)).collect();
    assert_eq!(v, [0, 2, 1, 2, 0, 3, 1, 3]);
}

#[test]
fn config_mismatch_names_the_field() {
    let mut cfg = export_config();
    cfg.ways = 8;
    let e = MapCacheExport::new(&cfg).err().unwrap();
    assert!(e.to_string().contains("ftl.map_cache.ways"), "{e}");
    let mut cfg = export_config();
    cfg.sets = 128;
    assert!(MapCacheExport::new(&cfg)
        .err()
        .unwrap()
        .to_string()
        .contains("ftl.map_cache.sets"));
    let mut cfg = export_config();
    cfg.dram_table_mb = 2;
    assert!(MapCacheExport::new(&cfg)
        .err()
        .unwrap()
        .to_string()
        .contains("ftl.map_cache.dram_table_mb"));
}
