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
}
