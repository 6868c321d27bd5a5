"""Bots: the Python SDK, example bots (random + one heuristic per game) and the Node.js bot."""
