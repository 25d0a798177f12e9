import Foundation
import GRDB
import HealthModel

/// Compiles a `SamplePredicate` to a SQL condition over `objects o` with bound arguments.
/// Values are always bound, never spliced into the SQL text.
enum SampleSQL {
    /// The row id of sample type `identifier`, to bind as `o.type_id = ?`; -1 (no row) for a type
    /// nothing was ever saved as, so the read runs the same statement over an empty range rather
    /// than returning early. Reads bind the id rather than write `type_id = (SELECT id FROM
    /// sample_types …)`: SQLite does not push a scalar subquery's equality into the terms of a
    /// MULTI-INDEX OR (a window scope), and plans each term as a skip-scan over every type and
    /// source of the store, hidden ones included (issue 11). `VisibleRowsPlanTests` checks plans.
    /// `SampleSQLRuleTests` keeps every other statement from matching a type by its identifier.
    static func typeID(_ db: Database, _ identifier: String) throws -> Int64 {
        try knownTypeID(db, identifier) ?? -1
    }

    /// The row id of sample type `identifier`, or nil for a type nothing was ever saved as: the one
    /// lookup of a type by its identifier, which the insert path (`SampleRepository.typeID`) also
    /// uses before it adds the type.
    /// Read straight from SQLite (`BoundStatement.readFirstRow`): every save looks its type up.
    private static let typeLookupSlot = StatementSlot("SELECT id FROM sample_types WHERE identifier = ?")

    static func knownTypeID(_ db: Database, _ identifier: String) throws -> Int64? {
        let lookup = try BoundStatement(db, typeLookupSlot)
        try lookup.bind(identifier, at: 1)
        return try lookup.readFirstRow { $0.int64(0) }
    }

    /// The condition that confines a query over `alias` (a table with `source_id` and `start_us`
    /// columns: `objects` or `deleted_objects`) to what `scope` may see. Every query kind uses this
    /// one function, so hiding read denial is the engine's default rather than a per-query effort;
    /// the condition is an equality on an indexed column, so hidden rows are never read.
    static func visibility(_ scope: ReadScope, alias: String = "o") -> (sql: String, arguments: StatementArguments) {
        visibility(scope, alias: alias, table: .objects)
    }

    /// `table`: which table `alias` is a row of. A per-object grant names `objects` rows by id and
    /// `deleted_objects` rows by the grants their object held when it was deleted; in any other
    /// table (characteristics, activity days) a per-object scope admits the reader's own rows only.
    static func visibility(_ scope: ReadScope, alias: String, table: ScopedTable) -> (sql: String, arguments: StatementArguments) {
        switch scope {
        case .allSources:
            return ("1", [])
        case let .ownSamples(appID):
            return ("\(alias).source_id = (SELECT id FROM sources WHERE bundle_identifier = ?)", [appID])
        case let .recentWindow(appID, since):
            // A union of two index ranges: SQLite's MULTI-INDEX OR runs each term on its own
            // index, (type, source, start) and (type, start), with the query's other conditions
            // pushed into both, and never visits a hidden sample before the window. The planner
            // picks that plan over one range scan across every source only because it knows a
            // type holds many rows (the fixed statistics of migration v8) and is told here that
            // the window term is selective; `TemporaryGrantStoreTests` checks the plan per shape.
            return ("(\(alias).source_id = (SELECT id FROM sources WHERE bundle_identifier = ?) OR likelihood(\(alias).start_us >= ?, 0.0001))",
                    [appID, since.microsecondsSince1970])
        case let .ownAndGrantedObjects(appID):
            let own = visibility(.ownSamples(appID: appID), alias: alias)
            // Two index-driven terms: the own rows' (type, source) range, and the rows the app's
            // grants list by key (both grant tables are keyed by app first). Neither reads an
            // object nobody granted it, so the cost follows the visible rows.
            guard let granted = grantedRows(appID: appID, alias: alias, table: table) else { return own }
            return ("(\(own.sql) OR \(granted.sql))", own.arguments + granted.arguments)
        }
    }

