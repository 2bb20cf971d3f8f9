//! NVMe front end on the PCIe transaction layer.
