public import Foundation

// `NSCopying`, as Apple's `HKSource`, `HKSourceRevision`, `HKDevice` and `HKQueryAnchor` declare
// it. Each is immutable (only `let`s), so a copy is the object itself, as for Foundation's own
// immutable classes; see HealthModel's HKImmutableCopying.swift for the types there.

extension HKSource: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension HKSourceRevision: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension HKDevice: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension HKQueryAnchor: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
