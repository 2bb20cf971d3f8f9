//! NVMe front end at transaction level (doorbells → SQ fetch → PRP data → CQ/MSI-X); mirrored by `ssdlab_hdl::nvme`. (being built)
