import Foundation
import Testing
@testable import HealthModel

/// docs/value-ranges.md is generated from `QuantityValueRanges`; this test fails when the two
/// disagree. Regenerate with `OHK_REGENERATE_DOCS=1 swift test --filter ValueRangeDocTests`.
@Suite(.timeLimit(.minutes(10))) struct ValueRangeDocTests {
    static var documentPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/value-ranges.md").path
    }

    static func format(_ value: Double) -> String {
        value == QuantityValueRanges.ceiling ? "10¹²" : QuantityValueCheck.format(value)
    }

    static func rendered() -> String {
        var text = """
            # Quantity value ranges

            <!-- Generated from Sources/HealthModel/ValueRanges/QuantityValueRanges.swift by
                 Tests/HealthModelTests/ValueRangeDocTests.swift; do not edit by hand. -->

            Every quantity an app saves is converted to its type's canonical unit, must be a finite
            number there, and must lie in its type's range below (checked in the unit the app used,
            so a refusal states the range in that unit). A refusal is HealthKit's
            `errorInvalidArgument` naming the type, the value, the unit and the allowed range, e.g.
            `HKQuantityTypeIdentifierHeartRate: value 0.0 count/min is outside the allowed range 1 to 300 count/min`.

            Where HealthKit documents no range, Health Connect's per-record bounds are used
            (`androidx/androidx`, `health/connect/connect-client/src/main/java/androidx/health/connect/client/records/*Record.kt`:
            the `requireInRange`/`requireNotLess`/`requireNotMore` calls and "Valid range" docs, e.g.
            `HeartRateRecord` 1–300 bpm, `StepsRecord` count ≤ 1,000,000, `WeightRecord` 0–1000 kg,
            `HeightRecord` 0–3 m, `BodyTemperatureRecord` 0–100 °C, `BloodPressureRecord`, `Vo2MaxRecord`
            0–100, `HydrationRecord` 0–100 L). Every other type gets at least a sign rule and the general
            ceiling of 10¹² in its unit, so the sum of any number of stored samples stays finite
            (statistics also leave out any stored value outside its range, e.g. one saved before
            this check existed).

            Units are bounded too (session 16): a unit's factor to its dimension's base unit must lie
            within 10^±\(UnitExpression.maximumScaleExponent) (`Tm^24/pm^23`, a length of 10^564 m, is
            refused), and a metadata quantity may be at most 10^\(Int(log10(UnitExpression.maximumReferenceMagnitude).rounded()))
            of its base unit. So every value below, and every sum, average or metadata quantity computed
            from stored values, is a finite number in every unit an app can ask for; before, the largest
            distance read as +inf in `pm^24/Tm^23`, and a unit too small for a type's range to convert
            to it let a heart rate of 0 through.

            | Type | Range | Unit | Why |
            |---|---|---|---|

            """
        for row in QuantityValueRanges.all {
            let reason: String = switch row.reason {
            case let .healthConnect(text): "Health Connect \(text)"
            case let .physical(text): text
            case .signOnly: "cannot be negative; no known upper limit (general ceiling)"
            }
            let name = row.identifier.rawValue.replacingOccurrences(of: "HKQuantityTypeIdentifier", with: "")
            text += "| \(name) | \(format(row.bounds.lowerBound)) – \(format(row.bounds.upperBound)) | \(row.unitString) | \(reason) |\n"
        }
        return text
    }

    @Test func theDocumentMatchesTheTable() throws {
        let expected = Self.rendered()
        if ProcessInfo.processInfo.environment["OHK_REGENERATE_DOCS"] == "1" {
            try FileManager.default.createDirectory(atPath: (Self.documentPath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try expected.write(toFile: Self.documentPath, atomically: true, encoding: .utf8)
        }
        let onDisk = try String(contentsOfFile: Self.documentPath, encoding: .utf8)
        #expect(onDisk == expected, "docs/value-ranges.md is stale: regenerate it (see this test's comment)")
    }
}
