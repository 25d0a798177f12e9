public import Foundation

/// One sample type plus an optional filter, for the descriptor API (`HKSampleQueryDescriptor`),
/// as HealthKit's generic `HKSamplePredicate`. `Sample` is the class the results come back as.
public struct HKSamplePredicate<Sample: HKSample>: @unchecked Sendable {
    // @unchecked: NSPredicate is not marked Sendable; this one is never mutated after creation.
    public let sampleType: HKSampleType
    public let nsPredicate: NSPredicate?

    init(sampleType: HKSampleType, nsPredicate: NSPredicate?) {
        self.sampleType = sampleType
        self.nsPredicate = nsPredicate
    }
}

extension HKSamplePredicate where Sample == HKQuantitySample {
    public static func quantitySample(type: HKQuantityType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKQuantitySample> {
        HKSamplePredicate(sampleType: type, nsPredicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKCategorySample {
    public static func categorySample(type: HKCategoryType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKCategorySample> {
        HKSamplePredicate(sampleType: type, nsPredicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKSample {
    public static func sample(type: HKSampleType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKSample> {
        HKSamplePredicate(sampleType: type, nsPredicate: predicate)
    }
}
