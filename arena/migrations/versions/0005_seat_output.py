"""match_seats.output: a hosted bot's own output in the match, for its owner

Revision ID: 0005_seat_output
Revises: 0004_issue20_submissions
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005_seat_output'
down_revision = '0004_issue20_submissions'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('match_seats') as batch:
        batch.add_column(sa.Column('output', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('match_seats') as batch:
        batch.drop_column('output')
