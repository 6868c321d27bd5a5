"""Planning bots (bots that look ahead along a goal chain rather than react)."""
