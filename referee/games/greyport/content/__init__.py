"""Content data files (TOML) of The Battle for Greyport."""
