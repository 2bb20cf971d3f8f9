//! fio job files: the INI layer ([`ini`]), value syntax ([`value`]) and job semantics ([`job`]).

pub mod ini;
pub mod job;
pub mod value;

pub use job::{parse_job_file, JobSpec, RwMode, IGNORED_OPTIONS};
pub use value::SizeSpec;
