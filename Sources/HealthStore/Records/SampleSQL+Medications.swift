import GRDB
import HealthModel

extension SampleSQL {
    /// A medication predicate as an EXISTS correlated to the visible row `o` by its key (each
    /// side table's primary key is `object_id`), so it is evaluated only for rows the Visibility
    /// condition already admits and costs one index probe per row. A test on medications finds
    /// no row in `medication_dose_events` and the other way round, so it matches nothing there.
    static func medicationCondition(_ test: MedicationTest) -> (sql: String, arguments: StatementArguments) {
        switch test {
        case let .isArchived(flag):
            return ("EXISTS (SELECT 1 FROM medications m WHERE m.object_id = o.id AND m.is_archived = ?)", [flag])
        case let .hasSchedule(flag):
            return ("EXISTS (SELECT 1 FROM medications m WHERE m.object_id = o.id AND m.has_schedule = ?)", [flag])
        case let .logStatuses(statuses):
            return ("EXISTS (SELECT 1 FROM medication_dose_events d WHERE d.object_id = o.id AND d.log_status IN (SELECT value FROM json_each(?)))",
                    ["[" + statuses.sorted().map(String.init).joined(separator: ",") + "]"])
        case let .scheduledDates(dates):
            return ("EXISTS (SELECT 1 FROM medication_dose_events d WHERE d.object_id = o.id AND d.scheduled_us IN (SELECT value FROM json_each(?)))",
                    ["[" + dates.map(\.microsecondsSince1970).sorted().map(String.init).joined(separator: ",") + "]"])
        case let .scheduledRange(start, end):
            var sql = "EXISTS (SELECT 1 FROM medication_dose_events d WHERE d.object_id = o.id AND d.scheduled_us IS NOT NULL"
            var arguments = StatementArguments()
            if let start {
                sql += " AND d.scheduled_us >= ?"
                arguments += [start.microsecondsSince1970]
            }
            if let end {
                sql += " AND d.scheduled_us < ?"
                arguments += [end.microsecondsSince1970]
            }
            return (sql + ")", arguments)
        case let .conceptIdentifiers(identifiers):
            return ("EXISTS (SELECT 1 FROM medication_dose_events d WHERE d.object_id = o.id AND d.concept_id IN (SELECT value FROM json_each(?)))",
                    [jsonArray(identifiers.sorted())])
        }
    }

    /// The `objects` rows (as `alias`) that `appID`'s grants of medications show beyond the
    /// medications themselves: their dose events. HealthKit: when a person authorizes a
    /// medication, the app may read that medication and its dose events (WWDC25 "Meet the
    /// HealthKit Medications API"). Driven from the app's grants (keyed by app first), through
    /// each granted medication's concept to its doses by index — never from the doses.
    static func grantedDoseRows(appID: String, alias: String) -> (sql: String, arguments: StatementArguments) {
        ("""
        \(alias).id IN (SELECT d.object_id FROM object_read_grants g \
        JOIN medications m ON m.object_id = g.object_id \
        JOIN medication_dose_events d ON d.concept_id = m.concept_id WHERE g.app_id = ?)
        """, [appID])
    }
}
