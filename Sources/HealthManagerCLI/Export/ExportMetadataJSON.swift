import Foundation
import HealthModel

/// Metadata as one JSON object (keys sorted, values keeping their kind as in `samples --json`),
/// for a CSV cell; empty text for none.
enum ExportMetadataJSON {
    static func text(_ metadata: [String: MetadataValue]) -> String {
        guard !metadata.isEmpty else { return "" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        guard let data = try? encoder.encode(metadata.mapValues(SampleJSONLine.Metadata.init(value:))) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
