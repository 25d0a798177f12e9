// Which sample types a write transaction touched, noted row by row by SQLite's pre-update
// hook, for the store's commit watcher (HealthStore's CommitWatcher).
//
// Why: after every commit that added or deleted objects, the watcher must announce which types
// changed. It found out by a query over five tables, one index seek per stored type in each
// (and two temporary b-trees for the UNION and the IN list): about a sixth of healthd's
// instructions for a one-sample save, and a second read transaction after every commit
// (issue 17, Benchmarks/README.md "Session 20"). The writer already knows: SQLite calls the
// pre-update hook for every row a statement inserts, updates or deletes, in every table (WITHOUT
// ROWID ones too), whichever code made the statement and however it is stepped — through GRDB
// or directly. So the hook notes the type column of each row inserted or updated in a watched
// table, and the watcher reads the note after the commit instead of querying.
//
// What it notes is never less than the query found: the query reported the types of rows whose
// change number is above the last one reported, and such a row was inserted or updated in this
// transaction. It may note more: a row inserted and deleted again. A type announced for nothing
// is harmless — every listener re-checks what its reader may see — but the announcement makes
// healthd re-read for every query of that type, work that a save's failure must not trigger
// where nothing was committed (a timing signal; cipherreview21, finding 4). SQLite undoes a
// savepoint's rows without telling the pre-update hook, so the note follows the savepoints
// itself: where a savepoint begins the writer takes a mark (ohk_change_capture_mark, the count
// of types noted so far), and a rollback to it cuts the note back to that mark
// (ohk_change_capture_roll_back); a release keeps what was noted. note() only appends a type not
// yet noted, so the types past the mark are exactly those first written inside the savepoint; a
// type noted before it stays, as its earlier row does.
//
// Until session 22 a rollback to a savepoint made the note incomplete instead, and the watcher
// then asked the store which types had rows above the last reported change number — one index
// seek per *stored* type, hidden ones included, before anyone in the group was answered. Any
// app could force it (a failing call grouped with another: privreview22, finding 1). The note is
// also unbounded now (it grows by doubling; HealthKit has a few hundred sample types, so it
// stays small), so no commit needs that query: a note that is still incomplete (no memory, a
// type column that is not an integer, another capture installed) makes the watcher announce
// "every type" (CommitWatcher), whose cost follows the listeners, not the stored types.
//
// The same hook notes the change number the transaction wrote (the `counters` row named
// 'change', ohk_change_capture_watch_counter): the watcher read it after the commit, in a read
// transaction of its own — a WAL read lock taken and dropped (4 `fcntl` calls) and the statement
// run, for every save (issue 17, Benchmarks/README.md "Session 23"). The value last
// written is the one committed: a rollback resets the note, and a savepoint's mark keeps the value
// as it stood, which a rollback to it restores (SQLite undoes the savepoint's UPDATE of the counter
// without telling the hook; without that, a failed save last in a group commit would have its
// rolled-back number announced).
//
// GRDB installs no pre-update hook (it would only with SQLITE_ENABLE_PREUPDATE_HOOK, which this
// package does not set); the commit watcher's tests fail if anything replaces this one.
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include "CChangeCapture.h"

// The system libsqlite3 exports the pre-update API (Debian builds it with
// SQLITE_ENABLE_PREUPDATE_HOOK for the session extension), but sqlite3.h declares it only under
// that macro, which a header shared as a module may not see: declared here, as SQLite does.
void *sqlite3_preupdate_hook(sqlite3 *db,
                             void (*callback)(void *, sqlite3 *, int, const char *, const char *,
                                              sqlite3_int64, sqlite3_int64),
                             void *context);
int sqlite3_preupdate_count(sqlite3 *db);
int sqlite3_preupdate_new(sqlite3 *db, int column, sqlite3_value **value);
int sqlite3_preupdate_old(sqlite3 *db, int column, sqlite3_value **value);

#define WATCHED_TABLES 8
/// Room for distinct types the note starts with; it doubles when full.
#define FIRST_CAPACITY 64

