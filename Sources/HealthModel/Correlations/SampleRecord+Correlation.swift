extension SampleRecord {
    /// The types whose share permission saving this record needs: its own type, or for a
    /// correlation — whose type cannot be authorized — the types of the samples it holds.
    public var shareTypeIdentifiers: [String] {
        guard HKObjectType.type(forIdentifier: typeIdentifier) is HKCorrelationType else { return [typeIdentifier] }
        guard case let .correlation(objects) = value else { return [] }
        return objects.map(\.typeIdentifier)
    }

    /// The record and the samples of a correlation, depth first: the order in which the broker
    /// answers a save with UUIDs (`SavedUUIDs`).
    public var savedObjects: [SampleRecord] {
        guard case let .correlation(objects) = value else { return [self] }
        return [self] + objects
    }
}
