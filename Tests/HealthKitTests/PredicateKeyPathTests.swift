import Foundation
import Testing
import HealthKit

/// Apple's predicate key path constants hold the strings Apple's SDK holds (the values
/// spec/healthkit/string_constants.tsv extracted from HealthKit's binary, e.g.
/// developer.apple.com/documentation/healthkit/hkpredicatekeypathstartdate), and every one the
/// table lists is declared: code that names them ports unchanged. Issue 15, row 74.
@Suite(.timeLimit(.minutes(10))) struct PredicateKeyPathTests {
    static let declared: [String: String] = [
        "HKPredicateKeyPathCategoryValue": HKPredicateKeyPathCategoryValue,
        "HKPredicateKeyPathCorrelation": HKPredicateKeyPathCorrelation,
        "HKPredicateKeyPathEndDate": HKPredicateKeyPathEndDate,
        "HKPredicateKeyPathStartDate": HKPredicateKeyPathStartDate,
        "HKPredicateKeyPathMetadata": HKPredicateKeyPathMetadata,
        "HKPredicateKeyPathQuantity": HKPredicateKeyPathQuantity,
        "HKPredicateKeyPathSource": HKPredicateKeyPathSource,
        "HKPredicateKeyPathUUID": HKPredicateKeyPathUUID,
        "HKPredicateKeyPathWorkout": HKPredicateKeyPathWorkout,
        "HKPredicateKeyPathWorkoutDuration": HKPredicateKeyPathWorkoutDuration,
        "HKPredicateKeyPathWorkoutTotalDistance": HKPredicateKeyPathWorkoutTotalDistance,
        "HKPredicateKeyPathWorkoutTotalEnergyBurned": HKPredicateKeyPathWorkoutTotalEnergyBurned,
        "HKPredicateKeyPathWorkoutType": HKPredicateKeyPathWorkoutType,
        "HKPredicateKeyPathDevice": HKPredicateKeyPathDevice,
        "HKPredicateKeyPathSourceRevision": HKPredicateKeyPathSourceRevision,
        "HKPredicateKeyPathWorkoutTotalSwimmingStrokeCount": HKPredicateKeyPathWorkoutTotalSwimmingStrokeCount,
        "HKPredicateKeyPathWorkoutTotalFlightsClimbed": HKPredicateKeyPathWorkoutTotalFlightsClimbed,
        "HKPredicateKeyPathCDAAuthorName": HKPredicateKeyPathCDAAuthorName,
        "HKPredicateKeyPathCDACustodianName": HKPredicateKeyPathCDACustodianName,
        "HKPredicateKeyPathCDAPatientName": HKPredicateKeyPathCDAPatientName,
        "HKPredicateKeyPathCDATitle": HKPredicateKeyPathCDATitle,
        "HKPredicateKeyPathWorkoutEffortRelationship": HKPredicateKeyPathWorkoutEffortRelationship,
    ]

    @Test func everyKeyPathInTheTableIsDeclaredWithItsValue() throws {
        // Tests/HealthKitTests/PredicateKeyPathTests.swift -> repository root -> spec/healthkit
        let table = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("spec/healthkit/string_constants.tsv")
        let rows = try String(contentsOf: table, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0.count > 2 && $0[2].hasPrefix("predicate key path") }
        #expect(rows.count == Self.declared.count)
        for row in rows {
            #expect(Self.declared[row[0]] == row[1], "\(row[0])")
        }
    }
}
