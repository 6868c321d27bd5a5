"""The conformance suite: the engine contract, checked on any game (a pytest plugin).

Every registered game runs through it in this repository (``tests/conformance``). A game in
another package runs through it with::

    arena check-game mypkg.mygame:GAME          # pass/fail summary, exit 1 on failure
    pytest -p referee.engine.conformance.plugin --pyargs referee.engine.conformance \\
        --arena-game mypkg.mygame:GAME          # the same, with pytest's own options

What is checked (``docs/adding-a-game.md`` explains each rule):
- ``test_game_info``: info, options (defaults, unknown names, bad values, seat counts), content,
  legal actions valid against the exported action schema, same seed -> same game;
- ``test_playouts``: random play ends within ``decision_limit`` (<= ``info.safety_limit``); every
  pending seat has 1-100 legal actions, deterministic and plain JSON; non-pending seats have none;
  a simultaneous choice does not change the other seats' legal lists; views, events and the
  outcome are plain JSON; an outcome exactly when the game is over;
- ``test_apply``: garbage, other seats' actions, mutated actions and bad indices raise typed errors
  and change nothing;
- ``test_snapshot_replay``: snapshot -> restore keeps the digest and the future; replays re-simulate;
- ``test_hidden_information``: ``redeterminize`` keeps the seat's view, legal list and events and
  the public view; it re-draws something (hidden-information games); and two true states the seat
  cannot tell apart give equal copies for equal seeds, snapshot for snapshot.
"""
