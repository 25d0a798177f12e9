import Foundation
import Testing

@testable import HealthModel

/// A state of mind is checked before it is stored, one dimension at a time, with HealthKit's
/// rules: developer.apple.com/documentation/healthkit/hkstateofmind/valence (−1…+1; HealthKit
/// refuses others with errorInvalidArgument), …/hkstateofmind/kind-swift.enum,
/// …/hkstateofmind/label, …/hkstateofmind/association (raw values as HealthKit's).
@Suite(.timeLimit(.minutes(10))) struct StateOfMindValidatorTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    func state(kind: Int = 1, valence: Double = 0, labels: [Int] = [], associations: [Int] = []) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierStateOfMind, startDate: Self.date, endDate: Self.date,
                     value: .stateOfMind(StateOfMindValue(kind: kind, valence: valence, labels: labels, associations: associations)))
    }

    @Test func theExtremesOfEveryFieldAreAccepted() throws {
        for record in [state(valence: -1), state(valence: 1), state(kind: 2), state(labels: [1, 38]), state(associations: [1, 18]),
                       state(labels: Array(1...38), associations: Array(1...18))] {
            _ = try SampleValidator.canonicalized(record)
        }
    }

    @Test(arguments: [
        ("valence", -1.000_001), ("valence", 1.000_001), ("valence", .nan), ("valence", .infinity), ("valence", -.infinity),
        ("kind", 0), ("kind", 3), ("label", 0), ("label", 39), ("association", 0), ("association", 19),
        ("repeated label", 7), ("repeated association", 17),
    ] as [(String, Double)])
    func aValueOutsideHealthKitsIsRefused(field: String, value: Double) {
        let record = switch field {
        case "valence": state(valence: value)
        case "kind": state(kind: Int(value))
        case "label": state(labels: [1, Int(value)])
        case "association": state(associations: [1, Int(value)])
        case "repeated label": state(labels: [Int(value), 2, Int(value)])
        default: state(associations: [Int(value), Int(value)])
        }
        let name = field.split(separator: " ").last.map(String.init) ?? field
        #expect {
            _ = try SampleValidator.canonicalized(record)
        } throws: { error in
            (error as? HKError)?.code == .errorInvalidArgument && (error as? HKError)?.message.contains(name) == true
        }
    }

    /// A state of mind is one moment: HealthKit's initializer takes one date.
    @Test func aStateOfMindWithADurationIsRefused() {
        var record = state()
        record.endDate = Self.date.addingTimeInterval(1)
        #expect(throws: HKError.self) { _ = try SampleValidator.canonicalized(record) }
    }

    /// HKStateOfMind.ValenceClassification: seven bands of width 2/7; ±1/7 are neutral, the
    /// band edges below neutral belong to the band above them, above neutral to the one below.
    @Test(arguments: [
        (-1.0, 1), (-5.0 / 7 - 1e-9, 1), (-5.0 / 7, 2), (-3.0 / 7, 3), (-1.0 / 7 - 1e-9, 3), (-1.0 / 7, 4), (0, 4),
        (1.0 / 7, 4), (1.0 / 7 + 1e-9, 5), (3.0 / 7, 5), (5.0 / 7, 6), (5.0 / 7 + 1e-9, 7), (1.0, 7),
    ] as [(Double, Int)])
    func theValenceBandsAreHealthKits(valence: Double, band: Int) {
        #expect(StateOfMindValue.classification(forValence: valence) == band)
    }

    @Test(arguments: [-1.01, 1.01, Double.nan])
    func aValenceOutsideTheRangeHasNoBand(valence: Double) {
        #expect(StateOfMindValue.classification(forValence: valence) == nil)
    }
}
