public import Foundation

/// HealthKit's State of Mind predicates (iOS 18). healthd evaluates them on the samples the app
/// may read; on another sample type one matches nothing.
extension HKQuery {
    public static func predicateForStatesOfMind(with kind: HKStateOfMind.Kind) -> NSPredicate {
        SampleTreePredicate(.stateOfMind(.kind(kind.rawValue)))
    }

    public static func predicateForStatesOfMind(withValence valence: Double,
                                                predicateOperatorType operatorType: NSComparisonPredicate.Operator) -> NSPredicate {
        do throws(HKError) {
            return SampleTreePredicate(.stateOfMind(.valence(try ComparisonOperator(translating: operatorType), valence)))
        } catch {
            return UnusablePredicate(error)
        }
    }

    public static func predicateForStatesOfMind(with label: HKStateOfMind.Label) -> NSPredicate {
        SampleTreePredicate(.stateOfMind(.label(label.rawValue)))
    }

    public static func predicateForStatesOfMind(with association: HKStateOfMind.Association) -> NSPredicate {
        SampleTreePredicate(.stateOfMind(.association(association.rawValue)))
    }
}
