//! Allocation of the FTL's large per-unit tables (mapping, spare areas, valid bits: hundreds of
//! MiB each for a 512 GB drive). Random accesses into them are the cost of functional warm-up,
//! dominated by TLB misses with 4 KiB pages; on Linux the tables are advised as transparent huge
//! pages (`MADV_HUGEPAGE`, a hint the kernel may ignore).

/// Table entries whose all-zero bytes are a valid value: the table's empty entry.
///
/// # Safety
/// Every field of the type must accept all-zero bytes (integers, or structs of them without
/// padding), so that zeroed memory read as `[Self]` holds valid values.
pub unsafe trait Zeroed: Copy {}

// SAFETY: an integer accepts every bit pattern.
unsafe impl Zeroed for u64 {}

/// A vector of `n` empty (all-zero) entries, backed by huge pages where the OS allows.
///
/// The memory comes zeroed from the allocator (`calloc`, fresh pages on Linux for tables this
/// size), so the OS maps a page only when an entry in it is first written: a run that touches
/// 2 GB of a 512 GB drive pays for 2 GB worth of table, not for the whole table at start.
pub fn big_zeroed<T: Zeroed>(n: usize) -> Vec<T> {
    let layout = std::alloc::Layout::array::<T>(n).expect("table size overflows the address space");
    if layout.size() == 0 {
        return Vec::new();
    }
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
    if p.is_null() {
        std::alloc::handle_alloc_error(layout);
    }
    advise_huge(p as usize, layout.size());
    // SAFETY: `p` comes from the global allocator with the layout of `n` values of `T` (so the
    // capacity is `n`), and all `n` are initialised: zero bytes are a valid `T` (`Zeroed`).
    unsafe { Vec::from_raw_parts(p, n, n) }
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