    /// The condition that confines a change-feed read of `alias` (`objects` or `deleted_objects`)
    /// to `scope` and to one stretch of changes: `stretch` is the stretch's condition on the
    /// columns it is given (`FeedColumns`: a row's feed position) — indexed, an index range on
    /// `change_seq`; not indexed, the same test written so that no index can use it. For a
    /// window scope each of the two index ranges — the app's own rows by (type,
    /// source, change) and every source's rows by (type, start) from the window on — carries
    /// the stretch itself, and no term outside them offers the planner the (type, change) index:
    /// that index would walk every row changed after the cursor, hidden ones included, and drop
    /// them afterwards (issue 11, class 2). `ChangeFeedWindowPlanTests` checks the plans.
    static func feedVisibility(_ scope: ReadScope, alias: String, table: ScopedTable,
                               stretch: (FeedColumns) -> (sql: String, arguments: StatementArguments)) -> (sql: String, arguments: StatementArguments) {
        let rowColumn = table == .deletedObjects ? "rowid" : "id"
        switch scope {
        case .allSources, .ownSamples:
            let visible = visibility(scope, alias: alias)
            let range = stretch(FeedColumns(alias: alias, rowColumn: rowColumn, indexed: true))
            return ("\(visible.sql) AND \(range.sql)", visible.arguments + range.arguments)
        case let .recentWindow(appID, since):
            let own = stretch(FeedColumns(alias: alias, rowColumn: rowColumn, indexed: true))
            let window = stretch(FeedColumns(alias: alias, rowColumn: rowColumn, indexed: false))
            var arguments: StatementArguments = [appID]
            arguments += own.arguments
            arguments += [since.microsecondsSince1970]
            arguments += window.arguments
            return ("""
                ((\(alias).source_id = (SELECT id FROM sources WHERE bundle_identifier = ?) AND \(own.sql)) \
                OR (likelihood(\(alias).start_us >= ?, 0.0001) AND \(window.sql)))
                """, arguments)
        case let .ownAndGrantedObjects(appID):
            // The own rows' range carries the stretch; granted rows are found by key and tested
            // against the stretch at their position in this app's feed (`grantedFeedRows`).
            let own = feedVisibility(.ownSamples(appID: appID), alias: alias, table: table, stretch: stretch)
            guard let granted = grantedFeedRows(appID: appID, alias: alias, table: table, stretch: stretch) else { return own }
            return ("(\(own.sql) OR \(granted.sql))", own.arguments + granted.arguments)
        }
    }

    /// `predicate`, on objects of `typeIdentifier`, as a condition over `o`, evaluated over what
    /// `visibility` lets the reader see: an object the predicate names (a workout) outside the
    /// reader's scope for its type matches as if it did not exist. There is no way to compile a
    /// predicate without a visibility, nor without its type: the quantities it holds are
    /// converted here to the unit the type's samples are stored in
    /// (`SamplePredicate.canonicalized(for:)`), so every read kind — sample, statistics,
    /// anchored, observer, source, deletion — compares the same numbers. (Before, only the
    /// sample and correlation queries converted, and "heart rate > 100 count/min" was compared
    /// with stored count/s values everywhere else.) Throws `errorInvalidArgument` for a unit the
    /// type cannot be measured in, which depends on the request alone.
    static func condition(_ predicate: SamplePredicate, of typeIdentifier: String,
                          within visibility: Visibility, _ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        compile(try canonical(predicate, of: typeIdentifier), of: try typeID(db, typeIdentifier), within: visibility)
    }

    /// `predicate` in the stored units of `typeIdentifier`, or what `condition` throws for it:
    /// the checks that depend on the request alone.
    static func canonical(_ predicate: SamplePredicate, of typeIdentifier: String) throws -> SamplePredicate {
        guard let type = HKObjectType.type(forIdentifier: typeIdentifier) as? HKSampleType else {
            throw HKError(.errorInvalidArgument, "\(typeIdentifier.prefix(100)) is not a sample type")
        }
        return try predicate.canonicalized(for: type)
    }

