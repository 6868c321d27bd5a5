"""``arena bench dashboard``'s load generators: wrk's output parsed, and the Python generator (processes
with raw sockets) measuring a real server."""
from __future__ import annotations

from arena.bench.dashboard import load_python, parse_wrk
from tests.dashboard.conftest import LiveServer

WRK = """Running 5s test @ http://127.0.0.1:8765/api/games/clank/ladder
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    29.58ms   73.01ms 939.59ms   96.99%
    Req/Sec     1.42k   400.12     2.10k    70.00%
  Latency Distribution
     50%   13.77ms
     75%   20.01ms
     90%   35.50ms
     99%  455.75ms
  14158 requests in 5.02s, 305.93MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:   2819.99
Transfer/sec:     60.94MB
"""


def test_parse_wrk():
    load = parse_wrk(WRK)
    assert (load.requests, load.seconds, load.p50_ms, load.p99_ms, load.max_ms, load.errors) == (
        14158, 5.02, 13.77, 455.75, 939.59, 7)
    assert round(load.rps) == 2820


def test_python_generator_measures_a_live_server(app):
    with LiveServer(app) as srv:
        load = load_python(srv.url + "/games/sealed_bids", clients=4, seconds=1.0, gzip_ok=True, processes=2)
    assert load.requests > 10 and load.errors == 0 and 0 < load.p50_ms <= load.p99_ms <= load.max_ms
