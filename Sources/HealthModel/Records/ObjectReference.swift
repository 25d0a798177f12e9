public import Foundation

/// An object named by its type and UUID, as `HKHealthStore.delete(_:)` names what to delete.
/// The type is the caller's claim: the broker matches both, so a wrong type finds nothing.
public struct ObjectReference: Hashable, Sendable {
    public var typeIdentifier: String
    public var uuid: UUID

    public init(typeIdentifier: String, uuid: UUID) {
        self.typeIdentifier = typeIdentifier
        self.uuid = uuid
    }
}
