//! Models of the world outside the controller's synthesizable blocks, and the test benches that
//! drive the rust_hdl blocks against them (plain Rust, never synthesized): the PCIe root complex
//! with host memory and the host driver's initialisation (`root_complex`), the mapping cache's
//! DRAM and translation-page mover (`map_dram`) and FTL-shaped access traces (`map_traces`), and
//! one bench per block family: the NVMe front end (`frontend_bench`), the PRP data path
//! (`prp_bench`) and the mapping cache (`map_cache_bench`); and the ONFI NAND target on a
//! channel's beat port (`nand_target`), which the channel and datapath co-simulations play, and
//! the pin-level NAND target with the ONFI PHY's bench (`onfi_pins`); the PHY's read return as
//! the beat-level benches see it (`read_return`). Tests of the hdl blocks against these models are in `testbench/tests/`
//! (`hdl_frontend.rs`, `hdl_prp_dma.rs`, `hdl_map_cache.rs`, `datapath_*.rs`, ...).

pub mod frontend_bench;
pub mod map_cache_bench;
pub mod map_dram;
pub mod map_traces;
pub mod nand_target;
pub mod onfi_pins;
pub mod prp_bench;
pub mod read_return;
pub mod root_complex;
