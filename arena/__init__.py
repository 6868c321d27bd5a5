"""Arena: tournaments (store, scheduling, ratings, Celery tasks, local executor) and the CLI."""