struct ohk_change_capture {
    /// Another capture was installed on the connection after this one: this one hears nothing
    /// more, and every take reports itself incomplete.
    int superseded;
    int tables;
    char *names[WATCHED_TABLES];
    int type_columns[WATCHED_TABLES];
    int noted;
    int incomplete;
    int capacity;
    int64_t *types;
    /// The counter row watched (ohk_change_capture_watch_counter); counter_table NULL: none.
    char *counter_table;
    char *counter_key;
    int counter_key_column;
    int counter_value_column;
    /// The counter's value last written in this transaction, when counter_written.
    int counter_written;
    int64_t counter;
    /// Writes of the counter noted since the capture was made (never reset nor rolled back): the
    /// writer of one tells by it that the value noted is its own write's (ohk_change_capture_counter).
    int64_t counter_writes;
};

ohk_change_capture *ohk_change_capture_create(void) { return calloc(1, sizeof(ohk_change_capture)); }

int ohk_change_capture_watch(ohk_change_capture *capture, const char *table, int type_column) {
    if (capture->tables == WATCHED_TABLES || type_column < 0) return 0;
    char *name = strdup(table);
    if (name == NULL) return 0;
    capture->names[capture->tables] = name;
    capture->type_columns[capture->tables] = type_column;
    capture->tables++;
    return 1;
}

int ohk_change_capture_watch_counter(ohk_change_capture *capture, const char *table, int key_column, const char *key,
                                     int value_column) {
    if (capture->counter_table != NULL || key_column < 0 || value_column < 0) return 0;
    char *name = strdup(table);
    char *row = strdup(key);
    if (name == NULL || row == NULL) {
        free(name);
        free(row);
        return 0;
    }
    capture->counter_table = name;
    capture->counter_key = row;
    capture->counter_key_column = key_column;
    capture->counter_value_column = value_column;
    return 1;
}

/// A row of the counter table written: notes the new value when it is the watched counter's row.
/// A write it cannot read, or the counter's row deleted, makes the note incomplete: the watcher
/// then announces every type and reads the number from the store (never expected; the store's
/// counter row is only ever updated).
static void counter_changed(ohk_change_capture *capture, sqlite3 *db, int operation) {
    int columns = sqlite3_preupdate_count(db);
    if (capture->counter_key_column >= columns || capture->counter_value_column >= columns) {
        capture->counter_written = 0;
        capture->incomplete = 1;
        return;
    }
    sqlite3_value *key = NULL;
    int read = operation == SQLITE_DELETE ? sqlite3_preupdate_old(db, capture->counter_key_column, &key)
                                          : sqlite3_preupdate_new(db, capture->counter_key_column, &key);
    if (read != SQLITE_OK || key == NULL) {
        capture->counter_written = 0;
        capture->incomplete = 1;
        return;
    }
    const unsigned char *text = sqlite3_value_type(key) == SQLITE_TEXT ? sqlite3_value_text(key) : NULL;
    if (text == NULL || strcmp((const char *)text, capture->counter_key) != 0) return;  // another counter
    sqlite3_value *value = NULL;
    if (operation == SQLITE_DELETE || sqlite3_preupdate_new(db, capture->counter_value_column, &value) != SQLITE_OK
        || value == NULL || sqlite3_value_type(value) != SQLITE_INTEGER) {
        capture->counter_written = 0;
        capture->incomplete = 1;
        return;
    }
    capture->counter = sqlite3_value_int64(value);
    capture->counter_written = 1;
    capture->counter_writes++;
}

static void note(ohk_change_capture *capture, int64_t type) {
    for (int i = 0; i < capture->noted; i++) {
        if (capture->types[i] == type) return;
    }
    if (capture->noted == capture->capacity) {
        int capacity = capture->capacity == 0 ? FIRST_CAPACITY : capture->capacity * 2;
        int64_t *types = realloc(capture->types, (size_t)capacity * sizeof *types);
        if (types == NULL) {
            capture->incomplete = 1;
            return;
        }
        capture->types = types;
        capture->capacity = capacity;
    }
    capture->types[capture->noted++] = type;
}

