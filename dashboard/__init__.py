"""The Arena dashboard: ladders, tournaments, matches, a replay viewer and live spectating.

``dashboard.app:create_app(...)`` builds the FastAPI application. Pages are server-rendered
(Jinja2); every page has a JSON twin under ``/api`` (OpenAPI docs at ``/api/docs``). The
dashboard reads the store and re-simulates *stored* replays; live matches come only from the
referee's public feed.
"""
