public import Foundation

// `NSCopying`, as Apple's `HKSource`, `HKSourceRevision`, `HKDevice`, `HKQueryAnchor`,
// `HKStatistics`, `HKVisionPrism`, `HKGlassesLensSpecification`, `HKContactsLensSpecification`,
// `HKAudiogramSensitivityTest` and `HKAudiogramSensitivityPointClampingRange` declare it. Each
// is immutable (only `let`s of immutable values), so a copy is the object itself, as for
// Foundation's own immutable classes; HKActivitySummary and HKWorkoutActivity, which hold
// settable state, copy for real (in their own files). HealthModel's HKImmutableCopying.swift
// has the model types.

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

extension HKStatistics: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension HKVisionPrism: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

// Apple's abstract HKLensSpecification is not NSCopying; its two concrete subclasses are.
extension HKGlassesLensSpecification: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension HKContactsLensSpecification: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension HKAudiogramSensitivityTest: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension HKAudiogramSensitivityPointClampingRange: NSCopying {
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
