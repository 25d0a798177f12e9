import GRDB

extension StoreSchema {
    /// v59: what each writer's rows occupy (`storage_use`), kept by triggers in the same
    /// transaction as every write, and the user's per-app limits (`app_storage_limits`) that the
    /// broker's storage quota checks against (HealthBroker `StorageQuota`, SECURITY.md "Storage
    /// quota").
    ///
    /// Why triggers: every path that writes on an app's behalf — saves of every object kind,
    /// routes and their drafts, series, documents, attachments, effort relations, the pending
    /// journal's merge, deletions and their tombstones — ends in rows of these tables, so a
    /// trigger counts them all the same way, and a write path added later cannot forget to.
    ///
    /// The measure (`StorageUseSQL.rowBytes`): 16 bytes a row plus the length of each of its
    /// values as SQLite renders them to bytes (text and blobs as stored, numbers as their
    /// digits). It is a stable estimate of what the rows take, not the file's pages: the same
    /// rows always count the same, on every path, and deleting them gives back exactly what
    /// adding them took.
    static func registerStorageUse(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v59: storage use per writer, app storage limits") { db in
            try db.execute(sql: """
                -- owner: a source's bundle identifier (an app's id for the apps' own sources) or,
                -- for attachments, the app that added them.
                CREATE TABLE storage_use (
                    owner TEXT PRIMARY KEY,
                    bytes INTEGER NOT NULL
                ) WITHOUT ROWID;
                -- The user's override of the default limit (healthctl apps quota); no row: default.
                CREATE TABLE app_storage_limits (
                    app_id TEXT PRIMARY KEY REFERENCES apps(id) ON DELETE CASCADE,
                    limit_bytes INTEGER NOT NULL CHECK (limit_bytes >= 0)
                ) WITHOUT ROWID;
                """)
            for statement in try StorageUseSQL.plan(db).migration { try db.execute(sql: statement) }
        }
    }
}

/// Builds v59's triggers and backfill from the schema as it stands at v59, so every table is
/// measured by one rule (`rowBytes`). Roots are tables whose rows name their owner; children
/// are the tables that hang off a root by a foreign key and are counted to the root row's owner.
enum StorageUseSQL {
    /// A table whose rows name their writer, and how.
    struct Root {
        let table: String
        /// The parent key children reference.
        let key: String
        /// SQL for the owner of the row `alias`.
        let owner: @Sendable (String) -> String
    }

    static func sourceOwner(_ alias: String) -> String {
        "(SELECT bundle_identifier FROM sources WHERE id = \(alias).source_id)"
    }

    static let roots: [Root] = [
        Root(table: "objects", key: "id", owner: sourceOwner),
        Root(table: "deleted_objects", key: "uuid", owner: sourceOwner),
        Root(table: "route_drafts", key: "id", owner: sourceOwner),
        Root(table: "attachments", key: "id", owner: { "\($0).app_id" }),
        Root(table: "workout_effort_departed_workouts", key: "workout_uuid", owner: sourceOwner),
        Root(table: "workout_effort_departed", key: "rowid", owner: sourceOwner),
    ]

    /// Tables that reference a root but are not an app's stored data: the user's per-object
    /// grants and an app's pending offers (bounded by the prompt limits), and attachment uploads
    /// still staged (4 per app, dropped after 120 s idle and at every start: AttachmentRepository).
    static let notCounted: Set<String> = [
        "object_read_grants", "object_read_offers", "deleted_object_read_grants",
        "attachment_uploads", "attachment_upload_chunks",
    ]

    struct Child {
        let table: String
        let column: String
        let root: Root
    }

    struct Plan {
        var children: [Child] = []
        var triggers: [String] = []
        /// Adds every existing row to `storage_use`: v59's backfill, and a recount from scratch.
        var backfill: [String] = []
        var migration: [String] { triggers + backfill }
    }

    static func plan(_ db: Database) throws -> Plan {
        var plan = Plan()
        let rootNames = Set(roots.map(\.table))
        for root in roots {
            let rows = try Row.fetchAll(db, sql: """
                SELECT m.name AS child, f."from" AS column FROM sqlite_master m, pragma_foreign_key_list(m.name) f
                WHERE m.type = 'table' AND f."table" = ? ORDER BY m.name, f.id
                """, arguments: [root.table])
            var seen = Set<String>()
            for row in rows {
                let child: String = row["child"]
                let column: String = row["column"]
                // A table referencing two objects (correlation members, associations, effort
                // relations) counts to the first: the correlation or workout that holds it.
                guard !rootNames.contains(child), !notCounted.contains(child),
                      !["member_id", "sample_id"].contains(column), seen.insert(child).inserted else { continue }
                plan.children.append(Child(table: child, column: column, root: root))
            }
        }
        for root in roots {
            let statements = try rootStatements(db, root, children: plan.children.filter { $0.root.table == root.table })
            plan.triggers += statements.dropLast()
            plan.backfill += statements.suffix(1)
        }
        for child in plan.children {
            let statements = try childStatements(db, child)
            plan.triggers += statements.dropLast()
            plan.backfill += statements.suffix(1)
        }
        return plan
    }

