"""developers and submitted bot versions: developer, family, version, status, build log

Revision ID: 0004_issue20_submissions
Revises: 0003_issue19_seat_health
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004_issue20_submissions'
down_revision = '0003_issue19_seat_health'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'developers',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=64), nullable=False),
        sa.Column('token_sha256', sa.String(length=64), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name'),
        sa.UniqueConstraint('token_sha256'),
    )
    with op.batch_alter_table('bots') as batch:
        batch.add_column(sa.Column('developer_id', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('family', sa.String(length=100), nullable=True))
        batch.add_column(sa.Column('version', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('status', sa.String(length=16), nullable=False, server_default='active'))
        batch.add_column(sa.Column('status_reason', sa.Text(), nullable=True))
        batch.add_column(sa.Column('runtime', sa.String(length=16), nullable=True))
        batch.add_column(sa.Column('seats', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('package_sha256', sa.String(length=64), nullable=True))
        batch.add_column(sa.Column('build_log', sa.Text(), nullable=True))
        batch.add_column(sa.Column('submitted_at', sa.DateTime(), nullable=True))
        batch.create_foreign_key('fk_bots_developer_id', 'developers', ['developer_id'], ['id'],
                                 ondelete='SET NULL')
        batch.create_index('ix_bots_developer_id', ['developer_id'])
        batch.create_index('ix_bots_family', ['family'])


def downgrade() -> None:
    with op.batch_alter_table('bots') as batch:
        batch.drop_index('ix_bots_family')
        batch.drop_index('ix_bots_developer_id')
        batch.drop_constraint('fk_bots_developer_id', type_='foreignkey')
        for column in ('submitted_at', 'build_log', 'package_sha256', 'seats', 'runtime',
                       'status_reason', 'status', 'version', 'family', 'developer_id'):
            batch.drop_column(column)
    op.drop_table('developers')
