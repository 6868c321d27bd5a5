"""One router module per resource; each has an ``api`` router (JSON) and a ``pages`` router (HTML)."""
