"""A spectator never learns hidden information: not while a match runs (no replay, no seed, no
frames, only the public live stream) and, in a finished replay, each perspective sees only its own."""
from __future__ import annotations

import json

from referee.engine import PUBLIC
from referee.engine.replay import states


def test_running_match_refuses_replay_frames_and_seed(client):
    for mid in ("live1", "queued1"):
        m = client.get(f"/api/matches/{mid}").json()
        assert m["seed"] is None and m["outcome"] is None and not m["has_replay"]
        assert client.get(f"/api/matches/{mid}/replay").status_code == 409
        for p in ("all", "0", "1", "public"):
            assert client.get(f"/api/matches/{mid}/frames?perspective={p}").status_code == 409
        page = client.get(f"/matches/{mid}").text
        persp = page.split('id="v-perspective"')[1].split("</select>")[0]
        assert 'value="public"' in persp and 'value="all"' not in persp and 'value="0"' not in persp
        assert "download replay" not in page


def test_live_stream_is_the_public_view_only(client, source):
    rep = source.live_replays["live1"]
    public = [json.dumps(st.observe(PUBLIC), sort_keys=True) for _, st in states(rep)]
    with client.stream("GET", "/api/matches/live1/live?delay=0") as r:
        body = b"".join(r.iter_bytes()).decode()
    frames = [json.loads(line[6:]) for line in body.splitlines() if line.startswith("data: ")
              and '"view"' in line]
    # The final public view reveals the deal (twins of the match may still be playing it): the stream
    # ends with a bare "over" frame and the end is published with the replay.
    assert len(frames) == len(public) - 1
    last = [json.loads(line[6:]) for line in body.splitlines() if line.startswith("data: ")
            and '"over"' in line]
    assert last[-1] == {"step": len(public) - 1, "over": True}
    for f, want in zip(frames, public[:-1], strict=True):
        assert json.dumps(f["view"], sort_keys=True) == want
        assert "hand" not in f["view"] and "hands" not in f["view"] and "deck" not in f["view"]
        assert set(f) <= {"step", "view", "events", "over", "outcome", "actors", "pending"}
    assert "drew" not in body  # private events never reach the stream
    assert client.get("/api/matches/m1/live").status_code == 409  # a finished match has a replay instead


def test_seat_perspective_sees_only_its_own_hand_and_actions(client):
    seat0 = client.get("/api/matches/m2/frames?perspective=0&limit=500").json()["frames"]
    pub = client.get("/api/matches/m2/frames?perspective=public&limit=500").json()["frames"]
    full = client.get("/api/matches/m2/frames?perspective=all&limit=500").json()["frames"]
    for f0, fp, fa in zip(seat0, pub, full, strict=True):
        assert "hand" in f0["view"] and "hands" not in f0["view"]
        assert "hand" not in fp["view"] and "hands" not in fp["view"]
        assert "hands" in fa["view"]
        if fa["actors"] == [1]:
            assert f0["action"] is None and fp["action"] is None and fa["action"] is not None
        if fa["actors"] == [0]:
            assert f0["action"] == fa["action"] and fp["action"] is None
        assert all(e["type"] != "drew" for e in fp["events"])
