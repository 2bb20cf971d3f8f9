//! PCIe transaction-layer interface types (the boundary to the vendor hard block).
