//! PCIe transaction-layer interface of the front end (the boundary to the vendor hard block):
//! descriptor layouts of the four streams ([`tlp`]) and the requester-request multiplexer
//! ([`rq_mux`]). The PHY and data-link layer are hard IP and out of scope.

pub mod rq_mux;
pub mod tlp;
pub mod words;