    /// `condition(_:of:within:_:)` for a predicate already in stored units; its operands recurse here.
    static func compile(_ predicate: SamplePredicate, of typeID: Int64,
                        within visibility: Visibility) -> (sql: String, arguments: StatementArguments) {
        switch predicate {
        case let .dateRange(start, end, strictStart, strictEnd):
            var parts: [String] = []
            var arguments = StatementArguments()
            if let start {
                parts.append(strictStart ? "o.start_us >= ?" : "o.end_us >= ?")
                arguments += [start.microsecondsSince1970]
            }
            if let end {
                // HealthKit's .strictEndDate: endDate < E (so startDate < E too, as startDate ≤ endDate).
                parts.append(strictEnd ? "o.end_us < ?" : "o.start_us < ?")
                arguments += [end.microsecondsSince1970]
            }
            return (parts.isEmpty ? "1" : parts.joined(separator: " AND "), arguments)
        case let .uuids(uuids):
            // One bound JSON array however long the list: one SQL variable per UUID ran out
            // of variables and expression depth at a few hundred (issue 13).
            guard !uuids.isEmpty else { return ("0", []) }
            let list = uuids.map(\.uuidString).sorted()
            return ("o.uuid IN (SELECT \(uuidBlob.name)(value) FROM json_each(?))", [jsonArray(list)])
        case let .sources(bundles):
            guard !bundles.isEmpty else { return ("0", []) }
            return ("o.source_id IN (SELECT id FROM sources WHERE bundle_identifier IN (SELECT value FROM json_each(?)))",
                    [jsonArray(bundles.sorted())])
        case let .devices(devices):
            // Correlated to the row by its device key; the devices travel as one JSON list of
            // fingerprints (the `devices` table's unique key), however many there are.
            guard !devices.isEmpty else { return ("0", []) }
            return ("EXISTS (SELECT 1 FROM devices d WHERE d.id = o.device_id AND d.fingerprint IN (SELECT value FROM json_each(?)))",
                    [jsonArray(devices.map(SampleRepository.fingerprint(of:)).sorted())])
        case let .sourceRevisions(revisions):
            // Correlated to the row by its source key (no subquery over other objects); one
            // clause per revision, each with bound values only.
            guard !revisions.isEmpty else { return ("0", []) }
            var clauses: [String] = []
            var arguments = StatementArguments()
            for revision in revisions.sorted(by: { "\($0)" < "\($1)" }) {
                var clause = "EXISTS (SELECT 1 FROM sources s WHERE s.id = o.source_id AND s.bundle_identifier = ?)"
                arguments += [revision.bundleIdentifier]
                if let version = revision.version {
                    clause += " AND o.source_version IS ?"
                    arguments += [version]
                }
                if let system = sourceSystem(revision) {
                    clause += " AND \(system.sql)"
                    arguments += system.arguments
                }
                clauses.append("(\(clause))")
            }
            return (clauses.joined(separator: " OR "), arguments)
        case let .and(operands):
            return join(operands, with: "AND", empty: "1", of: typeID, within: visibility)
        case let .or(operands):
            return join(operands, with: "OR", empty: "0", of: typeID, within: visibility)
        case let .not(operand):
            let inner = compile(operand, of: typeID, within: visibility)
            return ("NOT (\(inner.sql))", inner.arguments)
        case let .workout(uuid):
            return workoutSamples(uuid, of: typeID, within: visibility)
        case let .workoutEffort(workout, activity):
            // The workout is looked up first, by its UUID within the reader's workout scope, and
            // then the one relation of it and the visible row `o` by the relation's key (CROSS
            // JOIN keeps that order): a hidden workout relates nothing, as if it did not exist,
            // and the sample's relations to other workouts — hidden ones among them — are not
            // walked (until session 23 the planner took `o`'s relations by sample, each workout
            // looked up). The row `o` itself is already confined to its type's scope by the caller.
            let workoutVisible = SampleSQL.visibility(visibility.workouts, alias: "w")
            var arguments: StatementArguments = [workout]
            arguments += workoutVisible.arguments
            var activityTest = "r.activity_position = -1"
            if let activity {
                activityTest = "r.activity_position = (SELECT wa.position FROM workout_activities wa WHERE wa.workout_id = w.id AND wa.uuid = ?)"
                arguments += [activity]
            }
            // As `.workout`: a relation made since the answer's first reading relates nothing.
            let committed = committedBy(visibility.through, aliases: ["r", "w"])
            arguments += committed.arguments
            return ("""
                EXISTS (SELECT 1 FROM objects w CROSS JOIN workout_effort_relations r ON r.workout_id = w.id \
                WHERE w.uuid = ? AND \(workoutVisible.sql) AND \(activityTest) AND r.sample_id = o.id\(committed.sql))
                """, arguments)
        case .noCorrelation:
            // Correlated to the row by its key (correlation_members_by_member); a correlation
            // is looked up within the reader's correlation scope — the narrowest of its member
            // types' — so one the reader cannot see holds nothing, as in correlation queries.
            let correlationVisible = SampleSQL.visibility(visibility.correlations, alias: "c")
            let committed = committedBy(visibility.through, aliases: ["c"])
            return ("NOT EXISTS (SELECT 1 FROM correlation_members cm JOIN objects c ON c.id = cm.correlation_id WHERE cm.member_id = o.id AND \(correlationVisible.sql)\(committed.sql))",
                    correlationVisible.arguments + committed.arguments)
        case let .workoutActivityType(activityType):
            // Correlated: looked up per visible row by its key. `o.id IN (SELECT … WHERE
            // activity_type = ?)` built the list of every workout of that type first, hidden
            // ones included, so its cost grew with workouts the reader cannot see.
            return ("EXISTS (SELECT 1 FROM workouts wk WHERE wk.object_id = o.id AND wk.activity_type = ?)", [Int64(clamping: activityType)])
        case let .device(property, allowed):
            return deviceCondition(property, allowed)
        case let .metadata(key, test):
            return metadataCondition(key, test)
        case let .quantity(op, value, _):
            // Already in the type's stored unit: converted by condition(_:of:within:_:), the only way in.
            return ("COALESCE(o.quantity \(op.sqlOperator) ?, 0)", [value])
        case let .categoryValue(op, value):
            return ("COALESCE(o.category \(op.sqlOperator) ?, 0)", [value])
        case let .stateOfMind(test):
            return stateOfMindCondition(test)
        case let .medication(test):
            return medicationCondition(test)
        case let .fhirResource(resourceType, identifier):
            // Correlated to the visible row `o` by its key, like the State of Mind predicates.
            guard let identifier else {
                return ("EXISTS (SELECT 1 FROM clinical_records cr WHERE cr.object_id = o.id AND cr.resource_type = ?)", [resourceType])
            }
            return ("EXISTS (SELECT 1 FROM clinical_records cr WHERE cr.object_id = o.id AND cr.resource_type = ? AND cr.resource_id = ?)",
                    [resourceType, identifier])
        case let .workoutValue(test):
            return workoutCondition(test, values: visibility.workoutValues)
        case let .categoryValues(values):
            return categoryValuesCondition(values)
        case let .electrocardiogram(test):
            return electrocardiogramCondition(test)
        }
    }

