import GRDB
import HealthModel

/// One of the three tables of effort relation changes. Each row keeps its sample's type, source
/// and start and its workout's source and start (the columns the reader's two scopes decide on)
/// and a change number, and each table has the (type, …, change) ranges a pair of scopes names
/// (v69, v70).
enum RelationChangeTable: String {
    case relations = "workout_effort_relations"
    case removals = "workout_effort_removals"
    case departed = "workout_effort_departed"
}

/// One index walk over a relation change table: `from` names the table, its alias and the index
/// (a `FROM` clause the caller may join to), `condition` the rows the walk visits.
struct RelationWalk {
    let from: String
    let condition: String
    let arguments: StatementArguments
}

extension WorkoutEffortRelationSQL {
    /// What one side of a relation (its sample, or its workout) must be for one walk: anything
    /// (every source), the app's own (a source), or in a window (a start from `since` on). A
    /// scope is the union of its sides (`sides`), a relation walk one side of each.
    private enum Side {
        case any
        case source(appID: String)
        case since(microseconds: Int64)

        /// A per-object scope admits the app's own rows only: no grant names a relation (and no
        /// grant is made per workout).
        static func sides(_ scope: ReadScope) -> [Side] {
            switch scope {
            case .allSources: [.any]
            case let .ownSamples(appID), let .ownAndGrantedObjects(appID): [.source(appID: appID)]
            case let .recentWindow(appID, since): [.source(appID: appID), .since(microseconds: since.microsecondsSince1970)]
            }
        }
    }

    /// The rows of `table` for samples of type `typeID`, changed after `change`, that the reader's
    /// sample scope (`samples`, for that type) and workout scope (`workouts`) both admit — as index
    /// walks that visit only such rows (DESIGN §7.3: what an app's call costs follows what it may
    /// see). The one place that decides what "the reader's scopes admit a relation change" means:
    /// what a wake-up check (`anyVisibleChange`) and a relationship query's reading after an
    /// anchor walk, neither of which tests a relation's workout anywhere else.
    ///
    /// Each scope is a union of sides — every source; the app's own rows (also a per-object scope);
    /// a window: the app's own rows or a start from the window's on — and each pair of a sample
    /// side and a workout side is one walk on the index that names both (v70):
    /// - sources are equalities, a window a range whose rows are all visited, the change number
    ///   (and the other window's start) tested in each index entry;
    /// - two windows walk (type, min(sample start, workout start)) from the earlier window start,
    ///   testing both starts and the change in the entry: with one window for both types (the
    ///   same data window granted for each) every row visited is one the reader may see; with two,
    ///   the rows between the two starts are visited too (SECURITY "Open, known").
    /// A row admitted by two walks is found by both (callers take a UNION or ask EXISTS).
    /// The indexes are named: a plan that walked (type, change) for a narrower scope would visit
    /// hidden rows again. Before v69 every scope walked `…_by_change` (change number only) and
    /// dropped the hidden rows after visiting them; before v70 the walks followed the sample scope
    /// only, and each row's workout was looked up and dropped if hidden (session 22, 23).
    ///
    /// `through`: the rows committed by then only (a stream's later reading), tested in the index.
    static func laterChanges(samples: ReadScope, workouts: ReadScope, table: RelationChangeTable, alias: String, typeID: Int64,
                             after change: Int64, through: Int64? = nil) -> [RelationWalk] {
        let name = table.rawValue
        let bound = through.map { (" AND \(alias).change_seq <= ?", [$0] as StatementArguments) } ?? ("", [])
        let source = "(SELECT id FROM sources WHERE bundle_identifier = ?)"
        func walk(_ sample: Side, _ workout: Side) -> RelationWalk {
            var terms: [String] = []
            var arguments: StatementArguments = []
            let index: String
            switch (sample, workout) {
            case (.any, .any):
                index = "by_type_change"
            case let (.source(appID), .any):
                index = "by_type_source_change"
                terms.append("\(alias).source_id = \(source)")
                arguments += [appID]
            case let (.since(since), .any):
                index = "by_type_start"
                terms.append("\(alias).start_us >= ?")
                arguments += [since]
            case let (.any, .source(appID)):
                index = "by_type_workout_source_change"
                terms.append("\(alias).workout_source_id = \(source)")
                arguments += [appID]
            case let (.any, .since(since)):
                index = "by_type_workout_start"
                terms.append("\(alias).workout_start_us >= ?")
                arguments += [since]
            case let (.source(appID), .source(workoutAppID)):
                index = "by_type_source_workout_source_change"
                terms.append("\(alias).source_id = \(source) AND \(alias).workout_source_id = \(source)")
                arguments += [appID, workoutAppID]
            case let (.source(appID), .since(since)):
                index = "by_type_source_workout_start"
                terms.append("\(alias).source_id = \(source) AND \(alias).workout_start_us >= ?")
                arguments += [appID, since]
            case let (.since(since), .source(workoutAppID)):
                index = "by_type_workout_source_start"
                terms.append("\(alias).workout_source_id = \(source) AND \(alias).start_us >= ?")
                arguments += [workoutAppID, since]
            case let (.since(since), .since(workoutSince)):
                index = "by_type_starts"
                terms.append("""
                    min(\(alias).start_us, \(alias).workout_start_us) >= ? AND \(alias).start_us >= ? AND \(alias).workout_start_us >= ?
                    """)
                arguments += [min(since, workoutSince), since, workoutSince]
            }
            var all: StatementArguments = [typeID]
            all += arguments
            all += [change]
            all += bound.1
            let condition = (["\(alias).type_id = ?"] + terms + ["\(alias).change_seq > ?"]).joined(separator: " AND ")
            return RelationWalk(from: "\(name) \(alias) INDEXED BY \(name)_\(index)", condition: condition + bound.0, arguments: all)
        }
        return Side.sides(samples).flatMap { sample in Side.sides(workouts).map { workout in walk(sample, workout) } }
    }

    /// `laterChanges` for every effort type, each under its scope in `samples` (a type missing
    /// from it shows nothing: no source has an empty identifier), and every workout under `workouts`.
    static func laterChanges(_ db: Database, _ samples: [String: ReadScope], workouts: ReadScope, table: RelationChangeTable,
                             alias: String, after change: Int64, through: Int64? = nil) throws -> [RelationWalk] {
        try WorkoutEffortRules.effortTypes.flatMap { type in
            laterChanges(samples: samples[type] ?? .ownSamples(appID: ""), workouts: workouts, table: table, alias: alias,
                         typeID: try SampleSQL.typeID(db, type), after: change, through: through)
        }
    }
}
