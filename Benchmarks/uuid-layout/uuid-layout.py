#!/usr/bin/env python3
"""What an object UUID's layout costs an insert: the objects table's UNIQUE uuid index under
three ways of minting ids, on the system SQLite the store uses (WAL, synchronous=FULL,
4096-byte pages, the default 2 MB page cache), as `store-bench`'s objects workload.

  clock  UUIDv7 whose time field is the clock at the save (healthd before session 23)
  start  UUIDv7 whose time field is the object's start date (UUIDv7.make(startingAt:))
  v4     random ids

The store is first filled with PREFILL rows: five years of 10 types, imported at once (so the
clock layout's ids all carry the import's time, the start layout's the samples' dates). Then,
for each layout in turn (alternating, ROUNDS times), on a copy of its filled store:

  live      BATCHES saves of 1,000 samples dated now, saved now
  backfill  BATCHES saves of 1,000 samples of an 11th type, oldest first across the five
            years (an app syncing years of history, or an import), saved now: sparse, each
            new id lands among hundreds of stored ones of its hours
  sync      BATCHES saves of 1,000 samples of an 11th type a minute apart, oldest first from
            30 days ago (an app catching up on a month of heart rate), saved now

The count that does not depend on the machine's load is the pages each save writes to the WAL
(WAL bytes / 4096 per 1,000-row transaction, checkpoints off); the time is printed beside the
load average. Usage: uuid-layout.py [PREFILL] [BATCHES] [ROUNDS] [DIR] [WORKLOADS]
"""
import os, random, shutil, sqlite3, sys, tempfile, time

PREFILL = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
BATCHES = int(sys.argv[2]) if len(sys.argv) > 2 else 20
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 2
DIR = sys.argv[4] if len(sys.argv) > 4 else os.path.join(tempfile.gettempdir(), "uuid-layout")
WORKLOADS = sys.argv[5].split(",") if len(sys.argv) > 5 else ["live", "backfill", "sync"]
YEAR_MS = 365 * 86_400_000
NOW_MS = 1_795_000_000_000                    # "now": 2026-11-18
HISTORY_START_MS = NOW_MS - 5 * YEAR_MS
rng = random.SystemRandom()

def v7(ms):
    raw = bytearray(rng.getrandbits(128).to_bytes(16, "big"))
    raw[0:6] = ms.to_bytes(6, "big")
    raw[6] = 0x70 | (raw[6] & 0x0F)
    raw[8] = 0x80 | (raw[8] & 0x3F)
    return bytes(raw)

def v4():
    raw = bytearray(rng.getrandbits(128).to_bytes(16, "big"))
    raw[6] = 0x40 | (raw[6] & 0x0F)
    raw[8] = 0x80 | (raw[8] & 0x3F)
    return bytes(raw)

def mint(layout, start_ms, clock_ms):
    if layout == "clock": return v7(clock_ms)
    if layout == "start": return v7(start_ms)
    return v4()

def connect(path):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA page_size = 4096")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    return db

SCHEMA = """
CREATE TABLE objects (id INTEGER PRIMARY KEY, uuid BLOB NOT NULL UNIQUE, type INTEGER NOT NULL,
    start INTEGER NOT NULL, "end" INTEGER NOT NULL, value REAL NOT NULL, source INTEGER NOT NULL);
CREATE INDEX objects_type_start ON objects (type, start);
"""

def insert(db, rows):
    db.execute("BEGIN")
    db.executemany("INSERT INTO objects (uuid, type, start, \"end\", value, source) VALUES (?, ?, ?, ?, ?, ?)", rows)
    db.execute("COMMIT")

def filled(layout):
    """A store of PREFILL rows for `layout`, built once and copied for each run."""
    path = os.path.join(DIR, f"filled-{layout}.db")
    if os.path.exists(path): return path
    db = connect(path)
    db.executescript(SCHEMA)
    per_type = PREFILL // 10
    step = 5 * YEAR_MS // per_type
    import_clock = NOW_MS - 86_400_000          # imported yesterday, in one go
    for t in range(10):                          # an export: type by type, each oldest first
        for first in range(0, per_type, 10_000):
            rows = []
            for i in range(first, min(first + 10_000, per_type)):
                start = HISTORY_START_MS + i * step
                rows.append((mint(layout, start, import_clock + t * per_type + i), t, start, start + 1000, 1.0, t % 3))
            insert(db, rows)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path

def run(layout, workload):
    work = os.path.join(DIR, f"run-{layout}.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(work + suffix): os.remove(work + suffix)
    shutil.copyfile(filled(layout), work)
    db = connect(work)
    db.execute("SELECT count(*) FROM objects").fetchone()
    wal = work + "-wal"
    pages, seconds = [], 0.0
    clock = NOW_MS
    span = 5 * YEAR_MS // (BATCHES * 1000)
    for batch in range(BATCHES):
        rows = []
        for i in range(1000):
            n = batch * 1000 + i
            clock += 1                           # one sample a millisecond, saved as it comes
            if workload == "live": start = clock - 5_000
            elif workload == "backfill": start = HISTORY_START_MS + n * span
            else: start = NOW_MS - 30 * 86_400_000 + n * 60_000
            rows.append((mint(layout, start, clock), 10, start, start + 1000, 1.0, 4))
        before = os.path.getsize(wal) if os.path.exists(wal) else 0
        began = time.perf_counter()
        insert(db, rows)
        seconds += time.perf_counter() - began
        pages.append((os.path.getsize(wal) - before) / 4096)
    db.close()
    return sum(pages) / len(pages), BATCHES * 1000 / seconds

def main():
    os.makedirs(DIR, exist_ok=True)
    print(f"sqlite {sqlite3.sqlite_version}, prefill {PREFILL:,} rows, {BATCHES} saves of 1,000 rows, {ROUNDS} rounds")
    for layout in ("clock", "start", "v4"): filled(layout)
    print("| round | workload | layout | WAL pages per 1,000-row save | rows/s | load (1 min) |")
    print("| ---: | --- | --- | ---: | ---: | ---: |")
    for r in range(ROUNDS):
        for workload in WORKLOADS:
            layouts = ("clock", "start", "v4") if r % 2 == 0 else ("v4", "start", "clock")
            for layout in layouts:
                pages, rate = run(layout, workload)
                print(f"| {r + 1} | {workload} | {layout} | {pages:,.1f} | {rate:,.0f} | {os.getloadavg()[0]:.1f} |", flush=True)

if __name__ == "__main__":
    main()
