public import Foundation

/// `HKAnchoredObjectQueryNoAnchor`: the integer anchor that means "from the beginning", as in
/// HealthKit (`HKQueryAnchor(fromValue: HKAnchoredObjectQueryNoAnchor)` equals passing nil).
public let HKAnchoredObjectQueryNoAnchor: Int = 0

/// Where an anchored query got to, as HealthKit's `HKQueryAnchor`: hand it to the next
/// `HKAnchoredObjectQuery` to receive only what changed since.
///
/// The bytes are opaque and sealed by healthd for this app and this sample type (see the
/// project's SECURITY.md): they cannot be read, altered or used by another app, and healthd
/// refuses an anchor given for another type with `errorInvalidArgument`. They stay valid across
/// reconnects and healthd restarts, so persist them the way HealthKit apps do —
/// `NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)` and
/// `NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)` (an `NSObject`
/// with `NSSecureCoding`, as Apple's) — or with `Codable`, or `data` and `init(data:)`.
public final class HKQueryAnchor: NSObject, NSSecureCoding, Codable, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable array of bytes.
    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
        super.init()
    }

    /// HealthKit's integer anchors (deprecated by Apple since iOS 9). `HKAnchoredObjectQueryNoAnchor`
    /// starts from the beginning, as nil does. Any other number names no position healthd issued —
    /// anchors here are sealed bytes, never counters — so a query given one fails with
    /// `errorInvalidArgument` ("the anchor is not valid for this query"); persist `HKQueryAnchor`
    /// objects instead.
    public convenience init(fromValue value: Int) {
        guard value != HKAnchoredObjectQueryNoAnchor else {
            self.init(bytes: [])
            return
        }
        self.init(bytes: withUnsafeBytes(of: Int64(value).bigEndian) { Array($0) })
    }

    /// An anchor saved earlier from `data`.
    public convenience init(data: Data) {
        self.init(bytes: Array(data))
    }

    /// The anchor's bytes, to persist.
    public var data: Data { Data(bytes) }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let bytesKey = "HKQueryAnchorBytes"

    public func encode(with coder: NSCoder) {
        coder.encode(Data(bytes) as NSData, forKey: Self.bytesKey)
    }

    /// Fails (nil, as `NSSecureCoding` initializers do) when the archive holds no anchor bytes.
    public required convenience init?(coder: NSCoder) {
        guard let data = coder.decodeObject(of: NSData.self, forKey: Self.bytesKey) else { return nil }
        self.init(data: data as Data)
    }

    // MARK: Codable

    public convenience init(from decoder: any Decoder) throws {
        self.init(data: try decoder.singleValueContainer().decode(Data.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(data)
    }

    // MARK: Equality (NSObject's, so == and Set use it too)

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKQueryAnchor)?.bytes == bytes
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(bytes)
        return hasher.finalize()
    }

    /// Says nothing of the contents (there is nothing an app could read in them).
    public override var description: String { "HKQueryAnchor(\(bytes.count) bytes)" }
}