    /// 16 + the bytes of every value of the row `alias` of `table`.
    static func rowBytes(_ db: Database, _ table: String, _ alias: String) throws -> String {
        let columns = try db.columns(in: table).map(\.name)
        return "(16" + columns.map { " + coalesce(length(CAST(\(alias).\"\($0)\" AS BLOB)), 0)" }.joined() + ")"
    }

    private static func add(owner: String, bytes: String) -> String {
        """
        INSERT INTO storage_use (owner, bytes) SELECT \(owner), \(bytes) WHERE \(owner) IS NOT NULL
            ON CONFLICT(owner) DO UPDATE SET bytes = bytes + excluded.bytes;
        """
    }

    private static func rootStatements(_ db: Database, _ root: Root, children: [Child]) throws -> [String] {
        let name = root.table
        let childrenOfOld = try children.map { child in
            " + (SELECT total(\(try rowBytes(db, child.table, "c"))) FROM \(child.table) c WHERE c.\(child.column) = OLD.\(root.key))"
        }.joined()
        return [
            """
            CREATE TRIGGER storage_use_\(name)_insert AFTER INSERT ON \(name) BEGIN
                \(add(owner: root.owner("NEW"), bytes: try rowBytes(db, name, "NEW")))
            END;
            """,
            // Before, so the children a cascade is about to remove are still there to count:
            // their own delete triggers find no parent then and subtract nothing.
            """
            CREATE TRIGGER storage_use_\(name)_delete BEFORE DELETE ON \(name) BEGIN
                UPDATE storage_use SET bytes = bytes - (\(try rowBytes(db, name, "OLD"))\(childrenOfOld))
                WHERE owner = \(root.owner("OLD"));
            END;
            """,
            """
            CREATE TRIGGER storage_use_\(name)_update AFTER UPDATE ON \(name) BEGIN
                UPDATE storage_use SET bytes = bytes - \(try rowBytes(db, name, "OLD")) WHERE owner = \(root.owner("OLD"));
                \(add(owner: root.owner("NEW"), bytes: try rowBytes(db, name, "NEW")))
            END;
            """,
            """
            INSERT INTO storage_use (owner, bytes)
                SELECT \(root.owner("r")) AS o, total(\(try rowBytes(db, name, "r"))) FROM \(name) r WHERE o IS NOT NULL GROUP BY o
                ON CONFLICT(owner) DO UPDATE SET bytes = bytes + excluded.bytes;
            """,
        ]
    }

    private static func childStatements(_ db: Database, _ child: Child) throws -> [String] {
        let name = child.table, root = child.root
        func owner(_ alias: String) -> String {
            "(SELECT \(root.owner("p")) FROM \(root.table) p WHERE p.\(root.key) = \(alias).\(child.column))"
        }
        return [
            """
            CREATE TRIGGER storage_use_\(name)_insert AFTER INSERT ON \(name) BEGIN
                \(add(owner: owner("NEW"), bytes: try rowBytes(db, name, "NEW")))
            END;
            """,
            // A row removed on its own (an attachment's chunk, an unrelated effort relation, an
            // association whose sample went). In a cascade from its parent the parent is gone
            // already, the owner is NULL, and the parent's trigger has counted the row.
            """
            CREATE TRIGGER storage_use_\(name)_delete AFTER DELETE ON \(name) BEGIN
                UPDATE storage_use SET bytes = bytes - \(try rowBytes(db, name, "OLD")) WHERE owner = \(owner("OLD"));
            END;
            """,
            """
            CREATE TRIGGER storage_use_\(name)_update AFTER UPDATE ON \(name) BEGIN
                UPDATE storage_use SET bytes = bytes - \(try rowBytes(db, name, "OLD")) WHERE owner = \(owner("OLD"));
                \(add(owner: owner("NEW"), bytes: try rowBytes(db, name, "NEW")))
            END;
            """,
            """
            INSERT INTO storage_use (owner, bytes)
                SELECT \(root.owner("p")) AS o, total(\(try rowBytes(db, name, "c")))
                FROM \(name) c JOIN \(root.table) p ON p.\(root.key) = c.\(child.column) WHERE o IS NOT NULL GROUP BY o
                ON CONFLICT(owner) DO UPDATE SET bytes = bytes + excluded.bytes;
            """,
        ]
    }
}
