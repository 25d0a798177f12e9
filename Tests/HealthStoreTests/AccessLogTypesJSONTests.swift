import Foundation
import Testing

@testable import HealthStore

/// The access log's `types` column is hashed into the chain and recomputed by `verify()` from the
/// stored text, so the hand-written array (`AccessLogRepository.typesJSON`) must be exactly what
/// `JSONEncoder` made before it — for every input, the plain identifiers it writes itself and the
/// rest it hands to the encoder.
@Suite(.timeLimit(.minutes(10))) struct AccessLogTypesJSONTests {
    static let cases: [[String]] = [
        [],
        ["HKQuantityTypeIdentifierStepCount"],
        ["HKCorrelationTypeIdentifierBloodPressure", "HKQuantityTypeIdentifierBloodPressureDiastolic",
         "HKQuantityTypeIdentifierBloodPressureSystolic"],
        ["a.b-c_9", ""],
        // Escaped or not by the encoder: the fallback.
        ["with/slash"], ["quote\"d"], ["back\\slash"], ["tab\there"], ["é"], ["emoji 🫀", "space d"],
    ]

    @Test(arguments: cases) func handWrittenArrayIsTheEncodersByteForByte(types: [String]) throws {
        let encoded = String(decoding: try JSONEncoder().encode(types), as: UTF8.self)
        #expect(try AccessLogRepository.typesJSON(types) == encoded)
    }
}
