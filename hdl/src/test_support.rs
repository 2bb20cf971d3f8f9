//! What the unit tests share: rust_hdl's yosys check in a directory removed afterwards.

use rust_hdl::core::yosys::SynthError;

/// rust_hdl's `yosys_validate` (read, `hierarchy -check`, `proc`, then its checks of yosys's
/// output) in a fresh temporary directory removed on return, pass or fail. rust_hdl's own
/// writes `top.v` and yosys's output into `temp_dir()/<name>` and leaves them there, under a
/// name every user of a shared machine would share. `name` only names the subdirectory; the
/// error says what yosys found.
pub(crate) fn yosys_validate(name: &str, verilog: &str) -> Result<(), SynthError> {
    let tmp = tempfile::Builder::new().prefix("ssdlab-yosys-").tempdir()?;
    // rust_hdl joins `name` to `temp_dir()`: an absolute path replaces it.
    let dir = tmp.path().join(name);
    rust_hdl::core::yosys::yosys_validate(dir.to_str().expect("UTF-8 temp path"), verilog)
}
