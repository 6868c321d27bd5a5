"""The rules of The Battle for Greyport, split by mechanic (each module is a mixin of the state)."""
