//! Tests of the mapping-cache block: synthesizability, and (in `sim_tests`) rust_hdl simulations
//! against the model.

use super::*;

#[test]
fn map_cache_is_synthesizable() {
    let vlog = export_verilog();
    yosys_validate("ssdlab_map_cache", &vlog).unwrap();
}

#[test]
fn config_mismatch_names_the_field() {
    let mut cfg = export_config();
    cfg.ways = 8;
    let e = MapCacheExport::new(&cfg).err().unwrap();
    assert!(e.to_string().contains("ftl.map_cache.ways"), "{e}");
    let mut cfg = export_config();
    cfg.sets = 128;
    assert!(MapCacheExport::new(&cfg).err().unwrap().to_string().contains("ftl.map_cache.sets"));
    let mut cfg = export_config();
    cfg.dram_table_mb = 2;
    assert!(MapCacheExport::new(&cfg).err().unwrap().to_string().contains("ftl.map_cache.dram_table_mb"));
}
