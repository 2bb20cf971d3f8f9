//! `with_defaults!`: the struct literal every block constructor (`new`/`default`/`assemble`)
//! ends in. A rust_hdl block is one struct whose fields are its ports, registers, memories,
//! child blocks, `Constant`s and kernel `Local`s; elaboration decides the constants, memory
//! contents and children, and leaves every port, register and local at its type's default
//! (registers: their FPGA init value, no reset port). The macro lists the decided fields with
//! their values and the rest by name only, so a constructor shows what elaboration decides.
//! It expands to the plain literal: every field is still named (the compiler rejects a missing
//! or unknown one), and the generated Verilog does not depend on it (rust-hdl emits fields in
//! declaration order, with their values).

/// `with_defaults!(Block { field: value, child, .. } defaults { a, b, .. } arrays { c, .. })`: the
/// literal `Block { field: value, child, a: Default::default(), .., c: std::array::from_fn(|_|
/// Default::default()) }` (arrays of a const-generic length have no `Default`). The `arrays`
/// group is optional.
macro_rules! with_defaults {
    ($block:ident { $($field:ident $(: $value:expr)?),* $(,)? }
     defaults { $($default:ident),* $(,)? }
     $(arrays { $($array:ident),* $(,)? })?) => {
        $block {
            $($field $(: $value)?,)*
            $($default: ::core::default::Default::default(),)*
            $($($array: ::std::array::from_fn(|_| ::core::default::Default::default()),)*)?
        }
    };
}
pub(crate) use with_defaults;

/// `n` default values: a per-channel or per-way port or child vector of an elaborated size.
pub(crate) fn vec_of<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}
