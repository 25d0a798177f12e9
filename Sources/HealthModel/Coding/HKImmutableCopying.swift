public import Foundation

// `NSCopying`, as Apple's `HKUnit`, `HKQuantity` and `HKObjectType` declare it, so app code with
// `@NSCopying var unit: HKUnit` properties or `unit.copy() as! HKUnit` ports unchanged. All three
// are immutable (their stored properties are `let`s; that is also why they may be `Sendable`), so
// a copy is the object itself — what Foundation does for its own immutable classes (`NSString`,
// `NSNumber`).

extension HKUnit: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension HKQuantity: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension HKObjectType: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
