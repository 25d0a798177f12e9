import GRDB
import HealthModel

/// One of the three tables of effort relation changes. Each row keeps its sample's type, source
/// and start (the columns a read scope decides on) and a change number, and each table has the
/// three (type, …, change) ranges a scope names (v69).
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
    /// The rows of `table` for samples of type `typeID`, changed after `change`, that `scope`
    /// admits — as index walks that visit only such rows (DESIGN §7.3: what an app's call costs
    /// follows what it may see). What a wake-up check (`anyVisibleChange`) and a relationship
    /// query's reading after an anchor walk, and the one place that decides how.
    /// - every source's rows: (type, change) from `change` on;
    /// - the app's own rows (also a per-object scope: no grant names a relation): (type, source,
    ///   change) from `change` on;
    /// - a window: the app's own rows as above, and (type, start, change) from the window's start
    ///   on, the change number tested in each index entry — every in-window entry is visited, and
    ///   each is a relation of a sample the reader may see. A row in both is visited twice.
    /// The indexes are named: a plan that walked (type, change) for a narrower scope would visit
    /// hidden rows again. Before v69 every scope walked `…_by_change` (change number only) and
    /// dropped the hidden rows after visiting them (session 22).
    ///
    /// `through`: the rows committed by then only (a stream's later reading), tested in the index.
    static func laterChanges(_ scope: ReadScope, table: RelationChangeTable, alias: String, typeID: Int64,
                             after change: Int64, through: Int64? = nil) -> [RelationWalk] {
        let name = table.rawValue
        let bound = through.map { (" AND \(alias).change_seq <= ?", [$0] as StatementArguments) } ?? ("", [])
        func walk(_ index: String, _ condition: String, _ arguments: StatementArguments) -> RelationWalk {
            var all: StatementArguments = [typeID]
            all += arguments
            all += [change]
            all += bound.1
            return RelationWalk(from: "\(name) \(alias) INDEXED BY \(name)_\(index)",
                                condition: "\(alias).type_id = ? AND \(condition) AND \(alias).change_seq > ?\(bound.0)",
                                arguments: all)
        }
        func own(_ appID: String) -> RelationWalk {
            walk("by_type_source_change", "\(alias).source_id = (SELECT id FROM sources WHERE bundle_identifier = ?)", [appID])
        }
        switch scope {
        case .allSources:
            return [walk("by_type_change", "1", [])]
        case let .ownSamples(appID), let .ownAndGrantedObjects(appID):
            return [own(appID)]
        case let .recentWindow(appID, since):
            return [own(appID), walk("by_type_start", "\(alias).start_us >= ?", [since.microsecondsSince1970])]
        }
    }

    /// `laterChanges` for every effort type, each under its scope in `samples` (a type missing
    /// from it shows nothing: no source has an empty identifier).
    static func laterChanges(_ db: Database, _ samples: [String: ReadScope], table: RelationChangeTable, alias: String,
                             after change: Int64, through: Int64? = nil) throws -> [RelationWalk] {
        try WorkoutEffortRules.effortTypes.flatMap { type in
            laterChanges(samples[type] ?? .ownSamples(appID: ""), table: table, alias: alias, typeID: try SampleSQL.typeID(db, type),
                         after: change, through: through)
        }
    }
}
