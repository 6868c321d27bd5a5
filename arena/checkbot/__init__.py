"""``arena check-bot``: put a bot through everything the referee can ask of it, with a verdict per check.

``proxy`` cuts connections on demand (the disconnect check), ``botproc`` runs and watches the bot's
command, ``verdict`` reads a match report for what the checked bot did wrong, ``checks`` runs them.
"""
