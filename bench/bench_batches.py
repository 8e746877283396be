"""Inserts of one, two and ten events at a time into PostgreSQL, by one thread and by four.

    python bench/bench_batches.py [--url URL] [--count 400]

Measures what the lock for a batch of several events costs
(``LedgerAggregateRecorder._locks_batch`` in ``ledger/store/recorder.py``): each
insert is one ``LedgerRecorder.insert_events`` of a new stream.  Creates its
own database on the server of ``--url`` (default ``BGLEDGER_TEST_POSTGRES``) and
drops it at the end.
"""

from __future__ import annotations

import argparse
import os
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import sqlalchemy
from eventsourcing.persistence import StoredEvent
from sqlalchemy.engine import make_url

from bgledger.store.recorder import LedgerDatastore, LedgerRecorder, events_table

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def run(url: str, count: int) -> None:
    datastore = LedgerDatastore(url)
    recorder = LedgerRecorder(datastore, events_table("bgledger_events"))
    recorder.create_table()

    def insert(size: int) -> None:
        stream = uuid.uuid4()
        recorder.insert_events(
            [StoredEvent(stream, v, "t", b'{"a": 1}') for v in range(1, size + 1)]
        )

    try:
        for size in (1, 2, 10):
            for threads in (1, 4):
                insert(size)  # warm: connections, prepared statements
                began = time.perf_counter()
                with ThreadPoolExecutor(threads) as pool:
                    list(pool.map(insert, [size] * count))
                took = time.perf_counter() - began
                print(
                    f"{size:3d} events an insert, {threads} thread(s): "
                    f"{count / took:6.0f} inserts/s, {1000 * took / count:.2f} ms each"
                )
    finally:
        datastore.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("BGLEDGER_TEST_POSTGRES") or DEFAULT_URL)
    parser.add_argument("--count", type=int, default=400, help="inserts per line")
    args = parser.parse_args(argv)
    name = f"bgledger_batches_{os.getpid()}"
    admin = sqlalchemy.create_engine(args.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    try:
        run(make_url(args.url).set(database=name).render_as_string(hide_password=False), args.count)
    finally:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
