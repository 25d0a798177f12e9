public import Foundation

/// The State of Mind sample type, as HealthKit's `HKStateOfMindType`
/// (`HKObjectType.stateOfMindType()`, identifier `HKDataTypeStateOfMind`). Apps may read and
/// write it; a sample has one date (start equals end, `StateOfMindValidator`).
public final class HKStateOfMindType: HKSampleType, @unchecked Sendable {
    init() {
        super.init(identifier: HKDataTypeIdentifierStateOfMind)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}
