"""Clank! rules, one module per mechanic; each is a mixin of ``ClankState``."""
