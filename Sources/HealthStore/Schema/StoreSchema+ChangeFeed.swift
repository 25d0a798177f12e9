import CPageCipher
import Foundation
import GRDB

extension StoreSchema {
    /// The change feed: the key that seals anchors, and indexes that let anchored, observer and
    /// source queries find a type's changes since a change number within a read scope without
    /// reading any row outside that scope (`SampleSQL.visibility` is an equality on `source_id`,
    /// so with `type_id` it forms the index prefix, and `change_seq` the range).
    static func registerChangeFeed(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6: change feed") { db in
            // Made once, here, and kept only inside the encrypted store: anchors sealed under it
            // stay valid across reconnects and broker restarts, and no file outside the store
            // holds it. A key rotation re-encrypts the store, not this key, so anchors survive it.
            let key = try SecretBytes.random(count: Int(OHK_CIPHER_KEY_BYTES))
            var blob = key.withUnsafeBytes { Data(bytes: $0, count: key.count) }
            defer { blob.resetBytes(in: 0..<blob.count) }
            try db.execute(sql: """
                CREATE TABLE change_feed_key (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    key BLOB NOT NULL
                );
                CREATE INDEX objects_by_type_change ON objects(type_id, change_seq);
                CREATE INDEX objects_by_type_source_change ON objects(type_id, source_id, change_seq);
                CREATE INDEX deleted_by_type_change ON deleted_objects(type_id, change_seq);
                CREATE INDEX deleted_by_type_source_change ON deleted_objects(type_id, source_id, change_seq);
                """)
            try db.execute(sql: "INSERT INTO change_feed_key (id, key) VALUES (1, ?)", arguments: [blob])
        }
    }
}
