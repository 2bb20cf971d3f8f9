//! NAND side: the ONFI channel sequencer and the 8-channel array.
