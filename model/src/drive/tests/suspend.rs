//! Program/erase suspend through the drive: `Drive::set_suspend` reaches every channel, reads
//! that meet a program suspend it, and the `never` policy leaves the run as it was.

use super::{flat_cfg, random_mix};
use crate::config::{SuspendConfig, SuspendPolicyKind};
use crate::drive::Drive;

#[test]
fn reads_suspend_programs_and_never_changes_nothing() {
    let plain = {
        let mut d = Drive::new(&flat_cfg(), 7).unwrap();
        let r = random_mix(&mut d, 7);
        assert_eq!(d.stats().nand_suspends, 0);
        r
    };
    let mut d = Drive::new(&flat_cfg(), 7).unwrap();
    d.set_suspend(&SuspendConfig::default()).unwrap();
    assert_eq!(random_mix(&mut d, 7), plain, "policy never: same run");

    let mut d = Drive::new(&flat_cfg(), 7).unwrap();
    let on = SuspendConfig {
        policy: SuspendPolicyKind::Always,
        ..SuspendConfig::default()
    };
    d.set_suspend(&on).unwrap();
    let (done, read_max) = random_mix(&mut d, 7);
    assert_eq!(done.len(), 400);
    assert!(d.stats().nand_suspends > 0, "no read suspended a program");
    // Without suspend the worst read waited behind a whole tPROG (1.9 ms TLC, 220 us SLC);
    // with it, the worst read is shorter.
    assert!(read_max < plain.1, "{read_max} ns vs {} ns", plain.1);
    let bad = SuspendConfig {
        t_suspend_us: -1.0,
        ..SuspendConfig::default()
    };
    let e = d.set_suspend(&bad).unwrap_err().to_string();
    assert!(e.contains("nand.suspend.t_suspend_us"), "{e}");
}
