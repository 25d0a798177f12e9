import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// Issue 11: what a read costs may depend only on rows its reader can see (DESIGN.md §7.3:
/// "in every byte and in timing"). The rule is checked on the plans SQLite really chooses:
/// every statement each read kind runs, for every predicate kind, under the two confined
/// scopes (own samples; own samples plus a window), is explained, and no step of its plan may
///
/// - scan a stored table (a scan reads every source's rows),
/// - skip-scan an index (`ANY(…)`: one seek per distinct type or source in the store, hidden
///   ones included — what a `type_id = (SELECT …)` equality caused inside a window's OR terms),
/// - or, outside a subquery correlated with a visible row, search a non-unique index other
///   than the (type, …) ranges the scope confines: such a list (every workout of an activity
///   type, every device of a name) holds hidden rows before any visible row is looked at.
///
/// A correlated subquery runs once per visible row and looks up by that row's key, so it is
/// bounded by the visible rows.
@Suite(.timeLimit(.minutes(10))) struct VisibleRowsPlanTests {
    typealias Read = VisibilityChokePointTests.Read
    static let reader = VisibilityChokePointTests.reader

    /// One of each predicate kind (and the compound ones), as an app can send them. The value
    /// comparison is the quantity one, in a unit of the type `read` queries; a category value is
    /// the same column comparison (`o.category`) and cannot apply to the quantity types read here.
    static func predicates(workout: UUID, read: Read) -> [(String, SamplePredicate)] {
        let start = VisibilityChokePointTests.start
        let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
        let leaves: [(String, SamplePredicate)] = [
            ("date range", .dateRange(start: start, end: start.addingTimeInterval(3600), strictStart: false, strictEnd: false)),
            ("strict dates", .dateRange(start: start, end: start.addingTimeInterval(3600), strictStart: true, strictEnd: true)),
            ("uuids", .uuids([UUID(), UUID()])),
            ("sources", .sources(["org.example.other", reader])),
            ("workout", .workout(workout)),
            ("activity type", .workoutActivityType(HKWorkoutActivityType.running.rawValue)),
            ("device", .device(.name, allowedValues: ["Watch", "Band"])),
            ("device model", .device(.model, allowedValues: ["X"])),
            ("source revisions", .sourceRevisions([SourceRevisionMatch(bundleIdentifier: "org.example.other", version: "1"),
                                                   SourceRevisionMatch(bundleIdentifier: reader, version: nil)])),
            // Issue 15: product type and system version (v31 `source_systems`), alone and both, and
            // the pair that also admits rows recording neither (`o.system_id IS NULL OR …`).
            ("source revision product", .sourceRevisions([SourceRevisionMatch(bundleIdentifier: reader, version: nil,
                                                                              productType: "ThinkPad X1")])),
            ("source revision system", .sourceRevisions([SourceRevisionMatch(bundleIdentifier: reader, version: "1",
                                                                             operatingSystemVersion: SystemVersion(major: 6, minor: 1, patch: 0))])),
            ("source revision nothing recorded", .sourceRevisions([SourceRevisionMatch(bundleIdentifier: reader, version: nil, productType: "",
                                                                                       operatingSystemVersion: .unrecorded)])),
            ("devices", .devices([DeviceRecord(name: "Watch", manufacturer: "Example", model: "X"), DeviceRecord(name: "Band")])),
            ("metadata", .metadata(key: "HKWasUserEntered", .exists)),
            ("quantity", .quantity(.greaterThan, value: 1, unit: read == .correlationMembers ? "mmHg" : "count/s")),
            ("no correlation", .noCorrelation),
            ("state of mind kind", .stateOfMind(.kind(1))),
            ("state of mind valence", .stateOfMind(.valence(.greaterThanOrEqualTo, 0.25))),
            ("state of mind label", .stateOfMind(.label(17))),
            ("state of mind association", .stateOfMind(.association(17))),
            ("fhir resource type", .fhirResource(resourceType: "Observation", identifier: nil)),
            ("fhir resource id", .fhirResource(resourceType: "Observation", identifier: "lab-1")),
            // Issue 15's workout, electrocardiogram and category-list predicates.
            ("workout total", .workoutValue(.total(.energyBurned, .greaterThanOrEqualTo, 300))),
            ("workout statistic", .workoutValue(.statistic(WorkoutStatisticTest(quantityType: heartRate, statistic: .average,
                                                                                op: .greaterThan, value: 2)))),
            ("workout activity", .workoutValue(.activity(.and([
                .activityType(HKWorkoutActivityType.running.rawValue), .not(.duration(.lessThan, 60)),
                .dateRange(start: start, end: start.addingTimeInterval(3600), strictStart: true, strictEnd: true),
                .statistic(WorkoutStatisticTest(quantityType: heartRate, statistic: .maximum, op: .lessThanOrEqualTo, value: 3)),
            ])))),
            ("electrocardiogram classification", .electrocardiogram(.classification(1))),
            ("electrocardiogram symptoms", .electrocardiogram(.symptomsStatus(2))),
            // iOS 18's effort relation: a correlated lookup of the row's relations by its key.
            ("workout effort", .workoutEffort(workout: workout, activity: nil)),
            ("workout effort activity", .workoutEffort(workout: workout, activity: UUID())),
            // No category-list leaf: every read converts its predicate for the type it reads
            // (`SampleSQL.condition(_:of:within:_:)`) and refuses a category predicate on the
            // quantity types read here; its SQL (`o.category IN json_each(?)`, a column of the
            // visible row) is checked on a category type by KindPredicateStoreTests.
        ]
        return leaves + [
            ("and", .and([leaves[0].1, leaves[6].1])),
            ("or", .or([leaves[5].1, leaves[4].1])),
            ("not", .not(leaves[6].1)),
        ]
    }

    static let scopes: [(String, Visibility)] = [
        ("own", .ownSamples(appID: reader)),
        ("window", .recentWindow(appID: reader, since: VisibilityChokePointTests.start.addingTimeInterval(-86_400))),
        ("window, workouts own", Visibility(scope: .recentWindow(appID: reader, since: VisibilityChokePointTests.start),
                                            workouts: .ownSamples(appID: reader), correlations: .ownSamples(appID: reader))),
        // A type read per object (vision prescriptions): own rows plus the granted ones by key.
        ("own and granted objects", Visibility(scope: .ownAndGrantedObjects(appID: reader), workouts: .ownSamples(appID: reader),
                                               correlations: .ownSamples(appID: reader))),
    ]

    /// An in-memory store with the function every store connection has (CipherDatabaseOpener).
    static func planStore() throws -> (writer: DatabaseQueue, database: HealthDatabase) {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: SampleSQL.uuidBlob) }
        let writer = try DatabaseQueue(configuration: configuration)
        return (writer, try HealthDatabase(writer: writer))
    }

    /// Records each step of `plans` that is not bounded by the visible rows, under `label`.
    static func recordViolations(_ plans: [(sql: String, steps: [ChangeFeedQueryPlanTests.PlanStep])], _ label: String) {
        for (sql, steps) in plans {
            for violation in violations(steps) {
                Issue.record("\(label): \(violation)\n\(sql)\n\(steps.map(\.detail))")
            }
        }
    }

    @Test(arguments: Read.allCases)
    func everyPlanStepIsBoundedByVisibleRows(read: Read) async throws {
        let (writer, database) = try Self.planStore()
        let workout = try await Self.fill(database)
        for (scopeName, visibility) in Self.scopes {
            for (predicateName, predicate) in Self.predicates(workout: workout, read: read) {
                let plans = try ChangeFeedQueryPlanTests.explained(writer) {
                    _ = try VisibilityChokePointTests.matches(read, predicate, visibility, database)
                }
                #expect(!plans.isEmpty, "\(read) ran no statement over objects")
                Self.recordViolations(plans, "\(read), \(predicateName), \(scopeName)")
            }
        }
    }

    /// HKWorkoutEffortRelationshipQuery's read (`workoutEffortRelations`): the workouts under the
    /// reader's workout scope, their relations by key, and each related sample under its own
    /// type's scope — for every scope and every predicate on the workouts.
    @Test func workoutEffortRelationsAreBoundedByVisibleRows() async throws {
        let (writer, database) = try Self.planStore()
        let workout = try await Self.fill(database)
        for (scopeName, visibility) in Self.scopes {
            let samples = Dictionary(uniqueKeysWithValues: WorkoutEffortRules.effortTypes.map { ($0, visibility.scope) })
            for (predicateName, predicate) in Self.predicates(workout: workout, read: .samples)
            where predicateName != "quantity" {  // a heart-rate unit: refused on workouts, before any SQL
                let plans = try ChangeFeedQueryPlanTests.explained(writer) {
                    _ = try database.samples.workoutEffortRelations(matching: predicate, workouts: visibility, samples: samples,
                                                                    mostRelevant: false, maximumSamples: 10)
                }
                #expect(!plans.isEmpty)
                Self.recordViolations(plans, "effort relations, \(predicateName), \(scopeName)")
            }
        }
    }

    /// The relations of a visible workout are read by the ranges the reader's scope names — the
    /// (workout, type, source) or (workout, type) range of each effort type — never by the
    /// workout alone, so hidden scores on a workout the reader sees are not visited (v60). Both a
    /// first reading and a later one (a stream's, which also reads the removals unrelated since).
    /// Before v60 every relation of the workout was read and its sample looked up.
    @Test func workoutEffortRelationsAreReadByTheRangesTheScopeNames() async throws {
        let (writer, database) = try Self.planStore()
        _ = try await Self.fill(database)
        for (scopeName, visibility) in Self.scopes {
            let samples = Dictionary(uniqueKeysWithValues: WorkoutEffortRules.effortTypes.map { ($0, visibility.scope) })
            for later in [false, true] {
                let snapshot = ReadSnapshot()
                func read() throws {
                    _ = try database.samples.workoutEffortRelations(matching: nil, workouts: visibility, samples: samples,
                                                                    mostRelevant: false, maximumSamples: 10, within: snapshot)
                }
                if later { try read() }  // the first reading records the snapshot
                let steps = try ChangeFeedQueryPlanTests.explained(writer) { try read() }.flatMap(\.steps)
                let relationSteps = steps.map(\.detail).filter { $0.contains(" r USING") || $0.hasPrefix("SCAN r") }
                #expect(relationSteps.count >= (later ? 4 : 2), "\(scopeName), later: \(later): \(relationSteps)")
                for detail in relationSteps {
                    #expect(detail.hasPrefix("SEARCH r") && detail.contains("workout_id=? AND type_id=?"),
                            "\(scopeName), later: \(later): \(detail)")
                }
            }
        }
    }

    /// Activity summaries read four types for each day under the reader's scopes; deleting by
    /// predicate reads the app's own rows, with a workout it names looked up in its read scope.
    @Test func activitySummariesAndDeletionAreBoundedByVisibleRows() async throws {
        let (writer, database) = try Self.planStore()
        let workout = try await Self.fill(database)
        for (scopeName, visibility) in Self.scopes {
            let plans = try ChangeFeedQueryPlanTests.explained(writer) {
                _ = try database.activitySummaries.summaries(ActivitySummaryQuerySpec(timeZoneIdentifier: "UTC"), scope: visibility)
            }
            #expect(!plans.isEmpty)
            for (sql, steps) in plans {
                for violation in Self.violations(steps) { Issue.record("activity summaries, \(scopeName): \(violation)\n\(sql)") }
            }
            for (predicateName, predicate) in Self.predicates(workout: workout, read: .samples) {
                let statements = Mutex<[String]>([])
                writer.inDatabase { db in
                    db.trace { event in
                        if case let .statement(statement) = event { statements.withLock { $0.append(statement.expandedSQL) } }
                    }
                }
                _ = try await database.samples.deleteMatching(typeIdentifier: VisibilityChokePointTests.heartRate, predicate: predicate,
                                                              appID: "org.example.nobody", workouts: visibility.workouts)
                writer.inDatabase { db in db.trace(nil) }
                let reads = statements.withLock { $0 }.filter { $0.hasPrefix("SELECT") && $0.contains("FROM objects") }
                #expect(!reads.isEmpty)
                for sql in reads {
                    let steps = try await writer.read { db in try ChangeFeedQueryPlanTests.steps(db, sql) }
                    for violation in Self.violations(steps) { Issue.record("deleteMatching, \(predicateName), \(scopeName): \(violation)\n\(sql)") }
                }
            }
        }
    }

    /// HKHeartbeatSeriesQuery, HKElectrocardiogramQuery and HKQuantitySeriesSampleQuery (issue
    /// 15): every statement the series read runs — the sample looked up by UUID under the scope, then its one side row —
    /// is bounded by the visible rows, for a hidden series, the reader's own, and one that does
    /// not exist.
    @Test func seriesReadsAreBoundedByVisibleRows() async throws {
        let (writer, database) = try Self.planStore()
        _ = try await Self.fill(database)
        let hidden = try await database.samples.insert([SeriesRepositoryTests.series(), SeriesRepositoryTests.ecg(),
                                                        try QuantitySeriesRepositoryTests.series()],
                                                       source: VisibilityChokePointTests.other)
        let own = try await database.samples.insert([SeriesRepositoryTests.series(), SeriesRepositoryTests.ecg(),
                                                     try QuantitySeriesRepositoryTests.series()],
                                                    source: SourceRecord(bundleIdentifier: Self.reader, name: "Reader", version: "1"))
        let types = [HKDataTypeIdentifierHeartbeatSeries, HKElectrocardiogramTypeIdentifier, QuantitySeriesRepositoryTests.steps]
        for (scopeName, visibility) in Self.scopes {
            for (index, type) in types.enumerated() {
                for uuid in [hidden[index], own[index], UUID()] {
                    let statements = Mutex<[String]>([])
                    writer.inDatabase { db in
                        db.trace { event in
                            if case let .statement(statement) = event { statements.withLock { $0.append(statement.expandedSQL) } }
                        }
                    }
                    try? database.samples.seriesPoints(uuid, typeIdentifier: type, scope: visibility.scope) { _, _, _ in }
                    writer.inDatabase { db in db.trace(nil) }
                    let reads = statements.withLock { $0 }.filter { $0.hasPrefix("SELECT") }
                    #expect(reads.contains { $0.contains("FROM objects") }, "\(type): no lookup of the sample")
                    for sql in reads {
                        let steps = try await writer.read { db in try ChangeFeedQueryPlanTests.steps(db, sql) }
                        for violation in Self.violations(steps) { Issue.record("series \(type), \(scopeName): \(violation)\n\(sql)") }
                    }
                }
            }
        }
    }

    /// The rule must catch the plans it was written against: the two statement shapes that
    /// leaked (a scalar-subquery type equality inside a window's OR; a list of every workout of
    /// an activity type) fail it.
    @Test func theRuleRejectsThePlansThatLeaked() throws {
        let writer = try DatabaseQueue()
        _ = try HealthDatabase(writer: writer)
        let leaked = [
            """
            SELECT DISTINCT o.source_id FROM objects o
            WHERE o.type_id = (SELECT id FROM sample_types WHERE identifier = 'x')
              AND (o.source_id = (SELECT id FROM sources WHERE bundle_identifier = 'a') OR likelihood(o.start_us >= 5, 0.0001))
            """,
            "SELECT o.id FROM objects o WHERE o.type_id = 1 AND o.source_id = 2 AND o.id IN (SELECT object_id FROM workouts WHERE activity_type = 3)",
            "SELECT o.id FROM objects o WHERE o.type_id = 1 AND o.source_id = 2 AND o.device_id IN (SELECT id FROM devices WHERE name IN ('a'))",
            // redteam23 F2: the samples of a workout, read from its associations before their type.
            """
            SELECT o.id FROM objects o WHERE o.type_id = 1 AND o.source_id = 2 AND o.id IN (SELECT a.sample_id FROM \
            workout_associations a JOIN objects w ON w.id = a.workout_id WHERE w.uuid = x'00' AND w.source_id = 2)
            """,
        ]
        for sql in leaked {
            let steps = try writer.read { db in try ChangeFeedQueryPlanTests.steps(db, sql) }
            #expect(!Self.violations(steps).isEmpty, "\(sql): \(steps.map(\.detail))")
        }
    }

    /// The steps of `steps` that break the rule, described.
    static func violations(_ steps: [ChangeFeedQueryPlanTests.PlanStep]) -> [String] {
        let byID = Dictionary(steps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func correlated(_ step: ChangeFeedQueryPlanTests.PlanStep) -> Bool {
            var parent = byID[step.parent]
            while let current = parent {
                if current.detail.hasPrefix("CORRELATED") { return true }
                parent = byID[current.parent]
            }
            return false
        }
        func listSubquery(_ step: ChangeFeedQueryPlanTests.PlanStep) -> ChangeFeedQueryPlanTests.PlanStep? {
            var parent = byID[step.parent]
            while let current = parent {
                if current.detail.hasPrefix("LIST SUBQUERY") { return current }
                parent = byID[current.parent]
            }
            return nil
        }
        /// A list read from the reader's own per-object grants (`object_read_grants g` by app, the
        /// scope `.ownAndGrantedObjects`): every row it names is one the reader may see.
        func grantKeyed(_ list: ChangeFeedQueryPlanTests.PlanStep) -> Bool {
            steps.contains { $0.parent == list.id && $0.detail.hasPrefix("SEARCH g USING PRIMARY KEY (app_id=?)") }
        }
        var found: [String] = []
        for step in steps {
            let detail = step.detail
            if detail.contains("ANY(") {
                found.append("skip-scan: \(detail)")
            }
            if detail.hasPrefix("SCAN "), !Self.scansOnlyInputOrResults(detail) {
                found.append("scan of stored rows: \(detail)")
            }
            if !correlated(step), let list = listSubquery(step), !grantKeyed(list), !Self.readsOnlyListInput(detail) {
                // A list built before any visible row is looked at (`x IN (SELECT …)`) may read
                // only the predicate's own bound values and the sources' names: one read from
                // rows that refer to objects (`o.id IN (SELECT a.sample_id FROM
                // workout_associations …)`) holds hidden rows, each looked up before its type and
                // scope are tested (redteam23 F2: a workout's associations).
                found.append("a list read from stored rows before the visible rows (\(list.detail)): \(detail)")
            }
            if detail.hasPrefix("SEARCH "), !correlated(step), let index = Self.index(in: detail),
               !index.hasPrefix("sqlite_autoindex_"), !Self.scopeRanges.contains(where: { index.hasPrefix($0) }),
               !Self.grantKeyedIndexes.contains(index) {
                found.append("uncorrelated search of a non-unique index: \(detail)")
            }
        }
        return found
    }

    /// The (type, …) index ranges a scope's condition confines; for effort relations and the
    /// removals a later reading puts back, (workout, type, …) ranges (v60).
    static let scopeRanges = ["objects_by_type_", "deleted_by_type_", "workout_effort_relations_by_source",
                              "workout_effort_relations_by_start", "workout_effort_removals_unrelated"]

    /// Indexes searched only with keys read from the reader's own per-object grants: the dose
    /// events of the medications granted to it (`SampleSQL.grantedDoseRows`, from
    /// `object_read_grants` by app through `medications` to `medication_dose_events` by concept).
    /// Every row such a search finds is one the reader may see, so it is bounded by visible rows.
    static let grantKeyedIndexes: Set<String> = ["medication_dose_events_by_concept"]

    /// A step of an uncorrelated list subquery that reads no object rows: the bound list
    /// (`json_each`), the sources by name, or structure with no table.
    static func readsOnlyListInput(_ detail: String) -> Bool {
        !(detail.hasPrefix("SEARCH ") || detail.hasPrefix("SCAN ")) || detail.hasPrefix("SCAN json_each")
            || detail.hasPrefix("SEARCH sources ") || detail.hasPrefix("SCAN sources ")
    }

    /// `SCAN json_each` reads the predicate's own bound list; a scan of a subquery's result
    /// (`v`, a co-routine) reads rows already confined; a constant row is no table.
    static func scansOnlyInputOrResults(_ detail: String) -> Bool {
        detail.hasPrefix("SCAN json_each") || detail.hasPrefix("SCAN CONSTANT ROW") || detail == "SCAN v"
            || detail.hasPrefix("SCAN (subquery")
    }

    /// The index a SEARCH step uses, nil for a primary key.
    static func index(in detail: String) -> String? {
        guard let range = detail.range(of: "INDEX ") else { return nil }
        return detail[range.upperBound...].split(separator: " ").first.map(String.init)
    }

    /// A store with every kind of row the predicates can name: another source's heart rate (one
    /// sample and one series), blood pressure and running workout with a device and metadata, and the reader's own.
    static func fill(_ database: HealthDatabase) async throws -> UUID {
        let start = VisibilityChokePointTests.start
        let device = DeviceRecord(name: "Watch", manufacturer: "Example", model: "X")
        var heartRate = SampleRecord(uuid: UUID(), typeIdentifier: VisibilityChokePointTests.heartRate, startDate: start, endDate: start,
                                     value: .quantity(1.2, unit: "count/s"), metadata: ["HKWasUserEntered": .bool(true)])
        heartRate.device = device
        let workout = SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start,
                                   endDate: start.addingTimeInterval(3600),
                                   value: .workout(WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: 3600)))
        // A heart-rate series too, so statistics reads look its quantities up (v23).
        let series = try SampleValidator.canonicalized(SampleRecord(
            uuid: UUID(), typeIdentifier: VisibilityChokePointTests.heartRate, startDate: start, endDate: start.addingTimeInterval(60),
            value: .quantity(0, unit: "count/min"),
            quantitySeries: QuantitySeries(count: 2, minimum: 0, maximum: 0, mostRecent: 0, mostRecentStart: start, mostRecentEnd: start,
                                           data: [QuantitySeriesDatum(value: 60, start: start, end: start.addingTimeInterval(30)),
                                                  QuantitySeriesDatum(value: 70, start: start.addingTimeInterval(30),
                                                                      end: start.addingTimeInterval(60))])))
        for source in [VisibilityChokePointTests.other, SourceRecord(bundleIdentifier: reader, name: "Reader", version: "1")] {
            var own = heartRate
            own.uuid = UUID()
            _ = try await database.samples.insert([own, series, CorrelationRepositoryTests.reading(130, 85, minute: 0)], source: source)
        }
        let saved = try await database.samples.insert([workout], source: VisibilityChokePointTests.other)
        return saved[0]
    }
}
