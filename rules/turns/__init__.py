"""Turn procedures shared by the rule systems: each module is one procedure, working on typed
data the system passes in (names, sides, numbers), never on a system's own state."""
