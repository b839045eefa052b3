"""The SQLite schema of revision 0004, as the migrations make it on an empty database.

Written by ``python -m cardtable.server.migrations``; ``tests/server/test_migrations.py`` checks
that it is what the migrations make now.
"""
# ruff: noqa: E501

REVISION = '0004'
STATEMENTS = (
    'CREATE TABLE alembic_version (\n\tversion_num VARCHAR(32) NOT NULL, \n\tCONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)\n)',
    'CREATE TABLE meta (\n\t"key" TEXT NOT NULL, \n\tvalue TEXT NOT NULL, \n\tPRIMARY KEY ("key")\n)',
    'CREATE TABLE tables (\n\tid TEXT NOT NULL, \n\tgame TEXT NOT NULL, \n\tpreset TEXT NOT NULL, \n\toptions TEXT NOT NULL, \n\tseed BIGINT, \n\tbot_seed BIGINT NOT NULL, \n\thost_hash TEXT NOT NULL, \n\tstatus TEXT NOT NULL, \n\tcreated DOUBLE NOT NULL, \n\tfair TEXT, \n\tundo BOOLEAN DEFAULT 0 NOT NULL, rated BOOLEAN DEFAULT 0 NOT NULL, clock TEXT, \n\tPRIMARY KEY (id)\n)',
    'CREATE TABLE seats (\n\ttable_id TEXT NOT NULL, \n\tseat INTEGER NOT NULL, \n\tkind TEXT NOT NULL, \n\tname TEXT NOT NULL, \n\ttoken_hash TEXT, \n\tPRIMARY KEY (table_id, seat), \n\tFOREIGN KEY(table_id) REFERENCES tables (id)\n)',
    'CREATE TABLE actions (\n\ttable_id TEXT NOT NULL, \n\tversion INTEGER NOT NULL, \n\tseat INTEGER NOT NULL, \n\taction TEXT NOT NULL, \n\tclient_seq BIGINT, \n\tat DOUBLE NOT NULL, \n\tPRIMARY KEY (table_id, version), \n\tFOREIGN KEY(table_id) REFERENCES tables (id)\n)',
    'CREATE TABLE chat (\n\ttable_id TEXT NOT NULL, \n\tseat INTEGER NOT NULL, \n\tname TEXT NOT NULL, \n\ttext TEXT NOT NULL, \n\tat DOUBLE NOT NULL, \n\tFOREIGN KEY(table_id) REFERENCES tables (id)\n)',
    "CREATE TABLE leases (\n\ttable_id TEXT NOT NULL, \n\tepoch BIGINT NOT NULL, owner TEXT, expires DOUBLE DEFAULT '0' NOT NULL, \n\tPRIMARY KEY (table_id)\n)",
    'CREATE TABLE undone (\n\ttable_id TEXT NOT NULL, \n\tundo INTEGER NOT NULL, \n\tversion INTEGER NOT NULL, \n\tseat INTEGER NOT NULL, \n\taction TEXT NOT NULL, \n\tclient_seq BIGINT, \n\tat DOUBLE NOT NULL, \n\tPRIMARY KEY (table_id, undo, version), \n\tFOREIGN KEY(table_id) REFERENCES tables (id)\n)',
    'CREATE INDEX seats_by_token ON seats (token_hash)',
    'CREATE INDEX chat_by_table ON chat (table_id, at)',
    'CREATE INDEX leases_by_owner ON leases (owner)',
    'CREATE TABLE events (\n\tid TEXT NOT NULL, \n\tname TEXT NOT NULL, \n\tkind TEXT NOT NULL, \n\tgame TEXT NOT NULL, \n\tpreset TEXT NOT NULL, \n\toptions TEXT NOT NULL, \n\trated BOOLEAN NOT NULL, \n\trounds INTEGER NOT NULL, \n\tdeals INTEGER, \n\tstarts_at DOUBLE, \n\twhen_full BOOLEAN NOT NULL, \n\tmax_entrants INTEGER NOT NULL, \n\tbots BOOLEAN DEFAULT 0 NOT NULL, \n\tcreator BIGINT NOT NULL, \n\tcreator_name TEXT NOT NULL, \n\tstatus TEXT NOT NULL, \n\tcreated DOUBLE NOT NULL, \n\tsecret TEXT NOT NULL, \n\tprogress TEXT, \n\tPRIMARY KEY (id)\n)',
    'CREATE INDEX events_by_status ON events (status, created)',
    'CREATE INDEX events_by_creator ON events (creator, status)',
    'CREATE TABLE event_entrants (\n\tevent_id TEXT NOT NULL, \n\taccount_id BIGINT NOT NULL, \n\tusername TEXT NOT NULL, \n\tregistered DOUBLE NOT NULL, \n\tPRIMARY KEY (event_id, account_id), \n\tFOREIGN KEY(event_id) REFERENCES events (id)\n)',
    'CREATE INDEX event_entrants_by_account ON event_entrants (account_id)',
)
