"""``python -m arena.store.makemigration "message"``: autogenerate a migration from the models.

Builds a scratch SQLite database at the current head, diffs it against ``arena.store.models`` and
writes ``arena/migrations/versions/NNNN_<slug>.py``. Review the file before committing it.
"""
from __future__ import annotations

import re
import sys
import tempfile

from alembic import command
from alembic.config import Config

from .db import MIGRATIONS, Store


def main(message: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{tmp}/scratch.db")
        store.migrate()
        versions = sorted(p.name for p in (MIGRATIONS / "versions").glob("[0-9]*.py"))
        number = f"{len(versions) + 1:04d}"
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            slug = re.sub(r"[^a-z0-9]+", "_", message.lower()).strip("_")[:40]
            command.revision(cfg, message, autogenerate=True, rev_id=number)
        made = next((MIGRATIONS / "versions").glob(f"{number}_*.py"))
        made.rename(made.with_name(f"{number}_{slug}.py"))
        print(f"wrote {made.with_name(f'{number}_{slug}.py')}")


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]) or "change")
