//! Allocation of the FTL's large per-unit tables (mapping, spare areas, valid bits: hundreds of
//! MiB each for a 512 GB drive). Random accesses into them are the cost of functional warm-up,
//! dominated by TLB misses with 4 KiB pages; on Linux the tables are advised as transparent huge
//! pages (`MADV_HUGEPAGE`, a hint the kernel may ignore).

/// A vector of `n` copies of `fill`, backed by huge pages where the OS allows.
pub fn big_vec<T: Copy>(n: usize, fill: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise_huge(v.as_mut_ptr() as usize, n * size_of::<T>());
    v.resize(n, fill);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge(addr: usize, bytes: usize) {
    const HUGE: usize = 2 << 20;
    if bytes < 2 * HUGE {
        return;
    }
    let start = addr.next_multiple_of(HUGE);
    let len = (addr + bytes - start) / HUGE * HUGE;
    // SAFETY: madvise on a range inside our own fresh allocation only changes paging policy;
    // failure is harmless (the hint is ignored).
    unsafe {
        libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_addr: usize, _bytes: usize) {}
