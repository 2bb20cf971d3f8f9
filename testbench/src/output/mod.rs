//! Result formatting: fio-like text ([`human`]) and fio-shaped JSON ([`json`]).

pub mod human;
pub mod json;
