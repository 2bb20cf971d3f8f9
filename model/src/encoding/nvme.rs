//! NVMe command encodings both the behavioural front end and the rust_hdl blocks use (NVM Express
//! Base Specification 1.4): the opcodes the front end and its firmware know (Figures 139 admin and
//! 346 NVM command set) and the status codes it returns (section 4.6.1.2, Figure 126 generic,
//! Figure 127 command specific).

/// Opcodes the front end and its test firmware know (Figures 139 and 346).
pub mod opc {
    pub const ADMIN_DELETE_IO_SQ: u8 = 0x00;
    pub const ADMIN_CREATE_IO_SQ: u8 = 0x01;
    pub const ADMIN_DELETE_IO_CQ: u8 = 0x04;
    pub const ADMIN_CREATE_IO_CQ: u8 = 0x05;
    pub const ADMIN_IDENTIFY: u8 = 0x06;
    pub const ADMIN_ASYNC_EVENT: u8 = 0x0C;
    pub const NVM_FLUSH: u8 = 0x00;
    pub const NVM_WRITE: u8 = 0x01;
    pub const NVM_READ: u8 = 0x02;
    /// Dataset Management (the drive's trims: one range, attribute Deallocate).
    pub const NVM_DSM: u8 = 0x09;
}

/// Status field (SCT in bits 10:8, SC in bits 7:0 of the 15-bit status, DW3 bits 31:17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Status {
    pub sct: u8,
    pub sc: u8,
}

impl Status {
    pub const SUCCESS: Status = Status { sct: 0, sc: 0x00 };
    /// Generic 01h Invalid Command Opcode.
    pub const INVALID_OPCODE: Status = Status { sct: 0, sc: 0x01 };
    /// Generic 02h Invalid Field in Command.
    pub const INVALID_FIELD: Status = Status { sct: 0, sc: 0x02 };
    /// Generic 13h PRP Offset Invalid.
    pub const PRP_OFFSET_INVALID: Status = Status { sct: 0, sc: 0x13 };
    /// Generic 80h LBA Out of Range (NVM command set).
    pub const LBA_OUT_OF_RANGE: Status = Status { sct: 0, sc: 0x80 };
    /// Command specific 00h Completion Queue Invalid.
    pub const CQ_INVALID: Status = Status { sct: 1, sc: 0x00 };
    /// Command specific 01h Invalid Queue Identifier.
    pub const INVALID_QID: Status = Status { sct: 1, sc: 0x01 };
    /// Command specific 02h Invalid Queue Size.
    pub const INVALID_QSIZE: Status = Status { sct: 1, sc: 0x02 };
    /// Command specific 05h Asynchronous Event Request Limit Exceeded.
    pub const AER_LIMIT: Status = Status { sct: 1, sc: 0x05 };

    /// The 15-bit status field (without the phase bit).
    pub fn field(self) -> u16 {
        ((self.sct as u16 & 0x7) << 8) | self.sc as u16
    }
}
