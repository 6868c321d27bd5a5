"""secret deals: tournaments.deal_key and deal_mode, matches.deal (deal groups)

Revision ID: 0002_issue15
Revises: 0001
Create Date: 2026-12-01 14:45:00

Existing matches get the deal ``seed/<seed>`` (the old schedules shared a seed within a deal,
so the groups stay what they were); existing tournaments have no key (their seeds came from the
public ``--seed`` and cannot be verified as secret).
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002_issue15'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('deal_key', sa.String(length=64), nullable=True))
        batch.add_column(sa.Column('deal_mode', sa.String(length=16), nullable=False, server_default='auto'))
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('deal', sa.String(length=300), nullable=False, server_default=''))
    op.execute("UPDATE matches SET deal = 'seed/' || CAST(seed AS VARCHAR(16))")
    op.create_index('ix_matches_tournament_deal', 'matches', ['tournament_id', 'deal'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_matches_tournament_deal', table_name='matches')
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('deal')
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('deal_mode')
        batch.drop_column('deal_key')
