import AppleHealthExport

/// A sync identifier as a member of an open batch's set (`ImportPipeline.Batch`), which keeps a
/// record whose identifier the batch holds already out of it (healthd refuses a batch with one
/// identifier twice). The import's own identifiers (`ExportConversion.syncPrefix` and 32
/// lowercase hex digits) are kept as their 128 bits, which hash in one step; hashing the 52-byte
/// text twice per record was ≈ 6 % of healthctl's CPU (issue 16, session 13). Any other text is
/// kept as itself. The mapping is one-to-one, so two identifiers are one key only when they are
/// equal: a digit outside `0-9a-f` (upper case too) makes the identifier a `.text` key.
enum BatchSyncKey: Hashable {
    case digest(UInt64, UInt64)
    case text(String)

    init(_ identifier: String) {
        self = Self.digest(of: identifier).map { .digest($0.high, $0.low) } ?? .text(identifier)
    }

    private static let prefix = Array(ExportConversion.syncPrefix.utf8)

    private static func digest(of identifier: String) -> (high: UInt64, low: UInt64)? {
        var identifier = identifier
        return identifier.withUTF8 { bytes -> (high: UInt64, low: UInt64)? in
            guard bytes.count == prefix.count + 32, bytes.starts(with: prefix) else { return nil }
            var high: UInt64 = 0
            var low: UInt64 = 0
            for position in 0 ..< 32 {
                let byte = bytes[prefix.count + position]
                let nibble: UInt8
                switch byte {
                case UInt8(ascii: "0") ... UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a") ... UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
                default: return nil
                }
                if position < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
            }
            return (high, low)
        }
    }
}
