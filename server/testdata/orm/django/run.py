"""Django against binlite: manage.py migrate, then the ORM.

Usage (from a copy of this folder, which makemigrations writes into):
run.py PORT DATABASE. Prints one JSON object; the Go test (server/orm_test.go)
checks it.

Phase 1 migrates what needs no ALTER TABLE ... ADD FOREIGN KEY (contenttypes,
sessions, and the notes app) and uses the ORM on it. Phase 2 migrates the rest
(auth and admin, whose tables reference each other, and the shop app with its
ForeignKey: Django adds every foreign key with ALTER TABLE ... ADD CONSTRAINT);
when that fails, "blocked" says why and phase 2 stops there.
"""
import json
import sys

import django
from django.conf import settings
from django.core.management import call_command

port, db = int(sys.argv[1]), sys.argv[2]
settings.configure(
    DEBUG=False,
    USE_TZ=True,
    TIME_ZONE="UTC",
    SECRET_KEY="binlite-test",
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    INSTALLED_APPS=[
        "django.contrib.auth",
        "django.contrib.contenttypes",
        "django.contrib.sessions",
        "django.contrib.admin",
        "django.contrib.messages",
        "notes",
        "shop",
    ],
    DATABASES={"default": {
        "ENGINE": "django.db.backends.mysql", "NAME": db, "USER": "root", "PASSWORD": "",
        "HOST": "127.0.0.1", "PORT": str(port),
    }},
)
django.setup()

from django.db import connection  # noqa: E402

out = {"server": connection.mysql_server_data}

call_command("makemigrations", "notes", "shop", verbosity=0)
for app in ("contenttypes", "sessions", "notes"):
    call_command("migrate", app, verbosity=0)

from notes.models import Note  # noqa: E402

Note.objects.create(title="Go Systems", body="x", stars=3)
Note.objects.create(title="go lower")
Note.objects.create(title="SQLite", stars=5)
out["startswith"] = sorted(n.title for n in Note.objects.filter(title__startswith="Go"))
out["istartswith"] = sorted(n.title for n in Note.objects.filter(title__istartswith="go"))
out["iexact"] = [n.title for n in Note.objects.filter(title__iexact="SQLITE")]
out["exact"] = [n.title for n in Note.objects.filter(title__exact="sqlite")]
out["contains"] = sorted(n.title for n in Note.objects.filter(title__contains="lite"))
out["updated"] = Note.objects.filter(title__istartswith="go").update(stars=1)
out["stars"] = sorted(n.stars for n in Note.objects.all())
out["deleted"] = Note.objects.filter(stars=1).delete()[0]
out["left"] = list(Note.objects.values_list("title", flat=True))
with connection.cursor() as cur:
    out["tables"] = sorted(connection.introspection.table_names(cur))
    cons = connection.introspection.get_constraints(cur, "notes_note")
    out["note_constraints"] = sorted([v["columns"], v["primary_key"], v["unique"], v["index"]] for v in cons.values())
    out["note_columns"] = [[f.name, f.internal_size, f.null_ok] for f in connection.introspection.get_table_description(cur, "notes_note")]

try:
    call_command("migrate", verbosity=0)
except Exception as e:  # the rest needs ALTER TABLE ... ADD FOREIGN KEY
    out["blocked"] = str(e)
else:
    from django.contrib.auth.models import User  # noqa: E402
    from shop.models import Author, Book  # noqa: E402

    User.objects.create_user("ann", "ann@x.io", "pw")
    ann = Author.objects.create(name="Ann Smith")
    bob = Author.objects.create(name="bob")
    Book.objects.create(title="Go Systems", author=ann, price="12.50")
    Book.objects.create(title="go lower", author=bob, price="3.00")
    out["join"] = sorted(b.title for b in Book.objects.filter(author__name__iexact="BOB"))
    out["cascade"] = Author.objects.filter(name="bob").delete()[0]
    out["books_left"] = Book.objects.count()
    with connection.cursor() as cur:
        out["book_relations"] = connection.introspection.get_relations(cur, "shop_book")
print(json.dumps(out, sort_keys=True, default=str))
