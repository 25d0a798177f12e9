public import Foundation

extension HKSamplePredicate where Sample == HKClinicalRecord {
    /// HealthKit's `HKSamplePredicate.clinicalRecord(type:predicate:)` (iOS 15.4).
    public static func clinicalRecord(type: HKClinicalType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKClinicalRecord> {
        HKSamplePredicate(sampleType: type, nsPredicate: predicate)
    }
}
