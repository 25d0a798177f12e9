public import Foundation
public import HealthModel

/// Where a write takes the UUIDs of the objects it creates: fresh UUIDv7s of each object's start
/// date, or, for a save merged from the pending journal, the ones the app was answered with
/// while the store was locked (minted the same way: `UUIDv7.make(startingAt:)`).
/// Not shared between writes (one per `SampleRepository.write`).
final class UUIDSupply {
    private var preassigned: ArraySlice<UUID>?
    /// Fresh ids, many per system call (`UUIDv7Minter`).
    private var minter = UUIDv7Minter()

    init(preassigned: [UUID]? = nil) {
        self.preassigned = preassigned.map { $0[...] }
    }

    /// The id of the next object, which starts at `startDate` (a fresh id's time field is that
    /// date: `UUIDv7`).
    func next(startingAt startDate: Date) -> UUID {
        guard var remaining = preassigned, let uuid = remaining.popFirst() else { return minter.next(startingAt: startDate) }
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

    /// Fresh UUIDs for the objects saving this record creates, in the order a write takes them
    /// (`savedObjects`: the record, then a correlation's samples), each of its own start date:
    /// what the pending journal answers a locked save with.
    public var mintedUUIDs: [UUID] {
        savedObjects.map { UUIDv7.make(startingAt: $0.startDate) }
    }
}
