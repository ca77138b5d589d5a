"""One package per rule system; `rules.registry.SYSTEMS` lists them."""
