public import Foundation

/// A sample type and a predicate, as HealthKit's `HKQueryDescriptor` (iOS 15): one part of a
/// query over several types, e.g. `HKObserverQuery(queryDescriptors:updateHandler:)`.
public final class HKQueryDescriptor: @unchecked Sendable, Hashable {
    public let sampleType: HKSampleType
    public let predicate: NSPredicate?

    public init(sampleType: HKSampleType, predicate: NSPredicate?) {
        self.sampleType = sampleType
        self.predicate = predicate
    }

    /// Equal when they describe the same type and the same predicate object (NSPredicate has no
    /// value equality on Linux).
    public static func == (lhs: HKQueryDescriptor, rhs: HKQueryDescriptor) -> Bool {
        lhs.sampleType == rhs.sampleType && lhs.predicate === rhs.predicate
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sampleType)
    }
}
