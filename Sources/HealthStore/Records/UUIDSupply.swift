import Foundation
public import HealthModel

/// Where a write takes the UUIDs of the objects it creates: fresh UUIDv7s, or, for a save merged
/// from the pending journal, the ones the app was answered with while the store was locked.
/// Not shared between writes (one per `SampleRepository.write`).
final class UUIDSupply {
    private var preassigned: ArraySlice<UUID>?
    /// Fresh ids, many per system call (`UUIDv7Minter`).
    private var minter = UUIDv7Minter()

    init(preassigned: [UUID]? = nil) {
        self.preassigned = preassigned.map { $0[...] }
    }

    func next() -> UUID {
        guard var remaining = preassigned, let uuid = remaining.popFirst() else { return minter.next() }
        preassigned = remaining
        return uuid
    }

    /// Passes over the UUIDs a record would have taken (an upsert that kept the stored object).
    func skip(_ count: Int) {
        guard var remaining = preassigned else { return }
        remaining = remaining.dropFirst(count)
        preassigned = remaining
    }
}

extension SampleRecord {
    /// How many objects saving this record creates: itself, and a correlation's samples.
    public var mintedUUIDCount: Int {
        if case let .correlation(objects) = value { return 1 + objects.count }
        return 1
    }
}
