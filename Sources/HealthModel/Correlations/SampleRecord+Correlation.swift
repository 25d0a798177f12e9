extension SampleRecord {
    /// The types whose share permission saving this record needs: its own type, or for a
    /// correlation — whose type cannot be authorized — the types of the samples it holds.
    public var shareTypeIdentifiers: [String] {
        var types: [String] = []
        forEachShareTypeIdentifier { types.append($0) }
        return types
    }

    /// `shareTypeIdentifiers` one by one, building nothing: healthd collects a whole save's
    /// types with it (an array per record was a thousand allocations per batched save).
    public func forEachShareTypeIdentifier(_ body: (String) -> Void) {
        guard HKObjectType.type(forIdentifier: typeIdentifier) is HKCorrelationType else { return body(typeIdentifier) }
        guard case let .correlation(objects) = value else { return }
        for object in objects { body(object.typeIdentifier) }
    }

    /// Whether the record holds a correlation's samples: then its share types are those of the
    /// samples, not a function of its type alone.
    public var holdsCorrelatedSamples: Bool {
        if case .correlation = value { return true }
        return false
    }

    /// The record and the samples of a correlation, depth first: the order in which the broker
    /// answers a save with UUIDs (`SavedUUIDs`).
    public var savedObjects: [SampleRecord] {
        guard case let .correlation(objects) = value else { return [self] }
        return [self] + objects
    }
}
