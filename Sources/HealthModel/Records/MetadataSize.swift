/// What metadata weighs on the wire, counted without the wire layer: at least the bytes its
/// protobuf encoding takes (`MetadataSizeTests` checks the bound against the encoder), so a rule
/// that must keep a listing inside a frame (`AttachmentLimits.maximumMetadataBytes`) can be
/// checked where values are validated.
public enum MetadataSize {
    /// Per entry, beyond its texts: the tags, the length prefixes (a 4 KiB string's is 2 bytes,
    /// nested messages add theirs) and a number's or date's 8 bytes, with room to spare.
    static let entryOverhead = 32

    public static func upperBound(of metadata: [String: MetadataValue]) -> Int {
        metadata.reduce(0) { total, entry in
            let value = switch entry.value {
            case let .string(text): text.utf8.count
            case let .quantity(_, unit): unit.utf8.count + 8
            case .number, .date, .bool: 8
            }
            return total + entry.key.utf8.count + value + entryOverhead
        }
    }
}
