//! (being built; see ARCHITECTURE.md)