static void changed(void *context, sqlite3 *db, int operation, const char *database, const char *table,
                    sqlite3_int64 old_key, sqlite3_int64 new_key) {
    (void)old_key;
    (void)new_key;
    ohk_change_capture *capture = context;
    if (strcmp(database, "main") != 0) return;
    if (capture->counter_table != NULL && strcmp(table, capture->counter_table) == 0) {
        counter_changed(capture, db, operation);
        return;
    }
    // A deleted row leaves no row with a new change number; its deletion record is an insert.
    if (operation == SQLITE_DELETE) return;
    for (int i = 0; i < capture->tables; i++) {
        if (strcmp(table, capture->names[i]) != 0) continue;
        sqlite3_value *value = NULL;
        if (capture->type_columns[i] >= sqlite3_preupdate_count(db)
            || sqlite3_preupdate_new(db, capture->type_columns[i], &value) != SQLITE_OK || value == NULL
            || sqlite3_value_type(value) != SQLITE_INTEGER) {
            capture->incomplete = 1;
            return;
        }
        note(capture, sqlite3_value_int64(value));
        return;
    }
}

int ohk_change_capture_install(void *db, ohk_change_capture *capture) {
    // Only captures are ever installed as the hook (see above), so a previous context is one.
    ohk_change_capture *previous = sqlite3_preupdate_hook((sqlite3 *)db, changed, capture);
    if (previous != NULL && previous != capture) previous->superseded = 1;
    return 1;
}

/// The connection's capture: its pre-update hook's context (only captures are installed), read by
/// taking the hook off and putting it back, on the connection's own thread.
static ohk_change_capture *installed(sqlite3 *db) {
    ohk_change_capture *capture = sqlite3_preupdate_hook(db, NULL, NULL);
    if (capture != NULL) sqlite3_preupdate_hook(db, changed, capture);
    return capture;
}

ohk_change_mark ohk_change_capture_mark(void *db) {
    ohk_change_capture *capture = installed((sqlite3 *)db);
    ohk_change_mark mark = {capture, 0, 0, 0, 0};
    if (capture != NULL) {
        mark.noted = capture->noted;
        mark.incomplete = capture->incomplete;
        mark.counter_written = capture->counter_written;
        mark.counter = capture->counter;
    }
    return mark;
}

int ohk_change_capture_counter(void *db, int64_t *writes, int64_t *value) {
    ohk_change_capture *capture = installed((sqlite3 *)db);
    if (capture == NULL || capture->counter_table == NULL) return 0;
    *writes = capture->counter_writes;
    *value = capture->counter;
    return 1;
}

void ohk_change_capture_roll_back(void *db, ohk_change_mark mark) {
    ohk_change_capture *capture = installed((sqlite3 *)db);
    if (capture == NULL) return;
    if (capture != mark.capture || mark.noted > capture->noted) {
        // Not the note the mark was taken of (a capture installed since, or a reset between):
        // what to cut is unknown, so the note cannot be trusted.
        capture->incomplete = 1;
        return;
    }
    capture->noted = mark.noted;
    capture->incomplete = mark.incomplete;
    // SQLite undid the savepoint's counter updates too: the value committed is the one before it.
    capture->counter_written = mark.counter_written;
    capture->counter = mark.counter;
}

int ohk_change_capture_take(ohk_change_capture *capture, int64_t *types, int capacity, int *complete,
                            int64_t *counter, int *counter_written) {
    int count = capture->noted < capacity ? capture->noted : capacity;
    if (count > 0) memcpy(types, capture->types, (size_t)count * sizeof *types);
    *complete = !capture->superseded && !capture->incomplete && count == capture->noted;
    *counter_written = *complete && capture->counter_written;
    *counter = capture->counter;
    ohk_change_capture_reset(capture);
    return count;
}

int ohk_change_capture_count(ohk_change_capture *capture) { return capture->noted; }

void ohk_change_capture_reset(ohk_change_capture *capture) {
    capture->noted = 0;
    capture->incomplete = 0;
    capture->counter_written = 0;
}