    /// ` AND x.change_seq <= ?` for each of `aliases` (rows of tables with a change number), for a
    /// reading bounded by `through`; nothing for a first reading (nil).
    static func committedBy(_ through: Int64?, aliases: [String]) -> (sql: String, arguments: StatementArguments) {
        guard let through else { return ("", []) }
        var arguments = StatementArguments()
        let sql: String = aliases.map { alias -> String in
            arguments += [through]
            return " AND \(alias).change_seq <= ?"
        }.joined()
        return (sql, arguments)
    }

    /// `strings` as a JSON array text, for `json_each(?)`. JSONSerialization escapes every
    /// character that needs it; the strings passed `WireText` (UTF-8, no NUL) on the way in.
    static func jsonArray(_ strings: [String]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: strings), let text = String(data: data, encoding: .utf8) else {
            return "[]"
        }
        return text
    }

    /// `openhealth_uuid_blob(text)`: the 16-byte blob GRDB stores for the UUID spelled `text`,
    /// NULL for anything else (SQLite 3.40 has no `unhex`). Registered on every store
    /// connection (`CipherDatabaseOpener`).
    static let uuidBlob = DatabaseFunction("openhealth_uuid_blob", argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let uuid = UUID(uuidString: text) else { return nil }
        return uuid.databaseValue
    }

    private static func join(_ operands: [SamplePredicate], with op: String, empty: String, of typeID: Int64,
                             within visibility: Visibility) -> (sql: String, arguments: StatementArguments) {
        guard !operands.isEmpty else { return (empty, []) }
        var arguments = StatementArguments()
        let parts = operands.map { operand in
            let compiled = compile(operand, of: typeID, within: visibility)
            arguments += compiled.arguments
            return "(\(compiled.sql))"
        }
        return (parts.joined(separator: " \(op) "), arguments)
    }

    static func orderBy(_ sort: [SampleSort], workoutValues: WorkoutValueScopes) -> (sql: String, arguments: StatementArguments) {
        // The rowid last makes the order total, so equal dates come back the same way every time.
        var arguments = StatementArguments()
        let keys = orderTerms(sort, workoutValues: workoutValues).map { term in
            arguments += term.arguments
            return term.sql + (term.ascending ? " ASC" : " DESC")
        }
        return ((keys + ["o.id ASC"]).joined(separator: ", "), arguments)
    }

    /// One sort key of `orderBy`: its value for `o`, and its direction.
    struct OrderTerm {
        let sql: String
        let arguments: StatementArguments
        let ascending: Bool
    }

    /// The sort keys of `orderBy` before the row id (which always ends it, ascending); a query
    /// that goes on after its last row sent (`SampleQueryResume`) selects and compares them.
    static func orderTerms(_ sort: [SampleSort], workoutValues: WorkoutValueScopes) -> [OrderTerm] {
        sort.map { descriptor in
            let term = orderingTerm(descriptor.key, workoutValues: workoutValues)
            return OrderTerm(sql: term.sql, arguments: term.arguments, ascending: descriptor.ascending)
        }
    }

    /// A sort key's value for the visible row `o`. A workout total is read from the row's own
    /// `workouts` row by its primary key, under the same rule that decides whether the reader is
    /// shown that total (`WorkoutValueScopes.visibleSQL`, as the row decoder and the total
    /// predicates apply it): a total derived from a type the reader may not read sorts as an
    /// absent one, so the order reveals nothing the results do not. NULL (a total the workout
    /// does not have or the reader may not see, or a row that is no workout) sorts first
    /// ascending and last descending (SQLite's rule, which the SDK's merge of several queries
    /// follows).
    private static func orderingTerm(_ key: SampleSort.Key, workoutValues: WorkoutValueScopes) -> (sql: String, arguments: StatementArguments) {
        switch key {
        case .startDate: return ("o.start_us", [])
        case .endDate: return ("o.end_us", [])
        case let .workout(total):
            let visible = workoutValues.visibleSQL(total, activityColumn: "w.activity_type")
            return ("(SELECT CASE WHEN \(visible.sql) THEN w.\(workoutColumn(total)) END FROM workouts w WHERE w.object_id = o.id)",
                    visible.arguments)
        }
    }

}
