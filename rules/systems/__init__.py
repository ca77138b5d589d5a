"""One module per rule system; each registers itself with ``rules.system.register``."""
