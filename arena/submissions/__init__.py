"""Bot submission (issue 20): developers upload packages over gRPC; each is a version, built and
smoke-tested in the sandbox before it plays.

``manifest`` (arena-bot.toml), ``pack``/``unpack`` (the archive, with its checks), ``developers``
(tokens and version rows), ``status`` (the one place a version's status changes), ``build`` (in
the sandbox, no network), ``smoke`` (matches through a referee), ``pipeline`` (the build queue),
``service`` (the gRPC service of ``arena devserver``), ``client`` (``arena submit``).
"""
