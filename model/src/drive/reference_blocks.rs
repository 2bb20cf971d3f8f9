//! The behavioural blocks a [`Drive`] runs that HDL blocks are checked against, named by the
//! type of the instance the drive owns (so a block the drive stops running drops out of the
//! list). `ssdlab_hdl::reference_models` maps every exported HDL block to one of these and its
//! test fails when an HDL block's reference model is not among them.

use super::Drive;
use std::any::type_name_of_val as type_of;

impl Drive {
    /// Type names (`std::any::type_name`) of the behavioural blocks this drive runs: the SRAM
    /// mapping cache, the SQ arbitration policy of its NVMe queues, the page buffer (with its
    /// DMA port, the datapath top's own timing), the channel sequencer, and the clock crossing
    /// of its FIFOs to the sequencers when they run on a clock of their own.
    pub fn reference_blocks(&self) -> Vec<&'static str> {
        let mut v = vec![
            type_of(&self.map_sram),
            type_of(&self.fe),
            self.fe.arbiter().policy(),
            type_of(&self.page_buf),
        ];
        v.extend(self.chans.first().map(|c| type_of(&c.seq)));
        v.extend(self.nand_x.as_ref().map(|x| type_of(x.down())));
        v
    }
}
