//! NVMe host interface (NVM Express Base Specification 1.4): queues, arbitration, and the
//! TLP-level front-end block mirrored by `ssdlab_hdl::nvme`.

pub mod frontend;
