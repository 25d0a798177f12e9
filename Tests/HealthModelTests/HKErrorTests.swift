import Foundation
import Testing
@testable import HealthModel

/// The error codes' raw values are part of the wire and of ported code: they must match
/// HealthKit's table in ../shared/spec/healthkit/error_codes.tsv.
@Suite struct HKErrorTests {
    @Test func rawValuesMatchHealthKitTable() throws {
        let rows = try SpecTable.load("error_codes.tsv")
        #expect(rows.count == HKError.Code.allCases.count)
        for row in rows {
            let swiftCase = row["swift_case(HKError.Code)"]!.components(separatedBy: " / ")[0]
            let raw = Int(row["raw_value(NSInteger)"]!)!
            let code = try #require(HKError.Code(rawValue: raw), "no code for raw value \(raw)")
            #expect("\(code)" == swiftCase)
        }
    }
}
