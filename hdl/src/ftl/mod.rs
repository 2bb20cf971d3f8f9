//! FTL datapath blocks: the mapping-table cache (`map_cache`).
