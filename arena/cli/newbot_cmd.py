"""``arena new-bot --lang python|node|go DIR``: a runnable bot project to start from."""
from __future__ import annotations

from pathlib import Path

import click

from .common import BadInput, console


def register(cli: click.Group) -> None:
    from ..starters import languages

    @cli.command("new-bot")
    @click.argument("directory", type=click.Path(path_type=Path))
    @click.option("--lang", "lang", type=click.Choice(languages()), required=True, help="The bot's language.")
    @click.option("--name", default=None, help="The bot's name [default: the directory's name].")
    def new_bot(directory: Path, lang: str, name: str | None) -> None:
        """Write a random bot in LANG into DIRECTORY, ready to build, check and enter.

        Example:
        arena new-bot --lang go mybot && cd mybot && bash build.sh && arena check-bot -- build/arena-go-bot
        """
        from ..starters import StarterError, create

        try:
            kit = create(lang, directory, name or directory.resolve().name.lower())
        except StarterError as exc:
            raise BadInput(str(exc)) from None
        console.print(f"wrote a {lang} bot to {directory}/ (see its README.md)", highlight=False)
        for step in kit.setup:
            console.print(f"  set up: (cd {directory} && {step})", highlight=False, markup=False)
        console.print(f"  run:    (cd {directory} && {kit.run_command()})", highlight=False, markup=False)
        console.print(f"  check:  (cd {directory} && arena check-bot -- {kit.run_command()})",
                      highlight=False, markup=False)
        console.print(f"  submit: arena submit {directory}   (a new version on the developer service, "
                      "docs/submitting.md)", highlight=False, markup=False)
