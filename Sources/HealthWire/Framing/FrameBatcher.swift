import HealthModel

/// Cuts a list an answer carries into frames by count and by encoded bytes: the one place a
/// listing whose items other parties store (metadata, descriptions, types) is sized to fit
/// `WireLimits.maxFrameBytes`, so no answer outgrows a frame because of what someone else saved.
///
/// A batch closes before the item that would take it past `maxCount` items or `maxBytes`
/// encoded bytes; an item larger than `maxBytes` travels alone (`BatchBound`, the rule the
/// store's answers are cut by too). Callers keep every single item
/// within a frame by the item's own bounds (stated where each is used), and pass each item's
/// encoded size (`WireMessage.wireBytes().count` of a one-item list is exactly what the item
/// adds to a list: its tag, length and body).
public struct FrameBatcher<Element> {
    public var maxCount: Int { bound.maxCount }
    public var maxBytes: Int { bound.maxBytes }
    private var bound: BatchBound
    private var batch: [Element] = []

    public init(maxCount: Int = .max, maxBytes: Int = WireLimits.resultBatchBytes) {
        bound = BatchBound(maxCount: maxCount, maxBytes: maxBytes)
    }

    /// Adds `element`, `size` bytes encoded; returns the batch it closed, if adding it would have
    /// taken that batch past a bound (`BatchBound`).
    public mutating func add(_ element: Element, size: Int) -> [Element]? {
        var closed: [Element]?
        if bound.closesBefore(adding: size) {
            closed = batch
            batch = []
            bound.reset()
        }
        batch.append(element)
        bound.add(size)
        return closed
    }

    /// The last, partial batch (nil when nothing is left).
    public mutating func finish() -> [Element]? {
        guard !batch.isEmpty else { return nil }
        defer { batch = []; bound.reset() }
        return batch
    }

    /// `items` cut into batches; an empty list gives no batch.
    public static func batches(_ items: some Sequence<Element>, maxCount: Int = .max, maxBytes: Int = WireLimits.resultBatchBytes,
                               size: (Element) -> Int) -> [[Element]] {
        var batcher = FrameBatcher(maxCount: maxCount, maxBytes: maxBytes)
        var batches: [[Element]] = []
        for item in items {
            if let closed = batcher.add(item, size: size(item)) { batches.append(closed) }
        }
        if let last = batcher.finish() { batches.append(last) }
        return batches
    }
}
