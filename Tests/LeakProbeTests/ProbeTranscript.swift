import Foundation
import HealthWire

/// What the probing app received, step by step: per step its response lines (`reply HEX`,
/// `item HEX`…, `end`, `status …`; nothing for a hidden app's step). Comparing transcripts
/// compares raw response bytes, except for values the broker makes up afresh in each world.
struct ProbeTranscript: Sendable {
    private(set) var entries: [[String]] = []
    private(set) var methods: [HealthStoreMethod?] = []

    mutating func append(_ lines: [String], method: HealthStoreMethod?) {
        entries.append(lines)
        methods.append(method)
    }

    /// Every response with the broker's fresh values replaced by placeholders:
    /// - each of `own` (the probing app's UUIDs, in save order) by `<own-N>`: the broker mints
    ///   new random UUIDs in each world;
    /// - each anchor by `<anchor: N bytes>`: anchors are sealed with a random nonce, so even an
    ///   unchanged position has new bytes (what an anchor *means* is compared by continuing from
    ///   it, see `ProbeCatalog.anchored`); only its length stays visible;
    /// - observer ids by `<observer-N>` (random, per query), in the order they first appear.
    /// Everything else must be identical byte for byte.
    /// `granted`: other probing apps' objects the app was granted per object, by grant order.
    func normalized(own: [UUID], granted: [UUID] = []) -> [[String]] {
        let replacements = own.enumerated().map { (Self.hex($0.element.bytes), "<own-\($0.offset)>") }
            + granted.enumerated().map { (Self.hex($0.element.bytes), "<granted-\($0.offset)>") }
        var observers: [UInt64] = []
        return zip(entries, methods).map { lines, method in
            lines.map { line in
                var text = line
                if let payload = Self.payload(of: line) {
                    switch method {
                    case .queryAnchored?:
                        if let batch = try? AnchoredQueryBatch(wire: payload), !batch.anchor.isEmpty {
                            text = text.replacingOccurrences(of: Self.hex(batch.anchor), with: "<anchor: \(batch.anchor.count) bytes>")
                        }
                    case .queryWorkoutEffortRelationships?:
                        if let answer = try? WorkoutEffortRelations(wire: payload), !answer.anchor.isEmpty {
                            text = text.replacingOccurrences(of: Self.hex(answer.anchor), with: "<anchor: \(answer.anchor.count) bytes>")
                        }
                    case .observeChanges?:
                        // Only a message that is exactly an update is summarized; anything else stays raw.
                        if let update = try? ObserverDelivery(wire: payload), update.wireBytes() == payload {
                            if !observers.contains(update.observerID) { observers.append(update.observerID) }
                            let index = observers.firstIndex(of: update.observerID)!
                            text = text.replacingOccurrences(of: Self.hex(payload),
                                                             with: "update <observer-\(index)> delivery \(update.delivery)")
                        }
                    default:
                        break
                    }
                }
                return replacements.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
            }
        }
    }

    /// The UUIDs a successful Save returned in `lines`; empty for any other reply.
    static func savedUUIDs(_ lines: [String]) -> [UUID] {
        guard let line = lines.first, line.hasPrefix("reply "),
              let saved = try? SavedUUIDs(wire: bytes(fromHex: String(line.dropFirst(6)))) else { return [] }
        return saved.uuids
    }

    /// The last anchor among anchored-query messages in `lines`.
    static func lastAnchor(_ lines: [String]) -> [UInt8]? {
        lines.compactMap { payload(of: $0).flatMap { try? AnchoredQueryBatch(wire: $0) } }.last { !$0.anchor.isEmpty }?.anchor
    }

    /// The last anchor among workout effort relationship answers in `lines`.
    static func lastEffortAnchor(_ lines: [String]) -> [UInt8]? {
        lines.compactMap { payload(of: $0).flatMap { try? WorkoutEffortRelations(wire: $0) } }.last { !$0.anchor.isEmpty }?.anchor
    }

    /// The last observer update among `lines`.
    static func lastObserverUpdate(_ lines: [String]) -> ObserverDelivery? {
        lines.compactMap { payload(of: $0).flatMap { try? ObserverDelivery(wire: $0) } }.last
    }

    /// The message bytes of a `reply HEX` or `item HEX` line.
    static func payload(of line: String) -> [UInt8]? {
        for prefix in ["reply ", "item "] where line.hasPrefix(prefix) {
            return bytes(fromHex: String(line.dropFirst(prefix.count)))
        }
        return nil
    }

    /// Lower-case hex, two digits a byte: written into the string directly (String(format:) per
    /// byte took seconds for a few megabytes, StalledStreamRevocationTests).
    static func hex(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = hexDigits[Int(byte >> 4)]
                buffer[2 * index + 1] = hexDigits[Int(byte & 0xF)]
            }
            return bytes.count * 2
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The bytes of `text`, up to its first character that is no hex digit ("-": none).
    static func bytes(fromHex text: String) -> [UInt8] {
        guard text != "-" else { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for character in text.utf8 {
            guard let value = hexValue(character) else { break }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
