"""Turn procedures shared by the rule systems: each works on typed data the system passes in."""
