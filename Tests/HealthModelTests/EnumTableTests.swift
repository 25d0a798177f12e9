import Foundation
import Testing
@testable import HealthModel

/// Every HealthKit enum against its table: the same cases with the same raw values. When a
/// table repeats a raw value under a second name (HealthKit's deprecated spellings), the
/// first name is the case and the second an alias, checked separately.
@Suite(.timeLimit(.minutes(10))) struct EnumTableTests {
    struct Row {
        let enumName: String
        let caseName: String
        let raw: Int
    }

    func expectEnumsMatch(_ rows: [Row], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let byEnum = Dictionary(grouping: rows, by: \.enumName)
        for (enumName, rows) in byEnum {
            let cases = try #require(EnumCatalog.cases(of: enumName), "no enum \(enumName)", sourceLocation: sourceLocation)
            var firstNameByRaw: [Int: String] = [:]
            for row in rows where firstNameByRaw[row.raw] == nil {
                firstNameByRaw[row.raw] = row.caseName
                #expect(cases.contains(.init(name: row.caseName, raw: row.raw)),
                        "\(enumName).\(row.caseName) = \(row.raw)", sourceLocation: sourceLocation)
            }
            #expect(cases.count == firstNameByRaw.count, "\(enumName) has cases the table lacks",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func categoryValues() throws {
        let rows = try SpecTable.load("category_values.tsv").map {
            Row(enumName: $0["value_enum"]!, caseName: $0["swift_case"]!, raw: Int($0["raw_value"]!)!)
        }
        #expect(rows.count == 62)
        try expectEnumsMatch(rows)
    }

    @Test func deprecatedSpellingsAreAliases() {
        #expect(HKCategoryValueSleepAnalysis.asleep == .asleepUnspecified)
        #expect(HKCategoryValueOvulationTestResult.positive == .luteinizingHormoneSurge)
    }

    @Test func workoutActivityTypes() throws {
        let rows = try SpecTable.load("workout_activity_types.tsv").map {
            Row(enumName: "HKWorkoutActivityType", caseName: $0["swift_case"]!, raw: Int($0["raw_value(NSUInteger)"]!)!)
        }
        #expect(rows.count == 84)
        try expectEnumsMatch(rows)
        #expect(HKWorkoutActivityType.other.rawValue == 3000)
        #expect(HKWorkoutActivityType(rawValue: 81) == nil)
    }

    @Test func workoutEventTypes() throws {
        let rows = try SpecTable.load("workout_event_types.tsv").map {
            Row(enumName: "HKWorkoutEventType", caseName: $0["swift_case"]!, raw: Int($0["raw_value(NSInteger)"]!)!)
        }
        try expectEnumsMatch(rows)
    }

    @Test func characteristicValues() throws {
        var rows: [Row] = []
        for row in try SpecTable.load("characteristic_types.tsv") where !row["enum_cases(raw)"]!.isEmpty {
            for pair in row["enum_cases(raw)"]!.split(separator: ";") {
                let assignment = pair.replacingOccurrences(of: #"\(.*\)"#, with: "", options: .regularExpression)
                    .split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                rows.append(Row(enumName: row["value_type"]!, caseName: assignment[0], raw: Int(assignment[1])!))
            }
        }
        #expect(Set(rows.map(\.enumName)).count == 5)
        try expectEnumsMatch(rows)
    }

    /// All of enums.tsv except the option sets, which belong to the query layer.
    @Test func enumsTable() throws {
        let rows = try SpecTable.load("enums.tsv")
            .filter { !$0["enum"]!.contains("NS_OPTIONS") && $0["enum"] != "HKWorkoutEffortRelationshipQueryOptions" }
            .map { Row(enumName: $0["enum"]!, caseName: $0["swift_case"]!, raw: Int($0["raw_value"]!)!) }
        try expectEnumsMatch(rows)
        #expect(HKAuthorizationStatus.sharingAuthorized.rawValue == 2)
        #expect(HKAuthorizationRequestStatus.unnecessary.rawValue == 2)
    }
}
