/// The one rule by which every answer is cut into batches, each one frame: a batch closes before
/// the item that would take it past `maxCount` items or `maxBytes` encoded bytes, and an item
/// larger than `maxBytes` goes alone (a batch always takes its first item). Listings cut with it
/// (`FrameBatcher`) and the store's answers (`SampleRepository`'s sample and correlation
/// queries, which cut where they read so that a stale answer resumes after the last row sent).
public struct BatchBound: Sendable {
    public let maxCount: Int
    public let maxBytes: Int
    /// Items and encoded bytes of the batch being filled.
    public private(set) var count = 0
    public private(set) var bytes = 0

    public init(maxCount: Int, maxBytes: Int) {
        self.maxCount = max(1, maxCount)
        self.maxBytes = max(1, maxBytes)
    }

    /// Whether an item of `size` bytes must open the next batch.
    public func closesBefore(adding size: Int) -> Bool {
        count > 0 && (count >= maxCount || size > maxBytes - bytes)
    }

    /// Counts an item of `size` bytes into the batch being filled.
    public mutating func add(_ size: Int) {
        count += 1
        bytes += size
    }

    /// Whether no further item can join the batch, whatever its size but zero: a reader that
    /// sends as soon as it can (the store's, whose resume position follows each batch sent).
    public var isFull: Bool { count >= maxCount || bytes >= maxBytes }

    /// A new batch begins.
    public mutating func reset() {
        count = 0
        bytes = 0
    }
}
