"""A complete Arena bot in 12 lines: JSON lines on stdin/stdout, no gRPC, no Arena imports.

    arena bridge --token $ARENA_TOKEN -- python bots/sdk/examples/random_jsonl.py
"""
import json
import random
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "decision":  # also: "start", "error", "end"
        print(json.dumps({"index": random.randrange(len(msg["legal"]))}), flush=True)
