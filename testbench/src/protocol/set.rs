//! The `set` step's keys: run-time settings of the drive (`nand.suspend.*` only), checked when
//! the protocol loads and applied to the running drive's suspend settings.

/// The dotted leaves of a `set` table; every key must be a `nand.suspend` key and its value
/// one that key takes (checked on the default suspend settings).
pub(super) fn set_keys(t: &toml::Table) -> Result<Vec<(String, toml::Value)>, String> {
    let keys = crate::drive_cfg::keys::leaves_of(&toml::Value::Table(t.clone()));
    if keys.is_empty() {
        return Err("set: no key".into());
    }
    for (k, _) in &keys {
        if !k.starts_with("nand.suspend.") {
            return Err(format!(
                "set: `{k}` cannot change during a run (only nand.suspend.* keys can)"
            ));
        }
    }
    apply_suspend_keys(&ssdlab_model::config::SuspendConfig::default(), &keys)?;
    Ok(keys)
}

/// `base` with the `nand.suspend.*` `keys` applied, validated.
pub fn apply_suspend_keys(
    base: &ssdlab_model::config::SuspendConfig,
    keys: &[(String, toml::Value)],
) -> Result<ssdlab_model::config::SuspendConfig, String> {
    let mut v = toml::Value::try_from(base).map_err(|e| e.to_string())?;
    for (k, val) in keys {
        let field = k.trim_start_matches("nand.suspend.");
        crate::drive_cfg::keys::set_dotted(&mut v, field, val.clone());
    }
    let c: ssdlab_model::config::SuspendConfig = v
        .try_into()
        .map_err(|e: toml::de::Error| format!("set: nand.suspend: {}", e.message()))?;
    c.validate().map_err(|e| format!("set: {e}"))?;
    Ok(c)
}
