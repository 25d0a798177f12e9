public import HealthModel

/// One type's share of a change feed read over several types (HKAnchoredObjectQuery with
/// `queryDescriptors:`): the type, the predicate its additions must match, and the reader's
/// visibility for that type alone. Each part is confined by its own visibility, so a type the
/// reader may not see contributes nothing, however much of it the store holds.
public struct FeedPart: Sendable, Equatable {
    public var typeIdentifier: String
    /// Applies to additions only, as in the one-type feed.
    public var predicate: SamplePredicate?
    public var visibility: Visibility

    public init(typeIdentifier: String, predicate: SamplePredicate?, visibility: Visibility) {
        self.typeIdentifier = typeIdentifier
        self.predicate = predicate
        self.visibility = visibility
    }
}
