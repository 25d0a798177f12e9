public import Foundation

/// The category-list and electrocardiogram predicates. healthd evaluates them on the samples the
/// app may read; on another sample type an electrocardiogram predicate matches nothing, and a
/// category predicate fails a query of a type that is not a category type (as
/// `predicateForCategorySamples(with:value:)`).
extension HKQuery {
    /// Category samples whose value is one of `values` (an empty set matches nothing).
    public static func predicateForCategorySamples(equalTo values: Set<Int>) -> NSPredicate {
        SampleTreePredicate(.categoryValues(values))
    }

    public static func predicateForElectrocardiograms(classification: HKElectrocardiogram.Classification) -> NSPredicate {
        SampleTreePredicate(.electrocardiogram(.classification(classification.rawValue)))
    }

    public static func predicateForElectrocardiograms(symptomsStatus: HKElectrocardiogram.SymptomsStatus) -> NSPredicate {
        SampleTreePredicate(.electrocardiogram(.symptomsStatus(symptomsStatus.rawValue)))
    }

    /// HealthKit's `predicateForObjectsAssociated(electrocardiogram:)` (iOS 14): "a predicate that
    /// matches symptom samples associated with the specified electrocardiogram"
    /// (developer.apple.com/documentation/healthkit/hkquery/predicateforobjectsassociated(electrocardiogram:)).
    /// On Apple's platforms only the ECG app associates symptoms with a recording; HealthKit
    /// gives apps no way to, and no electrocardiogram saved or imported here carries any, so the
    /// predicate matches no sample (an empty UUID set: nothing to evaluate, nothing to leak).
    public static func predicateForObjectsAssociated(electrocardiogram: HKElectrocardiogram) -> NSPredicate {
        SampleTreePredicate(.uuids([]))
    }
}
