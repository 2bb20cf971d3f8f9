//! Substitutions fio makes in every option line before parsing it (fio `options.c`,
//! `fio_option_dup_subs` and `fio_keyword_replace`; HOWTO "Environment variables" and
//! "Reserved keywords"):
//!
//! - `${VARNAME}` is replaced by the environment variable's value; an unset variable (or
//!   `${}`) becomes the empty string, silently, as in fio. A `${` without its `}` stays as
//!   written. `$VARNAME` without braces is not an environment reference in fio and stays too.
//! - The reserved keywords `$pagesize` (bytes), `$mb_memory` (MiB of physical memory) and
//!   `$ncpus` (CPUs configured) are replaced by this machine's values. When one was replaced and
//!   the value holds `+ - * /`, fio hands the value to `bc`; here it is evaluated as integer
//!   arithmetic with `bc`'s default scale 0 (division truncates, `*` and `/` before `+` and `-`,
//!   parentheses). The keywords make a job file depend on the machine that runs it.

/// This machine's values of fio's reserved keywords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    pub pagesize: u64,
    pub mb_memory: u64,
    pub ncpus: u64,
}

impl Machine {
    /// Reads the running Linux host: `AT_PAGESZ` from `/proc/self/auxv`, `MemTotal` from
    /// `/proc/meminfo`, the `cpuN` entries of `/sys/devices/system/cpu` (glibc's
    /// `sysconf(_SC_NPROCESSORS_CONF)`, which fio's `cpus_configured` calls). A value that cannot
    /// be read falls back to 4096, 0 and the threads available.
    pub fn this_host() -> Machine {
        Machine {
            pagesize: auxv_pagesize().unwrap_or(4096),
            mb_memory: meminfo_total_kib().map_or(0, |k| k / 1024),
            ncpus: cpus_configured().unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, |n| n.get() as u64)
            }),
        }
    }
}

fn auxv_pagesize() -> Option<u64> {
    const AT_PAGESZ: u64 = 6;
    let b = std::fs::read("/proc/self/auxv").ok()?;
    b.chunks_exact(16).find_map(|c| {
        let key = u64::from_ne_bytes(c[..8].try_into().ok()?);
        (key == AT_PAGESZ).then(|| u64::from_ne_bytes(c[8..].try_into().expect("8 bytes")))
    })
}

fn meminfo_total_kib() -> Option<u64> {
    let t = std::fs::read_to_string("/proc/meminfo").ok()?;
    let l = t.lines().find(|l| l.starts_with("MemTotal:"))?;
    l.split_whitespace().nth(1)?.parse().ok()
}

fn cpus_configured() -> Option<u64> {
    let n = std::fs::read_dir("/sys/devices/system/cpu")
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            n.strip_prefix("cpu")
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        })
        .count() as u64;
    (n > 0).then_some(n)
}

/// Where substitutions come from: the environment and the machine.
pub struct Vars<'a> {
    pub env: &'a dyn Fn(&str) -> Option<String>,
    pub machine: Machine,
}

/// An option line after substitution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expanded {
    pub text: String,
    /// `${NAME}` references that were unset (replaced by nothing), for error messages.
    pub unset: Vec<String>,
}

/// Substitutes `${VAR}` and the reserved keywords in one `key=value` line, as fio does.
pub fn expand_line(line: &str, vars: &Vars) -> Result<Expanded, String> {
    let mut text = String::with_capacity(line.len());
    let mut unset = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("${") {
        text.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        match after.find('}') {
            Some(j) => {
                let name = &after[..j];
                match (vars.env)(name) {
                    Some(v) => text.push_str(&v),
                    None => unset.push(format!("${{{name}}}")),
                }
                rest = &after[j + 1..];
            }
            None => {
                text.push_str("${");
                rest = after;
            }
        }
    }
    text.push_str(rest);
    let m = vars.machine;
    let mut replaced = false;
    for (word, value) in [
        ("$pagesize", m.pagesize),
        ("$mb_memory", m.mb_memory),
        ("$ncpus", m.ncpus),
    ] {
        if text.contains(word) {
            text = text.replace(word, &value.to_string());
            replaced = true;
        }
    }
    if replaced && !text.contains('\'') && text.contains(['+', '-', '*', '/']) {
        if let Some((key, value)) = text.split_once('=') {
            let written = line.split_once('=').map_or(line, |w| w.1).trim();
            let v = eval(value.trim()).map_err(|e| format!("`{written}`: {e}"))?;
            text = format!("{key}={v}");
        }
    }
    Ok(Expanded { text, unset })
}

/// Integer arithmetic as `bc` does it at scale 0: `+ - * /`, parentheses, unary minus.
fn eval(s: &str) -> Result<i128, String> {
    let toks: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    let mut p = Parser { t: &toks, i: 0 };
    let v = p.sum()?;
    if p.i != toks.len() {
        return Err(format!(
            "arithmetic after a reserved keyword: unexpected `{}`",
            toks[p.i]
        ));
    }
    Ok(v)
}

