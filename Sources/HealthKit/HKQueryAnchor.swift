public import Foundation

/// Where an anchored query got to, as HealthKit's `HKQueryAnchor`: hand it to the next
/// `HKAnchoredObjectQuery` to receive only what changed since.
///
/// The bytes are opaque and sealed by healthd for this app and this sample type (see the
/// project's SECURITY.md): they cannot be read, altered or used by another app, and healthd
/// refuses an anchor given for another type with `errorInvalidArgument`. They stay valid across
/// reconnects and healthd restarts, so persist them: `data` and `init(data:)`, or `Codable`
/// (HealthKit apps archive anchors with NSKeyedArchiver, which Linux's Foundation lacks here).
public final class HKQueryAnchor: Hashable, Codable, Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// An anchor saved earlier from `data`.
    public convenience init(data: Data) {
        self.init(bytes: Array(data))
    }

    /// The anchor's bytes, to persist.
    public var data: Data { Data(bytes) }

    public convenience init(from decoder: any Decoder) throws {
        self.init(data: try decoder.singleValueContainer().decode(Data.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(data)
    }

    public static func == (lhs: HKQueryAnchor, rhs: HKQueryAnchor) -> Bool { lhs.bytes == rhs.bytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// Says nothing of the contents (there is nothing an app could read in them).
    public var description: String { "HKQueryAnchor(\(bytes.count) bytes)" }
}
