"""Turn procedures shared by the rule systems: each module is one way of deciding who acts next."""
