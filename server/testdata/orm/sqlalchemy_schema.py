"""SQLAlchemy against binlite: create_all, reflection with inspect(), drop_all.

Usage: sqlalchemy_schema.py PORT DATABASE. Prints one JSON object with what
reflection found; the Go test (server/orm_test.go) checks it.
"""
import json
import sys

import sqlalchemy as sa
from sqlalchemy.dialects import mysql

port, db = int(sys.argv[1]), sys.argv[2]
engine = sa.create_engine("mysql+pymysql://root@127.0.0.1:%d/%s" % (port, db))
md = sa.MetaData()
sa.Table(
    "author", md,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("email", sa.String(120), nullable=False),
    sa.UniqueConstraint("email", name="uq_author_email"),
)
sa.Table(
    "book", md,
    sa.Column("id", mysql.BIGINT(unsigned=True), primary_key=True),
    sa.Column("author_id", sa.Integer, sa.ForeignKey("author.id", name="fk_book_author"), nullable=False),
    sa.Column("title", sa.String(200)),
    sa.Column("price", sa.Numeric(10, 2)),
    sa.Column("meta", sa.JSON),
    sa.Index("ix_book_title", "title"),
)
md.create_all(engine)
with engine.begin() as conn:
    conn.execute(md.tables["author"].insert(), [{"id": 1, "email": "a@x.io"}])
    conn.execute(md.tables["book"].insert(), [{"id": 18446744073709551, "author_id": 1, "title": "T", "price": "9.99", "meta": {"k": [1, 2]}}])
    row = conn.execute(sa.select(md.tables["book"])).one()

insp = sa.inspect(engine)
out = {
    "has_table": insp.has_table("book"),
    "tables": insp.get_table_names(),
    "columns": {c["name"]: [str(c["type"]), c["nullable"], bool(getattr(c["type"], "unsigned", False))] for c in insp.get_columns("book")},
    "indexes": sorted([i["name"], i["column_names"], bool(i["unique"])] for i in insp.get_indexes("book")),
    "foreign_keys": [[f["name"], f["constrained_columns"], f["referred_table"], f["referred_columns"]] for f in insp.get_foreign_keys("book")],
    "unique": [[u["name"], u["column_names"]] for u in insp.get_unique_constraints("author")],
    "pk": insp.get_pk_constraint("book")["constrained_columns"],
    "row": [str(row.price), row.meta],
}
reflected = sa.MetaData()
reflected.reflect(engine)
out["reflected"] = sorted(reflected.tables)
md.drop_all(engine)
out["after_drop"] = sa.inspect(engine).get_table_names()
print(json.dumps(out, sort_keys=True))
