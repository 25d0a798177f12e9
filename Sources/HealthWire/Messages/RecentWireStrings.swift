import Foundation

/// The strings a batch of samples repeats — type identifier, unit, metadata keys — read once and
/// then shared by every sample that repeats them: the reading side of `SampleWireBuilder`'s
/// shared parts.
///
/// Why: a sample's type identifier (40-odd bytes) and predefined metadata keys such as
/// `HKMetadataKeySyncIdentifier` are longer than a Swift small string, so reading each one made a
/// heap string per sample — several per imported record, 4,000 records a batch (issue 17). A
/// string equal byte for byte to the one before is the same text, so reusing it changes nothing
/// but the allocation (and makes later comparisons of the two a pointer check). A value, one per
/// message being read.
struct RecentWireStrings {
    /// Metadata keys are remembered by their position in a sample's entries, where a batch's
    /// samples repeat them; positions past this read their keys as before.
    static let keyPositions = 8

    private var type = RecentWireString()
    private var unit = RecentWireString()
    private var keys: [RecentWireString] = []

    mutating func type(_ pointer: UnsafeMutablePointer<CChar>?) -> String { type.read(pointer) }

    mutating func unit(_ pointer: UnsafeMutablePointer<CChar>?) -> String { unit.read(pointer) }

    mutating func key(_ pointer: UnsafeMutablePointer<CChar>?, position: Int) -> String {
        guard position < Self.keyPositions else { return WireRead.string(pointer) }
        while keys.count <= position { keys.append(RecentWireString()) }
        return keys[position].read(pointer)
    }
}

/// One field's last string: `WireRead.string` of the same bytes, allocated only when they change.
struct RecentWireString {
    private var last: String?

    mutating func read(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        // `String(cString:)` repairs invalid UTF-8, so a string read from invalid bytes never
        // matches them here and is read again: only text identical to the bytes is reused.
        if let last, last.withCString({ strcmp($0, pointer) == 0 }) { return last }
        let string = WireRead.string(pointer)
        last = string
        return string
    }
}
