import Foundation
import HealthWire

/// What leak-probe-client printed: per call, its response lines (`reply HEX`, `item HEX`…,
/// `end`, or `status …`). Comparing transcripts compares raw response bytes.
struct ProbeTranscript: Sendable {
    let responses: [[String]]

    init(output: String) {
        var responses: [[String]] = []
        for line in output.split(separator: "\n").map(String.init) {
            if line.hasPrefix("call ") {
                responses.append([])
            } else if !responses.isEmpty {
                responses[responses.count - 1].append(line)
            }
        }
        self.responses = responses
    }

    /// The UUIDs a successful Save returned, for the call at `index`; empty for any other reply.
    func savedUUIDs(at index: Int) -> [UUID] {
        guard let line = responses[index].first, line.hasPrefix("reply "),
              let saved = try? SavedUUIDs(wire: Self.bytes(fromHex: String(line.dropFirst(6)))) else { return [] }
        return saved.uuids
    }

    /// Every response with each of `own` (the probing app's UUIDs, in save order) written as
    /// `<own-N>`: the broker assigns fresh random UUIDs in each world, and nothing else may
    /// differ.
    func normalized(own: [UUID]) -> [[String]] {
        let replacements = own.enumerated().map { (Self.hex($0.element.bytes), "<own-\($0.offset)>") }
        return responses.map { lines in
            lines.map { line in replacements.reduce(line) { $0.replacingOccurrences(of: $1.0, with: $1.1) } }
        }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func bytes(fromHex text: String) -> [UInt8] {
        guard text != "-" else { return [] }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex, let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex),
              let byte = UInt8(text[index..<next], radix: 16) {
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
