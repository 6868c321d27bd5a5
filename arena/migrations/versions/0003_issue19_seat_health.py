"""match_seats.health: how each seat's bot behaved (answer times, faults, crashes)

Revision ID: 0003_issue19_seat_health
Revises: 0002_issue15
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003_issue19_seat_health'
down_revision = '0002_issue15'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('match_seats') as batch:
        batch.add_column(sa.Column('health', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('match_seats') as batch:
        batch.drop_column('health')
