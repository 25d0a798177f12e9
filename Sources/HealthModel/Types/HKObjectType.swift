/// The kind of a health object, as HealthKit's `HKObjectType`. Instances are immutable and
/// compare and hash by `identifier` alone; the registry hands out one shared instance per
/// identifier (see `HKObjectType+Registry.swift`).
///
/// `@unchecked Sendable` because the class is open to this module's subclasses, which the
/// compiler cannot check; every stored property of every subclass is an immutable `let` of a
/// `Sendable` type.
public class HKObjectType: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// HealthKit's identifier string, e.g. "HKQuantityTypeIdentifierStepCount".
    public let identifier: String

    init(identifier: String) {
        self.identifier = identifier
    }

    public static func == (lhs: HKObjectType, rhs: HKObjectType) -> Bool {
        lhs.identifier == rhs.identifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }

    public var description: String { identifier }
}
