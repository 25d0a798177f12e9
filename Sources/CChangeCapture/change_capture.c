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
// where nothing was committed (a timing signal; cipherreview21, finding 4). So a rollback to a
// savepoint (a failed save of a group commit) makes the note incomplete, and that commit's
// watcher asks the store which types its committed rows carry (ohk_change_capture_savepoint_
// rolled_back); SQLite undoes a savepoint's rows without telling the pre-update hook, so the note
// cannot take them out itself. Failed saves are rare: the query runs after few commits.
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

#define WATCHED_TABLES 8
/// Distinct types one transaction may note before the capture gives up (and the watcher
/// queries instead): more than HealthKit has sample types.
#define NOTED_TYPES 256

struct ohk_change_capture {
    /// Another capture was installed on the connection after this one: this one hears nothing
    /// more, and every take reports itself incomplete.
    int superseded;
    int tables;
    char *names[WATCHED_TABLES];
    int type_columns[WATCHED_TABLES];
    int noted;
    int incomplete;
    int64_t types[NOTED_TYPES];
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

static void note(ohk_change_capture *capture, int64_t type) {
    for (int i = 0; i < capture->noted; i++) {
        if (capture->types[i] == type) return;
    }
    if (capture->noted == NOTED_TYPES) {
        capture->incomplete = 1;
        return;
    }
    capture->types[capture->noted++] = type;
}

static void changed(void *context, sqlite3 *db, int operation, const char *database, const char *table,
                    sqlite3_int64 old_key, sqlite3_int64 new_key) {
    (void)old_key;
    (void)new_key;
    ohk_change_capture *capture = context;
    // A deleted row leaves no row with a new change number; its deletion record is an insert.
    if (operation == SQLITE_DELETE || strcmp(database, "main") != 0) return;
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

void ohk_change_capture_savepoint_rolled_back(void *db) {
    // The connection's capture is its pre-update hook's context (only captures are installed):
    // read by taking the hook off and putting it back, on the connection's own thread.
    ohk_change_capture *capture = sqlite3_preupdate_hook((sqlite3 *)db, NULL, NULL);
    if (capture == NULL) return;
    sqlite3_preupdate_hook((sqlite3 *)db, changed, capture);
    capture->incomplete = 1;
}

int ohk_change_capture_take(ohk_change_capture *capture, int64_t *types, int capacity, int *complete) {
    int count = capture->noted < capacity ? capture->noted : capacity;
    memcpy(types, capture->types, (size_t)count * sizeof *types);
    *complete = !capture->superseded && !capture->incomplete && count == capture->noted;
    ohk_change_capture_reset(capture);
    return count;
}

void ohk_change_capture_reset(ohk_change_capture *capture) {
    capture->noted = 0;
    capture->incomplete = 0;
}