struct Parser<'a> {
    t: &'a [char],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.t.get(self.i).copied()
    }
    fn sum(&mut self) -> Result<i128, String> {
        let mut v = self.product()?;
        while let Some(op @ ('+' | '-')) = self.peek() {
            self.i += 1;
            let r = self.product()?;
            v = if op == '+' {
                v.checked_add(r)
            } else {
                v.checked_sub(r)
            }
            .ok_or("arithmetic overflows")?;
        }
        Ok(v)
    }
    fn product(&mut self) -> Result<i128, String> {
        let mut v = self.atom()?;
        while let Some(op @ ('*' | '/')) = self.peek() {
            self.i += 1;
            let r = self.atom()?;
            v = if op == '*' {
                v.checked_mul(r).ok_or("arithmetic overflows")?
            } else {
                v.checked_div(r).ok_or("division by zero")?
            };
        }
        Ok(v)
    }
    fn atom(&mut self) -> Result<i128, String> {
        match self.peek() {
            Some('-') => {
                self.i += 1;
                Ok(-self.atom()?)
            }
            Some('(') => {
                self.i += 1;
                let v = self.sum()?;
                if self.peek() != Some(')') {
                    return Err("arithmetic: missing `)`".into());
                }
                self.i += 1;
                Ok(v)
            }
            Some(c) if c.is_ascii_digit() => {
                let start = self.i;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.i += 1;
                }
                let d: String = self.t[start..self.i].iter().collect();
                d.parse().map_err(|_| "arithmetic: number too large".into())
            }
            Some(c) => Err(format!(
                "arithmetic after a reserved keyword: unexpected `{c}`"
            )),
            None => Err("arithmetic after a reserved keyword: missing a number".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: Machine = Machine {
        pagesize: 4096,
        mb_memory: 16_000,
        ncpus: 8,
    };

    fn env(name: &str) -> Option<String> {
        match name {
            "SIZE" => Some("64m".into()),
            "NUMJOBS" => Some("4".into()),
            _ => None,
        }
    }

    fn ex(line: &str) -> Result<Expanded, String> {
        expand_line(
            line,
            &Vars {
                env: &env,
                machine: M,
            },
        )
    }

    #[test]
    fn environment_references_follow_fio() {
        // fio HOWTO "Environment variables": SIZE=64m NUMJOBS=4.
        assert_eq!(ex("size=${SIZE}").unwrap().text, "size=64m");
        assert_eq!(ex("numjobs=${NUMJOBS}").unwrap().text, "numjobs=4");
        // Unset and empty names become nothing (fio_option_dup_subs), and are remembered.
        let e = ex("size=${NOPE}k${}").unwrap();
        assert_eq!(e.text, "size=k");
        assert_eq!(e.unset, ["${NOPE}", "${}"]);
        // No closing brace, or no braces: left as written.
        assert_eq!(ex("filename=${SIZE").unwrap().text, "filename=${SIZE");
        assert_eq!(ex("filename=$SIZE").unwrap().text, "filename=$SIZE");
    }

    #[test]
    fn reserved_keywords_and_their_arithmetic() {
        assert_eq!(ex("bs=$pagesize").unwrap().text, "bs=4096");
        assert_eq!(ex("numjobs=$ncpus").unwrap().text, "numjobs=8");
        // HOWTO: size=8*$mb_memory; 8 x 16000 = 128000 (MiB, as fio's bc gives it, no unit).
        assert_eq!(ex("size=8*$mb_memory").unwrap().text, "size=128000");
        // bc at scale 0: 8 / 3 = 2, precedence and parentheses.
        assert_eq!(ex("numjobs=$ncpus/3").unwrap().text, "numjobs=2");
        assert_eq!(ex("iodepth=2+$ncpus*2").unwrap().text, "iodepth=18");
        assert_eq!(ex("iodepth=(2+$ncpus)*2").unwrap().text, "iodepth=20");
        // Without a keyword no arithmetic is done (fio calls bc only after a replacement).
        assert_eq!(ex("bs=4k-8k").unwrap().text, "bs=4k-8k");
        assert!(ex("iodepth=$ncpus/0")
            .unwrap_err()
            .contains("division by zero"));
        assert!(ex("iodepth=$ncpus*k")
            .unwrap_err()
            .contains("unexpected `k`"));
    }

    #[test]
    fn this_host_reads_plausible_values() {
        let m = Machine::this_host();
        assert!(m.pagesize.is_power_of_two() && m.pagesize >= 4096, "{m:?}");
        assert!(m.ncpus >= 1, "{m:?}");
    }
}
