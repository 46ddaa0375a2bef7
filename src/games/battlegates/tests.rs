//! Battlegates' rules, each tested by name.
