//! FTL datapath blocks: the mapping-table cache (`map_cache`).

pub mod map_cache;
