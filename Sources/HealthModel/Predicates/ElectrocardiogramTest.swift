/// `HKQuery.predicateForElectrocardiograms(classification:)` and `(symptomsStatus:)`: the raw
/// value of the electrocardiogram's classification or symptoms status. No other sample matches.
public enum ElectrocardiogramTest: Hashable, Sendable {
    case classification(Int)
    case symptomsStatus(Int)

    /// The reference semantics the store's SQL must agree with.
    public func matches(_ value: ElectrocardiogramValue) -> Bool {
        switch self {
        case let .classification(raw): value.classification == raw
        case let .symptomsStatus(raw): value.symptomsStatus == raw
        }
    }
}
