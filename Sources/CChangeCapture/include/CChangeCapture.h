// CChangeCapture: which sample types a write transaction touched, told by SQLite itself.
// See change_capture.c for why and how. No SQLite types here: connections are `sqlite3 *`
// passed as opaque pointers, so Swift needs no SQLite module to call it.
#ifndef CCHANGECAPTURE_H
#define CCHANGECAPTURE_H

#include <stdint.h>

typedef struct ohk_change_capture ohk_change_capture;

/// A capture watching no table yet; NULL when out of memory.
ohk_change_capture *ohk_change_capture_create(void);

/// Watches table `table` of the main database: every row inserted or updated there notes the
/// integer in column `type_column` (0-based). At most 8 tables; returns 0 when full.
int ohk_change_capture_watch(ohk_change_capture *capture, const char *table, int type_column);

/// Also notes the value of one counter row: in table `table` of the main database, the row whose
/// TEXT column `key_column` equals `key`, its integer column `value_column` (0-based), as last
/// written in the transaction. One counter per capture; returns 0 for a second one or no memory.
int ohk_change_capture_watch_counter(ohk_change_capture *capture, const char *table, int key_column, const char *key,
                                     int value_column);

/// Installs the capture as `db`'s pre-update hook. A capture installed on the connection before
/// hears nothing more and reports every later take incomplete. A capture stays the hook's context
/// for the connection's life: it is never freed.
int ohk_change_capture_install(void *db, ohk_change_capture *capture);

/// Copies the distinct type values noted since the last take or reset into `types` (at most
/// `capacity`), returns how many, sets `*complete` to 1 when they are all of them (0: more
/// were noted than fit, or a value was not an integer), and starts the capture afresh. Sets
/// `*counter_written` to 1 and `*counter` to the watched counter's value last written when the
/// take is complete and the counter was written since the last take or reset; 0 otherwise.
int ohk_change_capture_take(ohk_change_capture *capture, int64_t *types, int capacity, int *complete,
                            int64_t *counter, int *counter_written);

/// Where the note of the capture installed on `db` stood (the connection's own thread): taken
/// where a savepoint begins, so that a rollback to it cuts the note back — the types noted and the
/// watched counter's value as last written.
typedef struct {
    void *capture;
    int noted;
    int incomplete;
    int counter_written;
    int64_t counter;
} ohk_change_mark;

/// Where the note of the capture installed on `db` stands (capture NULL: none installed). Call it
/// on the connection's own thread, right after SAVEPOINT.
ohk_change_mark ohk_change_capture_mark(void *db);

/// After ROLLBACK TO the savepoint begun at `mark`: forgets the types first noted since, as SQLite
/// undid their rows, and restores the counter's value as it stood at the mark. A mark of another capture, or one past the note, makes the note incomplete.
void ohk_change_capture_roll_back(void *db, ohk_change_mark mark);

/// For the writer of the watched counter (the connection's own thread): when the capture installed
/// on `db` watches a counter, sets `*writes` to the counter writes it has noted since it was made
/// and `*value` to the value last noted, and returns 1; 0 otherwise. Read before and after one
/// UPDATE of the counter: `*writes` one higher means `*value` is that UPDATE's.
int ohk_change_capture_counter(void *db, int64_t *writes, int64_t *value);

/// How many distinct types are noted now (a take needs room for them all).
int ohk_change_capture_count(ohk_change_capture *capture);

/// Forgets what was noted (a rolled-back transaction).
void ohk_change_capture_reset(ohk_change_capture *capture);

#endif
