//! ONFI command bytes (ONFI 4.1, section 5: Read, Read Cache Sequential/End, Change Read
//! Column, Page Program, Block Erase, Read Status and their multi-plane forms; the one-pass TLC
//! program's 1Ah, a vendor extension): the bytes the
//! behavioural sequencer (`nand::sequencer`) puts on the bus and the HDL bus engine
//! (`ssdlab_hdl::nand::bus_engine`) drives, from one definition.

/// Read, first cycle (then address, 30h).
pub const READ_1: u8 = 0x00;
/// Read, second cycle: start the array read.
pub const READ_2: u8 = 0x30;
/// Multi-plane read: queue this plane, more follow.
pub const READ_MULTIPLANE: u8 = 0x32;
/// Change read column (plane select), first cycle.
pub const CHANGE_COL_1: u8 = 0x06;
/// Change read column, second cycle.
pub const CHANGE_COL_2: u8 = 0xE0;
/// Page program, first cycle (then address, tADL, data).
pub const PROGRAM_1: u8 = 0x80;
/// Page program, confirm.
pub const PROGRAM_2: u8 = 0x10;
/// Multi-plane program: queue this plane, more follow.
pub const PROGRAM_MULTIPLANE: u8 = 0x11;
/// One-shot (one-pass) multi-bit program: this page is loaded (every plane of it), the next page
/// of the word line follows; the last page's 10h programs them all (TLC: lower 1Ah, middle 1Ah,
/// upper 10h; vendor extension as ONFI 4.1 defines no multi-bit program, Micron and Kioxia
/// one-pass program order).
pub const PROGRAM_NEXT_PAGE: u8 = 0x1A;
/// Block erase, first cycle (then row address).
pub const ERASE_1: u8 = 0x60;
/// Block erase, confirm.
pub const ERASE_2: u8 = 0xD0;
/// Multi-plane erase: queue this plane, more follow.
pub const ERASE_MULTIPLANE: u8 = 0xD1;
/// Read status (one status byte after tWHR).
pub const READ_STATUS: u8 = 0x70;
/// Read cache sequential: next page into the cache register.
pub const READ_CACHE_SEQ: u8 = 0x31;
/// Read cache end: last page of a cache read.
pub const READ_CACHE_END: u8 = 0x3F;

/// Program/erase suspend and resume latches of one vendor's command set. ONFI 4.1 defines no
/// suspend command; the bytes are vendor extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuspendCommands {
    /// Suspend the program or erase in progress (no address).
    pub suspend: u8,
    /// Resume the suspended operation (no address).
    pub resume: u8,
}

/// Samsung / AMD NAND: Erase Suspend B0h, Erase Resume D0h (Intel "AMD and Samsung NAND Flash
/// Devices Commands", Valid During Busy: suspend yes).
pub const SUSPEND_SAMSUNG: SuspendCommands = SuspendCommands {
    suspend: 0xB0,
    resume: 0xD0,
};
/// Samsung OneNAND: Erase Suspend B0h, Erase Resume 30h (OneNAND128 datasheet, "Erase
/// Suspend / Resume").
pub const SUSPEND_ONENAND: SuspendCommands = SuspendCommands {
    suspend: 0xB0,
    resume: 0x30,
};
